"""Security findings from a module's `ast` tree: each kind, name resolution, no false alarms."""

from __future__ import annotations

import ast
import textwrap

import hypothesmith
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docgen.model.facts import Finding
from docgen.scan.python.security import security_findings


def calls_of(tree: ast.AST) -> list[ast.Call]:
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call)]


def scan(source: str) -> list[Finding]:
    tree = ast.parse(textwrap.dedent(source))
    return security_findings(tree, calls_of(tree))


def found(source: str) -> list[tuple[int, str, str]]:
    """(line, kind, subject) of every finding."""
    return [(f.line, f.kind, f.subject) for f in scan(source)]


def only(source: str) -> Finding:
    findings = scan(source)
    assert len(findings) == 1, findings
    return findings[0]


# --- one positive per kind, through several spellings of the import ---------

POSITIVES = [
    # eval-exec: only the builtins, only with a non-literal first argument
    ("eval(expr)", "eval-exec", "eval"),
    ("exec(code, {})", "eval-exec", "exec"),
    ("exec(f'x = {y}')", "eval-exec", "exec"),
    ("eval(compile(src, 'f', 'eval'))", "eval-exec", "eval"),
    ("import builtins\nbuiltins.exec(code)", "eval-exec", "builtins.exec"),
    # pickle-load
    ("import pickle\npickle.load(f)", "pickle-load", "pickle.load"),
    ("import pickle as pk\npk.loads(b)", "pickle-load", "pickle.loads"),
    ("from pickle import loads\nloads(b)", "pickle-load", "pickle.loads"),
    ("from pickle import Unpickler as U\nU(f).load()", "pickle-load", "pickle.Unpickler"),
    ("import cPickle\ncPickle.loads(b)", "pickle-load", "cPickle.loads"),
    ("import _pickle\n_pickle.load(f)", "pickle-load", "_pickle.load"),
    ("import marshal\nmarshal.loads(b)", "pickle-load", "marshal.loads"),
    ("import dill\ndill.load(f)", "pickle-load", "dill.load"),
    ("from joblib import load\nload('m.pkl')", "pickle-load", "joblib.load"),
    ("import shelve\nshelve.open('db')", "pickle-load", "shelve.open"),
    # torch-load
    ("import torch\ntorch.load(f)", "torch-load", "torch.load"),
    ("from torch import load\nload(f, weights_only=False)", "torch-load", "torch.load"),
    ("import torch as t\nt.load(f, weights_only=flag)", "torch-load", "torch.load"),
    (
        "import torch.serialization\ntorch.serialization.load(f)",
        "torch-load",
        "torch.serialization.load",
    ),
    # yaml-load
    ("import yaml\nyaml.load(s)", "yaml-load", "yaml.load"),
    ("import yaml\nyaml.load(s, Loader=yaml.Loader)", "yaml-load", "yaml.load"),
    ("import yaml\nyaml.load_all(s, yaml.UnsafeLoader)", "yaml-load", "yaml.load_all"),
    ("from yaml import load, Loader\nload(s, Loader=Loader)", "yaml-load", "yaml.load"),
    ("import yaml\nyaml.unsafe_load(s)", "yaml-load", "yaml.unsafe_load"),
    ("import yaml\nyaml.unsafe_load_all(s)", "yaml-load", "yaml.unsafe_load_all"),
    ("import yaml\nyaml.load(s, Loader=self.loader)", "yaml-load", "yaml.load"),
    ("import yaml\nclass W(yaml.Loader):\n    pass\nyaml.load(s, W)", "yaml-load", "yaml.load"),
    (
        "import yaml\nclass W(yaml.SafeLoader):\n    pass\nL = W\nL = yaml.Loader\nyaml.load(s, L)",
        "yaml-load",
        "yaml.load",
    ),
    # shell
    ("import subprocess\nsubprocess.run(cmd, shell=True)", "shell", "subprocess.run"),
    ("import subprocess as sp\nsp.Popen(cmd, shell=True)", "shell", "subprocess.Popen"),
    (
        "from subprocess import check_output\ncheck_output(c, shell=True)",
        "shell",
        "subprocess.check_output",
    ),
    ("import subprocess\nsubprocess.getoutput(cmd)", "shell", "subprocess.getoutput"),
    ("import subprocess\nsubprocess.getstatusoutput(cmd)", "shell", "subprocess.getstatusoutput"),
    # os-system
    ("import os\nos.system(cmd)", "os-system", "os.system"),
    ("from os import system\nsystem(cmd)", "os-system", "os.system"),
    ("import os.path\nos.popen(cmd)", "os-system", "os.popen"),
    ("import commands\ncommands.getoutput(cmd)", "os-system", "commands.getoutput"),
    # mktemp
    ("import tempfile\ntempfile.mktemp()", "mktemp", "tempfile.mktemp"),
    ("from tempfile import mktemp as m\nm(suffix='.x')", "mktemp", "tempfile.mktemp"),
    # tls-off
    ("import requests\nrequests.get(u, verify=False)", "tls-off", "requests.get"),
    ("from httpx import Client\nClient(verify=False)", "tls-off", "httpx.Client"),
    ("self.session.post(u, verify=False)", "tls-off", "self.session.post"),
    ("make().request('GET', u, verify=False)", "tls-off", ".request"),
    ("import ssl\nssl._create_unverified_context()", "tls-off", "ssl._create_unverified_context"),
    (
        "import urllib3, ssl\nurllib3.PoolManager(cert_reqs=ssl.CERT_NONE)",
        "tls-off",
        "urllib3.PoolManager",
    ),
    (
        "import urllib3\nurllib3.PoolManager(cert_reqs='CERT_NONE')",
        "tls-off",
        "urllib3.PoolManager",
    ),
]


