"""Which files of a repository a build documents (git's listing, `.gitignore`, the
configuration), and reading them safely.
"""
