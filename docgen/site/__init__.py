"""`docgen site`: the build's Markdown pages as a static HTML site (see `publish`).

The names of the folders the site keeps for itself live here, where `docgen clean`
reads them without loading what renders the site.
"""

#: The source views, one HTML page per source file.
SOURCE_FOLDER = "_source"
#: The site's own files: style sheet, scripts, the diagram renderer.
STATIC_FOLDER = "_static"
#: The symbol search's shards and their manifest.
SEARCH_FOLDER = "_search"
#: Pagefind's full-text index and its search interface.
FULLTEXT_FOLDER = "_pagefind"
#: Folders that only docgen writes into a site.
OWN_FOLDERS = (STATIC_FOLDER, SEARCH_FOLDER, FULLTEXT_FOLDER)
