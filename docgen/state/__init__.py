"""docgen's state database, `OUT/.docgen/state.sqlite`: the one place that keeps what
builds reuse and commands read.

Each file's facts (and the attribute macros its headers define), the manifest of
the pages docgen wrote with each page's inputs digest, the keyword index behind
`docgen find`, the C-family relations the next build may reuse, and a few values
about the last build.  Nothing outside this package reads or writes the file.
"""

from docgen.state.connection import NoRoom, open_state, read_state
from docgen.state.db import (
    STATE_DIR,
    STATE_FILE,
    TEMP_DIR,
    PageRecord,
    SiteRecord,
    State,
    StateDamaged,
)
from docgen.state.recover import (
    discard_state,
    docgen_pages,
    missing_state,
    state_trouble,
    sweep_temporary,
)

__all__ = [
    "STATE_DIR",
    "STATE_FILE",
    "TEMP_DIR",
    "NoRoom",
    "PageRecord",
    "SiteRecord",
    "State",
    "StateDamaged",
    "discard_state",
    "docgen_pages",
    "missing_state",
    "open_state",
    "read_state",
    "state_trouble",
    "sweep_temporary",
]
