"""Compare two runs of the bench (`python -m cuarray.bench --json PATH`), one per tree, row by row.

The regression check of a change: run the same bench settings on the tree before and the tree
after, in one device call (the same machine, clocks and driver), then

    python scripts/perf/bench_before_after.py before.json after.json [--flag 1.10] [--cases-out F]

prints, per row both runs timed for cuarray, after/before of the median time, the geometric mean
over all rows and per group, and the rows over `--flag` (default 1.10). `--cases-out` writes the
flagged rows' case ids, comma separated, for a second timing of just those (`--cases`), which tells
a regression from one run's noise: a row is a regression only if it is over the flag both times.
"""

from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict


def _times(path):
    with open(path) as f:
        doc = json.load(f)
    out = {}
    for row in doc["rows"]:
        cell = row["libs"].get("cuarray") or {}
        t = cell.get("time_s")
        if t and not cell.get("error"):
            out[(row["case"], row["label"])] = (row["group"], t, row.get("size_label"))
    return doc, out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--flag", type=float, default=1.10, help="after/before ratio that flags a row")
    ap.add_argument("--cases-out", help="write the flagged rows' case ids here, comma separated")
    args = ap.parse_args(argv)
    doc_b, before = _times(args.before)
    doc_a, after = _times(args.after)
    # A row is compared only where both trees timed the same size: an older tree's bench may size a
    # case differently (its quick sizes, a case resized since), and that ratio would not be a speed.
    common = [k for k in before if k in after and before[k][2] == after[k][2]]
    resized = [k for k in before if k in after and before[k][2] != after[k][2]]
    print("before: {} rows ({}), after: {} rows ({}), both: {}".format(
        len(before), doc_b.get("date", "?"), len(after), doc_a.get("date", "?"), len(common)))
    only = sorted(set(before) ^ set(after))
    if only:
        print("in one run only:", ", ".join("{} {}".format(*k) for k in only))
    if resized:
        print("sized differently, not compared:", ", ".join(
            "{} {} ({} -> {})".format(k[0], k[1], before[k][2], after[k][2]) for k in resized))
    by_group = defaultdict(list)
    flagged = []
    print("{:<28} {:<44} {:>11} {:>11} {:>7}".format("case", "row", "before", "after", "ratio"))
    for key in common:
        group, tb, _ = before[key]
        ta = after[key][1]
        r = ta / tb
        by_group[group].append(math.log(r))
        mark = " <-" if r > args.flag else ""
        if r > args.flag:
            flagged.append(key)
        print("{:<28} {:<44} {:>9.1f}us {:>9.1f}us {:>7.3f}{}".format(key[0][:28], key[1][:44], tb * 1e6,
                                                                     ta * 1e6, r, mark))
    logs = [x for v in by_group.values() for x in v]
    if logs:
        print("geometric mean after/before over {} rows: {:.3f}".format(len(logs), math.exp(sum(logs) / len(logs))))
    for g in sorted(by_group):
        v = by_group[g]
        print("  group {:<24} {:>3} rows  {:.3f}".format(g, len(v), math.exp(sum(v) / len(v))))
    print("rows over {}: {}".format(args.flag, len(flagged)))
    if args.cases_out:
        with open(args.cases_out, "w") as f:
            f.write(",".join(sorted({k[0] for k in flagged})))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
