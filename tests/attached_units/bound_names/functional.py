# mypy: allow-untyped-defs
import itertools
import operator
from collections.abc import Sequence
from typing import Any, TYPE_CHECKING

import torch
import torch.nn.functional as F
from torch import _VF, Tensor
from torch._C import _add_docstr


istft = _add_docstr(
    torch.istft,
    "istft(input, n_fft, hop_length=None, win_length=None, window=None, center=True, "
    "normalized=False, onesided=None, length=None, return_complex=False) -> Tensor:\n"
    r"""
Inverse short time Fourier Transform. This is expected to be the inverse of :func:`~torch.stft`.

.. warning::
"""
)
