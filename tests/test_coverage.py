"""docs/coverage.md: no name it marks present may disappear; the page is regenerable by one command."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import cuarray
from cuarray import _coverage
from cuarray._coverage_scope import ARRAY_API, OUT_OF_SCOPE

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "coverage.md")


def _doc_present():
    with open(DOC, encoding="utf-8") as f:
        return _coverage.parse_present(f.read())


def test_doc_lists_present_names():
    present = _doc_present()
    assert len(present) > 500  # the parser found the tables (a broken parser would pass vacuously)
    assert ("cuarray", "add") in present and ("cuarray.ndarray", "sum") in present


@pytest.mark.parametrize("target", sorted({t for t, _ in _doc_present()}))
def test_every_name_marked_present_still_exists(target):
    owner = _coverage.resolve(target)
    assert owner is not None, target
    gone = [name for t, name in _doc_present() if t == target and not hasattr(owner, name)]
    assert not gone, "{} lost {} (docs/coverage.md marks them present)".format(target, gone)


def _not_listed_by_this_numpy(doc, rendered):
    """Names the page marks present that a render no longer lists. The page is generated with one
    NumPy; a newer one drops names (NumPy 2.5 removed `row_stack`), and the render lists only
    NumPy's names. Such a name is fine while cuarray still has it (the test above checks that)."""
    return [(t, n) for t, n in set(doc) - set(rendered) if not hasattr(_coverage.resolve(t), n)]


def test_render_agrees_with_doc_on_present_names():
    # A name may become present (regenerate the page); none marked present may be missing now.
    now = _coverage.parse_present(_coverage.render())
    assert not _not_listed_by_this_numpy(_doc_present(), now)


def test_out_of_scope_table_is_reviewed():
    for qual, reason in OUT_OF_SCOPE.items():
        assert qual.startswith("numpy."), qual
        assert reason and len(reason) > 10, qual


def test_status_present_wins_over_out_of_scope():
    sec = _coverage.Section("numpy", "cuarray", ("add", "savez_compressed", "no_such_name"), "numpy.")
    assert _coverage.status(sec, "add", cuarray) == ("present", "")
    assert _coverage.status(sec, "savez_compressed", object())[0] == "out of scope"
    assert _coverage.status(sec, "no_such_name", cuarray) == ("missing", "")


def test_array_api_names_are_the_2025_12_set():
    main = set(ARRAY_API[""])
    # 2025.12 additions and the inspection API are listed; a typo would make a name "missing" forever.
    assert {"broadcast_shapes", "isin", "__array_namespace_info__", "unstack", "cumulative_prod"} <= main
    assert {"eig", "eigvals"} <= set(ARRAY_API["linalg"])
    assert "to_device" in ARRAY_API["ndarray"]


def test_one_command_regenerates_the_page(tmp_path):
    out = tmp_path / "coverage.md"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (ROOT, os.environ.get("PYTHONPATH")) if p))
    proc = subprocess.run([sys.executable, "-m", "cuarray", "info", "--coverage", "--output", str(out)],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    text = out.read_text()
    assert text.startswith("# Coverage") and "| `numpy` |" in text
    assert not _not_listed_by_this_numpy(_doc_present(), _coverage.parse_present(text))
