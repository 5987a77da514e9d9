"""The YAML scanner: a file's documents read with PyYAML's node API, which keeps lines."""
