"""Run cupyx's own SciPy tests (CuPy's tests/cupyx_tests/scipy_tests, from a CuPy checkout: they
are not in CuPy's wheel and not copied here) on cuarray through `cupy_alias`, and on CuPy itself,
over the same hash-chosen sample; write per-module counts and compare the two.

    python scripts/ecosystem/cupyx_tests.py run --tests DIR --lib cuarray --out cu.json -n 16 --sample-every 4
    python scripts/ecosystem/cupyx_tests.py run --tests DIR --lib cupy --out cp.json -n 16 --sample-every 4
    python scripts/ecosystem/cupyx_tests.py compare cp.json cu.json

DIR is the scipy_tests folder. The sample is of test functions (cupy_alias.sampled), so both
sides run the same functions; their parametrizations differ (cuarray.testing makes one test per
dtype where CuPy loops over the dtypes inside one test), so counts of tests differ and the compare
works per function. A module's pass rate is passed / (passed + failed): skips (a `with_requires`
SciPy newer than installed, a missing CUDA library) count on neither side, and neither does a test
that fails on cuarray only because it expects CuPy's NotImplementedError ("DID NOT RAISE
NotImplementedError": a call CuPy refuses and cuarray answers), counted apart as `beyond`. The
compare lists the test functions that pass entirely on CuPy and fail somewhere on cuarray, with
the first error of each.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

from cupy_alias import function_id

HERE = os.path.dirname(os.path.abspath(__file__))


def module_of(classname: str, file: str = "") -> str:
    """The SciPy module a test belongs to, from its junit class name or file
    (``...scipy_tests.signal_tests.test_czt.TestCZT`` -> ``signal``)."""
    for part in (classname or file.replace("/", ".")).split("."):
        if part.endswith("_tests") and part not in ("scipy_tests", "cupyx_tests"):
            return part[: -len("_tests")]
    return "other"


# A failure that only says cuarray answered where the test expects CuPy to refuse.
BEYOND = re.compile(r"DID NOT RAISE.*NotImplementedError")


def parse_junit(path: str) -> dict:
    """{module: {"passed": n, "failed": n, "skipped": n, "beyond": n, "failures": [test ids],
    "passes": [test ids], "messages": {test id: first error line}, "uncollected": [files that failed
    to import]}} from a junit file."""
    out = collections.defaultdict(lambda: {"passed": 0, "failed": 0, "skipped": 0, "beyond": 0, "failures": [],
                                           "passes": [], "messages": {}, "uncollected": []})
    for case in ET.parse(path).getroot().iter("testcase"):
        cls, name = case.get("classname", ""), case.get("name", "")
        if not cls:  # a file that failed to import: its tests were never collected
            err = case.find("error")
            text = (err.text or err.get("message", "")) if err is not None else ""
            reason = [ln[4:] for ln in text.splitlines() if ln.startswith("E   ")][-1:] or [text[-200:]]
            out[module_of(name)]["uncollected"].append([name, reason[0]])
            continue
        mod = module_of(cls, case.get("file", ""))
        tid = "{}::{}".format(cls, name)
        bad = case.find("failure")
        bad = case.find("error") if bad is None else bad
        if case.find("skipped") is not None:
            out[mod]["skipped"] += 1
        elif bad is not None:
            message = (bad.get("message") or bad.text or "").strip().splitlines()[:1]
            message = message[0][:200] if message else ""
            if BEYOND.search(message):
                out[mod]["beyond"] += 1
                continue
            out[mod]["failed"] += 1
            out[mod]["failures"].append(tid)
            out[mod]["messages"][tid] = message
        else:
            out[mod]["passed"] += 1
            out[mod]["passes"].append(tid)
    return dict(out)


def collect_paths(tests: str, modules: str = "") -> tuple:
    """(rootdir, the paths pytest collects): absolute, as pytest runs in a temporary directory (a
    relative --tests was looked for there and found nothing)."""
    root = os.path.abspath(tests)
    return root, [os.path.join(root, m + "_tests") for m in modules.split(",")] if modules else [root]


def run(args) -> int:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([HERE, os.environ.get("PYTHONPATH", "")]))
    root, paths = collect_paths(args.tests, args.modules)
    with tempfile.TemporaryDirectory() as tmp:
        junit = os.path.join(tmp, "junit.xml")
        cmd = [sys.executable, "-m", "pytest", "-q", "-p", "cupy_alias", "-p", "no:cacheprovider",
               "--rootdir", root, "--sample-every", str(args.sample_every), "--junitxml", junit,
               "-o", "junit_family=xunit1", "--timeout", str(args.timeout), "--continue-on-collection-errors"]
        if args.lib == "cupy":
            cmd.append("--as-cupy")
        if args.n:
            cmd += ["-n", str(args.n)]
        proc = subprocess.run(cmd + paths + list(args.pytest_args), env=env, cwd=tmp)
        if not os.path.exists(junit):
            print("no junit file: pytest exited {}".format(proc.returncode), file=sys.stderr)
            return 2
        result = {"lib": args.lib, "sample_every": args.sample_every, "modules": parse_junit(junit)}
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1)
    print(table([result]))
    return 0


def rate(counts) -> float | None:
    ran = counts["passed"] + counts["failed"]
    return counts["passed"] / ran if ran else None


def table(results) -> str:
    mods = sorted({m for r in results for m in r["modules"]})
    head = "| module | " + " | ".join("{} passed / ran".format(r["lib"]) for r in results) + " |"
    lines = [head, "|" + "---|" * (len(results) + 1)]
    for m in mods:
        cells = []
        for r in results:
            c = r["modules"].get(m)
            cells.append("" if c is None else "{} / {} ({:.1%})".format(
                c["passed"], c["passed"] + c["failed"], rate(c) or 0.0))
        lines.append("| {} | {} |".format(m, " | ".join(cells)))
    return "\n".join(lines)


def charge_uncollected(ref, ours) -> None:
    """The reference's tests in files that `ours` could not import count as failed on `ours`."""
    for m, c in ours["modules"].items():
        for f, reason in c.get("uncollected", []):
            r = ref["modules"].get(m, {})
            lost = [t for t in r.get("passes", []) + r.get("failures", []) if t.startswith(f + ".") or t.startswith(f + "::")]
            c["failed"] += len(lost)
            c["failures"] += lost
            c.setdefault("messages", {}).update((t, "not importable: " + reason) for t in lost)


