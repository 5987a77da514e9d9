"""Forms of NVIDIA's CCCL (libcudacxx, CUB, Thrust), a tree docgen had not read before:
namespace macros built out of one another, each followed to the one it calls so that
what they open is named as a reader names it; a macro that declares a call operator;
macro uses in a class body that read as members without a type."""

from __future__ import annotations

from test_cfamily_units import UNITS
from test_scan_cfamily import inventory

from docgen.scan.cfamily.preprocess.macros import macro_defs
from docgen.scan.cfamily.preprocess.namespace_macros import (
    composed_namespace,
    namespace_body,
    namespace_macros,
)
from docgen.scan.cfamily.scanner import scan
from docgen.scan.cfamily.settings import ScanSettings

#: from libcudacxx's cuda/std/__internal/namespaces.h
NAMESPACES = (UNITS / "cccl_namespace_macros/namespaces.h").read_text(
    encoding="utf-8"
)  # one of the data cases

CHRONO = (UNITS / "cccl_namespace_macros/chrono.h").read_text(
    encoding="utf-8"
)  # one of the data cases


def test_bodies_that_open_or_close_namespaces_or_call_a_macro() -> None:
    assert namespace_body(" _CHECK() namespace _NS {", ["_NS"]) == "$1"  # a use before it
    assert namespace_body(" } _CHECK()", ["_NS"]) == "}"
    # a call given arguments may be a namespace macro: not read past as a use
    assert namespace_body(" OTHER(_NS) inline namespace v2 {", ["_NS"]) == ""
    assert composed_namespace(" OTHER(_NS) inline namespace v2 {", ["_NS"]) == "@OTHER($1)"
    assert composed_namespace(" } OTHER(_NS)", ["_NS"]) == "@OTHER($1)"
    assert composed_namespace(" BEGIN(cuda::std)", []) == "@BEGIN(cuda::std)"
    assert composed_namespace(" a + OTHER(x)", ["x"]) == ""
    assert composed_namespace(" } OTHER(x) namespace y {", ["x"]) == ""


def test_composed_macros_take_what_the_macro_they_call_opens() -> None:
    chosen = dict(namespace_macros(macro_defs(NAMESPACES.encode())))
    assert chosen["_CCCL_BEGIN_NAMESPACE_NOVERSION()"] == "$1"
    assert chosen["_CCCL_BEGIN_NAMESPACE()"] == "$1"  # the inline (ABI) namespace left out
    assert chosen["_CCCL_BEGIN_NAMESPACE_CUDA_STD"] == "cuda::std"
    assert chosen["_CCCL_BEGIN_NAMESPACE_CUDA"] == "cuda"
    assert chosen["_CCCL_END_NAMESPACE_CUDA_STD"] == "}"
    assert chosen["_CCCL_END_NAMESPACE()"] == "}"
    # calls of macros that open no namespace
    assert "CHECKED()" not in chosen and "LOGGED()" not in chosen


def test_a_class_under_composed_macros_has_its_whole_scope() -> None:
    settings = ScanSettings.learned(macro_defs(NAMESPACES.encode()), "cpp")
    c = scan("year_month_day.h", CHRONO.encode(), settings).cfamily
    assert c is not None
    assert c.error_lines == ()
    assert inventory(c) == {
        ("namespace", "cuda", 1),
        ("namespace", "cuda::std", 1),
        ("namespace", "cuda::std::chrono", 2),
        ("class", "cuda::std::chrono::year_month_day", 4),
        ("field", "cuda::std::chrono::year_month_day::__year_", 6),
    }


#: from libcudacxx's __cccl/dialect.h, __utility/immovable.h and __variant/variant_match.h
OPERATORS = """\
#if _CCCL_HAS_STATIC_CALL_OPERATOR()
#  define _CCCL_STATIC_CALL_OPERATOR(...) static operator()(__VA_ARGS__)
#else
#  define _CCCL_STATIC_CALL_OPERATOR(...) operator()(__VA_ARGS__) const
#endif
#define _CCCL_IMMOVABLE(_XP) _XP(_XP&&) = delete
#define _CCCL_API
struct __overload_bool
{
  template <class _Up>
  _CCCL_API inline auto _CCCL_STATIC_CALL_OPERATOR(bool, _Up&&) -> int;
  _CCCL_IMMOVABLE(__overload_bool);
  __overload_bool(int);
};
"""


def test_a_macro_that_declares_a_call_operator_is_read_as_one() -> None:
    settings = ScanSettings.learned(macro_defs(OPERATORS.encode()), "cpp")
    assert settings.values("written") == (("_CCCL_STATIC_CALL_OPERATOR", "operator()"),)
    assert ScanSettings.from_json(settings.to_json()) == settings
    c = scan("variant_match.h", OPERATORS.encode(), settings).cfamily
    assert c is not None
    assert c.error_lines == ()
    # no member is named after a macro: the operator is `operator()`, and a macro's use
    # without a type (`_CCCL_IMMOVABLE(...)`) is no member (only a constructor has none)
    assert {(d.kind, d.qualname, d.line) for d in c.definitions if d.kind != "macro"} == {
        ("struct", "__overload_bool", 8),
        ("operator", "__overload_bool::operator()", 11),
        ("constructor", "__overload_bool::__overload_bool", 13),
    }
    call = next(d for d in c.definitions if d.name == "operator()")
    assert (
        call.declaration == "_CCCL_API inline auto _CCCL_STATIC_CALL_OPERATOR(bool, _Up&&) -> int"
    )
