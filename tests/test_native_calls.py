"""Python's calls into C++: a pybind11 binding of a module a build script names, an
operator read through `torch.ops` (or an alias of it), each linked from the Python
that reads it to the binding and the C++ it binds, and back; `--trace` follows them;
an edit of the Python re-renders the binding's page, and the incremental build equals a
clean one."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import (
    built_tree,
    clean_pages,
    count_digests,
    page_files,
    page_section,
    run_build,
    write_tree,
)

from docgen.analyze.dotted_reads import dotted_reads
from docgen.analyze.sites import registered_sites
from docgen.cli.main import cli
from docgen.index.native_calls import NativeEnd, extension_roots, native_ends
from docgen.model.binding_names import bound_qualname
from docgen.model.sites import DefinitionSite
from docgen.scan.cfamily.scanner import scan as scan_c
from docgen.scan.python.extensions import extension_modules, name_aliases
from docgen.scan.python.scanner import scan as scan_python
from docgen.site.linkcheck import check_links

SETUP = (
    "from torch.utils.cpp_extension import CUDAExtension\n"
    "sources = ['csrc/b.cu']\n"
    "setup(ext_modules=[\n"
    "    CUDAExtension(name='fast_cuda', sources=['csrc/api.cpp', 'csrc/kernel.cu']),\n"
    "    CUDAExtension('other', sources),\n"
    "])\n"
)
API = (
    "namespace fast {\n"
    "int forward(int x) { return x; }\n"
    "}\n"
    "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {\n"
    '  m.def("fwd", &fast::forward, "Forward pass");\n'
    '  m.def("helper", [](int x) { return x; });\n'
    "}\n"
    "TORCH_LIBRARY(fast_ops, m) {\n"
    '  m.def("scale(Tensor x) -> Tensor");\n'
    "}\n"
)
IFACE = (
    "import torch\n"
    "try:\n"
    "    import fallback as gpu\n"
    "except ImportError:\n"
    "    import fast_cuda as gpu\n"
    "ops = torch.ops.fast_ops\n"
    "\n"
    "\n"
    "def forward(x):\n"
    '    """Runs the kernel."""\n'
    "    return gpu.fwd(x)\n"
    "\n"
    "\n"
    "def scaled(x):\n"
    "    return ops.scale.default(x) + gpu.helper(x)\n"
    "\n"
    "\n"
    "def untouched(x):\n"
    "    return gpu.missing(x)\n"
)
TREE = {"setup.py": SETUP, "csrc/api.cpp": API, "pkg/iface.py": IFACE}


def test_a_build_script_s_extension_modules_and_a_file_s_aliases_are_read() -> None:
    tree = ast.parse(SETUP)
    found = extension_modules(tree, SETUP)
    assert [(e.maker, e.name, e.sources, e.complete) for e in found] == [
        ("CUDAExtension", "fast_cuda", ("csrc/api.cpp", "csrc/kernel.cu"), True),
        ("CUDAExtension", "other", (), False),  # a variable: not read
    ]
    aliases = name_aliases(ast.parse(IFACE))
    assert [(a.name, a.value, a.line) for a in aliases] == [("ops", "torch.ops.fast_ops", 6)]
    assert extension_modules(ast.parse("x = 1\n"), "x = 1\n") == ()


def test_dotted_reads_resolve_every_import_and_alias_of_their_first_name() -> None:
    facts = scan_python("pkg/iface.py", IFACE.encode()).python
    assert facts is not None
    reads = {(r.name, r.written, r.lines) for r in dotted_reads(facts)}
    assert ("fast_cuda.fwd", "gpu.fwd", (11,)) in reads
    assert ("fallback.fwd", "gpu.fwd", (11,)) in reads  # the `try` branch too
    assert ("torch.ops.fast_ops.scale.default", "ops.scale.default", (15,)) in reads
    # a prefix read only as part of a longer name is no read of its own
    assert not any(r[1] == "ops.scale" for r in reads)
    text = "from torch._ops import ops\nx = ops.aten.add.Tensor\n"
    spelled = scan_python("a.py", text.encode()).python
    assert spelled is not None
    assert [(r.name, r.lines) for r in dotted_reads(spelled)] == [
        ("torch._ops.ops", (1, 2)),  # the name a `from` import binds: used where read through
        ("torch.ops.aten.add.Tensor", (2,)),
    ]
    # a relative import's names are read as written; the tree tells their package
    text = "from . import sibling\nfrom .x import *\nfrom ..y import f\nsibling.g(f())\n"
    relative = scan_python("a.py", text.encode()).python
    assert relative is not None
    assert [(r.name, r.written, r.lines) for r in dotted_reads(relative)] == [
        ("..y.f", "f", (3, 4)),
        (".sibling", "sibling", (1, 4)),
        (".sibling.g", "sibling.g", (4,)),
    ]
    bound = [_site("g", "m.cpp", "binding", "sibling.g")]
    assert native_ends(".sibling.g", lambda _: bound, {}) == ()


def _site(name: str, path: str, kind: str, qualname: str) -> DefinitionSite:
    return DefinitionSite(name, path, 1, kind, qualname, "a")


def test_native_ends_match_a_binding_by_its_module_and_an_operator_by_its_overload() -> None:
    sites = [
        _site("fwd", "csrc/api.cpp", "binding", "fwd"),
        _site("fwd", "ext/lib.cpp", "binding", "_C.fwd"),  # `PYBIND11_MODULE(_C, m)`
        _site("g", "ext/lib.cpp", "binding", "g"),
        _site("add", "ops.yaml", "op", "aten::add.Tensor"),
        _site("add", "ops.yaml", "op", "aten::add"),
        _site("add", "ops.yaml", "derivative", "aten::add.Tensor"),
    ]

    def named(name: str) -> list[DefinitionSite]:
        return [s for s in sites if s.name == name]

    roots = {"csrc/api.cpp": ("fast_cuda",)}

    def paths(name: str) -> list[tuple[str, str]]:
        return [(e.path, e.qualname) for e in native_ends(name, named, roots)]

    assert paths("fast_cuda.fwd") == [("csrc/api.cpp", "fwd")]
    assert paths("other.fwd") == []  # the file's module is named: nothing else is it
    assert paths("pkg._C.fwd") == [("ext/lib.cpp", "_C.fwd")]  # the module it names itself
    assert paths("pkg.g") == []  # a module-level name of an unnamed module: unknown
    assert paths("torch.ops.aten.add.Tensor") == [("ops.yaml", "aten::add.Tensor")]
    assert paths("torch.ops.aten.add.default") == [("ops.yaml", "aten::add")]
    every = [("ops.yaml", "aten::add"), ("ops.yaml", "aten::add.Tensor")]
    assert paths("torch.ops.aten.add") == every  # the packet: each overload
    assert isinstance(native_ends("fast_cuda.fwd", named, roots)[0], NativeEnd)


def test_extension_roots_join_sources_to_the_script_s_folder() -> None:
    setup = scan_python("sub/setup.py", SETUP.encode()).python
    roots = extension_roots([("sub/setup.py", setup)], ["sub/csrc/api.cpp", "csrc/api.cpp"])
    assert roots == {"sub/csrc/api.cpp": ("fast_cuda",)}


def test_bindings_of_a_submodule_kept_in_a_variable_declared_later_keep_their_module() -> None:
    source = (
        "void init(PyObject* module) {\n"
        "  auto c = py::handle(module).cast<py::module>();\n"
        '  auto m = c.def_submodule("_dist", "doc");\n'
        '  py::class_<PG>(m, "ProcessGroup").def("rank", &PG::rank);\n'
        '  m.def("k", &k);\n'
        "}\n"
    )
    c = scan_c("init.cpp", source.encode()).cfamily
    assert c is not None
    assert [(b.kind, b.name, b.owner, b.module) for b in c.bindings] == [
        ("def_submodule", "_dist", "", ""),
        ("class", "ProcessGroup", "", "_dist"),
        ("def", "rank", "ProcessGroup", "_dist"),
        ("def", "k", "", "_dist"),
    ]


def test_python_pages_link_calls_to_bindings_and_binding_pages_list_their_callers(
    tmp_path: Path,
) -> None:
    repo, out = tmp_path / "repo", tmp_path / "out"
    write_tree(repo, TREE)
    run_build(repo, out, jobs=1)
    page = (out / "pkg/iface.py_docs.md").read_text(encoding="utf-8")
    forward = page_section(page, "### function `forward`")
    assert (
        "`gpu.fwd` (`fast_cuda.fwd`) at [L11]" in forward
        and "the binding [`fast_cuda.fwd`](../csrc/api.cpp_docs.md#python-bindings)" in forward
        and "of [`fast::forward`](../csrc/api.cpp_docs.md#function-fastforward)" in forward
    )
    assert "fallback" not in forward  # the other import leads to no C++ of the tree
    scaled = page_section(page, "### function `scaled`")
    assert "the operator [`fast_ops::scale`](../csrc/api.cpp_docs.md#registrations)" in scaled
    assert "`gpu.helper` (`fast_cuda.helper`)" in scaled and "of a lambda" in scaled
    assert "Calls into C++" not in page_section(page, "### function `untouched`")
    api = (out / "csrc/api.cpp_docs.md").read_text(encoding="utf-8")
    assert "which the build scripts compile into `fast_cuda`" in api
    assert (
        "called from Python: `gpu.fwd` (`fast_cuda.fwd`) in [`pkg/iface.py`]"
        "(../pkg/iface.py_docs.md) at [L11]"
    ) in api
    assert "called from Python: `ops.scale.default`" in api
    setup = (out / "setup.py_docs.md").read_text(encoding="utf-8")
    assert "`fast_cuda` (`CUDAExtension`), compiled from 2 source files: [`csrc/api.cpp`]" in setup
    assert "`other` (`CUDAExtension`), its `sources` are made by code docgen does not run" in setup
    assert check_links(out, repo) == []
    runner = CliRunner()
    traced = runner.invoke(cli, ["find", "forward", "--trace", "-o", str(out)])
    assert traced.exit_code == 0, traced.output
    assert traced.output.splitlines() == [
        "pkg/iface.py:9: function forward",
        "pkg/iface.py:11: reads gpu.fwd (fast_cuda.fwd)",
        "csrc/api.cpp:5: binding fwd → fast::forward",
        "csrc/api.cpp:2: function fast::forward",
    ]
    traced = runner.invoke(cli, ["find", "scaled", "--trace", "-o", str(out)])
    assert "csrc/api.cpp:9: op fast_ops::scale (m.def)" in traced.output
    assert "csrc/api.cpp:6: binding helper → a lambda" in traced.output


def test_an_edit_of_the_caller_re_renders_the_binding_s_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, out = tmp_path / "repo", tmp_path / "out"
    write_tree(repo, {**TREE, "pkg/other.py": "def g():\n    return 1\n"})
    run_build(repo, out, jobs=1)
    digested = count_digests(monkeypatch)
    iface = repo / "pkg/iface.py"
    iface.write_text(iface.read_text().replace("gpu.fwd(x)", "x"), encoding="utf-8")
    run_build(repo, out, jobs=1)
    assert "csrc/api.cpp" in digested and "pkg/other.py" not in digested
    api = (out / "csrc/api.cpp_docs.md").read_text(encoding="utf-8")
    assert "`gpu.fwd`" not in api and "`gpu.helper`" in api
    assert page_files(out) == clean_pages(repo, tmp_path)
    # the build script names the module: its edit renders every page
    setup = repo / "setup.py"
    setup.write_text(setup.read_text().replace("fast_cuda", "quick_cuda"), encoding="utf-8")
    run_build(repo, out, jobs=1)
    page = (out / "pkg/iface.py_docs.md").read_text(encoding="utf-8")
    assert "the binding" not in page  # `fast_cuda` is no module of the tree now
    assert "the operator [`fast_ops::scale`]" in page
    assert page_files(out) == clean_pages(repo, tmp_path)


#: torch/csrc/distributed/c10d/init.cpp (PyTorch at 00814e6, trimmed): the module is
#: imported by name, cast, given a submodule and cast again; its classes are made
#: through the file's aliases of `py::class_`
C10D_INIT = """\
template <typename T>
using shared_ptr_class_ = py::class_<T, std::shared_ptr<T>>;

