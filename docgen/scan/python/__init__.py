"""The Python scanner: libcst's tree for definitions, imports, signatures and findings,
Python's own `ast` for references and for files libcst rejects.
"""
