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
from docgen.digests import code_digest
from docgen.scan.languages import C_FAMILY
from docgen.scan.settings import ScanSettings

#: The packages whose code only turns facts into pages and a site: a change there makes
#: pages again but scans nothing.  Every other module of the installed package is in
#: the facts key, so a module added, moved or renamed can never be left out of it (a
#: list of the modules that make facts missed two whose output is cached with them).
RENDERING_PACKAGES = ("render", "site")


@cache
def facts_key() -> str:
    """docgen's version, libcst's, and a digest of the code that may make facts: every
    module of the installed package but the renderer's (computed once a process)."""
    parts = (__version__, libcst_version(), code_digest(RENDERING_PACKAGES))
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


#: Words of the problem a worker records for a file that timed out.
TIMEOUT_WORDS = "took longer than"


def facts_digest(facts_json: str) -> str:
    return hashlib.sha256(facts_json.encode("utf-8", "surrogatepass")).hexdigest()


def keys_for(base: str, settings: ScanSettings) -> dict[str, str]:
    """The facts key of each language: C-family facts also depend on the scan settings."""
    cfamily = hashlib.sha256(f"{base}\0{settings.key()}".encode()).hexdigest()
    return dict.fromkeys(sorted(C_FAMILY), cfamily)
