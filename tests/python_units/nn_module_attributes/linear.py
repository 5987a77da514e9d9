# Excerpts of torch/nn/modules/linear.py (torch 2.13).
from torch import Tensor
from torch.nn import Module
from torch.nn.parameter import Parameter, UninitializedParameter


class Linear(Module):
    """Applies an affine linear transformation."""

    __constants__ = ["in_features", "out_features"]
    in_features: int
    out_features: int
    weight: Tensor

    def __init__(
        self,
        in_features: int,
        out_features: int,
        bias: bool = True,
        device=None,
        dtype=None,
    ) -> None:
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(
            torch.empty((out_features, in_features), **factory_kwargs)
        )
        if bias:
            self.bias = Parameter(torch.empty(out_features, **factory_kwargs))
        else:
            self.register_parameter("bias", None)


class LazyLinear(Linear):
    """A lazy Linear."""

    cls_to_become = Linear  # type: ignore[assignment]
    # pyrefly: ignore [bad-override]
    weight: UninitializedParameter
    bias: UninitializedParameter  # type: ignore[assignment]

    def __init__(
        self, out_features: int, bias: bool = True, device=None, dtype=None
    ) -> None:
        factory_kwargs = {"device": device, "dtype": dtype}
        # bias is hardcoded to False to avoid creating tensor
        # that will soon be overwritten.
        # pyrefly: ignore [bad-argument-type]
        super().__init__(0, 0, False)
        # pyrefly: ignore [unexpected-keyword]
        self.weight = UninitializedParameter(**factory_kwargs)
        self.out_features = out_features
