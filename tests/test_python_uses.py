"""`docgen find NAME --uses`: the uses of a Python definition in the tree's Python code,
through imports and re-exports (`docgen.index.python_uses`)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from conftest import built_tree

from docgen.analyze.summary import FileSummary
from docgen.cli.main import cli
from docgen.index.graph import ModuleImports, build_graph
from docgen.index.python_uses import DefinitionFinder, modules_text, read_modules
from docgen.model.facts import Import

# torch/distributed's shape: a package re-exports its module's functions with `*`.
TREE = {
    "dist/__init__.py": (
        "from .c10d import *\nfrom . import tools\n\ndef first(t):\n    return all_reduce(t)\n"
    ),
    "dist/c10d.py": (
        '__all__ = ["all_reduce", "ProcessGroup"]\n\n'
        "def all_reduce(tensor):\n    return tensor\n\n"
        "class ProcessGroup:\n    def allreduce(self, t):\n        return all_reduce(t)\n\n"
        "def _private():\n    pass\n"
    ),
    "dist/tools.py": "def helper():\n    pass\n",
    # relative imports, one of them climbing above the tree's top package
    "dist/sub/relay.py": (
        "from ..c10d import all_reduce as ar\nfrom ... import nothing\nfrom . import deep\n\n"
        "def go(t):\n    deep.run()\n    return ar(t)\n"
    ),
    "dist/sub/deep.py": "from .. import tools\n\ndef run():\n    tools.helper()\n",
    "app/train.py": (
        "import dist\nfrom dist import all_reduce\nfrom dist.c10d import ProcessGroup as PG\n\n"
        "def step(t):\n    all_reduce(t)\n    dist.all_reduce(t)\n    return PG\n\n"
        "def shadowed(all_reduce):\n    return all_reduce()\n"
    ),
    "app/other.py": (
        "import numpy\nfrom dist import tools\n\n"
        "def all_reduce(x):\n    return numpy.all_reduce(x)\n\n"
        "def run():\n    tools.helper()\n    return all_reduce(1)\n"
    ),
    "app/opts.py": "from dist.c10d import ProcessGroup\n\nOPTS = ProcessGroup.allreduce\n",
    "app/sub.py": (
        "from dist.c10d import ProcessGroup\n\nclass Mine(ProcessGroup):\n"
        "    def allreduce(self, t):\n        return super().allreduce(t)\n"
    ),
    "dist/_C.pyi": "class Store:\n    def get(self, key: str) -> bytes: ...\n",
    "dist/store.py": "from dist._C import Store\n\ndef make():\n    return Store()\n",
    "tests/test_train.py": (
        "from dist.c10d import all_reduce\n\ndef test_it():\n    all_reduce(0)\n"
    ),
}


def _uses(out: Path, name: str) -> tuple[int, list[str]]:
    result = CliRunner().invoke(cli, ["find", name, "--uses", "--out", str(out)])
    return result.exit_code, result.output.splitlines()


def test_uses_through_imports_and_a_star_reexport_and_never_a_namesake(tmp_path: Path) -> None:
    out = built_tree(tmp_path, TREE)
    code, lines = _uses(out, "dist.c10d.all_reduce")
    assert code == 0
    assert lines == [
        "app/train.py:2: import all_reduce (dist.all_reduce)",
        "app/train.py:6: use all_reduce (dist.all_reduce)",
        "app/train.py:7: use dist.all_reduce (dist.all_reduce)",
        "dist/__init__.py:5: use all_reduce (dist.c10d.all_reduce)",  # bound by the star
        "dist/sub/relay.py:1: import ar (dist.c10d.all_reduce)",
        "dist/sub/relay.py:7: use ar (dist.c10d.all_reduce)",
        "tests/test_train.py:1: import all_reduce (dist.c10d.all_reduce)",
        "tests/test_train.py:4: use all_reduce (dist.c10d.all_reduce)",
    ]
    # `app/other.py` defines an `all_reduce` of its own and calls numpy's: asked by the
    # bare name, both definitions answer, each with its own uses only
    code, bare = _uses(out, "all_reduce")
    assert code == 0 and set(lines) <= set(bare)
    assert [line for line in bare if line not in lines] == []  # `other.py` calls it unimported


def test_a_class_and_a_submodule_s_function(tmp_path: Path) -> None:
    out = built_tree(tmp_path, TREE)
    assert _uses(out, "ProcessGroup")[1] == [
        "app/opts.py:1: import ProcessGroup (dist.c10d.ProcessGroup)",
        "app/opts.py:3: use ProcessGroup (dist.c10d.ProcessGroup)",  # read through
        "app/sub.py:1: import ProcessGroup (dist.c10d.ProcessGroup)",
        "app/sub.py:3: use ProcessGroup (dist.c10d.ProcessGroup)",  # a base
        "app/train.py:3: import PG (dist.c10d.ProcessGroup)",
        "app/train.py:8: use PG (dist.c10d.ProcessGroup)",
    ]
    assert _uses(out, "allreduce")[1] == [
        "app/opts.py:3: use ProcessGroup.allreduce (dist.c10d.ProcessGroup.allreduce)",
        "app/sub.py:5: use super().allreduce (dist.c10d.ProcessGroup.allreduce)",
    ]
    assert _uses(out, "helper")[1] == [
        "app/other.py:8: use tools.helper (dist.tools.helper)",
        "dist/sub/deep.py:4: use tools.helper (dist.tools.helper)",
    ]
    assert _uses(out, "run")[1] == ["dist/sub/relay.py:6: use deep.run (dist.sub.deep.run)"]
    # a class made in C++, which only a stub defines in Python
    assert _uses(out, "Store")[1] == [
        "dist/store.py:1: import Store (dist._C.Store)",
        "dist/store.py:4: use Store (dist._C.Store)",
    ]


def test_a_name_without_uses_or_definition_exits_1(tmp_path: Path) -> None:
    out = built_tree(tmp_path, TREE)
    assert _uses(out, "_private") == (1, [])
    assert _uses(out, "nowhere") == (1, [])
    result = CliRunner().invoke(cli, ["find", "all_*", "--uses", "--out", str(out)])
    assert result.exit_code == 2 and "--uses takes one exact NAME" in result.output


def _summary(imports: list[Import], top: list[tuple[str, str]]) -> FileSummary:
    return FileSummary("python", 1, (), (), imports, False, (), tuple(top), None)


def test_the_finder_stops_at_a_cycle_of_reexports() -> None:
    """`a` imports `x` from `b` and `b` from `a`: no definition, and no endless walk."""
    summaries = {
        "a.py": _summary([Import(1, "b", ("x",), (("x", "b.x"),), is_from=True)], []),
        "b.py": _summary([Import(1, "a", ("x",), (("x", "a.x"),), is_from=True)], []),
    }
    finder = DefinitionFinder({"a": "a.py", "b": "b.py"}, summaries.get)
    assert finder.find("a.x") is None
    assert finder.find("a") == ("a.py", "")


def test_the_stored_modules_read_back_with_stubs_for_modules_without_code() -> None:
    graph = build_graph(
        ModuleImports(path, "python", ()) for path in ("a/__init__.py", "b.py", "a/_C.pyi", "b.pyi")
    )
    assert read_modules(modules_text(graph)) == {
        "a": "a/__init__.py",
        "a._C": "a/_C.pyi",
        "b": "b.py",  # its stub stands for no module of its own
    }
    assert (
        read_modules("{not json") == {} and read_modules("[1]") == {} and read_modules(None) == {}
    )


def test_a_method_called_through_self_in_a_subclass_and_in_its_own_class(tmp_path: Path) -> None:
    out = built_tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/base.py": "class Base:\n    def helper(self):\n        pass\n",
            "pkg/sub.py": (
                "from pkg.base import Base\n\n"  # 1-2
                "class Sub(Base):\n"  # 3
                "    def run(self):\n"  # 4
                "        self.helper()\n"  # 5
                "        self.own()\n"  # 6
                "    def own(self):\n"  # 7
                "        pass\n"
            ),
        },
    )
    result = CliRunner().invoke(cli, ["find", "helper", "--uses", "--out", str(out)])
    assert result.stdout.splitlines() == ["pkg/sub.py:5: use self.helper (pkg.base.Base.helper)"]
    base = (out / "pkg/base.py_docs.md").read_text(encoding="utf-8")
    assert "- Used in 1 other file, on 1 line:" in base
    sub = (out / "pkg/sub.py_docs.md").read_text(encoding="utf-8")
    own = sub[sub.index("#### method `Sub.own`") :]
    assert "- Used in: this file, through `self`;" in own
    run = sub[sub.index("#### method `Sub.run`") : sub.index("#### method `Sub.own`")]
    assert "Used in" not in run  # nothing says where an object of `Sub` runs it
