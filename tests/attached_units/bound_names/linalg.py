from torch._C import (
    _add_docstr,
    _linalg,  # pyrefly: ignore [missing-module-attribute]
    _LinAlgError as LinAlgError,  # pyrefly: ignore  # missing-module-attribute
)

# also connects the torch.linalg Python namespace to the torch._C._linalg builtins.

cross = _add_docstr(
    _linalg.linalg_cross,
    r"""
linalg.cross(input, other, *, dim=-1, out=None) -> Tensor

Computes the cross product of two 3-dimensional vectors.
""",
)
