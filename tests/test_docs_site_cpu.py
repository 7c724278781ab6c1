"""The documentation site's sources, checked without Sphinx: every public name of every namespace
is on its namespace's API page, the user guide's toctree names files that exist, and the README's
benchmark figure is read back from docs/benchmarks.md by the bench's own --from-json format."""

from __future__ import annotations

import importlib
import importlib.util
import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = os.path.join(ROOT, "docs")


def _load(path, name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(DOCS, path))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


api_pages = _load("api_pages.py", "cuarray_docs_api_pages")


def test_every_public_name_is_on_its_namespace_page():
    seen = {}
    for modname, title, blurb in api_pages.NAMESPACES:
        text = api_pages.page(modname, title, blurb, seen)
        listed = set(re.findall(r"^   (\w+)$", text, re.M)) | set(re.findall(r"^- ``(\w+)``", text, re.M))
        missing = set(api_pages.public_names(importlib.import_module(modname))) - listed
        assert not missing, "{}: {}".format(modname, sorted(missing))


def test_an_object_gets_one_page_and_its_other_names_link_there():
    seen = {}
    pages = {m: api_pages.page(m, t, b, seen) for m, t, b in api_pages.NAMESPACES}
    assert "   ndarray\n" in pages["cuarray"]
    # Names cuarray binds on first use and keeps out of `import *` have pages too.
    for name in ("fuse", "lazy", "LazyArray", "profile", "ElementwiseKernel"):
        assert "   {}\n".format(name) in pages["cuarray"], name
    # NumPy's own objects link to NumPy's reference, at NumPy's public path.
    assert "- ``LinAlgError``: `numpy.linalg.LinAlgError <https://numpy.org/doc/stable/reference/generated/" \
           "numpy.linalg.LinAlgError.html>`__" in pages["cuarray.scipy.linalg"]
    # A second name of a documented object links to the first, which has a table entry (a page).
    links = re.findall(r"^- ``\w+``: :obj:`([\w.]+)`", "".join(pages.values()), re.M)
    assert links
    for target in links:
        ns, name = target.rsplit(".", 1)
        assert re.search(r"^   {}$".format(name), pages[ns], re.M), target


def test_toctrees_name_pages_that_exist():
    with open(os.path.join(DOCS, "index.md")) as f:
        text = f.read()
    entries = [e for block in re.findall(r"```\{toctree\}\n(.*?)```", text, re.S)
               for e in block.splitlines() if e and not e.startswith(":")]
    assert len(entries) > 30
    missing = [e for e in entries if e != "api/index" and not os.path.exists(os.path.join(DOCS, e + ".md"))]
    assert not missing


def test_benchmarks_md_reads_back_as_a_bench_report():
    tool = _load(os.path.join("tools", "benchmarks_md_to_json.py"), "cuarray_docs_bench_md")
    with open(os.path.join(DOCS, "benchmarks.md")) as f:
        report = tool.parse(f.read())
    rows = {r["label"]: r for r in report["rows"]}
    assert rows["copy"]["group"] == "copy" and rows["copy"]["libs"]["cuarray"]["time_s"] == pytest.approx(507e-6)
    assert report["device"]["name"].startswith("NVIDIA")
    assert all(r["group"] for r in report["rows"])
