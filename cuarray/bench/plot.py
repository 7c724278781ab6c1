"""The benchmark picture: cuarray's time over each peer's, one horizontal bar per case and peer.

``python -m cuarray.bench --plot FILE.png`` draws it after a run; ``--from-json run.json --plot
FILE.png`` draws it from a saved ``--json``. The ratio is the table's ``cu/<peer>`` column (cuarray
time / peer time, so left of the 1.0 line is cuarray faster), on a log axis, cases grouped by their
bench group in run order. Needs matplotlib (``pip install "cuarray[plot]"``), imported only here.
"""

from __future__ import annotations

import math

__all__ = ["ratios", "figure", "save"]

# One colour per peer, fixed so that two pictures compare at a glance (matplotlib's tab10).
_COLOURS = {"numpy": "#1f77b4", "cupy": "#2ca02c", "torch": "#d62728"}
_OTHER = "#7f7f7f"
_ROW = 0.8  # height of one case's bars together, in units of one case


def ratios(report: dict, peers=None) -> list[tuple[str, list[tuple[str, dict]]]]:
    """``[(group, [(case label, {peer: cuarray/peer})...])...]``: groups in first-seen order.

    A row with no cuarray time or no timed peer is left out; so is a peer with no time in any row.
    """
    groups: dict[str, list] = {}
    for row in report["rows"]:
        cells = row["libs"]
        cu = (cells.get("cuarray") or {}).get("time_s")
        if not cu:
            continue
        found = {}
        for name, cell in cells.items():
            t = (cell or {}).get("time_s")
            if name != "cuarray" and t and (peers is None or name in peers):
                found[name] = cu / t
        if found:
            groups.setdefault(row.get("group") or "other", []).append((row["label"], found))
    return list(groups.items())


def _peer_order(grouped) -> list[str]:
    seen = []
    for _, rows in grouped:
        for _, found in rows:
            seen += [p for p in found if p not in seen]
    known = [p for p in _COLOURS if p in seen]
    return known + [p for p in seen if p not in known]


def _title(report: dict) -> str:
    dev = report.get("device") or {}
    parts = ["cuarray / peer time (left of 1: cuarray faster)"]
    where = ", ".join(x for x in (dev.get("name"), (report.get("date") or "")[:10]) if x)
    return parts[0] + ("\n" + where if where else "")


def figure(report: dict, peers=None, width: float = 9.0):
    """A matplotlib Figure of `report` (a run's dict or a loaded ``--json``), not shown anywhere."""
    from matplotlib.figure import Figure  # optional dependency: the [plot] extra

    grouped = ratios(report, peers)
    if not grouped:
        raise ValueError("nothing to plot: no case has both a cuarray time and a peer time")
    order = _peer_order(grouped)
    # Rows from the top: a heading line per group, then its cases; y grows downwards (inverted).
    labels, heading_rows, y = [], [], 0
    bars = []  # (y, peer, ratio)
    for group, rows in grouped:
        heading_rows.append(y)
        labels.append(group)
        y += 1
        for label, found in rows:
            present = [p for p in order if p in found]
            h = _ROW / len(present)
            for i, p in enumerate(present):
                bars.append((y - _ROW / 2 + h * (i + 0.5), p, found[p], h))
            labels.append(label)
            y += 1
    fig = Figure(figsize=(width, 1.2 + 0.28 * y), layout="constrained")
    ax = fig.add_subplot()
    ax.set_xscale("log")
    handles = {}
    for yy, peer, r, h in bars:
        # Each bar starts at 1.0, so its length is the speed-up or slow-down on the log axis.
        handles[peer] = ax.barh(yy, abs(r - 1.0) or 1e-9, left=min(r, 1.0), height=h * 0.9,
                color=_COLOURS.get(peer, _OTHER), label=peer, gid="ratio:{}:{:.6g}".format(peer, r))
        ax.annotate("{:.2f}".format(r) if r < 100 else "{:.3g}".format(r), (r, yy),
                    xytext=(3 if r >= 1 else -3, 0), textcoords="offset points",
                    ha="left" if r >= 1 else "right", va="center", fontsize=6)
    ax.axvline(1.0, color="black", linewidth=1.0, gid="parity")
    ax.set_yticks(range(len(labels)), labels, fontsize=7)
    for i in heading_rows:
        tick = ax.get_yticklabels()[i]
        tick.set_fontweight("bold")
        tick.set_fontsize(8)
        ax.axhline(i - 0.5, color="0.85", linewidth=0.6)
    ax.set_ylim(y - 0.5, -0.5)
    lo = min(r for _, _, r, _ in bars)
    hi = max(r for _, _, r, _ in bars)
    ax.set_xlim(10 ** math.floor(math.log10(min(lo, 1.0) / 1.5)), 10 ** math.ceil(math.log10(max(hi, 1.0) * 1.5)))
    ax.set_xlabel("cuarray time / peer time (log scale)")
    ax.set_title(_title(report), fontsize=9)
    ax.grid(axis="x", which="major", color="0.9", linewidth=0.6)
    ax.set_axisbelow(True)
    fig.legend([handles[p] for p in order], ["vs " + p for p in order], loc="outside lower center",
               ncols=len(order), fontsize=7)
    return fig


def save(report: dict, path: str, peers=None, dpi: int = 150) -> None:
    """Draw `report` and write it to `path` (the format follows the suffix: .png, .svg, .pdf)."""
    figure(report, peers).savefig(path, dpi=dpi)
