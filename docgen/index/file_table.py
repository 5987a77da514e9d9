"""Every file's facts by path, some kept as the JSON the state database holds until a
page asks for them.

An edit decodes the facts of the files whose pages it renders, not of the whole
tree: every other unchanged file is read through its summary (`docgen.analyze.summary`),
and the C-family files, when none changed, through the relations the last build kept
(`docgen.index.cfamily_relations`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from docgen.analyze.summary import FileSummary
from docgen.model.facts import ScannedFile
from docgen.state import StateDamaged
from docgen.state.facts import cached_facts


class FileTable(Mapping[str, ScannedFile]):
    """Facts by repository path, iterated in sorted order; `encoded` ones (path -> their
    JSON, with their `kinds` known without decoding) are decoded once, when read.
    `summaries` stand for encoded files that are not C-family wherever a summary is
    enough; a file given decoded (or `replace`d) is read from its facts alone."""

    def __init__(
        self,
        decoded: Mapping[str, ScannedFile],
        encoded: Mapping[str, str] | None = None,
        kinds: Mapping[str, str] | None = None,
        summaries: Mapping[str, FileSummary] | None = None,
    ) -> None:
        self._decoded = dict(decoded)
        self._encoded: Mapping[str, str] = encoded if encoded is not None else {}
        self._kinds = kinds or {}
        self._summaries = summaries or {}
        self._given = set(self._decoded)
        self._paths = sorted(self._decoded.keys() | self._encoded.keys())
        self._every_kind: dict[str, str] | None = None

    def replace(self, changed: Mapping[str, ScannedFile]) -> None:
        """Put these facts in place of those read (the index adds evidence found in other
        files): only while the index is being built, before anything reads a summary."""
        self._decoded.update(changed)
        self._given.update(changed)

    def summary(self, path: str) -> FileSummary | None:
        """What every build reads of the file, when it was kept encoded with a summary."""
        return None if path in self._given else self._summaries.get(path)

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

    def kinds(self) -> Mapping[str, str]:
        """Every file's kind by path, in order, made once (see `kind`)."""
        if self._every_kind is None:
            self._every_kind = {path: self.kind(path) for path in self._paths}
        return self._every_kind

    def is_encoded(self, path: str) -> bool:
        """Whether the file's facts were kept encoded (its relations were reused)."""
        return path in self._encoded


def _decoded(path: str, text: str | None) -> ScannedFile:
    """A row's facts; a row gone, or no longer the one the build read, is damage."""
    scanned = cached_facts(path, text) if text is not None else None
    if scanned is None:
        raise StateDamaged(f"the cached facts of {path} cannot be read")
    return scanned