template <typename T>
using intrusive_ptr_class_ = py::class_<T, c10::intrusive_ptr<T>>;

void _register_comm_hook(
    ::c10d::Reducer& reducer,
    py::object state,
    py::object comm_hook) {
}

PyObject* c10d_init(PyObject* _unused, PyObject* noargs) {
  C10_LOG_API_USAGE_ONCE("c10d.python.import");

  auto c10d_module = THPObjectPtr(PyImport_ImportModule("torch.distributed"));
  if (!c10d_module) {
    throw python_error();
  }

  auto torch_C_module = THPObjectPtr(PyImport_ImportModule("torch._C"));
  if (!torch_C_module) {
    throw python_error();
  }

  auto torch_C_m = py::handle(torch_C_module).cast<py::module>();
  auto m =
      torch_C_m.def_submodule("_distributed_c10d", "distributed c10d bindings");

  auto module = py::handle(m).cast<py::module>();

  module
      .def(
          "_register_comm_hook",
          &_register_comm_hook,
          py::arg("reducer"),
          py::arg("state"),
          py::arg("comm_hook"),
          py::call_guard<py::gil_scoped_release>());

  shared_ptr_class_<::c10d::Reducer>(module, "Reducer")
      .def(
          "prepare_for_forward",
          &::c10d::Reducer::prepare_for_forward,
          py::call_guard<py::gil_scoped_release>());

  auto processGroup =
      intrusive_ptr_class_<::c10d::ProcessGroup>(module, "ProcessGroup")
          .def("rank", &::c10d::ProcessGroup::getRank)
          .def("size", &::c10d::ProcessGroup::getSize);

  py::enum_<::c10d::ProcessGroup::BackendType>(processGroup, "BackendType")
      .value("UNDEFINED", ::c10d::ProcessGroup::BackendType::UNDEFINED);
  Py_RETURN_TRUE;
}
"""


def test_a_module_imported_by_name_roots_its_submodule_s_bindings() -> None:
    facts = scan_c("torch/csrc/distributed/c10d/init.cpp", C10D_INIT.encode()).cfamily
    assert facts is not None
    found = sorted(
        (bound_qualname(b), b.kind, b.target) for b in facts.bindings if b.kind != "module"
    )
    assert found == [
        ("torch._C._distributed_c10d", "def_submodule", ""),
        ("torch._C._distributed_c10d.ProcessGroup", "class", "c10d::ProcessGroup"),
        (
            "torch._C._distributed_c10d.ProcessGroup.BackendType",
            "enum",
            "c10d::ProcessGroup::BackendType",
        ),
        (
            "torch._C._distributed_c10d.ProcessGroup.BackendType.UNDEFINED",
            "value",
            "c10d::ProcessGroup::BackendType::UNDEFINED",
        ),
        ("torch._C._distributed_c10d.ProcessGroup.rank", "def", "c10d::ProcessGroup::getRank"),
        ("torch._C._distributed_c10d.ProcessGroup.size", "def", "c10d::ProcessGroup::getSize"),
        ("torch._C._distributed_c10d.Reducer", "class", "c10d::Reducer"),
        (
            "torch._C._distributed_c10d.Reducer.prepare_for_forward",
            "def",
            "c10d::Reducer::prepare_for_forward",
        ),
        ("torch._C._distributed_c10d._register_comm_hook", "def", "_register_comm_hook"),
    ]


def test_python_importing_a_bound_class_links_to_the_class_and_back(tmp_path: Path) -> None:
    repo, out = tmp_path / "repo", tmp_path / "out"
    c10d = (
        "from torch._C._distributed_c10d import ProcessGroup, Reducer\n"
        "\n"
        "\n"
        "def backend(pg):\n"
        "    return ProcessGroup.BackendType.UNDEFINED\n"
    )
    write_tree(
        repo,
        {"torch/csrc/distributed/c10d/init.cpp": C10D_INIT, "torch/distributed/c10d.py": c10d},
    )
    run_build(repo, out, jobs=1)
    page = (out / "torch/distributed/c10d.py_docs.md").read_text(encoding="utf-8")
    assert (
        "`ProcessGroup` (`torch._C._distributed_c10d.ProcessGroup`) at [L1]" in page
        and "the binding [`torch._C._distributed_c10d.ProcessGroup`]" in page
    )
    backend = page_section(page, "### function `backend`")
    assert "`ProcessGroup.BackendType.UNDEFINED`" in backend
    init = (out / "torch/csrc/distributed/c10d/init.cpp_docs.md").read_text(encoding="utf-8")
    assert (
        "called from Python: `ProcessGroup` (`torch._C._distributed_c10d.ProcessGroup`) in "
        "[`torch/distributed/c10d.py`](../../../distributed/c10d.py_docs.md) at [L1]"
    ) in init
    assert check_links(out, repo) == []


#: torch/csrc/dynamo/init.cpp (PyTorch at 017943b, trimmed): a `PyMethodDef` table of
#: compound literals, in a file whose one `PyModuleDef` names its module
DYNAMO_INIT = """\
static struct PyModuleDef _module =
    {PyModuleDef_HEAD_INIT, "torch._C._dynamo", "", -1, nullptr};

