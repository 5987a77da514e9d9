"""Objective-C in C++ headers (torch's Metal and Core ML headers): its blocks set aside
with their lines reported, the C++ around them read, `#import` followed as an include."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from test_scan_cfamily import inventory

from docgen.scan.cfamily.preprocess.objc import ObjcBlock, objective_c_blanked
from docgen.scan.cfamily.scanner import scan
from docgen.scan.cfamily.settings import ScanSettings

#: the shape of torch's `jit/backends/coreml/objc/PTMCoreMLExecutor.h`, with C++ after it
EXECUTOR = """\
#import <torch/csrc/jit/backends/coreml/objc/PTMCoreMLFeatureProvider.h>
#import "CoreML/CoreML.h"

@class MLModel;

@interface PTMCoreMLExecutor : NSObject

@property(atomic, strong) MLModel* model;

- (id<MLFeatureProvider>)forward:(NSError**)error;

@end

namespace torch {
int coreml_version();
}
"""


def test_the_block_is_reported_and_the_cpp_after_it_is_read() -> None:
    facts = scan("torch/csrc/jit/backends/coreml/objc/PTMCoreMLExecutor.h", EXECUTOR.encode())
    c = facts.cfamily
    assert c is not None
    assert c.error_lines == ()
    assert inventory(c) == {("namespace", "torch", 14), ("function", "torch::coreml_version", 15)}
    messages = [(p.line, p.message) for p in facts.problems]
    assert messages == [
        (4, "Objective-C `@class MLModel;` (to L4) not read: no grammar for it"),
        (
            6,
            "Objective-C `@interface PTMCoreMLExecutor : NSObject` (to L12) not read:"
            " no grammar for it",
        ),
    ]


def test_an_import_is_an_include() -> None:
    c = scan("Executor.h", EXECUTOR.encode(), ScanSettings()).cfamily
    assert c is not None
    assert [(i.line, i.target, i.system) for i in c.includes] == [
        (1, "torch/csrc/jit/backends/coreml/objc/PTMCoreMLFeatureProvider.h", True),
        (2, "CoreML/CoreML.h", False),
    ]


def test_a_forward_protocol_opens_no_block() -> None:
    data = b"@protocol Delegate;\nint f(void);\n@interface A\n@end\n"
    blanked, blocks = objective_c_blanked(data)
    assert blocks == (
        ObjcBlock(1, 1, "@protocol Delegate;"),
        ObjcBlock(3, 4, "@interface A"),
    )
    assert blanked.split(b"\n")[1] == b"int f(void);"


def test_a_file_whose_only_objective_c_is_a_forward_protocol_has_it_blanked() -> None:
    data = b"@protocol MTLDevice;\nint f(void);\n"
    blanked, blocks = objective_c_blanked(data)
    assert blocks == (ObjcBlock(1, 1, "@protocol MTLDevice;"),)
    assert blanked == b" " * len("@protocol MTLDevice;") + b"\nint f(void);\n"
    facts = scan("ops/mps/Device.h", data)
    assert facts.cfamily is not None and facts.cfamily.error_lines == ()


def test_an_interface_never_closed_is_left_alone() -> None:
    data = b"// see @interface in the docs\n@interface A\nint f(void);\n"
    assert objective_c_blanked(data) == (data, ())


def test_a_file_without_objective_c_is_the_same_bytes() -> None:
    data = b"int main() { return 0; }  // mail@end.org\n"
    assert objective_c_blanked(data)[0] is data


PIECES = (
    b"@interface A : B\n",
    b"- (void)f:(int)x;\n",
    b"@end\n",
    b"@class C;\n",
    b"@protocol P;\n",
    b"int g(void);\n",
    b"\n",
)


@settings(max_examples=120, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=12).map(b"".join))
def test_blanking_keeps_every_byte_in_place(data: bytes) -> None:
    blanked, blocks = objective_c_blanked(data)
    assert len(blanked) == len(data)
    assert blanked.count(b"\n") == data.count(b"\n")
    assert all(a == b or b == ord(" ") for a, b in zip(data, blanked, strict=True))
    lines, kept = data.split(b"\n"), blanked.split(b"\n")
    inside = {n for b in blocks for n in range(b.line, b.end_line + 1)}
    for block in blocks:  # each block starts on the line it names, with its head
        assert lines[block.line - 1].strip().decode() == block.head
        assert block.line <= block.end_line
    # every line outside the blocks is kept as it was, every line inside blanked
    for n, (line, after) in enumerate(zip(lines, kept, strict=True), start=1):
        assert after == (b" " * len(line) if n in inside else line)
