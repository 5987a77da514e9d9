"""The records every stage shares: frozen facts, the files a build documents, keyword
sites, build options, page names and anchors, digests and the one root error.  It
imports nothing of docgen's but itself.
"""