@pytest.mark.parametrize(("source", "kind", "subject"), POSITIVES)
def test_each_kind_is_found_through_its_import(source: str, kind: str, subject: str) -> None:
    finding = only(source)
    assert (finding.category, finding.kind, finding.subject) == ("security", kind, subject)
    assert finding.line == source.count("\n") + 1  # the call is on the last line
    assert f"`{subject}`" in finding.message or kind == "tls-off"
    assert "\n" not in finding.message


NEGATIVES = [
    # eval-exec
    "eval('1 + 1')",
    "exec('import os')",
    "exec(b'x = 1')",
    "self.eval()",
    "model.eval()",
    "obj.evaluate(x)",
    "import ast\nast.literal_eval(s)",
    "def eval(x):\n    return x\neval(y)",
    "from mylib import exec\nexec(code)",
    "from .helpers import eval\neval(x)",
    "eval = my_eval\neval(x)",
    "def run(exec):\n    exec(job)",
    "eval()",
    # pickle-load
    "import pickle\npickle.dumps(x)",
    "import pickle\npickle.dump(x, f)",
    "def load(path):\n    return path\nload(x)",
    "load(x)",
    "pickle.loads(b)",  # never imported: not known to be pickle
    "from . import pickle\npickle.loads(b)",
    "class Unpickler(pickle.Unpickler):\n    pass\nUnpickler(f)",
    "import pickle\ndef f(pickle_module=pickle):\n    pickle_module = pickle\n"
    "def g(pickle_module):\n    pickle_module.load(f)",
    "import shelve\nopen('x')",
    # torch-load
    "import torch\ntorch.load(f, weights_only=True)",
    "import torch\ntorch.jit.load(f)",
    "import torch\ntorch.hub.load('repo', 'model')",
    "import torch\nmodel.load_state_dict(sd)",
    # yaml-load
    "import yaml\nyaml.safe_load(s)",
    "import yaml\nyaml.safe_load_all(s)",
    "import yaml\nyaml.load(s, Loader=yaml.SafeLoader)",
    "import yaml\nyaml.load(s, yaml.CSafeLoader)",
    "import yaml\nyaml.load_all(s, Loader=yaml.BaseLoader)",
    "from yaml import CSafeLoader as L\nimport yaml\nyaml.load(s, Loader=L)",
    "import yaml\ntry:\n    from yaml import CSafeLoader as L\nexcept ImportError:\n"
    "    from yaml import SafeLoader as L\nyaml.load(s, Loader=L)",
    "import yaml\nyaml.load(s, Loader=getattr(yaml, 'CSafeLoader', yaml.SafeLoader))",
    "import yaml\nyaml.load(s, Loader=yaml.CSafeLoader if fast else yaml.SafeLoader)",
    "import yaml\nclass My(yaml.SafeLoader):\n    pass\nclass Mine(My):\n    pass\n"
    "yaml.load(s, Loader=Mine)",
    "import yaml\nclass W(yaml.SafeLoader):\n    pass\ndef f(s):\n    loader = W\n"
    "    return yaml.load(s, loader)",
    # shell
    "import subprocess\nsubprocess.run(['ls'])",
    "import subprocess\nsubprocess.run(cmd, shell=False)",
    "import subprocess\nsubprocess.Popen(cmd, shell=use_shell)",
    "import subprocess\nsubprocess.check_call(cmd, shell='yes')",
    # os-system
    "import os\nos.path.join(a, b)",
    "system(cmd)",
    "import os\ndef system(c):\n    return c\nsystem(cmd)",
    # mktemp
    "import tempfile\ntempfile.mkstemp()",
    "import tempfile\ntempfile.NamedTemporaryFile()",
    # tls-off
    "import requests\nrequests.get(u)",
    "import requests\nrequests.get(u, verify=True)",
    "import requests\nrequests.get(u, verify=ca_path)",
    "cache.lookup(key, verify=False)",
    "import ssl\nssl.create_default_context()",
    "import ssl\nctx.verify_mode = ssl.CERT_REQUIRED",
    # mentions that are no calls
    "'''pickle.loads(b) and eval(x)'''\nimport pickle\n# os.system(cmd)\ns = 'yaml.load(x)'",
]


