"""The C, C++ and CUDA scanner: tree-sitter with the pinned grammar wheels, the walk over
its tree, and the preprocessor layer (`preprocess/`) that rewrites what the grammar
cannot read.
"""
