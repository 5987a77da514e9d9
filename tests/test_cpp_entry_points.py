"""C++ entry points a reader looks for: structured kernels and kernels a macro writes the
head of, pybind11 bindings, launches through a variable or inside a `#define`, macro
values, enumerators and command-line flags."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from docgen.model.cfamily_facts import CDefinition, CFacts
from docgen.scan.cfamily.bindings import bindings_in
from docgen.scan.cfamily.preprocess.head_macros import expand, head_template, split_head
from docgen.scan.cfamily.preprocess.macros import macro_defs
from docgen.scan.cfamily.reader_macros import command_line_flag
from docgen.scan.cfamily.scanner import scan
from docgen.scan.cfamily.settings import ScanSettings


def facts(source: str, path: str = "x.cpp", settings: ScanSettings | None = None) -> CFacts:
    result = scan(path, source.encode(), settings or ScanSettings()).cfamily
    assert result is not None
    return result


def named(c: CFacts, qualname: str) -> CDefinition:
    found = [d for d in c.definitions if d.qualname == qualname]
    assert len(found) == 1, [d.qualname for d in c.definitions]
    return found[0]


# ------------------------------------------------------------- function heads


def test_a_head_template_keeps_each_argument_s_place() -> None:
    assert head_template("void structured_##name::impl", ["name"]) == "void structured_$1::impl"
    assert head_template("void structured_##name##_##overload::meta", ["name", "overload"]) == (
        "void structured_$1_$2::meta"
    )
    kernel = head_template(
        "template<typename Kernel_traits, __VA_ARGS__> __global__ void kernelName(const P p)",
        ["kernelName", "..."],
    )
    assert kernel == "template<typename Kernel_traits, $@> __global__ void $1(const P p)"
    head = split_head(expand(kernel, ["fwd", "bool A", "bool B"]))
    assert head is not None
    assert head.parts == ("fwd",)
    assert head.before == "template<typename Kernel_traits, bool A, bool B> __global__ void"
    assert head.params == "(const P p)"


def test_a_body_that_is_no_function_head_writes_none() -> None:
    for body, params in [
        ("return x", ["x"]),  # a statement
        ("foo(x)", ["x"]),  # a call
        ("int y", ["x"]),  # a name not made of an argument
        ("struct x", ["x"]),  # a class
        ("#x", ["x"]),  # a string
        ("void f", []),  # no arguments
    ]:
        assert head_template(body, params) == "", body


def test_structured_kernels_are_their_struct_s_methods_written_as_the_macro_use() -> None:
    c = facts(
        "namespace at::native {\n"
        "/// Computes softmax on CUDA.\n"
        "TORCH_IMPL_FUNC(softmax_cuda_out) (\n"
        "  const Tensor &input,\n"
        "  const int64_t dim) {\n"
        "  host_softmax(input, dim);\n"
        "}\n"
        "}\n"
        "namespace at::meta {\n"
        "TORCH_META_FUNC2(add, Tensor)(const Tensor& self) {}\n"
        "TORCH_PRECOMPUTE_META_FUNC(linalg_cross)\n"
        "(const Tensor& input, int64_t dim) { return {}; }\n"
        "}\n",
        "SoftMax.cu",
    )
    impl = named(c, "at::native::structured_softmax_cuda_out::impl")
    assert (impl.name, impl.line, impl.end_line, impl.is_definition) == ("impl", 3, 7, True)
    assert impl.declaration == (
        "void structured_softmax_cuda_out::impl(const Tensor &input, const int64_t dim)"
    )
    assert impl.written_as == "TORCH_IMPL_FUNC(softmax_cuda_out)"
    assert impl.doc == "Computes softmax on CUDA."
    meta = named(c, "at::meta::structured_add_Tensor::meta")
    assert meta.written_as == "TORCH_META_FUNC2(add, Tensor)"
    pre = named(c, "at::meta::structured_linalg_cross::meta")
    assert pre.declaration.startswith("structured_linalg_cross::meta_return_ty ")
    assert not any(d.name.startswith("TORCH_") for d in c.definitions)


def test_a_kernel_a_tree_s_macro_writes_the_head_of_is_listed_under_its_own_name() -> None:
    header = (
        "#define DEFINE_FLASH_FORWARD_KERNEL(kernelName, ...) \\\n"
        "template<typename Kernel_traits, __VA_ARGS__> \\\n"
        "__global__ void kernelName(KERNEL_PARAM_MODIFIER const Flash_fwd_params params)\n"
    )
    settings = ScanSettings.learned(macro_defs(header.encode()), "cpp")
    assert settings.function_heads["DEFINE_FLASH_FORWARD_KERNEL"].endswith(
        "$1(KERNEL_PARAM_MODIFIER const Flash_fwd_params params)"
    )
    c = facts(
        header
        + "DEFINE_FLASH_FORWARD_KERNEL(flash_fwd_kernel, bool Is_dropout, bool Is_causal) {\n"
        "  flash::compute_attn<Kernel_traits, Is_dropout, Is_causal>(params);\n"
        "}\n",
        "flash_fwd_launch_template.h",
        settings,
    )
    kernel = named(c, "flash_fwd_kernel")
    assert kernel.kind == "kernel"
    assert kernel.template == "template<typename Kernel_traits, bool Is_dropout, bool Is_causal>"
    assert kernel.written_as.startswith("DEFINE_FLASH_FORWARD_KERNEL(flash_fwd_kernel, ")
    # without the tree's `#define`, the use is no kernel docgen can name
    assert not any(d.kind == "kernel" for d in facts(c_source_use(), "use.cu").definitions)


def c_source_use() -> str:
    return "DEFINE_FLASH_FORWARD_KERNEL(flash_fwd_kernel, bool A) {\n  run(params);\n}\n"


def test_a_structured_kernel_pairs_with_its_generated_declaration(
    tmp_path: Path, docgen_build: Callable[..., object]
) -> None:
    repo = tmp_path / "repo"
    files = {
        "ATen/ops/softmax_native.h": (
            "namespace at::native {\n"
            "struct TORCH_API structured_softmax_cuda_out\n"
            "    : public at::meta::structured__softmax {\n"
            "  void impl(const at::Tensor & self, int64_t dim, const at::Tensor & out);\n"
            "};\n"
            "}\n"
        ),
        "native/cuda/SoftMax.cu": (
            '#include "ATen/ops/softmax_native.h"\n'
            "namespace at::native {\n"
            "TORCH_IMPL_FUNC(softmax_cuda_out)(const Tensor& input, const int64_t dim,\n"
            "    const Tensor& output) {}\n"
            "}\n"
        ),
    }
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    out = tmp_path / "out"
    docgen_build(repo, out)
    page = (out / "native/cuda/SoftMax.cu_docs.md").read_text()
    assert "- Declared at: [`ATen/ops/softmax_native.h:4`]" in page
    header = (out / "ATen/ops/softmax_native.h_docs.md").read_text()
    assert "- Defined at: [`native/cuda/SoftMax.cu:3`]" in header


# ------------------------------------------------------------------ bindings


def bindings(source: str) -> list[tuple[str, str, str, int, str]]:
    c = facts(source, "bind.cpp")
    return [
        (b.kind, b.name, b.target, b.line, ".".join(p for p in (b.module, b.owner) if p))
        for b in c.bindings
    ]


def test_a_pybind11_module_s_functions_classes_and_members_are_bound_names() -> None:
    found = bindings(
        "PYBIND11_MODULE(flash_attn_2_cuda, m) {\n"
        '  m.doc() = "FlashAttention";\n'
        '  m.def("fwd", &FLASH_NAMESPACE::mha_fwd, "Forward pass");\n'
        '  py::class_<Pet, Animal>(m, "Pet")\n'
        "      .def(py::init<std::string>())\n"
        '      .def("name", &Pet::name)\n'
        '      .def_readwrite("age", &Pet::age)\n'
        '      .def("bark", [](Pet& p) { return p.bark(); });\n'
        '  py::enum_<Kind>(m, "Kind").value("Dog", Kind::Dog);\n'
        '  auto sub = m.def_submodule("extra");\n'
        '  sub.def("g", py::overload_cast<int>(&g));\n'
        "}\n"
    )
    assert found == [
        ("module", "flash_attn_2_cuda", "", 1, ""),
        ("def", "fwd", "FLASH_NAMESPACE::mha_fwd", 3, ""),
        ("class", "Pet", "Pet", 4, ""),
        ("def", "__init__", "py::init<std::string>()", 5, "Pet"),
        ("def", "name", "Pet::name", 6, "Pet"),
        ("def_readwrite", "age", "Pet::age", 7, "Pet"),
        ("def", "bark", "", 8, "Pet"),
        ("enum", "Kind", "Kind", 9, ""),
        ("value", "Dog", "Kind::Dog", 9, "Kind"),
        ("def_submodule", "extra", "", 10, ""),
        ("def", "g", "g", 11, "extra"),
    ]


def test_a_class_kept_in_a_variable_and_a_module_given_as_a_parameter_are_followed() -> None:
    found = bindings(
        "void init(py::module_& m) {\n"
        '  py::class_<Runner> runner(m, "Runner");\n'
        '  runner.def("run", &Runner::run);\n'
        '  m.def("helper", &helper);\n'
        "}\n"
    )
    assert found == [
        ("class", "Runner", "Runner", 2, ""),
        ("def", "run", "Runner::run", 3, "Runner"),
        ("def", "helper", "helper", 4, ""),
    ]


def test_an_operator_library_s_def_binds_no_python_name() -> None:
    c = facts(
        "TORCH_LIBRARY(mini, m) {\n"
        '  m.def("add.Tensor(Tensor self, Tensor other) -> Tensor");\n'
        "}\n"
        'void f(torch::Library& lib) { lib.def("zeros(int[] size) -> Tensor"); }\n'
    )
    assert c.bindings == ()
    assert [op.name for r in c.registrations for op in r.ops] == ["add.Tensor"]


def test_bindings_are_read_only_from_bodies_that_can_hold_them() -> None:
    import tree_sitter
    import tree_sitter_cpp

    from docgen.scan.cfamily.source import Source

    data = b"void f() { int x = g(1); }\n"
    root = tree_sitter.Parser(tree_sitter.Language(tree_sitter_cpp.language())).parse(data)
    body = root.root_node.named_children[0].child_by_field_name("body")
    assert body is not None
    assert bindings_in(Source(data, data, ()), body) == []


# -------------------------------------------------- launches, values, enumerators, flags


def test_a_launch_through_a_local_variable_names_the_kernel_it_was_set_to() -> None:
    c = facts(
        "void run(Params params) {\n"
        "  auto kernel = &flash_fwd_kernel<Traits, true>;\n"
        "  kernel<<<grid, 128, smem, stream>>>(params);\n"
        "  other<<<1, 1>>>();\n"
        "}\n",
        "launch.cu",
    )
    assert [(k.kernel, k.line, k.through) for k in c.launches] == [
        ("flash_fwd_kernel", 3, "kernel"),
        ("other", 4, ""),
    ]


def test_a_launch_inside_a_define_is_listed_on_its_line_with_its_macro() -> None:
    c = facts(
        "#define LAUNCH_SOFTMAX_WARP_FORWARD(L2E) case L2E:                    \\\n"
        "        softmax_warp_forward<input_t, output_t, acc_t, L2E, is_log_softmax> \\\n"
        "            <<<blocks, threads, 0, stream>>>(dst, src, batch_count); \\\n"
        "        break;\n",
        "PersistentSoftmax.cuh",
    )
    assert [(k.kernel, k.line, k.config, k.in_macro) for k in c.launches] == [
        ("softmax_warp_forward", 3, "blocks, threads, 0, stream", "LAUNCH_SOFTMAX_WARP_FORWARD")
    ]
    macro = named(c, "LAUNCH_SOFTMAX_WARP_FORWARD")
    assert (macro.line, macro.end_line) == (1, 4)
    assert macro.value.splitlines() == [
        "case L2E:",
        "softmax_warp_forward<input_t, output_t, acc_t, L2E, is_log_softmax>",
        "    <<<blocks, threads, 0, stream>>>(dst, src, batch_count);",
        "break;",
    ]


def test_a_macro_s_value_tells_its_conditional_twins_apart() -> None:
    c = facts(
        "#ifdef C10_DISABLE_TENSORIMPL_EXTENSIBILITY\n"
        "#define TENSORIMPL_MAYBE_VIRTUAL\n"
        "#else\n"
        "#define TENSORIMPL_MAYBE_VIRTUAL virtual\n"
        "#endif\n",
        "TensorImpl.h",
    )
    assert [(d.line, d.value) for d in c.definitions] == [(2, ""), (4, "virtual")]


def test_enumerators_are_names_of_their_enum_with_their_values() -> None:
    c = facts(
        "namespace c10 {\n"
        "struct TensorImpl {\n"
        "  enum class SizesStridesPolicy : uint8_t {\n"
        "    Default = 0,\n"
        "    CustomStrides = 1,\n"
        "    CustomSizes = 2,\n"
        "  };\n"
        "  enum { kAnonymous };\n"
        "};\n"
        "enum FieldNameEnum {\n"
        "  key_set_,\n"
        "  TOTAL_SIZE\n"  # the last value alone on its line: no macro's use
        "};\n"
        "}\n",
        "TensorImpl.h",
    )
    got = [(d.qualname, d.line, d.value) for d in c.definitions if d.kind == "enumerator"]
    assert got == [
        ("c10::TensorImpl::SizesStridesPolicy::Default", 4, "0"),
        ("c10::TensorImpl::SizesStridesPolicy::CustomStrides", 5, "1"),
        ("c10::TensorImpl::SizesStridesPolicy::CustomSizes", 6, "2"),
        ("c10::TensorImpl::kAnonymous", 8, ""),
        ("c10::FieldNameEnum::key_set_", 11, ""),
        ("c10::FieldNameEnum::TOTAL_SIZE", 12, ""),
    ]


def test_flags_are_declared_and_defined_with_their_default_and_help() -> None:
    c = facts(
        "C10_DECLARE_bool(caffe2_keep_on_shrink);\n"
        "C10_DEFINE_int64(\n"
        "    caffe2_max_keep_on_shrink_memory,\n"
        "    1 << 20,\n"
        '    "The maximum memory in bytes to keep on shrink, if the difference is larger");\n'
    )
    declared = named(c, "caffe2_keep_on_shrink")
    assert (declared.kind, declared.is_definition, declared.value) == ("flag", False, "")
    defined = named(c, "caffe2_max_keep_on_shrink_memory")
    assert (defined.kind, defined.is_definition, defined.value, defined.line) == (
        "flag",
        True,
        "1 << 20",
        2,
    )
    assert (
        defined.doc == "The maximum memory in bytes to keep on shrink, if the difference is larger"
    )
    assert defined.declaration.startswith("C10_DEFINE_int64(caffe2_max_keep_on_shrink_memory, ")
    assert command_line_flag('DEFINE_string(path, "", "Where")') is not None
    assert command_line_flag('C10_DEFINE_typed_var(int, n, 1, "N")') == ("n", True, "1", "N")
    assert command_line_flag("DEFINE_DISPATCH(add_stub)") is None


def test_parameter_types_pair_as_the_compiler_would_match_them() -> None:
    from docgen.index.symbols import parameter_types

    header = parameter_types("const at::Tensor & self, int64_t dim, const at::Tensor & out")
    kernel = parameter_types("const Tensor& input, const int64_t dim, const Tensor& output")
    assert header == kernel == "constTensor&,int64_t,constTensor&"
    # a `const` that makes a pointer or a reference differ is kept
    assert parameter_types("const int* p") != parameter_types("int* p")
    assert parameter_types("std::vector<int> v, int const n") == "vector<int>,int"