@pytest.mark.parametrize("source", NEGATIVES)
def test_no_false_positives(source: str) -> None:
    assert scan(source) == []


# --- messages say what is wrong with this call ---------------------------------


def test_torch_load_message_tells_missing_from_wrong() -> None:
    missing = only("import torch\ntorch.load(f)").message
    wrong = only("import torch\ntorch.load(f, weights_only=False)").message
    variable = only("import torch\ntorch.load(f, weights_only=trust)").message
    spread = only("import torch\ntorch.load(f, **options)").message
    assert "without `weights_only=True`" in missing
    assert "`weights_only=False`" in wrong
    assert "`weights_only=trust`" in variable
    assert "`**`" in spread
    assert len({missing, wrong, variable, spread}) == 4


def test_yaml_message_names_the_loader() -> None:
    assert (
        "`Loader=yaml.UnsafeLoader`" in only("import yaml\nyaml.load(s, yaml.UnsafeLoader)").message
    )
    assert "without a safe `Loader`" in only("import yaml\nyaml.load(s)").message


def test_quoted_source_is_short_and_safe_for_markdown() -> None:
    long_value = "import torch\ntorch.load(f, weights_only=" + "x" * 200 + ")"
    backtick = "import torch\ntorch.load(f, weights_only='`')"
    assert len(only(long_value).message) < 150
    assert only(backtick).message.count("`") % 2 == 0


def test_full_load_is_not_a_finding() -> None:
    """FullLoader refuses arbitrary objects since PyYAML 5.4: see the module docstring."""
    assert scan("import yaml\nyaml.full_load(s)\nyaml.load(s, Loader=yaml.FullLoader)") == []


# --- name resolution ------------------------------------------------------------


def test_imports_in_nested_blocks_resolve() -> None:
    source = """
        import torch

        class Store:
            def read(self, f):
                try:
                    import cPickle as pickle
                except ImportError:
                    import pickle
                if f:
                    with open(f) as fh:
                        return pickle.load(fh)
    """
    assert found(source) == [(12, "pickle-load", "cPickle.load")]


def test_import_of_a_submodule_binds_the_package() -> None:
    assert found("import os.path\nos.system(c)") == [(2, "os-system", "os.system")]
    assert found("import os.path as osp\nosp.system(c)") == []  # os.path.system: no rule


def test_simple_assignment_is_an_alias() -> None:
    assert found("import pickle\n_load = pickle.loads\n_load(b)") == [
        (3, "pickle-load", "pickle.loads")
    ]


def test_renamed_callees_resolve() -> None:
    """A bare name that is not the risky function's own name, at module level or nested."""
    assert found("import os\nsh = os.system\nsh(c)") == [(3, "os-system", "os.system")]
    assert found("e = eval\ne(x)") == [(2, "eval-exec", "eval")]
    nested = """
        import torch
        def read(f):
            from pickle import loads as unpack
            return unpack(f.read()), torch.load(f, weights_only=True)
    """
    assert found(nested) == [(5, "pickle-load", "pickle.loads")]


def test_assignment_to_something_else_makes_the_alias_unclear() -> None:
    source = "import pickle\nload = pickle.load\nif fast:\n    load = json.load\nload(f)"
    assert found(source) == []


def test_optional_import_fallback_keeps_the_module() -> None:
    source = "try:\n    import yaml\nexcept ImportError:\n    yaml = None\nyaml.load(s)"
    assert found(source) == [(5, "yaml-load", "yaml.load")]


