"""The numbers README.md, docs/first-hour.md, docs/install.md and `python -m cuarray.bench --help`
state about the project (the CPU suite's time and counts, the install, the docs build, the quick
bench) are docs/numbers.json's, as scripts/update_doc_numbers.py renders them."""

from __future__ import annotations

import argparse
import datetime
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
try:
    import update_doc_numbers as udn
finally:
    sys.path.pop(0)


@pytest.fixture(scope="module")
def numbers():
    return udn.load()


@pytest.fixture(scope="module")
def texts():
    return udn.texts()


def test_every_text_agrees_with_the_numbers_file(numbers, texts):
    assert set(texts) == {"README.md", "docs/first-hour.md", "docs/install.md", udn.HELP_SOURCE}
    bad = [m for path, text in texts.items() for m in udn.mismatches(path, text, numbers)]
    assert not bad, "\n".join(bad) + "\nfix the text, or re-measure: python scripts/update_doc_numbers.py --help"


def test_the_bench_help_as_printed_agrees(numbers):
    help_text = udn.bench_help()
    assert "--quick" in help_text
    assert udn.mismatches(udn.HELP_SOURCE, help_text, numbers) == []


def test_each_number_says_where_it_was_measured(numbers):
    entries = {k: v for k, v in numbers.items() if isinstance(v, dict)}
    assert set(entries) == {"cpu_suite", "first_check", "install", "docs_build", "quick_bench"}
    for name, entry in entries.items():
        m = entry["measured"]
        datetime.date.fromisoformat(m["date"])
        assert m["command"] and m["machine"], name
    assert set(udn.expected(numbers)) == set(udn.VALUES)


def test_a_stale_or_new_number_is_found(numbers, texts):
    fh = texts["docs/first-hour.md"]
    # the page's sentence before docs/numbers.json: it contradicted the README
    old = fh.replace("about 9.5 minutes on 2\ncores, with about 22,000 tests passed and 23,500 skipped",
                     "about 9 minutes on 2\ncores, with some 17,500 GPU tests skipped")
    assert old != fh
    bad = udn.mismatches("docs/first-hour.md", old, numbers)
    assert any("no sentence matches" in b for b in bad) and any("'9 minutes' is stated outside" in b for b in bad), bad
    wrong = fh.replace("about 9.5 minutes on 2", "about 20 minutes on 2")
    assert any("suite_minutes = '20'" in b and "'9.5'" in b for b in udn.mismatches("docs/first-hour.md", wrong, numbers))
    extra = texts["README.md"] + "\nThe benchmark page lists 1,234 pages of results.\n"
    assert any("'1,234 pages' is stated outside" in b for b in udn.mismatches("README.md", extra, numbers))


def _args(**given):
    base = dict(pytest_summary=None, first_check_seconds=None, build_docs=False, docs_html=None, docs_seconds=None,
                docs_cpu_seconds=None, quick_bench=None, install_gb=None, cuda_wheels_gb=None, install_warm_s=None,
                install_cold_s=None, machine=None, date="2027-01-02")
    return argparse.Namespace(**dict(base, **given))


def test_a_new_measurement_rewrites_every_text(numbers, texts, tmp_path):
    line = "===== 22512 passed, 23004 skipped, 3 xfailed in 700.31s (0:11:40) ====="
    assert udn.parse_pytest_summary(line) == {"passed": 22512, "skipped": 23004, "seconds": 700}
    with pytest.raises(ValueError):
        udn.parse_pytest_summary("no tests ran in 0.01s")
    (tmp_path / "a").mkdir()
    for name in ("index.html", "a/b.html", "a/c.html", "a/style.css"):
        (tmp_path / name).write_text("")
    new = udn.update(numbers, _args(pytest_summary=line, docs_html=str(tmp_path), docs_seconds=91.0))
    assert new["cpu_suite"]["measured"]["date"] == "2027-01-02" and new["docs_build"]["pages"] == 3
    assert new["quick_bench"] == numbers["quick_bench"]
    for path, text in texts.items():
        fixed = udn.rewrite(text, path, new)
        assert udn.mismatches(path, fixed, new) == [], path
        if path in ("README.md", "docs/first-hour.md"):
            assert fixed != text and udn.mismatches(path, fixed, numbers)
    readme = udn.rewrite(texts["README.md"], "README.md", new)
    assert "about 11.5 minutes and reports about 22,500 passed and 23,000 skipped" in " ".join(readme.split())
    assert "(about 3 pages, about 90 s on 2 cores;" in " ".join(readme.split())
