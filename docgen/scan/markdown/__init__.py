"""The Markdown scanner: headings, links and the code identifiers a page mentions."""
