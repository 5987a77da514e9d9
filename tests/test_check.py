"""`docgen check`: exit 0 when the docs are up to date, 1 naming what is stale; writes nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner
from conftest import child_env, copy_sample, page_files, run_build

from docgen.cli.main import cli


def _check(repo: Path) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["check", str(repo)])
    return result.exit_code, result.stdout


def test_check_follows_edits_and_writes_nothing(tmp_path: Path) -> None:
    repo = copy_sample("torchlike", tmp_path)
    out = repo / "docs" / "generated"
    assert _check(repo)[0] == 1  # nothing built yet
    run_build(repo, out)
    assert _check(repo) == (0, "")
    (repo / "minitorch" / "nn" / "modules.py").open("a").write("\ndef added():\n    pass\n")
    before = page_files(out)
    state = (out / ".docgen" / "state.sqlite").read_bytes()
    code, listing = _check(repo)
    assert code == 1
    assert "stale: minitorch/nn/modules.py_kw.md (source: minitorch/nn/modules.py)" in listing
    assert page_files(out) == before
    assert (out / ".docgen" / "state.sqlite").read_bytes() == state
    (repo / "minitorch" / "utils" / "notes.py").unlink()
    code, listing = _check(repo)
    assert "extra: minitorch/utils/notes.py_docs.md (source: minitorch/utils/notes.py)" in listing
    run_build(repo, out)
    assert _check(repo) == (0, "")


def test_check_notices_a_hand_edited_page(tmp_path: Path) -> None:
    repo = copy_sample("torchlike", tmp_path)
    out = repo / "docs" / "generated"
    run_build(repo, out)
    (out / "index.md").write_text("edited\n")
    code, listing = _check(repo)
    assert (code, listing) == (1, "stale: index.md (source: .)\n")


def test_nothing_changed_loads_neither_the_parser_nor_the_renderer(tmp_path: Path) -> None:
    """A no-op build and a check of an up-to-date tree stop after listing the files: the
    commands a commit hook runs on every commit never load libcst, the templates, the
    facts' classes or the scan workers' module; of the renderer, only the digest of
    what its pages are made from (`render/inputs.py`)."""
    repo = copy_sample("torchlike", tmp_path)
    out = tmp_path / "out"
    run_build(repo, out)
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from docgen.build import build\n"
        "from docgen.cli.check import check\n"
        "from docgen.cli.build_options import resolve_options\n"
        "options = resolve_options(Path(sys.argv[1]), Path(sys.argv[2]), 1)\n"
        "assert build(options).written == []\n"
        "assert check(options).differences == []\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('libcst', 'jinja2')\n"
        "    or m in ('docgen.scan.python.scanner', 'docgen.model.facts', 'docgen.scan.workers')\n"
        "    or m.startswith(('docgen.render', 'docgen.render.produce')))\n"
        "print(loaded)\n"
    )
    env = child_env()
    done = subprocess.run(
        [sys.executable, "-c", script, str(repo), str(out)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    inputs_only = ["docgen.render", "docgen.render.inputs", "docgen.render.template_files"]
    assert done.stdout.strip() == repr(inputs_only)
