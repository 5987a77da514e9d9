"""`[tool.docgen]` configuration: read, checked key by key, before anything runs.

A target repository configures docgen in its own `pyproject.toml` (or any TOML
file given with `--config`); command-line flags override it.  Every mistake is
a UsageError that names the key, so a CI log shows what to fix.
"""

from __future__ import annotations

import difflib
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from docgen.model.errors import UsageError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib


@dataclass(frozen=True)
class Config:
    """What a configuration file asks for; None or () where it is silent.

    Paths (`out`, `templates`) are absolute: relative ones are taken from the
    folder of the file that holds them, as a user reading that file expects.
    """

    source: str = ""  # "path/pyproject.toml [tool.docgen]", for messages; "" when none
    out: Path | None = None
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    project: str | None = None
    source_roots: tuple[str, ...] | None = None
    templates: tuple[Path, ...] = ()
    max_file_size: int | None = None
    jobs: int | None = None
    include_roots: tuple[str, ...] | None = None
    cpp_macros: tuple[str, ...] = ()
    executor: str | None = None  # checked where the build's options are resolved


def load_config(repo: Path, config_file: Path | None = None) -> Config:
    """The configuration for `repo`: `config_file` when given, else the repository's
    `pyproject.toml` `[tool.docgen]` table, else an empty Config."""
    if config_file is not None:
        path = config_file.expanduser()
        if not path.is_file():
            raise UsageError(f"configuration file does not exist: {path}")
        data = _read_toml(path)
        tool = data.get("tool")
        if isinstance(tool, dict) and "docgen" in tool:
            return _parse(tool["docgen"], path, f"{path} [tool.docgen]")
        return _parse(data, path, str(path))
    pyproject = repo / "pyproject.toml"
    if not pyproject.is_file() or repo.resolve() not in pyproject.resolve().parents:
        return Config()  # none, or a link out of the repository (never read)
    data = _read_toml(pyproject)
    tool = data.get("tool")
    if not isinstance(tool, dict) or "docgen" not in tool:
        return Config()
    return _parse(tool["docgen"], pyproject, f"{pyproject} [tool.docgen]")


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as handle:
            data: dict[str, Any] = tomllib.load(handle)
            return data
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{path}: not valid TOML: {exc}") from exc
    except OSError as exc:
        raise UsageError(f"{path}: cannot be read: {exc.strerror or exc}") from exc


def _parse(table: object, path: Path, source: str) -> Config:
    if not isinstance(table, dict):
        raise UsageError(f"{source}: must be a table of settings")
    unknown = sorted(set(table) - set(_READERS))
    if unknown:
        key = unknown[0]
        close = difflib.get_close_matches(key.replace("-", "_"), list(_READERS), n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        known = ", ".join(sorted(_READERS))
        raise UsageError(f"{source}: unknown key '{key}'{hint}; known keys: {known}")
    base = path.resolve().parent
    values: dict[str, Any] = {}
    for key, value in sorted(table.items()):
        values[key] = _READERS[key](value, base, f"{source}: '{key}'")
    return Config(source=source, **values)


# --- one reader per key: (value, folder of the file, what to call it) -> checked value --


def _string(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise UsageError(f"{what} must be a string, got {_type_name(value)}")
    return value


def _strings(value: object, what: str) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise UsageError(f"{what} must be a list of strings, got {_type_name(value)}")
    return tuple(value)


def _positive(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise UsageError(f"{what} must be a positive whole number, got {value!r}")
    return value


def _read_out(value: object, base: Path, what: str) -> Path:
    text = _string(value, what)
    if not text.strip():
        raise UsageError(f"{what} must not be empty")
    # Made absolute, not resolved: a link on the way is the options' to judge.
    return Path(os.path.abspath(base / Path(text).expanduser()))


def _read_patterns(value: object, base: Path, what: str) -> tuple[str, ...]:
    patterns = _strings(value, what)
    if patterns:  # pathspec loads only where there are patterns (see `docgen.discover.gitignore`)
        import pathspec
    for pattern in patterns:
        try:
            pathspec.GitIgnoreSpec.from_lines([pattern])
        except Exception as exc:  # pathspec's own error types vary between versions
            raise UsageError(f"{what}: '{pattern}' is not a gitignore pattern ({exc})") from exc
    return patterns


def _read_project(value: object, base: Path, what: str) -> str:
    text = _string(value, what).strip()
    if not text:
        raise UsageError(f"{what} must not be empty")
    return text


def _read_source_roots(value: object, base: Path, what: str) -> tuple[str, ...]:
    roots: list[str] = []
    for root in _strings(value, what):
        clean = root.replace("\\", "/").strip("/")
        clean = "" if clean in ("", ".") else clean
        if clean.startswith("../") or clean == ".." or Path(root).is_absolute():
            raise UsageError(f"{what}: '{root}' must be a folder inside the repository")
        if clean not in roots:
            roots.append(clean)
    return tuple(roots)


def _read_cpp_macros(value: object, base: Path, what: str) -> tuple[str, ...]:
    """Macro names to blank before parsing C-family files: `NAME`, or `NAME()` for
    a function-like macro whose argument list goes with it."""
    names: list[str] = []
    for name in _strings(value, what):
        bare = name.removesuffix("()")
        if not bare.isidentifier():
            raise UsageError(f"{what}: '{name}' is not a macro name (write NAME or NAME())")
        if name not in names:
            names.append(name)
    return tuple(sorted(names))


def _read_templates(value: object, base: Path, what: str) -> tuple[Path, ...]:
    return tuple((base / Path(t).expanduser()).resolve() for t in _strings(value, what))


def _read_max_file_size(value: object, base: Path, what: str) -> int:
    return _positive(value, what)


def _read_jobs(value: object, base: Path, what: str) -> int:
    return _positive(value, what)


def _read_executor(value: object, base: Path, what: str) -> str:
    return _string(value, what)


def _type_name(value: object) -> str:
    names = {str: "a string", bool: "a boolean", int: "a number", float: "a number"}
    return names.get(type(value), "a table" if isinstance(value, dict) else "a list")


_READERS: Mapping[str, Callable[[object, Path, str], Any]] = MappingProxyType(
    {
        "out": _read_out,
        "include": _read_patterns,
        "exclude": _read_patterns,
        "project": _read_project,
        "source_roots": _read_source_roots,
        "include_roots": _read_source_roots,
        "cpp_macros": _read_cpp_macros,
        "templates": _read_templates,
        "max_file_size": _read_max_file_size,
        "jobs": _read_jobs,
        "executor": _read_executor,
    }
)
