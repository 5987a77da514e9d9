# From torch/_decomp/decompositions.py (torch 2.13): a parameter named as the import.
import torch
from torch import Tensor
from torch._decomp import register_decomposition
from torch._higher_order_ops.out_dtype import out_dtype
from torch._prims_common.wrappers import out_wrapper


@out_wrapper(exact_dtype=True)
def addmm_dtype(
    self: Tensor,
    mat1: Tensor,
    mat2: Tensor,
    out_dtype: torch.dtype,
    beta: int = 1,
    alpha: int = 1,
):
    out = alpha * torch.mm(mat1, mat2, out_dtype=out_dtype)
    if beta == 0:
        return out
    return out + beta * self.to(out_dtype)


@register_decomposition(out_dtype)
def out_dtype_decomp(*args, **kwargs):
    from torch._higher_order_ops.out_dtype import out_dtype_dense

    return out_dtype_dense(*args, **kwargs)
