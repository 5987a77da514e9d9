"""A macro call given a value in a class body (`TORCH_ARG(size_t, batch_size) = 1;` in
torch's C++ options classes) is a macro's use, blanked with its `;`."""

from __future__ import annotations

from test_scan_cfamily import facts, inventory

from docgen.scan.cpp_blanking import lone_macros_blanked

OPTIONS = """\
namespace torch::optim {
struct TORCH_API AdamOptions : public OptimizerCloneableOptions<AdamOptions> {
  AdamOptions(double lr = 1e-3);
  TORCH_ARG(double, lr) = 1e-3;
  typedef std::tuple<double, double> betas_t;
  TORCH_ARG(betas_t, betas) = std::make_tuple(0.9, 0.999);
  TORCH_ARG(bool, amsgrad) = false;
  TORCH_ARG(std::optional<size_t>, max_jobs);
  double get_lr() const override;
};
} // namespace torch::optim
"""


def test_options_classes_keep_their_scope_and_no_macro_is_a_method() -> None:
    c = facts(OPTIONS, "torch/optim/adam.h", frozenset({"TORCH_API"}))
    assert c.error_lines == ()
    assert inventory(c) == {
        ("namespace", "torch", 1),
        ("namespace", "torch::optim", 1),
        ("struct", "torch::optim::AdamOptions", 2),
        ("constructor", "torch::optim::AdamOptions::AdamOptions", 3),
        ("typedef", "torch::optim::AdamOptions::betas_t", 5),
        ("method", "torch::optim::AdamOptions::get_lr", 9),
    }
    assert "TORCH_ARG" in c.neutralised


def test_the_call_and_its_value_are_blanked_to_the_semicolon() -> None:
    source = b"  TORCH_ARG(double, lr) = 1e-3;  // rate\n  bool same = A(x) == B(y);\n"
    blanked, names = lone_macros_blanked(source)
    assert blanked == b" " * 31 + b"  // rate\n  bool same = A(x) == B(y);\n"
    assert names == frozenset({"TORCH_ARG"})


def test_a_comparison_or_a_call_with_code_after_it_is_no_such_use() -> None:
    source = b"FOO(x) == 1;\nBAR(y) = 2; int z;\n"
    assert lone_macros_blanked(source) == (source, frozenset())
