"""File name to language, and the binary test."""

from __future__ import annotations

from functools import cache

#: file suffix (lower case) -> language name shown on pages
LANGUAGES_BY_SUFFIX: dict[str, str] = {
    ".py": "python",
    ".pyi": "python",
    ".md": "markdown",
    ".markdown": "markdown",
    ".rst": "rst",
    ".txt": "text",
    ".toml": "toml",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".json": "json",
    ".cfg": "ini",
    ".ini": "ini",
    ".sh": "bash",
    ".bash": "bash",
    ".c": "c",
    ".h": "c",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".cxx": "cpp",
    ".hpp": "cpp",
    ".hh": "cpp",
    ".hxx": "cpp",
    ".h++": "cpp",
    ".c++": "cpp",
    ".inl": "cpp",
    ".ipp": "cpp",
    ".tpp": "cpp",
    ".tcc": "cpp",
    ".cu": "cuda",
    ".cuh": "cuda",
    ".mm": "objective-c++",
    ".js": "javascript",
    ".ts": "typescript",
    ".html": "html",
    ".css": "css",
    ".xml": "xml",
    ".cmake": "cmake",
    ".in": "text",
    ".j2": "jinja",
    ".jinja": "jinja",
}

LANGUAGES_BY_NAME: dict[str, str] = {
    "CMakeLists.txt": "cmake",
    "Makefile": "make",
    "Dockerfile": "dockerfile",
}

BINARY_SNIFF_BYTES = 8192


#: languages the C-family scanner reads (a `.h` is "c" until the tree says C++)
C_FAMILY: frozenset[str] = frozenset({"c", "cpp", "cuda", "objective-c++"})
#: suffixes whose files are C++ source, so a tree that has one reads `.h` headers as C++
CPP_SOURCE_SUFFIXES: tuple[str, ...] = (
    ".cc",
    ".cpp",
    ".cxx",
    ".c++",
    ".cu",
    ".mm",
    ".hpp",
    ".hh",
    ".hxx",
)


#: header templates a build configures into headers (`config.h.in`, `macros.h.cmake`),
#: and textual includes (protobuf's `port_def.inc`): their `#define`s are read for
#: attribute macros, though they get no C-family page
HEADER_TEMPLATE_SUFFIXES: tuple[str, ...] = (".h.in", ".hpp.in", ".h.cmake", ".h.cmakein", ".inc")


@cache
def is_cfamily(path: str) -> bool:
    """Whether a file is C, C++ or CUDA, a source or a header (remembered as
    `language_for` is: a build asks it of every file a few dozen thousand times)."""
    return language_for(path) in C_FAMILY


def defines_macros(path: str) -> bool:
    """Whether the attribute macros of a tree are learned from this file's `#define`s."""
    return is_cfamily(path) or path.lower().endswith(HEADER_TEMPLATE_SUFFIXES)


@cache
def language_for(path: str) -> str:
    """The language of a file from its name; "" when unknown (remembered: a build asks
    for every file's several times, and a name's language never changes)."""
    name = path.rpartition("/")[2]
    by_name = LANGUAGES_BY_NAME.get(name)
    if by_name is not None:
        return by_name
    return LANGUAGES_BY_SUFFIX.get(suffix_of(name).lower(), "")


def suffix_of(name: str) -> str:
    """`PurePosixPath(name).suffix` of a file name, without making a path (a build asks
    for every file's language several times)."""
    dot = name.rfind(".")
    return name[dot:] if 0 < dot < len(name) - 1 else ""


def is_binary(data: bytes) -> bool:
    """A NUL byte in the first 8 KiB makes a file binary, as git decides."""
    return b"\0" in data[:BINARY_SNIFF_BYTES]
