"""From a profile's records to rows, a table, JSON and a Chrome trace (pure Python, no device).

A record is a dict from `cuarray.cuda.profiling.Recorder`: ``kind`` (kernel, library, transfer,
sync, alloc, compile), ``name``, ``host_start_us``/``host_end_us`` (from the start of the profile),
and, for work timed on the device, ``stream``, ``gpu_start_us``, ``gpu_us``; transfers and pool
misses have ``bytes``.

Host time of a row is the host time from the end of the previous record (or the start of the
profile) to the end of this one: the Python cost of reaching and issuing the op, plus any code of
yours that ran in between. The host column therefore adds up to the profile's wall time, and an
op whose host time is far above its GPU time is bound by the host, not by the device.
"""

from __future__ import annotations

import json

__all__ = ["aggregate", "format_table", "SORT_KEYS", "chrome_trace", "fmt_time"]

# sort key -> (row field, descending)
SORT_KEYS = {
    "gpu_time": ("gpu_us", True),
    "gpu_mean": ("gpu_mean_us", True),
    "host_time": ("host_us", True),
    "calls": ("calls", True),
    "bytes": ("bytes", True),
    "name": ("name", False),
}


def aggregate(records: list) -> list:
    """One row per (kind, name), in order of first appearance: calls, GPU total/mean/min/max,
    host total, bytes and GB/s (bytes over GPU time) where known."""
    rows: dict = {}
    prev_end = 0.0
    for r in records:
        key = (r["kind"], r["name"])
        row = rows.get(key)
        if row is None:
            row = rows[key] = {"kind": r["kind"], "name": r["name"], "calls": 0, "gpu_us": None,
                               "gpu_min_us": None, "gpu_max_us": None, "host_us": 0.0, "bytes": None}
        row["calls"] += 1
        end = r["host_end_us"]
        row["host_us"] += max(end - prev_end, 0.0)
        prev_end = max(prev_end, end)
        g = r.get("gpu_us")
        if g is not None:
            row["gpu_us"] = (row["gpu_us"] or 0.0) + g
            row["gpu_min_us"] = g if row["gpu_min_us"] is None else min(row["gpu_min_us"], g)
            row["gpu_max_us"] = g if row["gpu_max_us"] is None else max(row["gpu_max_us"], g)
        b = r.get("bytes")
        if b is not None:
            row["bytes"] = (row["bytes"] or 0) + b
    total_gpu = sum(row["gpu_us"] or 0.0 for row in rows.values())
    out = []
    for row in rows.values():
        g = row["gpu_us"]
        row["gpu_mean_us"] = None if g is None else g / row["calls"]
        row["gpu_share"] = None if g is None or not total_gpu else g / total_gpu
        row["host_mean_us"] = row["host_us"] / row["calls"]
        row["gbps"] = (row["bytes"] / (g * 1e3)) if row["bytes"] and g and row["kind"] == "transfer" else None
        out.append(row)
    return out


def sort_rows(rows: list, sort: str = "gpu_time") -> list:
    if sort not in SORT_KEYS:
        raise ValueError("sort must be one of {}, got {!r}".format(", ".join(SORT_KEYS), sort))
    field, desc = SORT_KEYS[sort]
    if field == "name":
        return sorted(rows, key=lambda r: r["name"])
    # rows without the field (no GPU time, no bytes) go last, whatever the direction
    have = [r for r in rows if r[field] is not None]
    rest = [r for r in rows if r[field] is None]
    return sorted(have, key=lambda r: r[field], reverse=desc) + rest


def fmt_time(us) -> str:
    """Microseconds as ``812.0 us``, ``3.41 ms``, ``2.05 s``; None as ``-``."""
    if us is None:
        return "-"
    if us < 1e3:
        return "{:.1f} us".format(us)
    if us < 1e6:
        return "{:.2f} ms".format(us / 1e3)
    return "{:.2f} s".format(us / 1e6)


def _fmt_bytes(n) -> str:
    if n is None:
        return "-"
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return "{} {}".format(int(n), unit) if unit == "B" else "{:.1f} {}".format(n, unit)
        n /= 1024