namespace torch::dynamo {
namespace {

PyObject* _strip_function_call(
    PyObject* self,
    PyObject* const* args,
    Py_ssize_t nargs) {
  return nullptr;
}

#define PYC_FN(x) ((PyCFunction)(void (*)()) & x)

void _register_functions(PyObject* mod) {
  static std::array<PyMethodDef, 3> fns = {
      PyMethodDef{
          "strip_function_call",
          PYC_FN(_strip_function_call),
          METH_FASTCALL,
          nullptr},
      PyMethodDef{
          "is_valid_var_name",
          PYC_FN(_is_valid_var_name),
          METH_FASTCALL,
          nullptr},
      PyMethodDef{nullptr, nullptr, 0, nullptr},
  };
  PyModule_AddFunctions(mod, fns.data());
}

} // anonymous namespace
} // namespace torch::dynamo
"""


def test_a_method_table_s_entries_are_bindings_of_the_file_s_module() -> None:
    facts = scan_c("torch/csrc/dynamo/init.cpp", DYNAMO_INIT.encode()).cfamily
    assert facts is not None
    assert [(b.kind, bound_qualname(b), b.target, b.line) for b in facts.bindings] == [
        ("PyMethodDef", "torch._C._dynamo.strip_function_call", "_strip_function_call", 18),
        ("PyMethodDef", "torch._C._dynamo.is_valid_var_name", "_is_valid_var_name", 23),
    ]
    two = DYNAMO_INIT + 'static PyModuleDef other = {PyModuleDef_HEAD_INIT, "other"};\n'
    facts = scan_c("init.cpp", two.encode()).cfamily
    assert facts is not None  # which of two modules holds the table is told by code
    assert [bound_qualname(b) for b in facts.bindings][:1] == ["strip_function_call"]


def test_a_call_of_a_method_table_s_function_links_to_its_c_function(tmp_path: Path) -> None:
    repo, out = tmp_path / "repo", tmp_path / "out"
    caller = (
        "import torch\n\n\ndef strip(name):\n"
        "    return torch._C._dynamo.strip_function_call(name)\n"
    )
    write_tree(repo, {"torch/csrc/dynamo/init.cpp": DYNAMO_INIT, "torch/_dynamo/utils.py": caller})
    run_build(repo, out, jobs=1)
    page = (out / "torch/_dynamo/utils.py_docs.md").read_text(encoding="utf-8")
    strip = page_section(page, "### function `strip`")
    assert "the binding [`torch._C._dynamo.strip_function_call`]" in strip
    assert (
        "of [`_strip_function_call`](../csrc/dynamo/init.cpp_docs.md"
        "#function-torchdynamo_strip_function_call)"
    ) in strip
    init = (out / "torch/csrc/dynamo/init.cpp_docs.md").read_text(encoding="utf-8")
    assert "`torch._C._dynamo.strip_function_call` (`PyMethodDef`) → [" in init
    assert "called from Python: `torch._C._dynamo.strip_function_call`" in init
    assert check_links(out, repo) == []


#: torch/csrc/dynamo/init.cpp (PyTorch at 017943b, trimmed): a module made from the
#: file's `PyModuleDef`, a submodule added to it by name, then cast for pybind11
DYNAMO_BINDINGS = """\
static struct PyModuleDef _module =
    {PyModuleDef_HEAD_INIT, "torch._C._dynamo", "", -1, nullptr};