def compare(args) -> int:
    ref, ours = (json.load(open(p)) for p in (args.reference, args.ours))
    charge_uncollected(ref, ours)
    print(table([ref, ours]))
    beyond = {m: c.get("beyond", 0) for m, c in ours["modules"].items() if c.get("beyond")}
    if beyond:
        print("\nanswered on {} where the test expects CuPy's NotImplementedError (counted on neither side): {}"
              .format(ours["lib"], ", ".join("{} {}".format(m, n) for m, n in sorted(beyond.items()))))
    for m, c in sorted(ours["modules"].items()):
        for f, reason in c.get("uncollected", []):
            print("not importable on {}: {} ({})".format(ours["lib"], f, reason))
    worse = []
    for m, c in ours["modules"].items():
        r = ref["modules"].get(m, {})
        failing = {function_id(t) for t in r.get("failures", [])}
        clean = {function_id(t) for t in r.get("passes", [])} - failing
        by_function = collections.defaultdict(list)
        for t in c["failures"]:
            by_function[function_id(t)].append(t)
        worse += [(f, ts) for f, ts in sorted(by_function.items()) if f in clean]
    print("\n{} test functions pass entirely on {} and fail somewhere on {} ({} tests):".format(
        len(worse), ref["lib"], ours["lib"], sum(len(ts) for _, ts in worse)))
    messages = {k: v for c in ours["modules"].values() for k, v in c.get("messages", {}).items()}
    for f, ts in worse:
        print("  {} ({} failing): {}".format(f, len(ts), messages.get(ts[0], "")))
    return 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--tests", required=True, help="CuPy's tests/cupyx_tests/scipy_tests folder")
    r.add_argument("--lib", choices=("cuarray", "cupy"), default="cuarray")
    r.add_argument("--modules", default="", help="e.g. signal,ndimage (the folders' names without _tests)")
    r.add_argument("--sample-every", type=int, default=1)
    r.add_argument("--timeout", type=int, default=120)
    r.add_argument("-n", type=int, default=0)
    r.add_argument("--out", required=True)
    r.add_argument("pytest_args", nargs="*")
    c = sub.add_parser("compare")
    c.add_argument("reference")
    c.add_argument("ours")
    args = p.parse_args(argv)
    return run(args) if args.cmd == "run" else compare(args)


if __name__ == "__main__":
    sys.exit(main())
