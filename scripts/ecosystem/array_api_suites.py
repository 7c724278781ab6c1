"""SciPy's and scikit-learn's own array API tests on cuarray arrays, beside their other backends
(NumPy, CuPy, PyTorch on the GPU), module by module; counts per backend and the tests that pass on
CuPy or PyTorch and fail on cuarray.

    python scripts/ecosystem/array_api_suites.py run --suite scipy --modules special,signal --out s.json -n 16
    python scripts/ecosystem/array_api_suites.py run --suite sklearn --modules metrics,preprocessing --out k.json
    python scripts/ecosystem/array_api_suites.py report s.json k.json

The backends come from the plugins beside this file (`scipy_backends`, `sklearn_namespaces`); both
need SCIPY_ARRAY_API=1, which the run sets. PyTorch runs on CUDA (SCIPY_DEVICE=cuda), so every
backend but NumPy is a GPU one. A backend's pass rate is passed / (passed + failed); skips (SciPy's
`cpu_only`/`np_only` marks, a missing library) count on neither side."""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
BACKENDS = ("numpy", "array_api_strict", "cupy", "torch", "jax.numpy", "dask.array", "dpnp", "cuarray")
SUITES = {
    # (pytest arguments before the module, the package, the plugin)
    "scipy": (["-m", "array_api_backends"], "scipy", "scipy_backends"),
    "sklearn": (["-k", "array_api"], "sklearn", "sklearn_namespaces"),
}
_PARAMS = re.compile(r"\[(.*)\]$")


def backend_of(name: str) -> str | None:
    """The backend a parametrized test id runs on: the one backend name among its parameters
    (``test_x[float32-cuarray]`` and ``test_y[cuarray-None-None]`` -> cuarray)."""
    m = _PARAMS.search(name)
    if not m:
        return None
    parts = set(m.group(1).split("-"))
    found = [b for b in BACKENDS if b in parts]
    return found[0] if len(found) == 1 else None


def parse_junit(path: str) -> dict:
    """{backend: {"passed": n, "failed": n, "skipped": n, "failures": [ids], "passes": [ids]}}, the
    ids with the backend's name replaced by ``{}`` so that one test lines up across backends;
    "uncollected": [[file, reason]] for files that failed to import."""
    out = collections.defaultdict(lambda: {"passed": 0, "failed": 0, "skipped": 0, "failures": [], "passes": []})
    uncollected = []
    for case in ET.parse(path).getroot().iter("testcase"):
        cls, name = case.get("classname", ""), case.get("name", "")
        err = case.find("error")
        if not cls and err is not None and backend_of(name) is None:  # a file that failed to import
            text = (err.text or err.get("message", "")) if err is not None else ""
            uncollected.append([name, ([ln[4:] for ln in text.splitlines() if ln.startswith("E   ")][-1:] or
                                       [text[-200:]])[0]])
            continue
        backend = backend_of(name)
        if backend is None:
            continue
        m = _PARAMS.search(name)
        params = "-".join("{}" if p == backend else p for p in m.group(1).split("-"))
        tid = "{}::{}[{}]".format(cls, name[:m.start()], params)
        row = out[backend]
        if case.find("skipped") is not None:
            row["skipped"] += 1
        elif case.find("failure") is not None or err is not None:
            row["failed"] += 1
            row["failures"].append(tid)
            bad = case.find("failure") if case.find("failure") is not None else err
            row.setdefault("messages", {})[tid] = (bad.get("message") or "")[:240]
            where = library_frame(bad.text or "")
            if where:
                row.setdefault("where", {})[tid] = where
        else:
            row["passed"] += 1
            row["passes"].append(tid)
    result = dict(out)
    if uncollected:
        result["uncollected"] = uncollected
    return result


_FRAME = re.compile(r"((?:scipy|sklearn)/[\w/]+\.py):(\d+)")
LIMIT = "Implicit conversion to a NumPy array"


def library_frame(traceback: str) -> str | None:
    """The last SciPy or scikit-learn source line (not a test file) in a failure's traceback: where
    the library handed our array to NumPy, for the list of the suites' own limits."""
    frames = [m for m in _FRAME.finditer(traceback) if "/tests/" not in m.group(1)]
    return "{}:{}".format(*frames[-1].groups()) if frames else None


def limits(module_result: dict, ours="cuarray") -> dict:
    """{library line: [test ids]} of `ours`'s failures that are the library converting our arrays
    with NumPy (cuarray's TypeError for an implicit device-to-host copy is the correct answer)."""
    r = module_result.get(ours, {})
    out = collections.defaultdict(list)
    for tid, msg in r.get("messages", {}).items():
        if LIMIT in msg:
            out[r.get("where", {}).get(tid, "?")].append(tid)
    return dict(out)


