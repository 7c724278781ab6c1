"""The bench's picture and --from-json, from a synthetic report (no GPU; Agg, no pixels compared)."""

from __future__ import annotations

import json
import warnings

import pytest

from cuarray.bench import __main__ as cli
from cuarray.bench import cases, harness

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
from cuarray.bench import plot  # noqa: E402


def _cell(t):
    return {"time_s": t, "error": None if t else "n/a: not installed"}


def _report():
    rows = [
        ("copy", "copy", {"cuarray": 1.0, "cupy": 1.0, "torch": 1.0}),
        ("ew-small", "ew-small", {"cuarray": 5.0, "numpy": 0.5, "cupy": 8.0, "torch": None}),
        ("fuse-chain[eager]", "fusion", {"cuarray": 1.0, "cupy": 2.5}),
        ("fuse-chain[lazy]", "fusion", {"cuarray": 0.125, "cupy": 2.5}),
        ("no-peer", "fusion", {"cuarray": 1.0}),
    ]
    return {
        "date": "2026-11-23T06:00:00+00:00",
        "device": {"name": "NVIDIA H200", "compute_capability": "90", "multiprocessors": 132,
                   "memory_bytes": 140 * 2**30},
        "versions": {"cuarray": "0.1.0"},
        "rows": [{"label": label, "case": label.split("[")[0], "group": group, "size_label": "1",
                  "libs": {name: _cell(t) for name, t in libs.items()}} for label, group, libs in rows],
    }


def test_ratios_grouped_in_run_order_and_untimed_cells_left_out():
    grouped = plot.ratios(_report())
    assert [g for g, _ in grouped] == ["copy", "ew-small", "fusion"]
    assert grouped[1][1] == [("ew-small", {"numpy": 10.0, "cupy": 0.625})]  # torch had no time
    assert [label for label, _ in grouped[2][1]] == ["fuse-chain[eager]", "fuse-chain[lazy]"]
    assert plot.ratios(_report(), peers=["cupy"])[1][1] == [("ew-small", {"cupy": 0.625})]


def test_figure_has_one_bar_per_case_and_peer_on_a_log_axis_with_parity_marked():
    fig = plot.figure(_report())
    (ax,) = fig.axes
    assert ax.get_xscale() == "log"
    bars = {p.get_gid(): p for p in ax.patches}
    assert len(bars) == 2 + 2 + 1 + 1  # copy: cupy, torch; ew-small: numpy, cupy; fusion: cupy x2
    # Each bar spans 1.0 .. ratio, so its length on the log axis is the speed-up or slow-down.
    slow = bars["ratio:numpy:10"]
    assert slow.get_x() == pytest.approx(1.0) and slow.get_x() + slow.get_width() == pytest.approx(10.0)
    fast = bars["ratio:cupy:0.05"]
    assert fast.get_x() == pytest.approx(0.05) and fast.get_x() + fast.get_width() == pytest.approx(1.0)
    (parity,) = [line for line in ax.lines if line.get_gid() == "parity"]
    assert list(parity.get_xdata()) == [1.0, 1.0]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == ["copy", "copy", "ew-small", "ew-small", "fusion", "fuse-chain[eager]", "fuse-chain[lazy]"]
    assert [t.get_fontweight() for t in ax.get_yticklabels()][::2][:3] == ["bold"] * 3
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["vs numpy", "vs cupy", "vs torch"]
    lo, hi = ax.get_xlim()
    assert lo <= 0.05 and hi >= 10
    assert "NVIDIA H200" in ax.get_title() and "2026-11-23" in ax.get_title()


def test_nothing_to_plot_is_a_value_error():
    report = _report()
    report["rows"] = report["rows"][-1:]
    with pytest.raises(ValueError, match="nothing to plot"):
        plot.figure(report)


def test_from_json_prints_the_table_and_writes_the_png(tmp_path, capsys):
    src, png = tmp_path / "run.json", tmp_path / "out.png"
    src.write_text(json.dumps(_report()))
    assert cli.main(["--from-json", str(src), "--plot", str(png)]) == 0
    out = capsys.readouterr().out
    assert "| fuse-chain[lazy]" in out and "device: NVIDIA H200" in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_from_json_rejects_a_file_that_is_not_a_report(tmp_path, capsys):
    src = tmp_path / "x.json"
    src.write_text("[1, 2]")
    assert cli.main(["--from-json", str(src)]) == 2
    assert "not a cuarray.bench --json file" in capsys.readouterr().err


def test_run_then_plot(tmp_path, capsys):
    png = tmp_path / "run.png"
    rc = cli.main(["--quick", "--cases", "pool-churn", "--libs", "numpy,cuarray", "--plot", str(png)])
    err = capsys.readouterr().err
    from cuarray.cuda import _backend

    if not _backend.is_available():  # no GPU: one line saying why, exit 1, nothing run (README)
        assert rc == 1 and err.startswith("error: cuarray cannot run here") and not png.exists()
        rc = cli.main(["--quick", "--cases", "pool-churn", "--libs", "numpy", "--plot", str(png)])
        err = capsys.readouterr().err
    assert rc in (0, 2)
    # Without cuarray's times there is nothing to plot: said, not raised.
    assert png.exists() or "nothing to plot" in err


def test_seed_table1_size_column_is_not_none():
    (case,) = cases.select(ids=["seed-table1"])
    assert case.describe_size(case.size_for(False)) == "1 call"


def test_a_warning_is_printed_after_the_progress_line_not_inside_it():
    case = cases.Case(id="t-warn", group="t", description="warns", size=4, timing="host")

    @case.setup("numpy")
    def _(xp, n, param):
        def run():
            warnings.warn("overflow encountered in exp", RuntimeWarning)

        return run

    lines = []

    def log(*parts, end="\n", flush=False):
        lines.append(" ".join(str(p) for p in parts) + end)

    settings = harness.Settings(quick=True, libs=["numpy"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning that escaped the harness would raise here
        row = harness._run_row(case, 4, None, settings, {}, {}, log)
    text = "".join(lines)
    progress, rest = text.split("\n", 1)
    assert progress.startswith("  t-warn") and "RuntimeWarning" not in progress
    assert rest == "      warning: RuntimeWarning: overflow encountered in exp\n"
    assert row["libs"]["numpy"]["warnings"] == ["RuntimeWarning: overflow encountered in exp"]
