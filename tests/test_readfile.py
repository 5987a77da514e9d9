"""Reading listed source files: whole, whatever their size, and never anything but a
regular file."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from docgen.discover.readfile import hash_source, read_source
from docgen.model.sources import SourceFile


def listed(path: Path) -> SourceFile:
    return SourceFile(path.name, str(path), path.stat().st_size)


@pytest.mark.parametrize("size", [0, 1, 4095, 65536, 65537, 3 * 65536 + 7])
def test_read_source_returns_every_byte(tmp_path: Path, size: int) -> None:
    path = tmp_path / "a.h"
    data = bytes(i % 251 for i in range(size))
    path.write_bytes(data)
    assert read_source(listed(path)) == data


def test_read_source_reads_what_grew_since_listing(tmp_path: Path) -> None:
    path = tmp_path / "a.h"
    path.write_bytes(b"int a;\n")
    source = listed(path)
    path.write_bytes(b"int a;\n" * 50_000)  # larger than listed: still read to its end
    assert read_source(source) == b"int a;\n" * 50_000


@settings(max_examples=30, deadline=None)
@given(data=st.binary(max_size=200_000))
def test_read_source_agrees_with_hash_source(
    tmp_path_factory: pytest.TempPathFactory, data: bytes
) -> None:
    path = tmp_path_factory.mktemp("read") / "f.bin"
    path.write_bytes(data)
    source = listed(path)
    assert read_source(source) == data
    assert hash_source(source) == hashlib.sha256(data).hexdigest()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_read_source_refuses_a_fifo_put_in_a_files_place(tmp_path: Path) -> None:
    path = tmp_path / "a.h"
    path.write_bytes(b"int a;\n")
    source = listed(path)
    path.unlink()
    os.mkfifo(path)  # would block a plain open() forever
    with pytest.raises(OSError, match="no longer a regular file"):
        read_source(source)


def test_read_source_of_a_vanished_file_raises_os_error(tmp_path: Path) -> None:
    path = tmp_path / "a.h"
    path.write_bytes(b"x")
    source = listed(path)
    path.unlink()
    with pytest.raises(FileNotFoundError):
        read_source(source)
