"""The build's phases that join several stages: scanning what changed while the
cached facts, the kept relations and the templates load."""