def gaps(module_result: dict, ours="cuarray", peers=("cupy", "torch")) -> list:
    """The tests that pass on a peer and fail on `ours`, sorted."""
    passing = set()
    for p in peers:
        passing |= set(module_result.get(p, {}).get("passes", ()))
    return sorted(passing & set(module_result.get(ours, {}).get("failures", ())))


def run_module(suite: str, module: str, backends, workers: int, timeout: int, extra=()) -> dict:
    before, package, plugin = SUITES[suite]
    env = dict(os.environ, SCIPY_ARRAY_API="1", SCIPY_DEVICE="cuda",
               PYTHONPATH=os.pathsep.join([HERE] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    with tempfile.TemporaryDirectory() as tmp:
        junit = os.path.join(tmp, "junit.xml")
        cmd = [sys.executable, "-m", "pytest", "-p", plugin, "--pyargs", "{}.{}".format(package, module),
               *before, "-q", "-p", "no:cacheprovider", "--junitxml", junit, "--timeout", str(timeout)]
        if suite == "scipy" and backends:
            cmd += ["--xp-backends", ",".join(backends)]
        if workers > 1:
            cmd += ["-n", str(workers)]
        cmd += list(extra)
        started = time.perf_counter()
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=tmp)
        result = parse_junit(junit) if os.path.exists(junit) else {}
    result = {k: v for k, v in result.items() if k == "uncollected" or not backends or k in backends}
    tail = (proc.stdout + proc.stderr).strip().splitlines()[-3:]
    return {"results": result, "seconds": round(time.perf_counter() - started, 1), "exit": proc.returncode,
            "tail": tail}


def report(data: dict) -> str:
    lines = []
    for suite, modules in data.items():
        if suite.startswith("_"):
            continue
        backends = [b for b in BACKENDS if any(b in m["results"] for m in modules.values())]
        lines.append("## {} ({})".format(suite, data.get("_versions", {}).get(suite, "")))
        lines.append("| module | " + " | ".join(backends) + " | pass on a peer, fail on cuarray | s |")
        lines.append("|---" * (len(backends) + 3) + "|")
        for module, m in modules.items():
            cells = []
            for b in backends:
                r = m["results"].get(b)
                cells.append("{}/{} ({} skipped)".format(r["passed"], r["passed"] + r["failed"], r["skipped"])
                             if r else "-")
            lines.append("| {} | {} | {} | {} |".format(module, " | ".join(cells), len(gaps(m["results"])),
                                                       m["seconds"]))
        for module, m in modules.items():
            listed = gaps(m["results"])
            if listed:
                lines.append("\n### {}.{}: pass on CuPy or PyTorch, fail on cuarray".format(suite, module))
                lines += ["- `{}`".format(t.format("cuarray")) for t in listed]
            lim = limits(m["results"])
            if lim:
                lines.append("\n### {}.{}: the library converts cuarray arrays with NumPy ({} tests)".format(
                    suite, module, sum(map(len, lim.values()))))
                lines += ["- `{}`: {} tests".format(w, len(t)) for w, t in sorted(lim.items(), key=lambda kv: -len(kv[1]))]
            for file, reason in m["results"].get("uncollected", []):
                lines.append("- not collected: `{}`: {}".format(file, reason))
        lines.append("")
    return "\n".join(lines)


def _versions() -> dict:
    out = {}
    for suite, (_, package, _) in SUITES.items():
        try:
            out[suite] = __import__(package).__version__
        except ImportError:
            out[suite] = "not installed"
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--suite", choices=sorted(SUITES), required=True)
    r.add_argument("--modules", required=True, help="comma-separated submodules (special,stats,...)")
    r.add_argument("--backends", default="numpy,cupy,torch,cuarray")
    r.add_argument("--out", required=True, help="JSON, rewritten after every module (a killed run keeps them)")
    r.add_argument("-n", type=int, default=8)
    r.add_argument("--timeout", type=int, default=120, help="seconds a test")
    q = sub.add_parser("report")
    q.add_argument("paths", nargs="+")
    args = p.parse_args(argv)
    if args.cmd == "report":
        merged = {}
        for path in args.paths:
            with open(path) as f:
                for k, v in json.load(f).items():
                    merged.setdefault(k, {}).update(v)
        print(report(merged))
        return 0
    data = {"_versions": _versions(), args.suite: {}}
    backends = tuple(b for b in args.backends.split(",") if b)
    for module in [m for m in args.modules.split(",") if m]:
        data[args.suite][module] = run_module(args.suite, module, backends, args.n, args.timeout)
        m = data[args.suite][module]
        print(module, m["seconds"], "s", {b: (v["passed"], v["failed"], v["skipped"])
                                          for b, v in m["results"].items() if b != "uncollected"}, flush=True)
        with open(args.out, "w") as f:
            json.dump(data, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
