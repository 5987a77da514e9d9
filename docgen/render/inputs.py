"""What a build's pages depend on, as digests: the whole tree's for the check that
nothing changed, and what every page shares for each page's own inputs digest."""

from __future__ import annotations

import hashlib
import json
import os
import posixpath

from docgen.model.digests import code_digest
from docgen.model.options import BuildOptions
from docgen.model.sources import Discovery
from docgen.render.template_files import builtin_templates_dir
from docgen.scan.keys import facts_key


def inputs_digest(options: BuildOptions, discovery: Discovery, project: str) -> str:
    """Everything a build's pages depend on, as one digest: when it is unchanged and the
    pages are as docgen left them, there is nothing to do."""
    digest = hashlib.sha256(common_inputs(options, project).encode())
    for source in discovery.files:
        digest.update(f"{source.path}\0{source.stamp}\0".encode())
    for skipped in discovery.skipped:
        digest.update(f"{skipped.path}\0{skipped.reason}\0".encode())
    return digest.hexdigest()


def source_root(options: BuildOptions) -> str:
    """The repository root as seen from the output folder, with "/" separators."""
    return posixpath.normpath(os.path.relpath(options.repo, options.out).replace(os.sep, "/"))


def render_code_key() -> str:
    """A digest of docgen's own code (the renderer's included): pages made by other code
    are made again, even when docgen's version number did not change."""
    return code_digest()


def common_inputs(options: BuildOptions, project: str) -> str:
    """What every page depends on: docgen's code, the templates, the project and paths."""
    digest = hashlib.sha256()
    parts = (
        facts_key(),
        render_code_key(),
        project,
        source_root(options),
        str(options.max_embed_bytes),
        json.dumps(
            [
                options.include,
                options.exclude,
                options.source_roots,
                options.include_roots,
                options.cpp_macros,
            ]
        ),
    )
    for part in parts:
        digest.update(part.encode() + b"\0")
    for folder in (builtin_templates_dir(), *options.templates):
        for template in sorted(folder.rglob("*")):
            if template.is_file():
                digest.update(template.relative_to(folder).as_posix().encode() + b"\0")
                digest.update(template.read_bytes())
    return digest.hexdigest()