void initDynamoBindings(PyObject* torch) {
  PyObject* dynamo = PyModule_Create(&_module);
  if (dynamo == nullptr || PyModule_AddObject(torch, "_dynamo", dynamo) != 0) {
    throw python_error();
  }

  PyObject* eval_frame = torch_c_dynamo_eval_frame_init();
  if (eval_frame == nullptr ||
      PyModule_AddObject(dynamo, "eval_frame", eval_frame) != 0) {
    throw python_error();
  }

  auto m = py::handle(eval_frame).cast<py::module>();

  py::class_<CacheEntry>(m, "_CacheEntry")
      .def_readonly("code", &CacheEntry::code);
  m.def("set_c_recursion_limit", &dynamo_set_c_recursion_limit);
}
"""


def test_a_module_made_from_a_definition_and_added_to_names_its_bindings() -> None:
    facts = scan_c("torch/csrc/dynamo/init.cpp", DYNAMO_BINDINGS.encode()).cfamily
    assert facts is not None
    assert [bound_qualname(b) for b in facts.bindings] == [
        "torch._C._dynamo.eval_frame._CacheEntry",
        "torch._C._dynamo.eval_frame._CacheEntry.code",
        "torch._C._dynamo.eval_frame.set_c_recursion_limit",
    ]
    # an object added to a module no import or definition names stays unrooted
    unknown = DYNAMO_BINDINGS.replace("PyModule_Create(&_module)", "make_module()")
    facts = scan_c("init.cpp", unknown.encode()).cfamily
    assert facts is not None
    assert bound_qualname(facts.bindings[0]) == "_CacheEntry"


def test_a_method_table_entry_s_function_is_read_under_casts_and_comments() -> None:
    # torchgen/packaged/autograd/templates/python_variable_methods.cpp and
    # pybind11/detail/function_record_pyobject.h of torch 2.13
    source = (
        "PyMethodDef variable_methods[] = {\n"
        '  {"__add__", castPyCFunctionWithKeywords(TypeError_to_NotImplemented_<THPVariable_add>),'
        " METH_VARARGS | METH_KEYWORDS, nullptr},\n"
        "  {nullptr}};\n"
        "static PyMethodDef tp_methods_impl[]\n"
        '    = {{"__reduce_ex__",\n'
        "        // reduce_ex_impl is a PyCFunctionWithKeywords, but PyMethodDef\n"
        "        // requires a PyCFunction.\n"
        "        (PyCFunction) (void (*)()) reduce_ex_impl,\n"
        "        METH_VARARGS | METH_KEYWORDS,\n"
        "        nullptr},\n"
        "       {nullptr, nullptr, 0, nullptr}};\n"
    )
    facts = scan_c("methods.cpp", source.encode()).cfamily
    assert facts is not None
    assert [(b.name, b.target) for b in facts.bindings] == [
        ("__add__", "TypeError_to_NotImplemented_<THPVariable_add>"),
        ("__reduce_ex__", "reduce_ex_impl"),
    ]


def test_a_bound_value_is_no_lambda(tmp_path: Path) -> None:
    init = DYNAMO_BINDINGS.replace(
        "  m.def(", '  m.attr("NULL_STACK_VALUE") = get_null_stack_value();\n  m.def('
    )
    caller = (
        "import torch\n\n\ndef null():\n    return torch._C._dynamo.eval_frame.NULL_STACK_VALUE\n"
    )
    out = built_tree(
        tmp_path, {"torch/csrc/dynamo/init.cpp": init, "torch/_dynamo/utils.py": caller}
    )
    page = (out / "torch/_dynamo/utils.py_docs.md").read_text(encoding="utf-8")
    null = page_section(page, "### function `null`")
    assert "the binding [`torch._C._dynamo.eval_frame.NULL_STACK_VALUE`]" in null
    assert "lambda" not in null
    c_page = (out / "torch/csrc/dynamo/init.cpp_docs.md").read_text(encoding="utf-8")
    assert "`torch._C._dynamo.eval_frame.NULL_STACK_VALUE` (`attr`)\n" in c_page
    traced = CliRunner().invoke(cli, ["find", "null", "--trace", "-o", str(out)])
    assert "binding torch._C._dynamo.eval_frame.NULL_STACK_VALUE\n" in traced.output


#: the `torch.library` idioms of torch 2.13 (`ao/quantization/fx/_decomposed.py`,
#: `nn/attention/varlen.py`), trimmed
LIBRARY = """\
import torch
from torch.library import Library, impl

