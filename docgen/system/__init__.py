"""What docgen asks of the operating system: writing without following links, putting a
file in place atomically, forking workers with Ctrl-C held back.
"""
