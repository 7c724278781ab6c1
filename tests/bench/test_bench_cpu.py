"""The benchmark harness on the CPU: case table, filters, NumPy timing, table and JSON."""

from __future__ import annotations

import json

import pytest

from cuarray.bench import __main__ as cli
from cuarray.bench import cases, harness, report


def test_cases_registered_and_filtered():
    ids = [c.id for c in cases.all_cases()]
    assert {"copy", "pool-churn", "cold-start"} <= set(ids)
    assert [c.id for c in cases.select(groups=["pool-churn"])] == ["pool-churn"]
    assert [c.id for c in cases.select(ids=["cold-start"])] == ["cold-start"]
    with pytest.raises(KeyError):
        cases.select(ids=["no-such-case"])


def test_pool_churn_sequence_is_fixed_and_bounded():
    from cuarray.bench.cases import pool

    sizes = pool.churn_sizes(10_000)
    assert sizes == pool.churn_sizes(10_000) and len(sizes) == 10_000
    assert min(sizes) >= 1024 and max(sizes) <= 4 * 2**20
    peak = pool.peak_live_bytes(sizes)
    assert 64 * 1024 < peak <= 65 * 4 * 2**20
    live = []
    pool.churn(lambda s: live.append(s) or s, sizes[:200])  # the churn allocates every size once
    assert live == list(sizes[:200])


def test_list_exits_0(capsys):
    assert cli.main(["--list"]) == 0
    assert "pool-churn" in capsys.readouterr().out


def test_numpy_only_run_table_and_json(tmp_path, capsys):
    path = tmp_path / "out.json"
    # (--libs numpy: with cuarray among the libraries and no GPU the bench stops at once, exit 1)
    assert cli.main(["--quick", "--cases", "pool-churn", "--libs", "numpy", "--json", str(path)]) == 0
    out = capsys.readouterr().out
    data = json.loads(path.read_text())
    labels = [r["label"] for r in data["rows"]]
    assert labels == ["copy", "pool-churn[MemoryPool]", "pool-churn[MallocAsyncMemoryPool]"]
    for row in data["rows"]:
        assert row["libs"]["numpy"]["time_s"] > 0
    assert data["rows"][1]["extras"]["peak_live_bytes"] > 0
    table = out[out.index("| case"):]  # the table is printed last
    assert "| pool-churn[MemoryPool]" in table and "| copy" in table
    assert "date: " + data["date"] + "\ndevice: " in out  # docs/benchmarks.md is this output, dated


def test_failing_setup_becomes_na_and_run_goes_on():
    case = cases.Case(id="t-fail", group="t", description="fails", size=4)

    @case.setup("numpy")
    def _(xp, n, param):
        raise NotImplementedError("sort is not written yet")

    settings = harness.Settings(quick=True, libs=["numpy"])
    cell = harness._run_lib(case, "numpy", 4, None, settings)
    assert cell["time_s"] is None and cell["error"].startswith("n/a: not implemented")


