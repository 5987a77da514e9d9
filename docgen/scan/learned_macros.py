"""What the C-family scanner learns of a whole tree before it reads one file: the
macros its headers `#define`, kept in the state database by each header's stamp, and
the scan settings they make, kept until a header (or docgen's code) changes."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from docgen.discover.readfile import READ_LIMIT, read_source
from docgen.model.sources import SourceFile
from docgen.scan.cfamily.preprocess.macro_def import MacroDef
from docgen.scan.cfamily.preprocess.macros import macro_defs
from docgen.scan.cfamily.settings import ScanSettings
from docgen.scan.keys import facts_key
from docgen.state import State

#: The state's per-file rows of each header's `#define`s, and its meta values of the
#: settings they made with the digest of what they were made from.
MACRO_ROWS = "macro_defs"
SETTINGS, SETTINGS_FROM = "scan_settings", "scan_settings_from"


def learned_settings(
    state: State, sources: Sequence[SourceFile], headers_as: str, configured: Sequence[str]
) -> ScanSettings:
    """The C-family scan settings these headers' `#define`s make (`ScanSettings.learned`):
    as the last build left them when no header's stamp changed (nor docgen's code),
    else learned again from each changed header's `#define`s."""
    digest = hashlib.sha256(json.dumps([facts_key(), headers_as, sorted(configured)]).encode())
    stamped = all(source.stamp for source in sources)
    # One string for the tree's thousands of headers: a path holds no NUL.
    parts = [f"{source.path}\0{source.stamp}\0" for source in sources]
    digest.update("".join(parts).encode("utf-8", "surrogatepass"))
    learned_from = digest.hexdigest()
    if stamped and state.meta(SETTINGS_FROM) == learned_from:
        kept = ScanSettings.from_json(state.meta(SETTINGS) or "")
        if kept is not None:
            return kept
    settings = ScanSettings.learned(learned_macro_defs(state, sources), headers_as, configured)
    if not state.readonly:
        state.set_meta(SETTINGS, settings.to_json())
        state.set_meta(SETTINGS_FROM, learned_from if stamped else "")
    return settings


def learned_macro_defs(state: State, sources: Sequence[SourceFile]) -> list[MacroDef]:
    """The attribute-macro `#define`s of these C-family files: from the state database for
    files whose stamp (and docgen's code that reads them) is unchanged, read afresh (and
    kept) for the others."""
    known = state.kept_per_file(MACRO_ROWS)
    found: list[MacroDef] = []
    fresh = []
    code = facts_key()  # rows made by other code of docgen's are read afresh
    for source in sources:
        stamp = json.dumps([*source.stamp, code])
        row = known.get(source.path)
        if row is not None and source.stamp and row[0] == stamp:
            try:
                found.extend(_macro_def(*fields) for fields in json.loads(row[1]))
                continue
            except (ValueError, TypeError):
                pass
        if source.size > READ_LIMIT:
            continue  # never read whole, like its scan
        try:
            defs = macro_defs(read_source(source))
        except OSError:
            continue
        found.extend(defs)
        rows = [
            [
                *(d.name, list(d.refs), d.namespace, d.wraps, d.opens, d.stringizes),
                *(d.makes_type, d.pointer, d.writes, d.head),
            ]
            for d in defs
        ]
        fresh.append((source.path, stamp, json.dumps(rows)))
    if not state.readonly:
        state.keep_per_file(MACRO_ROWS, fresh, known.keys() - {s.path for s in sources})
    return found


def _macro_def(*fields: Any) -> MacroDef:
    """A `#define` as its row keeps it, checked field by field (a damaged row raises)."""
    n, r, ns, w, o, q, t, p, x, h = fields
    return MacroDef(
        str(n),
        tuple(map(str, r)),
        str(ns),
        int(w),
        str(o),
        int(q),
        bool(t),
        bool(p),
        str(x),
        str(h),
    )
