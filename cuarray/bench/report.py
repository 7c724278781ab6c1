"""The table printed at the end of a benchmark run, and the JSON file with every number."""

from __future__ import annotations

import datetime
import json
import os
import re

from .libs import get_library

__all__ = ["format_table", "write_json", "read_json", "fmt_time", "fmt_bytes"]

_NOTE_WIDTH = 110


def fmt_time(t: float | None) -> str:
    if t is None:
        return "n/a"
    if t >= 1:
        return "{:.3g} s".format(t)
    if t >= 1e-3:
        return "{:.3g} ms".format(t * 1e3)
    return "{:.3g} us".format(t * 1e6)


def fmt_bytes(n: float) -> str:
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= scale:
            return "{:.3g} {}".format(n / scale, unit)
    return "{:.0f} B".format(n)


def format_table(report: dict, libs) -> str:
    """A Markdown table: times per library, cuarray/peer ratios, achieved rate and fraction of copy."""
    rows = report["rows"]
    # Peers that are not installed get no column; one that is installed but failed shows "n/a".
    unavailable = report.get("unavailable", {})
    shown = [name for name in libs if any(name in r["libs"] for r in rows)
             and (name == "cuarray" or unavailable.get(name) != "not installed")]
    peers = [name for name in shown if name != "cuarray"]
    header = ["case", "size"] + shown + ["cu/" + p for p in peers] + ["rate", "x copy", "note"]
    body = []
    for r in rows:
        cells = r["libs"]
        line = [r["label"], r["size_label"]]
        for name in shown:
            cell = cells.get(name)
            line.append("-" if cell is None else fmt_time(cell.get("time_s")) + ("*" if cell.get("reused") else "")
                        + ("¹" if cell.get("timed_once") else ""))
        cu = (cells.get("cuarray") or {}).get("time_s")
        for p in peers:
            pt = (cells.get(p) or {}).get("time_s")
            line.append(_fmt_ratio(cu / pt) if cu and pt else "")
        line += _rate_cells(r)
        line.append(_note(r, report.get("unavailable", {})))
        body.append(line)
    widths = [max(len(str(x)) for x in col) for col in zip(header, *body)]
    out = [_md_line(header, widths), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    out += [_md_line(line, widths) for line in body]
    if any(c.get("reused") for r in rows for c in r["libs"].values()):
        out.append("* the same peer measurement as the case's first row")
    if any(c.get("timed_once") for r in rows for c in r["libs"].values()):
        out.append("1 one call timed: its warmed call took over 1 s")
    return "\n".join(out)


def _fmt_ratio(x: float) -> str:
    return "{:.2f}".format(x) if x < 100 else "{:.3g}".format(x)


def _rate_cells(r) -> list[str]:
    """cuarray's achieved rate and fraction of the copy rate; a peer's, named, if cuarray has none."""
    order = ["cuarray"] + [n for n in r["libs"] if n != "cuarray" and get_library(n).gpu]
    for name in order:
        cell = r["libs"].get(name) or {}
        tag = "" if name == "cuarray" else " ({})".format(name)
        if "TFLOP/s" in cell:
            rate = "{:.1f} TFLOP/s{}".format(cell["TFLOP/s"], tag)
        elif "GB/s" in cell:
            rate = "{:.0f} GB/s{}".format(cell["GB/s"], tag)
        else:
            continue
        frac = cell.get("fraction_of_copy")
        return [rate, "" if frac is None else "{:.2f}".format(frac)]
    return ["", ""]


def needs_package(package: str) -> str:
    """A cell's error for a package this machine lacks (the harness writes it, the header counts it)."""
    return "n/a: needs {} (not installed)".format(package)


_NEEDS = re.compile("^" + re.escape(needs_package("@")).replace("@", r"(\S+)") + "$")


def _missing_packages(report: dict) -> dict:
    """{package: rows}: packages some cells need and this machine lacks (SciPy for the scipy
    groups), said once above the table rather than on each row."""
    out: dict = {}
    for r in report["rows"]:
        for pkg in {m.group(1) for c in r["libs"].values() if (m := _NEEDS.match(c.get("error") or ""))}:
            out[pkg] = out.get(pkg, 0) + 1
    return out


def _note(r, unavailable) -> str:
    parts = [r["note"]] if r.get("note") else []
    for name, cell in r["libs"].items():
        err = cell.get("error")
        # A library that is unavailable everywhere, or a package that is missing, is reported once
        # above the table, not per row.
        if err and not (name in unavailable and err == "n/a: " + unavailable[name]) and not _NEEDS.match(err):
            parts.append("{}: {}".format(name, err))
    note = "; ".join(parts)
    return note if len(note) <= _NOTE_WIDTH else note[: _NOTE_WIDTH - 3] + "..."


def _md_line(cells, widths) -> str:
    return "| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths)) + " |"


def format_header(report: dict) -> str:
    """Device, versions, copy rate and unavailable libraries (printed just above the table)."""
    lines = ["date: " + report["date"]] if report.get("date") else []
    dev = report.get("device")
    if dev:
        lines.append("device: {} (sm_{}, {} SMs, {})".format(
            dev["name"], dev["compute_capability"], dev["multiprocessors"], fmt_bytes(dev["memory_bytes"])))
    else:
        lines.append("device: none usable")
    lines.append("versions: " + ", ".join("{} {}".format(k, v) for k, v in report["versions"].items() if v))
    rate = report.get("copy_rate")
    if rate:
        lines.append("copy rate: {:.0f} GB/s (read + write, {} device-to-device copy of {})".format(
            rate["GB/s"], rate["library"], fmt_bytes(rate["bytes"] / 2)))
    else:
        lines.append("copy rate: not measured (no GPU library could run the copy case)")
    for name, reason in report.get("unavailable", {}).items():
        lines.append("{}: n/a ({})".format(name, reason))
    for pkg, rows in _missing_packages(report).items():
        lines.append("{}: not installed; the {} rows that need it are n/a (pip install {})".format(pkg, rows, pkg))
    if report.get("complete") is False:
        lines.append("partial run: {} of {} rows measured (the run stopped before its end)".format(
            len(report["rows"]), report.get("rows_planned", "?")))
    return "\n".join(lines)


def write_json(report: dict, path: str) -> None:
    """Every number of the run, with the date, device, versions and copy rate. Written to a
    temporary file and renamed over `path`: a run killed while writing leaves the previous row's
    file whole, so ``--json`` is readable at any time of a run."""
    data = dict(report)
    data.setdefault("date", datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"))
    tmp = "{}.{}.tmp".format(path, os.getpid())
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1, default=str)
        f.write("\n")
    os.replace(tmp, path)


def read_json(path: str) -> dict:
    """A report written by `write_json` (``--json``); KeyError if it has no rows."""
    with open(path) as f:
        data = json.load(f)
    if not isinstance(data, dict) or not isinstance(data.get("rows"), list):
        raise KeyError("not a cuarray.bench --json file (no 'rows' list)")
    data.setdefault("versions", {})
    return data
