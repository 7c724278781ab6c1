"""Sphinx configuration of cuarray's documentation site (``sphinx-build -W docs docs/_build/html``).

Why Sphinx: cuarray's users come from NumPy, SciPy and CuPy, whose references are Sphinx with
numpydoc and autosummary; the docstrings here are written for that toolchain ("See `numpy.X`",
numpydoc sections), autosummary gives every public name its own page from the namespaces
themselves, and doctest runs the Examples. The user guide stays Markdown (MyST), the same files
the repository has always had.

The API pages are generated at configuration time from each namespace's public names
(`api_pages.py`), so a new public function gets its page with no edit here. The whole site's page count and
build time are in docs/numbers.json (docs/tools/build-times.md says where the time goes).
"""

from __future__ import annotations

import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(0, os.path.dirname(here))  # the checkout's cuarray, not an installed one

import api_pages  # noqa: E402
import reference_links  # noqa: E402

import cuarray  # noqa: E402

project = "cuarray"
author = "the cuarray developers"
copyright = "2026, " + author
release = version = cuarray.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.doctest",
    "numpydoc",
    "myst_parser",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "tools", "README.md", "perf-notes.md", "bench-targets.md"]

# Markdown: GitHub-style heading anchors (the pages link to "#medians"), fenced code as-is.
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]
# Pages link to files of the repository (`../cuarray/...`), which are not pages of the site.
suppress_warnings = ["myst.xref_missing", "myst.header"]

# api_pages.py writes the page per name (autosummary's :toctree: would put ~1,000 pages in every
# page's sidebar); autosummary only draws the namespaces' tables of names and summaries.
autosummary_generate = False
autodoc_default_options = {"members": False}
autodoc_typehints = "none"  # signatures as written; the docstrings say the types
numpydoc_show_class_members = True  # a table of methods and attributes with their summaries
numpydoc_class_members_toctree = False  # no page per method (the build would double)
numpydoc_validation_checks = set()  # the reference builds from the docstrings as they are
numpydoc_xref_param_type = False
default_role = "cuarray-name"  # "See `numpy.X`" links to NumPy's page (reference_links.py)

html_theme = "furo"
html_title = "cuarray " + version
html_static_path = []

doctest_global_setup = "import numpy as np\nimport cuarray"

# CUARRAY_DOCS_ONLY=cuarray.linalg,...: the API reference of these namespaces only (a quick look).
_only = [m for m in os.environ.get("CUARRAY_DOCS_ONLY", "").split(",") if m]
api_pages.write(os.path.join(here, "api"), only=_only)


# The sidebar of the ~1,000 per-name pages. They are orphans (out of the toctree), so none of them
# is marked in the site's navigation tree and, in one folder, their trees are the same HTML;
# furo asks Sphinx to resolve the whole tree for every page (~35 ms each, a third of the build's
# CPU after the pages left the toctree): resolve it once per folder. Runs before furo's handler.
_orphan_navigation: dict = {}


def _share_orphans_navigation(app, pagename, templatename, context, doctree):
    if "orphan" not in app.env.metadata.get(pagename, {}) or "toctree" not in context:
        return
    toctree, folder = context["toctree"], os.path.dirname(pagename)

    def shared(**kwargs):
        key = (folder, tuple(sorted(kwargs.items())))
        if key not in _orphan_navigation:
            _orphan_navigation[key] = toctree(**kwargs)
        return _orphan_navigation[key]

    context["toctree"] = shared


def setup(app):
    reference_links.setup(app)
    app.connect("builder-inited", lambda app: _orphan_navigation.clear())  # a new build, a new tree
    app.connect("html-page-context", _share_orphans_navigation, priority=400)
