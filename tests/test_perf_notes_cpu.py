"""docs/perf-notes.md is the current reference, one section per decision (what was chosen, the
numbers behind it, when to revisit), not a work log: at most 600 lines, no heading that names an
issue, a session, a date or a work pass, and every section with its three parts. Code that cites
a section by its heading cites one that exists."""

from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOTES = ROOT / "docs" / "perf-notes.md"
MAX_LINES = 600
# "issue 31", "#29", "session 13", "2026-11-23", "second pass" (a work pass; "one pass" is a design)
WORK_LOG = re.compile(r"\bissues?\b|#\d+|\bsession\b|\d{4}-\d{2}-\d{2}|\b(first|second|third|fourth|fifth)\s+pass\b"
                      r"|\bpass\s+\d+\b|\bround\s+\d+\b", re.I)


def _sections():
    text = NOTES.read_text()
    parts = re.split(r"(?m)^## ", text)
    return [p.split("\n", 1) for p in parts[1:]]


def test_length():
    n = len(NOTES.read_text().splitlines())
    assert n <= MAX_LINES, "docs/perf-notes.md has {} lines (at most {}): history belongs in git".format(n, MAX_LINES)


def test_headings_name_decisions_not_work():
    heads = [ln for ln in NOTES.read_text().splitlines() if ln.startswith("#")]
    bad = [h for h in heads if WORK_LOG.search(h)]
    assert not bad, bad
    names = [h for h in heads if h.startswith("## ")]
    assert len(names) == len(set(names)), "two sections share a heading"


def test_each_section_has_choice_numbers_and_revisit():
    sections = _sections()
    assert len(sections) >= 20
    for head, body in sections:
        for part in ("**Chosen", "**Numbers", "**Revisit when"):
            assert part in body, "section {!r} lacks {}".format(head, part)


def test_cited_sections_exist():
    heads = [h.strip().lower() for h, _ in _sections()]
    cited = set()
    for path in list((ROOT / "cuarray").rglob("*.py")) + list((ROOT / "scripts").rglob("*.py")):
        for m in re.finditer(r'perf-notes\.md[,:]? *"([^"]+)"', path.read_text(errors="replace")):
            cited.add((" ".join(m.group(1).split()), str(path.relative_to(ROOT))))
    missing = [(c, p) for c, p in cited if not any(h.startswith(c.lower().rstrip(". ")) or c.lower() in h
                                                    for h in heads)]
    assert not missing, missing


def test_the_work_log_pattern():
    assert WORK_LOG.search("Reductions (issue 32, H100)") and WORK_LOG.search("EDT (session 13)")
    assert WORK_LOG.search("Reductions over short axes, third pass")
    assert not WORK_LOG.search("Elementwise kernels: one pass, no loop") and not WORK_LOG.search("var/std in one pass")
