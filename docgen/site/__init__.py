"""`docgen site`: the build's Markdown pages as a static HTML site (see `publish`)."""
