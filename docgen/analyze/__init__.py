"""Per-file analysis of scanned facts: tags with evidence, what a test runner collects, the
keyword sites a file defines and the summary later builds read of it.  It runs in the
scan workers, beside the scanners, and imports only the model.
"""