def test_events_timing_uses_median_of_repeats():
    class FakeLib:  # a GPU library whose events report 1, 2, 3, ... ms
        gpu = True
        count = 0

        def event(self):
            FakeLib.count += 1
            return FakeLib.count

        def record(self, ev):
            pass

        def elapsed_ms(self, start, end):
            return float(start)

        def sync(self):
            pass

    settings = harness.Settings(quick=True)
    result = harness._time_events(FakeLib(), lambda: None, settings, ops=1)
    n = result["repeats"]
    assert settings.min_repeats <= n <= settings.max_repeats
    starts = [2 * i + 1 for i in range(n)]
    assert result["time_s"] == pytest.approx(sorted(starts)[n // 2] / 1e3 if n % 2 else
                                             (starts[n // 2 - 1] + starts[n // 2]) / 2e3)


def test_table_formats_ratios_and_na():
    rep = {
        "unavailable": {"torch": "not installed"},
        "rows": [{
            "label": "x", "size_label": "1 Ki", "note": "", "nbytes": 8e9, "flops": None,
            "libs": {"cuarray": {"time_s": 1.0, "GB/s": 8.0, "fraction_of_copy": 0.5},
                     "cupy": {"time_s": 2.0}, "numpy": {"time_s": None, "error": "error: boom"}},
        }],
    }
    table = report.format_table(rep, ["cuarray", "numpy", "cupy", "torch"])
    assert "torch" not in table  # not installed: no column
    assert "0.50" in table and "8 GB/s" in table and "n/a" in table and "numpy: error: boom" in table


def test_alternating_rounds_compare_libraries_at_one_host_speed(monkeypatch):
    """A row with `rounds` > 1 times its GPU libraries in alternating rounds. Here every call "takes"
    1 ms until the 2003rd and 2 ms after (a host that slows down): timed one after the other, the
    first library reads half the second's time; alternating, both read the slow host's."""
    clock = {"calls": 0, "now": 0.0}

    class FakeGPU:
        gpu = True
        module = None

        def event(self):
            return [0.0]

        def record(self, ev):
            ev[0] = clock["now"]

        def elapsed_ms(self, start, end):
            return end[0] - start[0]

        def sync(self):
            pass

        def release(self):
            pass

    libs = {"cuarray": FakeGPU(), "cupy": FakeGPU()}
    monkeypatch.setattr(harness, "get_library", lambda name: libs[name])

    def step():
        clock["calls"] += 1
        clock["now"] += 1.0 if clock["calls"] < 2003 else 2.0

    def row_for(rounds):
        clock.update(calls=0, now=0.0)
        case = cases.Case(id="t-host", group="t", description="drifts", size=1, rounds=rounds)
        case.setup("cuarray", "cupy")(lambda xp, n, param: step)
        settings = harness.Settings(quick=True, libs=["cuarray", "cupy"])
        row = harness._run_row(case, 1, None, settings, {}, {}, lambda *a, **k: None)
        return {name: cell["time_s"] for name, cell in row["libs"].items()}, row

    def broken(xp, n, param):
        raise NotImplementedError("not here")

    case = cases.Case(id="t-host", group="t", description="one fails", size=1, rounds=3)
    case.setup("cuarray")(lambda xp, n, param: step)
    case.setup("cupy")(broken)
    row = harness._run_row(case, 1, None, harness.Settings(quick=True, libs=["cuarray", "cupy"]), {}, {},
                           lambda *a, **k: None)
    assert row["libs"]["cupy"]["error"].startswith("n/a: not implemented") and row["libs"]["cuarray"]["time_s"]

    one_after_other, _ = row_for(1)
    assert one_after_other == {"cuarray": 1e-3, "cupy": 2e-3}
    alternating, row = row_for(5)
    assert alternating == {"cuarray": 2e-3, "cupy": 2e-3}
    assert all("alternating rounds" in cell["clock"] for cell in row["libs"].values())


def test_json_is_written_row_by_row_and_a_stopped_run_keeps_its_rows(tmp_path, capsys, monkeypatch):
    """A run killed after its first row (a device call's time limit) leaves a readable JSON with
    that row, marked partial; --from-json prints it and says so."""
    path = tmp_path / "out.json"
    real = harness._run_row
    seen = []

    def stopped_after_one(*a, **k):
        if seen:
            raise KeyboardInterrupt
        seen.append(1)
        return real(*a, **k)

    monkeypatch.setattr(harness, "_run_row", stopped_after_one)
    with pytest.raises(KeyboardInterrupt):
        cli.main(["--quick", "--cases", "pool-churn", "--libs", "numpy", "--json", str(path)])
    data = json.loads(path.read_text())
    assert [r["label"] for r in data["rows"]] == ["copy"]
    assert data["complete"] is False and data["rows_planned"] == 3 and data["versions"]
    assert not list(tmp_path.glob("*.tmp"))
    capsys.readouterr()
    assert cli.main(["--from-json", str(path), "--libs", "numpy"]) == 0
    out = capsys.readouterr().out
    assert "partial run: 1 of 3 rows measured" in out and "| copy" in out


def test_a_call_over_the_slow_limit_is_timed_once(monkeypatch):
    class FakeLib:  # a GPU library whose events would report 1 ms (never read here)
        gpu = True

    calls = []
    durations = iter([14.0, 12.0])  # the first (cold) call, then the warmed one

    def host_call(lib, fn):
        calls.append(1)
        return next(durations), None

    monkeypatch.setattr(harness, "_host_call", host_call)
    settings = harness.Settings(quick=True)
    cell = harness._time_events(FakeLib(), lambda: None, settings, ops=1)
    assert len(calls) == 2 and cell["timed_once"] and cell["time_s"] == 12.0 and cell["repeats"] == 1
    rep = {"rows": [{"label": "lsim", "size_label": "1e6", "note": "", "nbytes": None, "flops": None,
                     "libs": {"cuarray": {"time_s": 0.01}, "cupy": cell}}]}
    table = report.format_table(rep, ["cuarray", "cupy"])
    assert "12 s¹" in table and "one call timed" in table


def test_a_missing_package_is_named_as_needed():
    """Without SciPy, `--libs numpy` over the scipy groups said "error: ModuleNotFoundError: No
    module named 'scipy'" on every row; the row now says what it needs."""
    case = cases.Case(id="t-needs", group="t", description="needs a package", size=4)

    @case.setup("numpy")
    def _(xp, n, param):
        import no_such_package_for_the_bench  # noqa: F401

    cell = harness._run_lib(case, "numpy", 4, None, harness.Settings(quick=True, libs=["numpy"]))
    assert cell["error"] == "n/a: needs no_such_package_for_the_bench (not installed)"


def test_a_missing_package_is_said_once_above_the_table():
    needs = {"time_s": None, "error": "n/a: needs scipy (not installed)"}
    rep = {"date": "", "versions": {"numpy": "2"}, "rows": [
        {"label": "row{}".format(i), "size_label": "1", "note": "", "nbytes": None, "flops": None,
         "libs": {"numpy": dict(needs), "cuarray": dict(needs)}} for i in range(3)]}
    header, table = report.format_header(rep), report.format_table(rep, ["numpy"])
    assert header.count("scipy: not installed") == 1 and "scipy: not installed; the 3 rows that need it are n/a" in header
    assert "scipy" not in table


def test_every_setup_takes_the_harness_arguments():
    """The harness calls every setup as setup(module, size, param) (param None for a case without
    params): a setup written without `param` fails only on the machine that runs it (csgraph-mst)."""
    import inspect

    bad = []
    for case in cases.all_cases():
        for lib, setup in case.setups.items():
            try:
                inspect.signature(setup).bind(None, 1, None)
            except TypeError:
                bad.append("{} ({})".format(case.id, lib))
    assert not bad, bad