quantized_decomposed_lib = Library("quantized_decomposed", "DEF")

quantized_decomposed_lib.define(
    "quantize_per_tensor(Tensor input, float scale, int zero_point, "
    "int quant_min, int quant_max, ScalarType dtype) -> Tensor"
)


@impl(quantized_decomposed_lib, "quantize_per_tensor", "CompositeExplicitAutograd")
def quantize_per_tensor(input, scale, zero_point, quant_min, quant_max, dtype):
    return input


@torch.library.custom_op("torch_attn::_varlen_attn", mutates_args={})
def _varlen_attn(query):
    return query


@_varlen_attn.register_fake
def _varlen_attn_fake(query):
    return query


@torch.library.register_fake("torch_attn::_varlen_attn")
def _fake(query):
    return query


torch.library.define("mylib::sin", "(Tensor x) -> Tensor")
torch.library.impl("mylib::sin", "CPU", torch.sin)
"""


def test_operators_registered_through_torch_library_are_sites() -> None:
    facts = scan_python("ao/decomposed.py", LIBRARY.encode()).python
    assert facts is not None
    sites = registered_sites("ao/decomposed.py", facts.registrations)
    assert [(s.line, s.kind, s.qualname) for s in sites] == [
        (6, "op", "quantized_decomposed::quantize_per_tensor"),
        (12, "impl", "quantized_decomposed::quantize_per_tensor"),
        (17, "op", "torch_attn::_varlen_attn"),
        (22, "impl", "torch_attn::_varlen_attn"),  # `@_varlen_attn.register_fake`
        (27, "impl", "torch_attn::_varlen_attn"),
        (32, "op", "mylib::sin"),
        (33, "impl", "mylib::sin"),
    ]
    # a `library` of another module, and a name not written as a string, are none
    other = "from mylib import library\n@library.custom_op('a::b')\ndef f(): ...\n"
    other_facts = scan_python("o.py", other.encode()).python
    assert other_facts is not None and other_facts.registrations == ()


@pytest.mark.parametrize(
    ("imports", "call", "found"),
    [
        ("import torch.library", "torch.library.define", True),  # binds `torch`
        ("import torch.library as tl", "tl.define", True),
        ("import torch.library as tl", "torch.library.define", False),  # `torch` unbound
        ("import torch", "torch.library.define", True),
        ("from torch import library", "library.define", True),
        ("from torch import library as L", "L.define", True),
        ("import mylib.library", "mylib.library.define", False),
    ],
)
def test_torch_library_is_read_under_the_names_its_import_binds(
    imports: str, call: str, found: bool
) -> None:
    text = f'{imports}\n{call}("mylib::sin", "(Tensor x) -> Tensor")\n'
    facts = scan_python("ops.py", text.encode()).python
    assert facts is not None
    ops = [f"{r.name}::{op.name}" for r in facts.registrations for op in r.ops]
    assert ops == (["mylib::sin"] if found else [])


def test_a_python_call_of_an_operator_registered_in_python_links_to_it(tmp_path: Path) -> None:
    repo, out = tmp_path / "repo", tmp_path / "out"
    caller = "import torch\n\n\ndef attend(q):\n    return torch.ops.torch_attn._varlen_attn(q)\n"
    write_tree(repo, {"ao/decomposed.py": LIBRARY, "ao/use.py": caller})
    run_build(repo, out, jobs=1)
    page = (out / "ao/use.py_docs.md").read_text(encoding="utf-8")
    attend = page_section(page, "### function `attend`")
    assert (
        "the operator [`torch_attn::_varlen_attn`](decomposed.py_docs.md#registrations)" in attend
    )
    lib = (out / "ao/decomposed.py_docs.md").read_text(encoding="utf-8")
    assert "### Registrations" in lib and "`custom_op` `torch_attn`" in lib
    traced = CliRunner().invoke(cli, ["find", "attend", "--trace", "-o", str(out)])
    assert traced.exit_code == 0, traced.output
    assert traced.output.splitlines() == [
        "ao/use.py:4: function attend",
        "ao/use.py:5: reads torch.ops.torch_attn._varlen_attn (torch.ops.torch_attn._varlen_attn)",
        "ao/decomposed.py:17: op torch_attn::_varlen_attn (torch.library)",
        "ao/decomposed.py:22: impl torch_attn::_varlen_attn for fake tensors (`register_fake`)"
        " → _varlen_attn_fake",
        "ao/decomposed.py:23: function _varlen_attn_fake",
        "ao/decomposed.py:27: impl torch_attn::_varlen_attn for fake tensors (`register_fake`)"
        " → _fake",
        "ao/decomposed.py:28: function _fake",
    ]
    assert check_links(out, repo) == []
