"""Two trees' bench, interleaved on one GPU, and whether each row moved by more than the noise.

    python scripts/ab_bench.py run OLD_TREE NEW_TREE --out DIR [--rounds 2] [--timeout 280] [-- BENCH_ARGS]
    python scripts/ab_bench.py compare DIR

`run` times each tree `--rounds` times, alternating which goes first (old new, new old, ...), each
a separate process (`python -m cuarray.bench --json DIR/<tree><round>.json BENCH_ARGS`, default
`--quick --libs cuarray`) started in that tree with only it on PYTHONPATH (plus what PYTHONPATH held
for installed wheels). A tree's C cores must be built in it (`pip wheel --no-deps TREE`, then the
wheel's `*.so` files copied into the tree: an older pyproject.toml may not parse under a newer
setuptools outside pip's build environment). A tree older than row-by-row `--json` writes its file
only when its bench ends: give `--timeout` room, or fewer cases.

`compare` reads those files. A row's noise is the larger of its two trees' spreads between their
own rounds (|log(a1/a2)|); a row has moved when its trees' medians differ by more than that noise
and more than the run's stated floor (the median same-tree spread over all rows): a row slower
only within what the same tree does from one round to the next is not a regression. It prints the
geometric mean of new/old, the floor, and every row that moved either way.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys


def _times(path: str) -> dict:
    """{row label: cuarray's seconds} of one --json file (rows without a time left out)."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    out = {}
    for row in data.get("rows", []):
        cell = row.get("libs", {}).get("cuarray") or {}
        if cell.get("time_s"):
            out["{} {}".format(row["case"], row["label"])] = float(cell["time_s"])
    return out


def run(args) -> int:
    os.makedirs(args.out, exist_ok=True)
    bench = args.bench or ["--quick", "--libs", "cuarray"]
    extra = os.environ.get("PYTHONPATH", "")
    trees = [("old", os.path.abspath(args.old)), ("new", os.path.abspath(args.new))]
    for r in range(1, args.rounds + 1):
        for tag, tree in (trees if r % 2 else trees[::-1]):
            path = os.path.join(args.out, "{}{}.json".format(tag, r))
            env = dict(os.environ, PYTHONPATH=tree + (os.pathsep + extra if extra else ""))
            cmd = [sys.executable, "-m", "cuarray.bench", "--json", path] + bench
            print("round {} {}: {}".format(r, tag, " ".join(cmd)), flush=True)
            try:
                subprocess.run(cmd, cwd=tree, env=env, timeout=args.timeout, stdout=subprocess.DEVNULL,
                               stderr=subprocess.STDOUT, check=False)
            except subprocess.TimeoutExpired:
                print("  stopped at {} s (the rows it finished are in {})".format(args.timeout, path), flush=True)
    return compare(argparse.Namespace(dir=args.out))


def compare_times(old: list, new: list) -> dict:
    """The comparison of rounds `old` and `new` ({label: seconds} each, two or more rounds a tree)."""
    labels = sorted(set.intersection(*(set(t) for t in old + new)))
    spread, rows = [], []
    for label in labels:
        o, n = [t[label] for t in old], [t[label] for t in new]
        noise = max(abs(math.log(max(o) / min(o))), abs(math.log(max(n) / min(n))))
        spread.append(noise)
        rows.append((label, statistics.median(o), statistics.median(n), noise))
    floor = statistics.median(spread) if spread else 0.0
    moved = [(label, mo, mn, noise) for label, mo, mn, noise in rows
             if abs(math.log(mn / mo)) > max(noise, floor)]
    gmean = math.exp(statistics.fmean(math.log(mn / mo) for _, mo, mn, _ in rows)) if rows else float("nan")
    return {"rows": len(rows), "floor": floor, "gmean": gmean,
            "slower": [m for m in moved if m[2] > m[1]], "faster": [m for m in moved if m[2] < m[1]]}


def compare(args) -> int:
    files = sorted(f for f in os.listdir(args.dir) if f.endswith(".json") and f[:3] in ("old", "new"))
    old = [_times(os.path.join(args.dir, f)) for f in files if f.startswith("old")]
    new = [_times(os.path.join(args.dir, f)) for f in files if f.startswith("new")]
    if len(old) < 2 or len(new) < 2:
        print("compare needs two rounds of each tree in {} (found {} old, {} new)".format(args.dir, len(old), len(new)))
        return 2
    c = compare_times(old, new)
    print("{} rows in every round; new/old geometric mean {:.3f}; same-tree noise floor (median spread "
          "between a tree's rounds) {:.1%}".format(c["rows"], c["gmean"], math.exp(c["floor"]) - 1))
    for what in ("slower", "faster"):
        print("{} than the noise: {}".format(what, len(c[what])))
        for label, mo, mn, noise in c[what]:
            print("  {:<60} old {:>10.3g} s  new {:>10.3g} s  x{:.2f}  (noise {:.1%})".format(
                label, mo, mn, mn / mo, math.exp(noise) - 1))
    return 1 if c["slower"] else 0


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    bench = argv[argv.index("--") + 1:] if "--" in argv else []
    argv = argv[:argv.index("--")] if "--" in argv else argv
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("old")
    r.add_argument("new")
    r.add_argument("--out", required=True)
    r.add_argument("--rounds", type=int, default=2)
    r.add_argument("--timeout", type=float, default=280)
    c = sub.add_parser("compare")
    c.add_argument("dir")
    args = p.parse_args(argv)
    if args.cmd == "run":
        args.bench = bench
        return run(args)
    return compare(args)


if __name__ == "__main__":
    sys.exit(main())
