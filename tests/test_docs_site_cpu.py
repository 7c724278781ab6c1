"""The documentation site's sources, checked without Sphinx: every public name of every namespace
is on its namespace's API page, the user guide's toctree names files that exist, and the README's
benchmark figure is read back from docs/benchmarks.md by the bench's own --from-json format."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
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


def test_every_name_in_a_table_gets_its_own_page_outside_the_toctree(tmp_path):
    api_pages.write(str(tmp_path))
    pages = {f[:-4]: (tmp_path / "generated" / f).read_text() for f in os.listdir(tmp_path / "generated")}
    tables = {}
    for modname, _, _ in api_pages.NAMESPACES:
        text = (tmp_path / (modname + ".rst")).read_text()
        # autosummary's :toctree: would put every name's page in every page's sidebar: the build
        # took 14 min of CPU instead of under 1 (docs/tools/build-times.md).
        assert ":toctree:" not in text, modname
        tables.update({modname + "." + n: modname for n in re.findall(r"^   (\w+)$", text, re.M)})
    assert set(pages) == set(tables) and len(pages) > 900
    for full, text in pages.items():
        title = full.replace("_", "\\_")
        assert text.startswith(":orphan:\n\n{}\n{}\n".format(title, "=" * len(title))), full
        assert "\n.. currentmodule:: {}\n".format(tables[full]) in text, full
        assert text.endswith("\n\nIn :doc:`/api/{}`.\n".format(tables[full])), full
    assert "\n.. autofunction:: svd\n" in pages["cuarray.linalg.svd"]
    assert "\n.. autoclass:: csr_matrix\n" in pages["cuarray.sparse.csr_matrix"]
    assert "\n.. autoexception:: NoDeviceError\n" in pages["cuarray.cuda.NoDeviceError"]
    # ufuncs: NumPy's form of their call (theirs is `(*args, **kwargs)`), not `erf = <ufunc 'erf'>`.
    assert "\n.. autofunction:: erf(x, /, out=None, *, where=True, casting='same_kind', order='K', " \
           "dtype=None, subok=True, signature=None)\n\nA ufunc: 1 input, 1 output.\n" in pages["cuarray.scipy.special.erf"]
    assert "\n.. autofunction:: divmod(x1, x2, /, out=(None, None), *, where=True," in pages["cuarray.divmod"]
    assert "\n.. autofunction:: matmul(x1, x2, /, out=None, *, casting=" in pages["cuarray.matmul"]
    assert not [f for f, text in pages.items() if ".. autodata::" in text]


def test_ufunc_pages_name_the_keywords_ufuncs_take():
    import cuarray

    params = inspect.signature(cuarray.ufunc._call).parameters.values()
    taken = ", ".join("{}={!r}".format(p.name, p.default) for p in params if p.kind is p.KEYWORD_ONLY and p.name != "out")
    assert taken == api_pages.UFUNC_KEYWORDS
    assert api_pages.ufunc_signature(cuarray.hypot).startswith("x1, x2, /, out=None, *, where=True")
    assert api_pages.ufunc_signature(cuarray.sum) is None


def test_api_pages_are_the_same_at_each_build_and_stale_pages_go(tmp_path):
    api_pages.write(str(tmp_path), only=["cuarray.linalg"])
    first = {p: p.read_text() for p in tmp_path.rglob("*.rst")}
    (tmp_path / "generated" / "cuarray.linalg.gone.rst").write_text("a name that was removed")
    (tmp_path / "cuarray.fft.rst").write_text("a namespace left out (CUARRAY_DOCS_ONLY) or removed")
    api_pages.write(str(tmp_path), only=["cuarray.linalg"])
    assert {p: p.read_text() for p in tmp_path.rglob("*.rst")} == first
    # Object reprs on the constants list carry no address (a different page at each build).
    assert " at 0x" not in api_pages.page("cuarray", "t", "b", {})


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


def test_see_numpy_names_link_to_numpy_and_scipy_pages():
    links = _load("reference_links.py", "cuarray_docs_reference_links")
    gen = "https://numpy.org/doc/stable/reference/generated/"
    assert links.external_url("numpy.linalg.svd") == gen + "numpy.linalg.svd.html"
    assert links.external_url("numpy.ndarray.sum") == gen + "numpy.ndarray.sum.html"
    assert links.external_url("numpy.random.Generator.normal") == \
        "https://numpy.org/doc/stable/reference/random/generated/numpy.random.Generator.normal.html"
    assert links.external_url("scipy.special.erf") == \
        "https://docs.scipy.org/doc/scipy/reference/generated/scipy.special.erf.html"
    # not a dotted NumPy/SciPy name, or a module (no page in generated/): this site's cross-reference
    for text in ("cuarray.linalg.svd", "numpy", "numpy.linalg", "numpy.linalg.svd()", "x + y", "numpyfoo.bar"):
        assert links.external_url(text) is None, text
