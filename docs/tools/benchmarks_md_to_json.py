"""docs/benchmarks.md's table as a ``python -m cuarray.bench --json`` report, for ``--from-json``.

The repository keeps the latest bench table as Markdown, not its JSON; this reads it back (times
with their units, ``n/a``/``-`` as no time, the ``*`` of reused peer numbers) and takes each
row's group from the case table, so that the README's figure is drawn by the bench itself::

    python docs/tools/benchmarks_md_to_json.py docs/benchmarks.md /tmp/bench.json
    python -m cuarray.bench --from-json /tmp/bench.json --plot docs/images/benchmarks.png
"""

from __future__ import annotations

import json
import re
import sys

from cuarray.bench import cases

_UNITS = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}


def _time(text: str):
    m = re.fullmatch(r"([0-9.]+(?:e[+-]?\d+)?) (s|ms|us|ns)(\*?)", text.strip())
    return (float(m.group(1)) * _UNITS[m.group(2)], bool(m.group(3))) if m else (None, False)


def parse(markdown: str) -> dict:
    header, rows, meta = None, [], {}
    groups = {c.id: c.group for c in cases.all_cases()}
    for line in markdown.splitlines():
        line = line.rstrip()
        for key in ("date", "device", "versions"):
            if line.startswith(key + ": "):
                meta[key] = line[len(key) + 2:].rstrip(" \\")
        if not line.startswith("|") or set(line) <= set("|- "):
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[0] == "case":
            header = cells
            continue
        if header is None:
            continue
        row = dict(zip(header, cells))
        libs = {}
        for name in cases.LIBRARIES:
            if name in row and row[name] not in ("-", ""):
                t, reused = _time(row[name])
                libs[name] = {"time_s": t, "error": None if t else row[name], "reused": reused}
        case = row["case"].split("[")[0]
        rows.append({"case": case, "label": row["case"], "group": groups.get(case, case),
                     "size_label": row["size"], "libs": libs})
    device = None
    m = re.match(r"(.+?) \(sm_(\d+), (\d+) SMs, ([0-9.]+) GiB", meta.get("device", ""))
    if m:
        device = {"name": m.group(1), "compute_capability": m.group(2), "multiprocessors": int(m.group(3)),
                  "memory_bytes": int(float(m.group(4)) * 2**30)}
    versions = dict(v.rsplit(" ", 1) for v in meta.get("versions", "").split(", ") if " " in v)
    return {"date": meta.get("date", "").split(" ")[0], "device": device, "versions": versions,
            "rows": rows, "source": "docs/benchmarks.md (Markdown table, read back)"}


if __name__ == "__main__":
    src, dst = sys.argv[1:3]
    with open(src) as f:
        data = parse(f.read())
    with open(dst, "w") as f:
        json.dump(data, f, indent=1)
    print("{} rows -> {}".format(len(data["rows"]), dst))
