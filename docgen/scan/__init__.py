"""The scanners, one module per language, and their table (`docgen.scan.table`);
the worker pool and the Dask executor that run them.

This package module imports nothing: a build with nothing to scan reads which
language a file is (`docgen.model.languages`) without loading the facts' classes.
"""
