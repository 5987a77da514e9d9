# From torch/_dynamo/guards.py and symbolic_convert.py (torch 2.13): a function's own
# import binds the name there; an assignment in a function shadows the module's import.
import types

from torch._dynamo import exc
from torch._inductor.utils import IndentedBuffer


def build_guard_function(code_parts: list[str], closure_args: str) -> tuple[str, str]:
    from torch._inductor.utils import IndentedBuffer

    guard_body = IndentedBuffer()
    return guard_body, closure_args


def run(self):
    exc = None
    try:
        self.step()
    except Exception as e:
        exc = e
    if exc is None:
        raise AssertionError("expected exc is not None to be true")


def unsupported():
    raise exc.Unsupported("no")


def is_function(value):
    return isinstance(value, types.FunctionType) or value is types


class Printer(IndentedBuffer):
    pass