def test_a_method_named_like_an_import_does_not_shadow_it() -> None:
    source = "from pickle import load\nclass A:\n    def load(self):\n        pass\nload(f)"
    assert found(source) == [(5, "pickle-load", "pickle.load")]


def test_a_parameter_named_eval_shadows_it_in_its_own_function_only() -> None:
    source = """
        def check(template, args):
            return eval(template + args)

        class Manager:
            async def __aexit__(self, etype, eval, tb):
                return eval(etype)

        def run(code):
            exec(code, {})

        def nested(exec):
            def inner(code):
                exec(code)
            return inner
        """
    assert found(source) == [(3, "eval-exec", "eval"), (10, "eval-exec", "exec")]


def test_eval_bound_at_module_level_shadows_it_everywhere() -> None:
    source = "def eval(x):\n    return x\ndef f(s):\n    return eval(s)\n"
    assert found(source) == []


def test_relative_imports_resolve_to_nothing() -> None:
    assert found("from .torch import load\nload(f)") == []
    assert found("from . import torch\ntorch.load(f)") == []


def test_star_import_binds_nothing() -> None:
    assert found("from pickle import *\nloads(b)") == []


# --- statement-level TLS switches -----------------------------------------------


def test_tls_assignments() -> None:
    source = """
        import ssl
        ctx = ssl.create_default_context()
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
        ssl._create_default_https_context = ssl._create_unverified_context
    """
    assert found(source) == [
        (4, "tls-off", "ctx.check_hostname"),
        (5, "tls-off", "ctx.verify_mode"),
        (6, "tls-off", "ssl._create_default_https_context"),
    ]


# --- output shape ------------------------------------------------------------------


def test_sorted_and_deduplicated_whatever_the_call_order() -> None:
    source = """
        import os, pickle, subprocess, yaml
        yaml.load(s); os.system(c)
        pickle.loads(b)
        subprocess.run(c, shell=True); eval(e)
    """
    tree = ast.parse(textwrap.dedent(source))
    calls = calls_of(tree)
    expected = [
        (3, "os-system", "os.system"),
        (3, "yaml-load", "yaml.load"),
        (4, "pickle-load", "pickle.loads"),
        (5, "eval-exec", "eval"),
        (5, "shell", "subprocess.run"),
    ]
    for order in (calls, calls[::-1], calls + calls):
        result = security_findings(tree, order)
        assert [(f.line, f.kind, f.subject) for f in result] == expected


def test_two_calls_on_one_line_make_one_finding() -> None:
    assert found("import pickle\nx = pickle.loads(a) + pickle.loads(b)") == [
        (2, "pickle-load", "pickle.loads")
    ]


def test_no_calls_no_findings() -> None:
    assert security_findings(ast.parse("import pickle\n"), []) == []


# --- never raises -------------------------------------------------------------------

PIECES = st.sampled_from(
    [
        "import pickle as p",
        "from yaml import load, SafeLoader as S",
        "import torch, os, subprocess as sp, ssl, requests",
        "from . import eval",
        "from x import *",
        "p.load(f)",
        "load(s, Loader=S)",
        "load(s, getattr(yaml, 'X'), 1, 2)",
        "torch.load(f, **kw, weights_only=None)",
        "sp.run(c, shell=True, **kw)",
        "eval(*args)",
        "exec()",
        "os.system()",
        "(lambda: 0)()(verify=False, cert_reqs=0)",
        "f()[0].get(verify=False)",
        "ctx.check_hostname = ctx.verify_mode = ssl.CERT_NONE",
        "a, b = p.load, p",
        "x: int",
        "class C(getattr(yaml, 'SafeLoader')):\n    def m(eval, *a, **k): eval(a)",
    ]
)


@given(st.lists(PIECES, max_size=8))
def test_never_raises_on_mixed_pieces(pieces: list[str]) -> None:
    findings = scan("\n".join(pieces))
    keys = [(f.line, f.kind, f.subject) for f in findings]
    assert keys == sorted(set(keys))


@pytest.mark.filterwarnings("ignore::SyntaxWarning")
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(hypothesmith.from_grammar())
def test_never_raises_on_generated_python(source: str) -> None:
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return
    findings = security_findings(tree, calls_of(tree))
    call_lines = {call.lineno for call in calls_of(tree)}
    assert all(f.line in call_lines or f.kind == "tls-off" for f in findings)
