"""The repository as a whole, built from every file's facts: folders, the import graph,
C-family includes and declarations, test suites, the keyword index, and what of them is
kept for the next build.
"""
