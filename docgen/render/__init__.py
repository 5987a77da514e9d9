"""Pages from facts: Jinja templates fed with view-models built in Python.

The build calls `environment.make_environment` once, wraps it in a `pages.Renderer`
with the repository index and a `context.RenderContext`, and asks for each page's
text.  This package's own module loads nothing: a build with nothing to do reads
`inputs` alone, without Jinja and the views.
"""
