"""docs/architecture.md names every package of docgen, and the README and docs pages
link only to files that exist."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def test_every_package_has_its_section() -> None:
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    packages = sorted(
        p.parent.relative_to(ROOT).as_posix() for p in (ROOT / "docgen").rglob("__init__.py")
    )
    assert "docgen" in packages and "docgen/scan" in packages
    missing = [p for p in packages if f"## `{p}/`" not in text]
    assert missing == [], f"docs/architecture.md has no section for {missing}"


def test_every_module_of_the_top_level_is_named() -> None:
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    modules = sorted(p.name for p in (ROOT / "docgen").glob("*.py") if p.stem != "__init__")
    missing = [m for m in modules if f"`{m}`" not in text and m != "__main__.py"]
    assert missing == [], f"docs/architecture.md does not say where {missing} belong"


def test_the_scanners_and_analyzers_import_only_what_the_facts_key_covers() -> None:
    """The facts key digests the code of `FACTS_PACKAGES` (`docgen/scan/keys.py`): any
    other docgen code the scanners or the analyzers ran could change the facts a build
    caches without changing their key.  The state (which stores them) and the system
    calls are the only others they may use."""
    import grimp

    from docgen.scan.keys import FACTS_PACKAGES

    graph = grimp.build_graph("docgen", include_external_packages=False)
    allowed = {f"docgen.{p}" for p in (*FACTS_PACKAGES, "state", "system")} | {"docgen"}
    makers = [m for m in graph.modules if m.split(".")[1:2] in (["scan"], ["analyze"])]
    assert len(makers) > 40  # the scanners, their executors and the analyzers
    outside = sorted(
        (maker, imported)
        for maker in makers
        for imported in graph.find_modules_directly_imported_by(maker)
        if ".".join(imported.split(".")[:2]) not in allowed
    )
    assert outside == []


def test_the_readme_and_the_docs_link_to_files_that_exist() -> None:
    link = re.compile(r"\]\(((?:docs|bench|examples|templates)/[^)#]+|[\w.-]+\.md)(?:#[^)]*)?\)")
    fence = re.compile(r"^```.*?^```", re.M | re.S)  # examples of pages, not links
    for page in [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]:
        for target in link.findall(fence.sub("", page.read_text(encoding="utf-8"))):
            base = ROOT if page.parent == ROOT else page.parent
            assert (base / target).exists() or (ROOT / target).exists(), f"{page.name}: {target}"


def test_the_readme_stays_short() -> None:
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 350
