"""The scanners, one module per language, and their table (`docgen.scan.table`).

This package module imports nothing: a build with nothing to scan reads which
language a file is (`docgen.scan.languages`) without loading the facts' classes.
"""
