"""The `docgen` command line: commands, their options, and user mistakes as one line and an
exit code.  The top layer: nothing imports it.
"""
