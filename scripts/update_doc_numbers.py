"""Refresh docs/numbers.json, the one source of the numbers the user-facing texts state about the
project (the CPU suite's time and counts, the install's size and time, the docs build, the quick
bench's time), and rewrite those texts to agree with it.

Each option replaces one entry's numbers and its measurement record (date, command, machine); then
every phrase of PHRASES in README.md, docs/first-hour.md, docs/install.md and the bench's --help
(cuarray/bench/__main__.py) is rewritten from the file. tests/test_doc_numbers_cpu.py fails when a
text states one of these numbers differently::

    python scripts/update_doc_numbers.py --pytest-summary "21973 passed, 23513 skipped in 566.12s"
    python scripts/update_doc_numbers.py --build-docs            # times a serial sphinx build here
    python scripts/update_doc_numbers.py --docs-html OUT --docs-seconds 81
    python scripts/update_doc_numbers.py --quick-bench run.json  # a `--quick --json` run
    python scripts/update_doc_numbers.py --first-check-seconds 6.3
    python scripts/update_doc_numbers.py --install-gb 2.2 --cuda-wheels-gb 1.7 --install-warm-s 40 --install-cold-s 180
    python scripts/update_doc_numbers.py --check                 # exit 1 when a text disagrees

--machine and --date (default: today, UTC) describe the measurement given.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NUMBERS = os.path.join(ROOT, "docs", "numbers.json")
HELP_SOURCE = "cuarray/bench/__main__.py"


def load() -> dict:
    with open(NUMBERS) as f:
        return json.load(f)


def _half_minutes(seconds: float) -> str:
    m = round(seconds / 30) / 2
    return "{:g}".format(m)


def _hundreds(n: int) -> str:
    return "{:,}".format(int(round(n, -2)) if n >= 1000 else n)


def _under_a_minute(seconds: float) -> str:
    return "under a minute" if seconds < 60 else "about {} minutes".format(_half_minutes(seconds))


def _machine(entry: dict) -> str:
    return entry["measured"]["machine"].split("(")[0].replace("NVIDIA ", "").strip()


# What each placeholder says, from the numbers file, and what it may look like in a text.
_NUM = r"\d[\d,]*(?:\.\d+)?"
VALUES = {
    "suite_minutes": (lambda n: _half_minutes(n["cpu_suite"]["seconds"]), _NUM),
    "suite_passed": (lambda n: _hundreds(n["cpu_suite"]["passed"]), _NUM),
    "suite_skipped": (lambda n: _hundreds(n["cpu_suite"]["skipped"]), _NUM),
    "first_check": (lambda n: _under_a_minute(n["first_check"]["seconds"]),
                    r"under\s+a\s+minute|about\s+" + _NUM + r"\s+minutes"),
    "install_gb": (lambda n: "{:g}".format(n["install"]["size_gb"]), _NUM),
    "cuda_gb": (lambda n: "{:g}".format(n["install"]["cuda_wheels_gb"]), _NUM),
    "install_warm_s": (lambda n: "{:g}".format(round(n["install"]["seconds_warm_cache"])), _NUM),
    "install_cold_minutes": (lambda n: _half_minutes(n["install"]["seconds_cold_cache"]), _NUM),
    "docs_pages": (lambda n: _hundreds(n["docs_build"]["pages"]), _NUM),
    "docs_seconds": (lambda n: str(5 * round(n["docs_build"]["seconds"] / 5)), _NUM),
    "docs_cpu_seconds": (lambda n: str(5 * round(n["docs_build"]["cpu_seconds"] / 5)), _NUM),
    "quick_rows": (lambda n: str(n["quick_bench"]["rows"]), _NUM),
    "quick_minutes": (lambda n: _half_minutes(n["quick_bench"]["seconds"]), _NUM),
    "quick_machine": (lambda n: _machine(n["quick_bench"]), r"[A-Z][\w-]*"),
}

# (file, phrase): the few sentences that state these numbers. Spaces match any run of whitespace
# (the texts wrap lines); {name} is a value of VALUES.
PHRASES = [
    ("README.md", "The install is about {install_gb} GB, {cuda_gb} GB of it NVIDIA's CUDA wheels (the `cu13` "
     "extra), and takes about {install_warm_s} s with pip's cache warm ({install_cold_minutes} minutes on a cold cache"),
    ("README.md", "rows: {quick_rows} of them took about {quick_minutes} minutes on an {quick_machine}"),
    ("README.md", "On a 2-core machine without a GPU it takes about {suite_minutes} minutes and reports about "
     "{suite_passed} passed and {suite_skipped} skipped"),
    ("README.md", "A quicker first check, {first_check}:"),
    ("README.md", "`sphinx-build -W -b html docs docs/_build/html` (about {docs_pages} pages, about {docs_seconds} s "
     "on 2 cores;"),
    ("docs/first-hour.md", "about {install_gb} GB in all ({cuda_gb} GB of it those wheels), about {install_warm_s} s "
     "with pip's cache warm"),
    ("docs/first-hour.md", "The first check of the tests takes {first_check}:"),
    ("docs/first-hour.md", "runs without a GPU too: about {suite_minutes} minutes on 2 cores, with about "
     "{suite_passed} tests passed and {suite_skipped} skipped"),
    ("docs/install.md", "The install is about {install_gb} GB ({cuda_gb} GB of NVIDIA wheels)."),
    ("docs/install.md", "The whole site, with a page per public name (about {docs_pages} pages), takes about "
     "{docs_cpu_seconds} s of CPU"),
    (HELP_SOURCE, "on an {quick_machine}, {quick_rows} rows took about {quick_minutes} minutes"),
]

# Any of these in a checked text must lie inside a phrase above (a new sentence stating such a
# number is then either added to PHRASES or rewritten).
UNCHECKED = re.compile(r"\b\d[\d,.]*\s+(?:minutes?|passed|skipped|pages|GB)\b|\b(?:under|about)\s+a\s+minute\b")


def phrase_regex(phrase: str) -> re.Pattern:
    out = []
    for part in re.split(r"(\{\w+\})", phrase):
        if part.startswith("{") and part.endswith("}"):
            name = part[1:-1]
            out.append("(?P<{}>{})".format(name, VALUES[name][1]))
        else:
            out.append(r"\s+".join(re.escape(w) for w in part.split(" ")))
    return re.compile("".join(out))


def expected(numbers: dict) -> dict:
    return {name: render(numbers) for name, (render, _) in VALUES.items()}


def mismatches(path: str, text: str, numbers: dict) -> list[str]:
    """What is wrong in `text` (the file at `path`, or the bench's help for HELP_SOURCE): a phrase
    missing, a value other than the file's, a number outside every phrase."""
    want = expected(numbers)
    out, covered = [], []
    for where, phrase in PHRASES:
        if where != path:
            continue
        found = list(phrase_regex(phrase).finditer(text))
        if not found:
            out.append("{}: no sentence matches {!r}".format(path, phrase))
        for m in found:
            covered.append(m.span())
            for name, value in m.groupdict().items():
                if " ".join(value.split()) != want[name]:
                    out.append("{}: {!r} says {} = {!r}, docs/numbers.json gives {!r}".format(
                        path, " ".join(m.group(0).split()), name, value, want[name]))
    for m in UNCHECKED.finditer(text):
        if not any(a <= m.start() and m.end() <= b for a, b in covered):
            line = text.count("\n", 0, m.start()) + 1
            out.append("{}:{}: {!r} is stated outside the phrases of scripts/update_doc_numbers.py".format(
                path, line, m.group(0)))
    return out


def rewrite(text: str, path: str, numbers: dict) -> str:
    want = expected(numbers)
    for where, phrase in PHRASES:
        if where != path:
            continue
        rx = phrase_regex(phrase)

        def fix(m):
            s, pos = [], m.start()
            for name in rx.groupindex:
                s.append(m.string[pos:m.start(name)])
                s.append(want[name])
                pos = m.end(name)
            return "".join(s) + m.string[pos:m.end()]

        text = rx.sub(fix, text)
    return text


def bench_help() -> str:
    sys.path.insert(0, ROOT)
    from cuarray.bench.__main__ import _parser

    return _parser().format_help()


def parse_pytest_summary(line: str) -> dict:
    """'21973 passed, 23513 skipped, 2 xfailed in 566.12s (0:09:26)' -> passed, skipped, seconds."""
    counts = {k: int(v) for v, k in re.findall(r"(\d+) (passed|skipped|failed|errors?)\b", line)}
    secs = re.search(r"\bin ([\d.]+)s\b", line)
    if "passed" not in counts or secs is None:
        raise ValueError("not a pytest summary line: {!r}".format(line))
    return {"passed": counts["passed"], "skipped": counts.get("skipped", 0), "seconds": round(float(secs.group(1)))}


def count_html(folder: str) -> int:
    return sum(f.endswith(".html") for _, _, files in os.walk(folder) for f in files)


def build_docs() -> tuple[int, float, float]:
    """A serial build into a new folder, as CI runs it: (pages, wall seconds, CPU seconds)."""
    with tempfile.TemporaryDirectory() as out:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", "docs", out], cwd=ROOT, check=True)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return count_html(out), wall, cpu


def _measured(args, command: str, machine: str) -> dict:
    return {"date": args.date, "command": command, "machine": args.machine or machine}


def update(numbers: dict, args) -> dict:
    n = json.loads(json.dumps(numbers))
    if args.pytest_summary:
        n["cpu_suite"] = dict(parse_pytest_summary(args.pytest_summary),
                              measured=_measured(args, "python -m pytest -n auto -q", "2 cores, no GPU"))
    if args.first_check_seconds is not None:
        n["first_check"] = {"seconds": args.first_check_seconds,
                            "measured": _measured(args, n["first_check"]["measured"]["command"], "2 cores, no GPU")}
    if args.build_docs or args.docs_html:
        if args.build_docs:
            pages, wall, cpu = build_docs()
        else:
            if args.docs_seconds is None:
                raise SystemExit("--docs-html needs --docs-seconds (the build's wall time)")
            pages, wall = count_html(args.docs_html), args.docs_seconds
            cpu = args.docs_cpu_seconds if args.docs_cpu_seconds is not None else n["docs_build"]["cpu_seconds"]
        n["docs_build"] = {"pages": pages, "seconds": round(wall, 1), "cpu_seconds": round(cpu, 1),
                           "measured": _measured(args, "python -m sphinx -W -q -b html docs OUT (a new OUT; "
                                                 "pages: the .html files written)", "2 cores, serial build")}
    if args.quick_bench:
        with open(args.quick_bench) as f:
            run = json.load(f)
        if run.get("mode") != "quick":
            raise SystemExit("{} is not a --quick run".format(args.quick_bench))
        gpu = (run.get("device") or {}).get("name", "") if isinstance(run.get("device"), dict) else str(run.get("device", ""))
        n["quick_bench"] = {"rows": len(run["rows"]), "seconds": round(run["wall_s"]),
                            "measured": _measured(args, "python -m cuarray.bench --quick --json run.json",
                                                  gpu or "unknown GPU")}
    if args.install_gb is not None or args.install_warm_s is not None:
        inst = dict(n["install"])
        for key, value in (("size_gb", args.install_gb), ("cuda_wheels_gb", args.cuda_wheels_gb),
                           ("seconds_warm_cache", args.install_warm_s), ("seconds_cold_cache", args.install_cold_s)):
            if value is not None:
                inst[key] = value
        inst["measured"] = _measured(args, 'pip install -e ".[cu13]" into a new virtual environment',
                                     n["install"]["measured"]["machine"])
        n["install"] = inst
    return n


def texts() -> dict:
    """{path: text} of every file that PHRASES names."""
    out = {}
    for path in dict.fromkeys(p for p, _ in PHRASES):
        with open(os.path.join(ROOT, path)) as f:
            out[path] = f.read()
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pytest-summary", help='the whole CPU suite\'s last line, e.g. "21973 passed, 23513 skipped in 566.12s"')
    p.add_argument("--first-check-seconds", type=float, help="the README's first check (test_import, test_info, test_readme_cpu)")
    p.add_argument("--build-docs", action="store_true", help="run and time a serial sphinx build here")
    p.add_argument("--docs-html", metavar="DIR", help="count the .html files of a build made elsewhere (with --docs-seconds)")
    p.add_argument("--docs-seconds", type=float)
    p.add_argument("--docs-cpu-seconds", type=float)
    p.add_argument("--quick-bench", metavar="RUN.json", help="a `python -m cuarray.bench --quick --json` file")
    p.add_argument("--install-gb", type=float)
    p.add_argument("--cuda-wheels-gb", type=float)
    p.add_argument("--install-warm-s", type=float)
    p.add_argument("--install-cold-s", type=float)
    p.add_argument("--machine", help="where the given measurement ran")
    p.add_argument("--date", default=datetime.datetime.now(datetime.timezone.utc).date().isoformat())
    p.add_argument("--check", action="store_true", help="change nothing; exit 1 when a text disagrees with the file")
    args = p.parse_args(argv)
    numbers = load()
    if args.check:
        bad = [m for path, text in texts().items() for m in mismatches(path, text, numbers)]
        print("\n".join(bad) or "the texts agree with docs/numbers.json")
        return 1 if bad else 0
    new = update(numbers, args)
    if new != numbers:
        with open(NUMBERS, "w") as f:
            json.dump(new, f, indent=2)
            f.write("\n")
    for path, text in texts().items():
        fixed = rewrite(text, path, new)
        if fixed != text:
            with open(os.path.join(ROOT, path), "w") as f:
                f.write(fixed)
            print("rewrote " + path)
    bad = [m for path, text in texts().items() for m in mismatches(path, text, new)]
    print("\n".join(bad) or "the texts agree with docs/numbers.json")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
