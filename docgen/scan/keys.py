"""What the facts in the state database are keyed by: docgen's code that makes them,
and for C-family files the scan settings; light enough for a build that finds
nothing to do."""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import re
from functools import cache
from pathlib import Path

from docgen import __version__
from docgen.model.digests import code_digest
from docgen.model.languages import C_FAMILY
from docgen.scan.cfamily.settings import ScanSettings

#: The packages whose code makes the facts the state database caches: the model they are
#: made of, the discovery and reading of files, the scanners and the analyzers.  Every
#: module of these packages is in the facts key, so a module added, moved or renamed
#: there can never be left out of it (a list of modules missed two whose output is
#: cached); `tests/test_architecture.py` checks that the scanners and analyzers import
#: nothing of docgen outside them.
FACTS_PACKAGES = ("model", "discover", "scan", "analyze")


@cache
def facts_key() -> str:
    """docgen's version, libcst's, and a digest of the code that makes facts: every
    module of `FACTS_PACKAGES` (computed once a process)."""
    parts = (__version__, libcst_version(), code_digest(FACTS_PACKAGES))
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


#: `__version__ = version = '1.9.0'` in the version file libcst's releases ship
_VERSION_LINE = re.compile(r"""^__version__\s*=\s*(?:version\s*=\s*)?['"]([^'"]+)['"]""", re.M)


def libcst_version() -> str:
    """The installed libcst's version, read from its version file without importing libcst
    or the package metadata machinery (both cost more than a build that finds nothing to
    do); from the distribution's metadata where that file does not say."""
    spec = importlib.util.find_spec("libcst")
    if spec is not None and spec.origin is not None:
        version_file = Path(spec.origin).with_name("_version.py")
        with contextlib.suppress(OSError, UnicodeDecodeError):
            found = _VERSION_LINE.search(version_file.read_text(encoding="utf-8"))
            if found is not None:
                return found.group(1)
    from importlib import metadata

    return metadata.version("libcst")


def keys_for(base: str, settings: ScanSettings) -> dict[str, str]:
    """The facts key of each language: C-family facts also depend on the scan settings."""
    cfamily = hashlib.sha256(f"{base}\0{settings.key()}".encode()).hexdigest()
    return dict.fromkeys(sorted(C_FAMILY), cfamily)
