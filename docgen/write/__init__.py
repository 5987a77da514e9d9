"""Putting pages into the output folder: only when their bytes change, only docgen's own,
one build at a time, and finding the pages edited since.
"""
