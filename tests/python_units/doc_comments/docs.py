# Excerpts of torch/_vendor/quack/cache/__init__.py and
# torch/_inductor/autoheuristic/learned_heuristic_controller.py (torch 2.13).
import contextvars
from collections import defaultdict
from pathlib import Path
from typing import List

CACHE_DIR: Optional[str] = os.getenv("QUACK_CACHE_DIR", None)

# Stack depth for compile-only mode. ``compile_only_mode()`` pushes
# (depth += 1) on enter and pops (reset to prior token) on exit, so:
#   * Nested ``with compile_only_mode():`` blocks stay True throughout.
#   * An exception inside the block still pops correctly (context-manager
#     finally + ContextVar token semantics).
#   * No caller can leak ``False`` back to the outer session by accident,
#     because there is no boolean to assign to \u2014 only a token to reset.
# Read via :func:`quack.cache.compile_only.is_compile_only`.
_COMPILE_ONLY_DEPTH: contextvars.ContextVar[int] = contextvars.ContextVar(
    "quack_compile_only_depth", default=0
)

#: Downstream projects can append directories here to include their sources
#: in the cache fingerprint. Must be set before the first jit_cache call.
EXTRA_SOURCE_DIRS: List[Path] = []


class LearnedHeuristicController:
    """
    Class that finds and instantiates all learned heuristics. It also provides
    a way to get the decision of a learned heuristic.
    """

    existing_heuristics: dict[str, list[LearnedHeuristic]] = defaultdict(list)
    """
    A dictionary that stores all the learned heuristics for each optimization.
    The key is the optimization name, and the value is a list of LearnedHeuristic objects.
    """

    heuristics_initialized: bool = False
    """
    A flag that indicates whether the learned heuristics have been initialized.
    Set to true when the get_decision() function is called for the first time.
    """
