"""`docgen facts export/import`: facts travel between output folders as checked JSON
archives, a build that finds them parses nothing, and a bad archive is refused in
one line while the good ones are imported."""

from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import invoke, output_bytes

from docgen import __version__
from docgen.model.report import BuildReport

BuildFn = Callable[..., BuildReport]
SampleFn = Callable[..., Path]


def test_a_build_from_imported_facts_parses_nothing_and_equals_the_first(
    sample: SampleFn, docgen_build: BuildFn, tmp_path: Path
) -> None:
    repo = sample("torchlike")
    first = tmp_path / "first"
    made = docgen_build(repo, first, 2)
    assert made.scanned > 30
    archive = tmp_path / "facts.json.gz"
    code, _ = invoke("facts", "export", str(archive), "--out", str(first))
    assert code == 0
    again = tmp_path / "again"
    code, said = invoke("facts", "import", str(archive), "--out", str(again))
    assert code == 0, said
    rebuilt = docgen_build(repo, again, 2)
    assert (rebuilt.scanned, rebuilt.reused) == (0, made.scanned)
    assert output_bytes(again) == output_bytes(first)
    second = tmp_path / "facts-again.json.gz"
    invoke("facts", "export", str(second), "--out", str(again))
    assert second.read_bytes() == archive.read_bytes()  # the same rows, the same bytes


def test_imports_merge_the_same_whatever_their_order(
    sample: SampleFn, docgen_build: BuildFn, tmp_path: Path
) -> None:
    repo = sample("torchlike")
    archives = []
    for version in ("one", "two"):
        if version == "two":
            module = repo / "minitorch" / "nn" / "modules.py"
            module.write_text(module.read_text() + "\n\ndef later() -> None:\n    pass\n")
        out = tmp_path / f"out-{version}"
        docgen_build(repo, out, 2)
        archives.append(tmp_path / f"{version}.json.gz")
        invoke("facts", "export", str(archives[-1]), "--out", str(out))
    merged = []
    for order in (archives, archives[::-1]):
        target = tmp_path / f"merged-{len(merged)}"
        code, said = invoke("facts", "import", *map(str, order), "--out", str(target))
        assert code == 0, said
        exported = tmp_path / f"merged-{len(merged)}.json.gz"
        invoke("facts", "export", str(exported), "--out", str(target))
        merged.append(exported.read_bytes())
    assert merged[0] == merged[1]


