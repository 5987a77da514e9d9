"""A file's language from its name, as a path library would split the name."""

from __future__ import annotations

from pathlib import PurePosixPath

from hypothesis import given
from hypothesis import strategies as st

from docgen.model.languages import LANGUAGES_BY_NAME, LANGUAGES_BY_SUFFIX, language_for, suffix_of

NAME_CHARS = st.sampled_from(list("ab.Hc_ -"))


@given(st.text(NAME_CHARS, min_size=1, max_size=12).filter(lambda n: n not in (".", "..")))
def test_suffix_of_equals_the_path_librarys_suffix(name: str) -> None:
    assert suffix_of(name) == PurePosixPath(name).suffix


@given(
    st.lists(st.text(NAME_CHARS, min_size=1, max_size=6), max_size=3),
    st.sampled_from([*LANGUAGES_BY_SUFFIX, *(s.upper() for s in LANGUAGES_BY_SUFFIX), ".x", ""]),
    st.text(NAME_CHARS, min_size=1, max_size=6),
)
def test_language_for_reads_the_last_suffix_of_the_file_name(
    folders: list[str], suffix: str, stem: str
) -> None:
    path = "/".join([*folders, stem + suffix])
    pure = PurePosixPath(path)
    expected = LANGUAGES_BY_NAME.get(pure.name, LANGUAGES_BY_SUFFIX.get(pure.suffix.lower(), ""))
    assert language_for(path) == expected


def test_whole_names_and_suffixes() -> None:
    assert language_for("tools/CMakeLists.txt") == "cmake"
    assert language_for("a.b/Makefile") == "make"
    assert language_for("aten/src/ATen/ops/add.H") == LANGUAGES_BY_SUFFIX[".h"]
    assert language_for("kernels/k.cu") == "cuda"
    assert language_for("docs/.md") == ""  # a hidden file named ".md" has no suffix
    assert language_for("notes.") == ""
