# mypy: allow-untyped-defs
"""Adds docstrings to functions defined in the torch._C module."""

import re

import torch._C
from torch._C import _add_docstr as add_docstr


add_docstr(
    torch.abs,
    r"""
abs(input: Tensor, *, out: Optional[Tensor]) -> Tensor

Computes the absolute value of each element in :attr:`input`.

.. math::
    \text{out}_{i} = |\text{input}_{i}|
"""
    + r"""
Args:
    {input}

Keyword args:
    {out}

Example::

    >>> torch.abs(torch.tensor([-1, -2, 3]))
    tensor([ 1,  2,  3])
""".format(**common_args),
)

add_docstr(
    torch.absolute,
    r"""
absolute(input: Tensor, *, out: Optional[Tensor]) -> Tensor

Alias for :func:`torch.abs`
""",
)
