"""Where a Sphinx build of the site spends its time: wall and process CPU (user+sys) at each phase
boundary, read CPU per kind of page, pages written. Printed to stderr at the end of the build.

    PYTHONPATH=docs/tools sphinx-build -b html -D extensions=sphinx.ext.autodoc,\
sphinx.ext.autosummary,sphinx.ext.doctest,numpydoc,myst_parser,sphinx_phases docs /tmp/html

(-D replaces conf.py's list, so name them all.) The numbers in docs/tools/build-times.md came from
it; for a per-function split, run sphinx-build under ``python -m cProfile -o FILE -m sphinx``. Under
``-j N`` the read and write figures count the main process only (the workers are forked children).
"""

from __future__ import annotations

import collections
import os
import sys
import time

_T0 = time.perf_counter()
_C0 = os.times()


def _now():
    t = os.times()
    return time.perf_counter() - _T0, (t.user + t.system) - (_C0.user + _C0.system)


def _kind(docname: str) -> str:
    if docname.startswith("api/generated/"):
        return "api page per name"
    return "api namespace" if docname.startswith("api/") else "user guide"


def setup(app):
    marks = [("extensions loaded (conf.py run)",) + _now()]
    read_cpu, read_n, written = collections.defaultdict(float), collections.Counter(), collections.Counter()
    current = {}

    def mark(name):
        marks.append((name,) + _now())

    def source_read(app, docname, source):
        current["doc"] = (docname, time.process_time())

    def doctree_read(app, doctree):
        docname, c = current.pop("doc", (None, 0.0))
        if docname is not None:
            read_cpu[_kind(docname)] += time.process_time() - c
            read_n[_kind(docname)] += 1

    def page_context(app, pagename, templatename, context, doctree):
        if not written:
            mark("first page written")
        written[_kind(pagename)] += 1

    def finished(app, exc):
        mark("build finished")
        out, prev = ["Sphinx build phases (wall, CPU user+sys of this process):"], (0.0, 0.0)
        for name, w, c in marks:
            out.append("  {:<40} wall {:7.1f} s (+{:6.1f})  cpu {:7.1f} s (+{:6.1f})".format(name, w, w - prev[0], c, c - prev[1]))
            prev = (w, c)
        out.append("  read CPU (source-read to doctree-read):")
        for k in read_cpu:
            out.append("    {:<20} {:5d} docs {:7.1f} s".format(k, read_n[k], read_cpu[k]))
        out.append("  pages written: " + ", ".join("{} {}".format(k, n) for k, n in written.items()))
        print("\n".join(out), file=sys.stderr)

    app.connect("builder-inited", lambda a: mark("builder-inited (stubs written)"), priority=999)
    app.connect("env-before-read-docs", lambda a, e, docs: mark("reading {} docs".format(len(docs))), priority=999)
    app.connect("source-read", source_read, priority=1)
    app.connect("doctree-read", doctree_read, priority=999)
    app.connect("env-updated", lambda a, e: mark("read done") or [], priority=1)
    app.connect("html-page-context", page_context, priority=1)
    app.connect("build-finished", finished, priority=999)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
