"""What the facts in the state database are keyed by: docgen's code that makes them,
and for C-family files the scan settings; light enough for a build that finds
nothing to do."""

from __future__ import annotations

import hashlib
from importlib import metadata
from pathlib import Path

from docgen import __version__
from docgen.scan.languages import C_FAMILY
from docgen.scan.settings import ScanSettings

#: The modules whose code decides what facts a file has.
FACTS_CODE = (
    "facts.py",
    "kinds.py",
    "analyze.py",
    "serialize.py",
    "workers.py",
    "readfile.py",
    "scan",
)


def facts_key() -> str:
    """docgen's version, libcst's, and a digest of the code that makes facts."""
    package = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256(f"{__version__}\0{metadata.version('libcst')}".encode())
    for name in FACTS_CODE:
        entry = package / name
        files = sorted(entry.rglob("*.py")) if entry.is_dir() else [entry]
        for file in files:
            digest.update(file.relative_to(package).as_posix().encode() + b"\0")
            digest.update(file.read_bytes())
    return digest.hexdigest()


#: Words of the problem a worker records for a file that timed out.
TIMEOUT_WORDS = "took longer than"


def facts_digest(facts_json: str) -> str:
    return hashlib.sha256(facts_json.encode("utf-8", "surrogatepass")).hexdigest()


def keys_for(base: str, settings: ScanSettings) -> dict[str, str]:
    """The facts key of each language: C-family facts also depend on the scan settings."""
    cfamily = hashlib.sha256(f"{base}\0{settings.key()}".encode()).hexdigest()
    return dict.fromkeys(sorted(C_FAMILY), cfamily)
