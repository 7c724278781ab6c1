"""Sphinx configuration of cuarray's documentation site (``sphinx-build -W docs docs/_build/html``).

Why Sphinx: cuarray's users come from NumPy, SciPy and CuPy, whose references are Sphinx with
numpydoc and autosummary; the docstrings here are written for that toolchain ("See `numpy.X`",
numpydoc sections), autosummary gives every public name its own page from the namespaces
themselves, and doctest runs the Examples. The user guide stays Markdown (MyST), the same files
the repository has always had.

The API pages are generated at configuration time from each namespace's public names
(`api_pages.py`), so a new public function gets its page with no edit here.
"""

from __future__ import annotations

import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(0, os.path.dirname(here))  # the checkout's cuarray, not an installed one

import api_pages  # noqa: E402

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
templates_path = ["_templates"]

# Markdown: GitHub-style heading anchors (the pages link to "#medians"), fenced code as-is.
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]
# Pages link to files of the repository (`../cuarray/...`), which are not pages of the site.
suppress_warnings = ["myst.xref_missing", "myst.header"]

autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {"members": False}
autodoc_typehints = "none"  # signatures as written; the docstrings say the types
numpydoc_show_class_members = True  # a table of methods and attributes with their summaries
numpydoc_class_members_toctree = False  # no page per method (the build would double)
numpydoc_validation_checks = set()  # the reference builds from the docstrings as they are
numpydoc_xref_param_type = False

html_theme = "furo"
html_title = "cuarray " + version
html_static_path = []

doctest_global_setup = "import numpy as np\nimport cuarray"

# CUARRAY_DOCS_API=summary: namespace tables without a page per name (CI's check: the full reference
# takes too long on its 2 cores); CUARRAY_DOCS_ONLY=cuarray.linalg,...: some namespaces only.
_only = [m for m in os.environ.get("CUARRAY_DOCS_ONLY", "").split(",") if m]
api_pages.write(os.path.join(here, "api"), toctree=os.environ.get("CUARRAY_DOCS_API") != "summary", only=_only)