def test_a_foreign_damaged_or_other_version_archive_is_refused_in_one_line(
    sample: SampleFn, docgen_build: BuildFn, tmp_path: Path
) -> None:
    repo = sample("torchlike")
    first = tmp_path / "first"
    docgen_build(repo, first, 2)
    good = tmp_path / "good.json.gz"
    invoke("facts", "export", str(good), "--out", str(first))
    lines = gzip.decompress(good.read_bytes()).decode().splitlines()
    foreign = tmp_path / "foreign.json.gz"
    foreign.write_text("not an archive\n")
    truncated = tmp_path / "truncated.json.gz"
    truncated.write_bytes(good.read_bytes()[: len(good.read_bytes()) // 2])
    cut = tmp_path / "cut.json.gz"
    cut.write_bytes(gzip.compress(("\n".join(lines[:-2]) + "\n").encode()))
    older = tmp_path / "older.json.gz"
    header = json.loads(lines[0]) | {"docgen": "0.0.1"}
    older.write_bytes(gzip.compress(("\n".join([json.dumps(header), *lines[1:]]) + "\n").encode()))
    tampered = tmp_path / "tampered.json.gz"
    row = json.loads(lines[1])
    row[1] = "0" * 64  # another content hash: its facts no longer match
    tampered.write_bytes(
        gzip.compress(("\n".join([lines[0], json.dumps(row), *lines[2:]]) + "\n").encode())
    )
    bad = [foreign, truncated, cut, older, tampered]
    target = tmp_path / "target"
    code, said = invoke("facts", "import", str(good), *map(str, bad), "--out", str(target))
    assert code == 1
    refusals = [line for line in said.splitlines() if line.startswith("docgen: refused")]
    assert len(refusals) == len(bad)
    assert all(str(path) in refusal for path, refusal in zip(bad, refusals, strict=True))
    assert "0.0.1" in refusals[3]
    assert "Traceback" not in said
    rebuilt = docgen_build(repo, target, 2)  # the good archive was imported
    assert rebuilt.scanned == 0


def test_three_shards_and_a_merge_build_equal_one_machine(
    sample: SampleFn, docgen_build: BuildFn, tmp_path: Path
) -> None:
    from docgen.discover.tree import discover
    from docgen.phases.scan import shard_share

    repo = sample("torchlike")
    whole = tmp_path / "whole"
    one = docgen_build(repo, whole, 2)
    files = discover(repo, exclude_dirs=[repo / "docs"]).files
    shares = [shard_share(files, i, 3) for i in (1, 2, 3)]
    assert set().union(*shares) == {f.path for f in files}
    assert sum(len(s) for s in shares) == len(files)  # each file in one share
    archives = []
    for i in (1, 2, 3):
        out = tmp_path / f"shard-{i}"
        code, said = invoke("build", str(repo), "--out", str(out), "--shard", f"{i}/3", "-q")
        assert code == 0, said
        assert not [p for p in output_bytes(out) if p.endswith(".md")]  # facts only, no pages
        archives.append(str(tmp_path / f"shard-{i}.json.gz"))
        invoke("facts", "export", archives[-1], "--out", str(out))
    merged = tmp_path / "merged"
    code, said = invoke("facts", "import", *archives, "--out", str(merged))
    assert code == 0, said
    final = docgen_build(repo, merged, 2)
    assert (final.scanned, final.reused) == (0, one.scanned)
    assert output_bytes(merged) == output_bytes(whole)
    code, said = invoke("build", str(repo), "--shard", "4/3")
    assert code == 2 and "--shard must be I/N" in said


def archive_of(lines: list[str]) -> bytes:
    """An archive of a header, rows and the footer they need."""
    body = lines[1:]
    digest = hashlib.sha256("".join(line + "\n" for line in body).encode()).hexdigest()
    footer = json.dumps({"rows": len(body), "sha256": digest})
    return gzip.compress(("\n".join([lines[0], *body, footer]) + "\n").encode())


def renamed(value: object, old: str, new: str) -> object:
    """`value` (decoded JSON) with every string `old` in it replaced by `new`."""
    if value == old:
        return new
    if isinstance(value, list):
        return [renamed(v, old, new) for v in value]
    if isinstance(value, dict):
        return {k: renamed(v, old, new) for k, v in value.items()}
    return value


def exported_lines(sample: SampleFn, docgen_build: BuildFn, tmp_path: Path) -> list[str]:
    """The header and rows of the `torchlike` sample's facts archive (no footer)."""
    repo = sample("torchlike")
    docgen_build(repo, tmp_path / "first", 1)
    good = tmp_path / "good.json.gz"
    invoke("facts", "export", str(good), "--out", str(tmp_path / "first"))
    return gzip.decompress(good.read_bytes()).decode().splitlines()[:-1]


def test_an_archive_that_inflates_past_the_cap_is_refused_as_it_is_read(tmp_path: Path) -> None:
    from docgen.state.archive import ArchiveRefused, read_archive

    bomb = tmp_path / "bomb.json.gz"
    header = json.dumps({"format": "docgen-facts", "version": 1, "docgen": __version__})
    with gzip.open(bomb, "wb") as packed:
        packed.write(header.encode() + b"\n")
        for _ in range(64):
            packed.write(b"x" * 1024 * 1024)
    assert bomb.stat().st_size < 200_000
    with pytest.raises(ArchiveRefused, match="inflates past 16 MiB"):
        read_archive(bomb, limit=16 * 1024 * 1024)


def test_deep_nesting_and_paths_outside_the_repository_are_refused_and_counted(
    sample: SampleFn, docgen_build: BuildFn, tmp_path: Path
) -> None:
    lines = exported_lines(sample, docgen_build, tmp_path)
    nested = tmp_path / "nested.json.gz"
    nested.write_bytes(archive_of([lines[0], "[" * 100_000 + "]" * 100_000]))
    assert nested.stat().st_size < 1000
    row = json.loads(lines[1])
    hostile = []
    for bad in ("../../etc/x", "/etc/passwd", "a/../../b", "a\0b", "a\nb"):
        facts = renamed(json.loads(row[3]), row[0], bad)
        hostile.append(json.dumps([bad, row[1], row[2], json.dumps(facts)], ensure_ascii=False))
    paths = tmp_path / "paths.json.gz"
    paths.write_bytes(archive_of([*lines, *hostile]))
    target = tmp_path / "target"
    code, said = invoke("facts", "import", str(nested), str(paths), "--out", str(target))
    assert code == 1
    assert "Traceback" not in said
    refusal, summary = said.strip().splitlines()
    assert refusal.startswith(f"docgen: refused {nested}") and "nested deeper" in refusal
    assert f"1 archives, {len(lines) - 1} rows" in summary
    assert "5 rows refused: their paths leave the repository" in summary


def test_a_damaged_row_is_refused_whatever_its_place_and_a_repeat_is_read_once(
    sample: SampleFn, docgen_build: BuildFn, tmp_path: Path
) -> None:
    from docgen.state.archive import ArchiveRefused, read_archive

    lines = exported_lines(sample, docgen_build, tmp_path)
    row = json.loads(lines[1])
    damaged = json.dumps([row[0], row[1], "0" * len(row[2]), "{}"])  # loses to `row`
    for order in ([lines[1], damaged], [damaged, lines[1]]):
        archive = tmp_path / "mixed.json.gz"
        archive.write_bytes(archive_of([lines[0], *order]))
        with pytest.raises(ArchiveRefused, match="damaged row"):
            read_archive(archive)
    for odd in ('"abcd"', '{"a": 1, "b": 2, "c": 3, "d": 4}'):
        archive.write_bytes(archive_of([lines[0], odd]))
        with pytest.raises(ArchiveRefused, match="not a list of four strings"):
            read_archive(archive)
    repeated = tmp_path / "repeated.json.gz"
    repeated.write_bytes(archive_of([lines[0], *[lines[1]] * 500]))
    assert [r.path for r in read_archive(repeated).rows] == [row[0]]
