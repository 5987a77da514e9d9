"""The preprocessor layer: C-family source rewritten before the parse without moving a byte
(macros blanked or spelled out, conditionals and grammar gaps), and the macros learned
from a tree's `#define`s.
"""
