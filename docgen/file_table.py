"""Every file's facts by path, some kept as the JSON the state database holds until a
page asks for them.

An edit that leaves every C-family file as it was reuses their relations from the
last build (`docgen.cfamily_relations`); their facts are then decoded only for the
pages that are rendered, not for the whole tree.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from docgen.facts import ScannedFile
from docgen.state import StateDamaged
from docgen.state.facts import cached_facts


class FileTable(Mapping[str, ScannedFile]):
    """Facts by repository path, iterated in sorted order; `encoded` ones (path -> their
    JSON, with their `kinds` known without decoding) are decoded once, when read."""

    def __init__(
        self,
        decoded: Mapping[str, ScannedFile],
        encoded: Mapping[str, str] | None = None,
        kinds: Mapping[str, str] | None = None,
    ) -> None:
        self._decoded = dict(decoded)
        self._encoded: Mapping[str, str] = encoded if encoded is not None else {}
        self._kinds = kinds or {}
        self._paths = sorted(self._decoded.keys() | self._encoded.keys())

    def __getitem__(self, path: str) -> ScannedFile:
        found = self._decoded.get(path)
        if found is None:
            if path not in self._encoded:
                raise KeyError(path)
            found = self._decoded[path] = _decoded(path, self._encoded.get(path))
        return found

    def get(self, path: str, default: ScannedFile | None = None) -> ScannedFile | None:  # type: ignore[override]
        if path in self._decoded or path in self._encoded:
            return self[path]
        return default

    def __contains__(self, path: object) -> bool:
        return path in self._decoded or path in self._encoded

    def __iter__(self) -> Iterator[str]:
        return iter(self._paths)

    def __len__(self) -> int:
        return len(self._paths)

    def kind(self, path: str) -> str:
        """The file's kind ("python", "cfamily", "binary", ...), without decoding it."""
        known = self._kinds.get(path) if path in self._encoded else None
        return known if known is not None else self[path].facts.kind

    def is_encoded(self, path: str) -> bool:
        """Whether the file's facts were kept encoded (its relations were reused)."""
        return path in self._encoded


def _decoded(path: str, text: str | None) -> ScannedFile:
    """A row's facts; a row gone, or no longer the one the build read, is damage."""
    scanned = cached_facts(path, text) if text is not None else None
    if scanned is None:
        raise StateDamaged(f"the cached facts of {path} cannot be read")
    return scanned
