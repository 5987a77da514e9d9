"""Which files each C-family file sees through its includes, directly or not: what a
use can be of is declared in one of them."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence


class Visibility:
    """Which files each C-family file sees through its includes, transitively: every
    file's set as bits of one integer, made once for the whole include graph."""

    def __init__(self, paths: Iterable[str], includes_of: Callable[[str], Sequence[str]]) -> None:
        order: list[str] = []
        children: dict[str, tuple[str, ...]] = {}
        for start in sorted(paths):
            if start in children:
                continue
            stack = [(start, False)]
            while stack:  # post-order: a file after the files it includes
                path, done = stack.pop()
                if done:
                    order.append(path)
                    continue
                if path in children:
                    continue
                children[path] = tuple(includes_of(path))
                stack.append((path, True))
                stack.extend((c, False) for c in reversed(children[path]) if c not in children)
        self._bit = {path: 1 << i for i, path in enumerate(order)}
        masks = dict(self._bit)
        changed = True
        while changed:  # once for a graph without cycles, again for each cycle's length
            changed = False
            for path in order:
                mask = masks[path]
                for child in children[path]:
                    mask |= masks[child]
                if mask != masks[path]:
                    masks[path], changed = mask, True
        self._masks = masks

    def sees(self, path: str, other: str) -> bool:
        """Whether `path` is `other` or includes it, directly or not."""
        return bool(self._masks.get(path, 0) & self.bit(other))

    def bit(self, path: str) -> int:
        return self._bit.get(path, 0)

    def seen_by(self, path: str) -> int:
        """The files `path` sees, as bits (see `bit`)."""
        return self._masks.get(path, 0)
