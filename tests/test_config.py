"""`[tool.docgen]` and `--config`: every key read, every mistake named, flags win."""

from __future__ import annotations

from pathlib import Path

import pytest

from docgen.cli.build_options import resolve_options
from docgen.discover.config import Config, load_config
from docgen.model.errors import UsageError
from docgen.model.options import DEFAULT_MAX_EMBED_BYTES


def write_pyproject(repo: Path, body: str) -> None:
    repo.mkdir(parents=True, exist_ok=True)
    (repo / "pyproject.toml").write_text(body, encoding="utf-8")


def test_no_configuration_is_an_empty_config(tmp_path: Path) -> None:
    assert load_config(tmp_path) == Config()
    write_pyproject(tmp_path, '[project]\nname = "x"\n')
    assert load_config(tmp_path) == Config()


def test_every_key_is_read_and_paths_are_relative_to_the_file(tmp_path: Path) -> None:
    write_pyproject(
        tmp_path,
        "[tool.docgen]\n"
        'out = "site/api"\n'
        'include = ["src/", "*.md"]\n'
        'exclude = "build/"\n'
        'project = " Demo "\n'
        'source_roots = ["lib", ".", "lib/"]\n'
        'templates = ["theme"]\n'
        "max_file_size = 4096\n"
        "jobs = 3\n",
    )
    config = load_config(tmp_path)
    assert config.out == (tmp_path / "site" / "api").resolve()
    assert config.include == ("src/", "*.md")
    assert config.exclude == ("build/",)
    assert config.project == "Demo"
    assert config.source_roots == ("lib", "")
    assert config.templates == ((tmp_path / "theme").resolve(),)
    assert config.max_file_size == 4096
    assert config.jobs == 3
    assert config.source.endswith("pyproject.toml [tool.docgen]")


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ("outt = 'x'", ["unknown key 'outt'", "did you mean 'out'"]),
        ("max-file-size = 1", ["unknown key 'max-file-size'", "did you mean 'max_file_size'"]),
        ("jobs = 'four'", ["'jobs' must be a positive whole number", "'four'"]),
        ("jobs = 0", ["'jobs' must be a positive whole number"]),
        ("jobs = true", ["'jobs' must be a positive whole number"]),
        ("exclude = [1, 2]", ["'exclude' must be a list of strings", "a list"]),
        ("project = 3", ["'project' must be a string, got a number"]),
        ("out = ''", ["'out' must not be empty"]),
        ("source_roots = ['../other']", ["'source_roots'", "inside the repository"]),
    ],
)
def test_a_mistake_names_the_key(tmp_path: Path, body: str, words: list[str]) -> None:
    write_pyproject(tmp_path, f"[tool.docgen]\n{body}\n")
    with pytest.raises(UsageError) as caught:
        load_config(tmp_path)
    message = str(caught.value)
    assert "pyproject.toml [tool.docgen]" in message
    for word in words:
        assert word in message
    assert "\n" not in message


def test_broken_toml_is_one_usage_error(tmp_path: Path) -> None:
    write_pyproject(tmp_path, "[tool.docgen\nout = 1\n")
    with pytest.raises(UsageError, match="not valid TOML"):
        load_config(tmp_path)


def test_a_config_file_holds_top_level_keys_or_a_tool_table(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    write_pyproject(repo, '[tool.docgen]\nproject = "from-pyproject"\n')
    plain = tmp_path / "ci" / "docgen.toml"
    plain.parent.mkdir()
    plain.write_text('project = "plain"\nout = "../pages"\n', encoding="utf-8")
    config = load_config(repo, plain)
    assert config.project == "plain"
    assert config.out == (tmp_path / "pages").resolve()
    tool = tmp_path / "other.toml"
    tool.write_text('[tool.docgen]\nproject = "tool"\n', encoding="utf-8")
    assert load_config(repo, tool).project == "tool"
    with pytest.raises(UsageError, match="does not exist"):
        load_config(repo, tmp_path / "missing.toml")


def test_flags_override_the_configuration(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    write_pyproject(repo, '[tool.docgen]\nout = "conf-out"\njobs = 3\nmax_file_size = 10\n')
    from_config = resolve_options(repo, None, None)
    assert from_config.out == (repo / "conf-out").resolve()
    assert from_config.jobs == 3
    assert from_config.max_embed_bytes == 10
    flagged = resolve_options(repo, tmp_path / "flag-out", 1)
    assert flagged.out == (tmp_path / "flag-out").resolve()
    assert flagged.jobs == 1
    bare = resolve_options(tmp_path, None, None)
    assert bare.max_embed_bytes == DEFAULT_MAX_EMBED_BYTES


def test_a_configured_out_above_the_repository_is_refused(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    write_pyproject(repo, '[tool.docgen]\nout = ".."\n')
    with pytest.raises(UsageError, match="is the repository or contains it"):
        resolve_options(repo, None, 1)


def test_a_bad_pattern_is_named(tmp_path: Path) -> None:
    write_pyproject(tmp_path, "[tool.docgen]\nexclude = ['build/', '!']\n")
    with pytest.raises(UsageError, match="'exclude': '!' is not a gitignore pattern"):
        load_config(tmp_path)
