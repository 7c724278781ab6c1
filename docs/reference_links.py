"""The default role of the API reference's docstrings: "See `numpy.X`" links to NumPy's (or
SciPy's) page for X, any other name is a cross-reference to this site's page (`py:obj`).

numpydoc docstrings name the function they follow in single backticks; under Sphinx's default
role they rendered as unlinked italics, so a reader could not reach the NumPy page that holds the
parameters. NumPy's pages live in `reference/generated/` except numpy.random's, in
`reference/random/generated/`; SciPy's in `reference/generated/`. (Markdown pages are not
affected: MyST reads single backticks as code.)
"""

from __future__ import annotations

import re

__all__ = ["external_url", "setup"]

_NAME = re.compile(r"^(numpy|scipy)(\.[A-Za-z_][A-Za-z0-9_]*)+$")
_NUMPY = "https://numpy.org/doc/stable/reference/"
_SCIPY = "https://docs.scipy.org/doc/scipy/reference/generated/"


def external_url(name: str):
    """The documentation URL of a dotted `numpy.*`/`scipy.*` name, or None for anything else."""
    if not _NAME.match(name) or name in ("numpy.random", "numpy.linalg", "numpy.fft"):
        return None
    if name.startswith("scipy."):
        return _SCIPY + name + ".html"
    folder = "random/generated/" if name.startswith("numpy.random.") else "generated/"
    return _NUMPY + folder + name + ".html"


def _name_role(name, rawtext, text, lineno, inliner, options=None, content=()):
    from docutils import nodes  # (Sphinx's; external_url needs no docutils, for the CPU tests)
    from docutils.parsers.rst import roles

    url = external_url(text.strip())
    if url is not None:
        return [nodes.reference(rawtext, "", nodes.literal(text, text), refuri=url)], []
    xref, messages = roles.role("py:obj", inliner.language, lineno, inliner.reporter)
    return xref("py:obj", rawtext, text, lineno, inliner, options or {}, content)


def setup(app):
    app.add_role("cuarray-name", _name_role)
    return {"parallel_read_safe": True}