_COLUMNS = (  # header, width, formatter
    ("calls", 7, lambda r: str(r["calls"])),
    ("GPU total", 10, lambda r: fmt_time(r["gpu_us"])),
    ("GPU mean", 10, lambda r: fmt_time(r["gpu_mean_us"])),
    ("GPU %", 6, lambda r: "-" if r["gpu_share"] is None else "{:.1f}".format(100 * r["gpu_share"])),
    ("host total", 10, lambda r: fmt_time(r["host_us"])),
    ("host mean", 10, lambda r: fmt_time(r["host_mean_us"])),
    ("bytes", 10, lambda r: _fmt_bytes(r["bytes"])),
    ("GB/s", 7, lambda r: "-" if r["gbps"] is None else "{:.1f}".format(r["gbps"])),
)


def format_table(rows: list, summary: dict, sort: str = "gpu_time", limit: int | None = None,
                 name_width: int = 48) -> str:
    """The table `print(prof)` shows: a header line with the totals, then a row per op."""
    rows = sort_rows(rows, sort)
    shown = rows if limit is None else rows[:limit]
    head = "{:<{w}}".format("op", w=name_width) + "".join("{:>{w}}".format(h, w=w + 1) for h, w, _ in _COLUMNS)
    lines = [
        "cuarray profile: wall {}, GPU busy {} ({} launches, {} library calls, {} transfers, {} syncs), "
        "sorted by {}".format(fmt_time(summary["wall_us"]), fmt_time(summary["gpu_us"]), summary["kernels"],
                              summary["library_calls"], summary["transfers"], summary["syncs"], sort),
        head,
        "-" * len(head),
    ]
    for r in shown:
        name = r["name"]
        if len(name) > name_width - 1:
            name = name[: name_width - 4] + "..."
        lines.append("{:<{w}}".format(name, w=name_width)
                     + "".join("{:>{w}}".format(f(r), w=w + 1) for _, w, f in _COLUMNS))
    if len(shown) < len(rows):
        lines.append("... {} more rows (limit={})".format(len(rows) - len(shown), limit))
    return "\n".join(lines)


def summarize(records: list, wall_us: float) -> dict:
    kinds = [r["kind"] for r in records]
    return {
        "wall_us": wall_us,
        "gpu_us": sum(r.get("gpu_us") or 0.0 for r in records),
        "kernels": kinds.count("kernel"),
        "library_calls": kinds.count("library"),
        "transfers": kinds.count("transfer"),
        "syncs": kinds.count("sync"),
        "pool_misses": kinds.count("alloc"),
        "compiles": kinds.count("compile"),
    }


def chrome_trace(records: list, device_id: int = 0) -> dict:
    """Chrome trace / Perfetto JSON: host spans on one track, GPU work on one track per stream."""
    ev = [
        {"name": "process_name", "ph": "M", "pid": 0, "args": {"name": "host"}},
        {"name": "thread_name", "ph": "M", "pid": 0, "tid": 0, "args": {"name": "python"}},
        {"name": "process_name", "ph": "M", "pid": 1, "args": {"name": "GPU {}".format(device_id)}},
    ]
    streams = {}
    for r in records:
        args = {k: r[k] for k in ("bytes", "grid", "block") if r.get(k) is not None}
        ev.append({"name": r["name"], "cat": r["kind"], "ph": "X", "pid": 0, "tid": 0,
                   "ts": r["host_start_us"], "dur": max(r["host_end_us"] - r["host_start_us"], 0.0), "args": args})
        if r.get("gpu_us") is not None:
            tid = streams.setdefault(r["stream"], len(streams) + 1)
            ev.append({"name": r["name"], "cat": r["kind"], "ph": "X", "pid": 1, "tid": tid,
                       "ts": r["gpu_start_us"], "dur": r["gpu_us"], "args": args})
    for s, tid in streams.items():
        ev.append({"name": "thread_name", "ph": "M", "pid": 1, "tid": tid, "args": {"name": "stream {:#x}".format(s)}})
    return {"traceEvents": ev, "displayTimeUnit": "ms"}


def dumps(obj) -> str:
    return json.dumps(obj, indent=1, default=list)
