"""One operator entry of a stored YAML file's facts, read without decoding the rest.

`docgen find NAME --trace` passes through `native_functions.yaml`, whose facts hold
some 2,600 entries; decoding them all cost more than the rest of the trace.  The
facts' JSON is parsed (in C), and only the entries asked for, by line, become
`OperatorEntry` values."""

from __future__ import annotations

import json
from typing import Any

from docgen.model.facts import FileFacts, ScannedFile
from docgen.model.serialize import field_names, from_data
from docgen.model.yaml_facts import OperatorEntry, YamlFacts


def _position(kind: Any, name: str) -> int:
    """Where a field is in the list `docgen.model.serialize.dumps` makes of a dataclass."""
    return field_names(kind).index(name)


class StoredOperators:
    """The operator entries of one YAML file's stored facts, by line."""

    def __init__(self, path: str, text: str | None) -> None:
        self._raw: dict[int, object] = {}
        if text is None:
            return
        try:
            facts = json.loads(text)[_position(ScannedFile, "facts")]
            if facts[_position(FileFacts, "path")] != path:
                return
            yaml = facts[_position(FileFacts, "yaml")]
            entries = yaml[_position(YamlFacts, "operators")] if yaml is not None else []
            at = _position(OperatorEntry, "line")
            self._raw = {entry[at]: entry for entry in entries}
        except (ValueError, TypeError, KeyError, IndexError):
            self._raw = {}  # facts that cannot be read: the trace finds no entry there

    def at(self, line: int) -> OperatorEntry | None:
        """The entry that starts at `line`, None when none does (or it cannot be read)."""
        raw = self._raw.get(line)
        if raw is None:
            return None
        try:
            entry = from_data(OperatorEntry, raw)
        except (ValueError, TypeError, KeyError, IndexError):
            return None
        return entry if isinstance(entry, OperatorEntry) else None
