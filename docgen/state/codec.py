"""What the state is told about the files whose facts it keeps (light: a build with
nothing to do loads it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, NamedTuple, TypeVar

from docgen.model.facts import ScannedFile
from docgen.model.sources import SourceFile

#: What a build reads of each file, decoded from the row's summary (see `FileCodec`).
Summary = TypeVar("Summary")


class FileCodec(NamedTuple, Generic[Summary]):
    """What the state is told about the files whose facts it keeps: it stores their rows
    and knows nothing of what a summary holds nor how a file is read."""

    summary_text: Callable[[ScannedFile], str]  # a file's summary as its row keeps it
    read_summary: Callable[[str], Summary]  # back, raising ValueError/TypeError/KeyError
    content_hash: Callable[[SourceFile], str]  # the sha256 of a file's bytes (OSError)
