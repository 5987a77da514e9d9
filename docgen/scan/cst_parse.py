"""libcst's parse, without the checks it makes of every node it builds.

libcst checks each node as it is constructed (`CSTNode._validate`): a guard for trees
built by hand.  A tree its own parser made from source passes those checks by
construction, yet they are about a sixth of the parse (torch/distributed, one
process: 6.5 s with them, 5.4 s without; libcst's own source notes they could leave
the parse for that reason).  They are switched off only while the parser builds one
tree, and back on however the parse ends, so every node built elsewhere is checked.
"""

from __future__ import annotations

import threading

import libcst as cst

#: parses in threads (a cluster worker may run several) take turns at the switch
_SWITCH = threading.Lock()


def _unchecked(node: cst.CSTNode) -> None:
    """Stands in for `CSTNode.__post_init__` while the parser builds a tree."""


def parse_module(text: str) -> cst.Module:
    """`libcst.parse_module` of decoded source; raises what it raises."""
    with _SWITCH:  # read inside: another thread's switch may be on until it ends
        checked = cst.CSTNode.__dict__.get("__post_init__")
        if checked is None:  # a libcst that checks elsewhere: nothing to switch
            return cst.parse_module(text)
        setattr(cst.CSTNode, "__post_init__", _unchecked)  # noqa: B010 (mypy: method assign)
        try:
            return cst.parse_module(text)
        finally:
            setattr(cst.CSTNode, "__post_init__", checked)  # noqa: B010
