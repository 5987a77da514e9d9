"""The site and `clean` under hostile trees and interruptions: nothing written or removed
through a link, no user file lost, an interrupted publish finished by the next one."""

from __future__ import annotations

import os
import select
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import child_env, copy_sample, invoke, run_build
from hypothesis import given, settings
from hypothesis import strategies as st

from docgen.site import fulltext
from docgen.site.files import STAGING, SiteFiles
from docgen.site.publish import publish_site

SampleFn = Callable[..., Path]
COMM = "minitorch/distributed/comm.py"


def site_bytes(site: Path) -> dict[str, bytes]:
    """Every file of a site, by site-relative path."""
    return {
        p.relative_to(site).as_posix(): p.read_bytes()
        for p in sorted(site.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


def all_files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def outside_folder(tmp_path: Path, files: dict[str, str] | None = None) -> Path:
    """A folder outside every folder docgen writes, holding `files`."""
    outside = tmp_path / "outside"
    outside.mkdir()
    for name, text in (files or {}).items():
        (outside / name).write_text(text)
    return outside


def test_a_link_at_the_search_folder_is_refused_and_nothing_outside_changes(
    sample: SampleFn, tmp_path: Path
) -> None:
    repo = sample("torchlike")
    outside = outside_folder(tmp_path, {"main.js": "x\n"})
    site = repo / "docs" / "generated-site"
    site.mkdir(parents=True)
    (site / "_search").symlink_to(outside)
    status, output = invoke("site", str(repo), "-q")
    assert status == 1
    assert "symbolic link" in output and "Traceback" not in output
    assert all_files(outside) == {"main.js": b"x\n"}


@pytest.mark.parametrize("folder", ["_static", "_pagefind", STAGING, "minitorch"])
def test_a_link_at_any_folder_the_site_writes_is_refused(
    sample: SampleFn, tmp_path: Path, folder: str
) -> None:
    repo = sample("torchlike")
    outside = outside_folder(tmp_path, {"keep.txt": "mine\n"})
    site = tmp_path / "site"
    site.mkdir()
    (site / folder).symlink_to(outside)
    status, output = invoke("site", str(repo), "--site", str(site), "-q")
    assert status == 1, output
    assert "symbolic link" in output
    assert all_files(outside) == {"keep.txt": b"mine\n"}


def test_a_link_inside_the_output_folder_stops_the_build(sample: SampleFn, tmp_path: Path) -> None:
    repo = sample("torchlike")
    outside = outside_folder(tmp_path)
    out = repo / "docs" / "generated"
    out.mkdir(parents=True)
    (out / "minitorch").symlink_to(outside)
    status, output = invoke("build", str(repo), "-q", "-j", "1")
    assert status == 1
    assert output.count("\n") == 1 and "symbolic link" in output
    assert list(outside.iterdir()) == []


def test_a_link_on_the_way_to_the_output_folder_is_refused(
    sample: SampleFn, tmp_path: Path
) -> None:
    repo = sample("torchlike")
    outside = outside_folder(tmp_path)
    (repo / "docs" / "generated").symlink_to(outside)
    for args in (["build", str(repo)], ["build", str(repo), "--out", str(repo / "docs/generated")]):
        status, output = invoke(*args, "-q")
        assert status == 2, output
        assert "symbolic link inside the repository" in output
    assert list(outside.iterdir()) == []


@pytest.mark.parametrize("where", [".", "..", "docs/generated", "docs/generated/x", "docs"])
def test_the_site_may_not_be_the_repository_above_it_or_hold_the_output(
    sample: SampleFn, where: str
) -> None:
    repo = sample("torchlike")
    (repo / "index.html").write_text("<p>mine</p>\n")
    status, output = invoke("site", str(repo), "--site", str(repo / where), "-q")
    assert status == 2, output
    assert (repo / "index.html").read_text() == "<p>mine</p>\n"


def test_site_and_clean_keep_the_users_files_in_docgens_folders(sample: SampleFn) -> None:
    repo = sample("torchlike")
    assert invoke("site", str(repo), "-q")[0] == 0
    site = repo / "docs" / "generated-site"
    mine = {
        "_search/mine.js": b"mine\n",
        "_pagefind/mine.bin": b"\x00\x01",
        "_static/mine.txt": b"notes\n",
        "_static/search.js": b"my own search\n",  # where docgen writes: kept, named
    }
    for rel, data in mine.items():
        (site / rel).write_bytes(data)
    (repo / COMM).write_text((repo / COMM).read_text() + "\ndef added():\n    pass\n")
    status, output = invoke("site", str(repo), "-q")
    assert status == 0, output
    assert {rel: (site / rel).read_bytes() for rel in mine} == mine
    status, output = invoke("clean", str(repo))
    assert status == 0, output
    assert site_bytes(site) == mine
    for rel in mine:
        assert rel in output


def test_check_in_a_fresh_clone_with_committed_pages(sample: SampleFn, tmp_path: Path) -> None:
    repo = sample("torchlike")
    run_build(repo, None, 1)
    shutil.rmtree(repo / "docs" / "generated" / ".docgen")  # as a clone has it
    assert invoke("check", str(repo), "-q")[0] == 0
    assert not (repo / "docs" / "generated" / ".docgen").exists()  # check writes nothing
    page = repo / "docs" / "generated" / f"{COMM}_docs.md"
    page.write_text(page.read_text() + "edited\n")
    status, output = invoke("check", str(repo))
    assert status == 1 and f"stale: docs/generated/{COMM}_docs.md" not in output
    assert f"stale: {COMM}_docs.md" in output
    page.unlink()
    shutil.copy(repo / "docs/generated/README.md_docs.md", repo / "docs/generated/zz_docs.md")
    status, output = invoke("check", str(repo))
    assert status == 1
    assert f"missing: {COMM}_docs.md" in output and "extra: zz_docs.md" in output


def test_check_sees_a_site_left_half_published(
    sample: SampleFn, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = sample("torchlike")
    assert invoke("site", str(repo), "-q")[0] == 0
    assert invoke("check", str(repo), "-q")[0] == 0
    (repo / COMM).write_text((repo / COMM).read_text() + "\ndef added():\n    pass\n")
    out = repo / "docs" / "generated"
    run_build(repo, out, 1)
    monkeypatch.setattr(SiteFiles, "place", interrupt_after(3, SiteFiles.place))
    with pytest.raises(KeyboardInterrupt):
        publish_site(out, repo / "docs" / "generated-site")
    monkeypatch.undo()
    status, output = invoke("check", str(repo))
    assert status == 1 and "stale: site" in output


def interrupt_after(count: int, real: Callable[..., object]) -> Callable[..., object]:
    """`real`, raising KeyboardInterrupt (Ctrl-C) once it has run `count` times."""
    calls = [0]

    def wrapped(*args: object) -> object:
        if calls[0] >= count:
            raise KeyboardInterrupt
        calls[0] += 1
        return real(*args)

    return wrapped


def published_clean(name: str, parent: Path) -> dict[str, bytes]:
    """The site of a sample published once into a fresh folder."""
    repo = copy_sample(name, parent)
    out = repo / "docs" / "generated"
    run_build(repo, out, 1)
    site = repo / "docs" / "generated-site"
    publish_site(out, site)
    return site_bytes(site)


INTERRUPTIONS = {
    "rendering": ("stage", 5),
    "moving into place": ("place", 3),
    "removing": ("remove", 0),
}


@pytest.mark.parametrize("step", sorted(INTERRUPTIONS))
def test_an_interrupted_publish_is_finished_by_the_next(
    sample: SampleFn, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: str
) -> None:
    clean = published_clean("torchlike", tmp_path / "clean")
    repo = sample("torchlike")
    out, site = repo / "docs" / "generated", repo / "docs" / "generated-site"
    original = (repo / COMM).read_text()
    run_build(repo, out, 1)
    publish_site(out, site)
    (repo / COMM).write_text(original + "\ndef added():\n    pass\n")
    (repo / "minitorch" / "version.py").unlink()  # a page to remove
    run_build(repo, out, 1)
    name, after = INTERRUPTIONS[step]
    monkeypatch.setattr(SiteFiles, name, interrupt_after(after, getattr(SiteFiles, name)))
    with pytest.raises(KeyboardInterrupt):
        publish_site(out, site)
    monkeypatch.undo()
    shutil.copy(tmp_path / "clean" / "torchlike" / "minitorch" / "version.py", repo / "minitorch")
    (repo / COMM).write_text(original)  # the edit reverted, as in the report
    run_build(repo, out, 1)
    publish_site(out, site)
    assert site_bytes(site) == clean
    assert not (site / STAGING).exists()


@pytest.mark.skipif(not fulltext.available(), reason="Pagefind is not installed")
def test_an_interrupted_full_text_index_is_made_again(
    sample: SampleFn, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clean = published_clean("torchlike", tmp_path / "clean")
    repo = sample("torchlike")
    out, site = repo / "docs" / "generated", repo / "docs" / "generated-site"
    original = (repo / COMM).read_text()
    (repo / COMM).write_text(original + "\ndef added():\n    pass\n")
    run_build(repo, out, 1)

    def killed(*_: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(fulltext, "index_pages", killed)
    with pytest.raises(KeyboardInterrupt):
        publish_site(out, site)
    monkeypatch.undo()
    (repo / COMM).write_text(original)
    run_build(repo, out, 1)
    publish_site(out, site)
    assert site_bytes(site) == clean


def docgen_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "docgen", *args]


@settings(max_examples=5, deadline=None)
@given(moment=st.floats(min_value=0.0, max_value=1.0))
def test_site_killed_at_any_moment_then_run_again_equals_a_clean_site(
    tmp_path_factory: pytest.TempPathFactory, moment: float
) -> None:
    """SIGKILL at a random moment of `docgen site` (scaled to how long one takes), the
    edit reverted, `docgen site` again: the site is byte-identical to a clean one."""
    parent = tmp_path_factory.mktemp("killed")
    clean = published_clean("torchlike", parent / "clean")
    repo = copy_sample("torchlike", parent / "work")
    env = child_env()
    subprocess.run(docgen_command("site", str(repo), "-q", "-j", "2"), env=env, check=True)
    original = (repo / COMM).read_text()
    (repo / COMM).write_text(original + "\ndef added():\n    pass\n")
    started = time.monotonic()
    subprocess.run(docgen_command("build", str(repo), "-q", "-j", "2"), env=env, check=True)
    build_seconds = time.monotonic() - started
    child = subprocess.Popen(docgen_command("site", str(repo), "-q", "-j", "2"), env=env)
    time.sleep(moment * (build_seconds + 2.0))
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    (repo / COMM).write_text(original)
    subprocess.run(docgen_command("site", str(repo), "-q", "-j", "2"), env=env, check=True)
    assert site_bytes(repo / "docs" / "generated-site") == clean


def test_build_site_and_clean_together_leave_nothing_clean_cannot_remove(
    sample: SampleFn,
) -> None:
    repo = sample("torchlike")
    env = child_env()
    assert invoke("site", str(repo), "-q")[0] == 0
    (repo / COMM).write_text((repo / COMM).read_text() + "\ndef added():\n    pass\n")
    commands = (["site", str(repo), "-q"], ["build", str(repo), "-q"], ["clean", str(repo), "-q"])
    running = [
        subprocess.Popen(docgen_command(*c), env=env, stderr=subprocess.PIPE, text=True)
        for c in commands
    ]
    done = [(p.wait(), p.communicate()[1]) for p in running]
    assert [status for status, _ in done[:2]] == [0, 0], done
    assert done[2][0] in (0, 2), done  # 2: the others had not yet made anything to clean
    assert all("Traceback" not in err for _, err in done)
    status, output = invoke("clean", str(repo))
    assert status in (0, 2), output
    site = repo / "docs" / "generated-site"
    assert not site.exists() or site_bytes(site) == {}
    assert not (repo / "docs" / "generated").exists()


@pytest.mark.parametrize(
    "args",
    [["clean", "{repo}"], ["check", "{repo}"], ["facts", "import", "{archive}", "--out", "{out}"]],
)
def test_commands_that_wait_for_a_build_say_so(
    sample: SampleFn, tmp_path: Path, args: list[str]
) -> None:
    from docgen.write.lock import output_lock

    repo = sample("torchlike")
    out = repo / "docs" / "generated"
    run_build(repo, out, 1)
    archive = tmp_path / "facts.gz"
    assert invoke("facts", "export", str(archive), "--out", str(out))[0] == 0
    words = [a.format(repo=repo, out=out, archive=archive) for a in args]
    with output_lock(out / ".docgen"):
        child = subprocess.Popen(
            docgen_command(*words), env=child_env(), stderr=subprocess.PIPE, text=True
        )
        assert child.stderr is not None
        readable, _, _ = select.select([child.stderr], [], [], 60)
        if not readable:
            child.kill()
        assert readable, "the command said nothing while it waited"
        first = child.stderr.readline()
        assert "waiting for another docgen run" in first
        assert child.poll() is None  # still waiting while the lock is held
    assert child.wait() in (0, 1)


@pytest.mark.skipif(not fulltext.available(), reason="Pagefind is not installed")
def test_a_failed_full_text_index_leaves_the_site_to_publish_again(
    sample: SampleFn, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = sample("torchlike")
    out, site = repo / "docs" / "generated", repo / "docs" / "generated-site"
    run_build(repo, out, 1)
    monkeypatch.setattr(fulltext, "index_pages", lambda *_: "full-text search not built: test")
    report = publish_site(out, site)
    assert report.warnings == ["full-text search not built: test"]
    monkeypatch.undo()
    status, output = invoke("check", str(repo))
    assert status == 1 and "stale: site _pagefind/ (the full-text index)" in output
    publish_site(out, site)
    assert invoke("check", str(repo), "-q")[0] == 0
