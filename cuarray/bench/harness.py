"""Running cases: warm-up, timing with CUDA events or host clocks, median of repeats, copy rate.

Timing rules (docs/bench-targets.md): GPU work is timed with each library's own CUDA events on
its current stream, after at least 3 warm-up calls, and the median of N repeats is reported. N is
adaptive: enough repeats to cover `budget_s` (50 ms with --quick, 200 ms otherwise), bounded. The
event pairs of all repeats are recorded back to back and read after one sync, so the host's launch
gaps do not enter a measurement while the GPU has queued work. NumPy is timed with perf_counter.
"""

from __future__ import annotations

import inspect
import math
import statistics
import sys
import time
import traceback
import warnings

from . import cases as _cases
from .libs import get_library
from .report import fmt_time as _fmt_s
from .report import needs_package

__all__ = ["Settings", "run", "COPY_CASE", "SLOW_CALL_S"]

COPY_CASE = "copy"
# A library whose warmed call takes longer than this is timed on that one call and marked: repeats
# of a 14 s call (CuPy's lsim) would cost a quick run a minute each and tell nothing the one call
# does not (its spread is far below its distance from the other columns).
SLOW_CALL_S = 1.0
# Libraries whose copy rate stands for the device's, in order of preference.
_COPY_RATE_LIBS = ("cuarray", "cupy", "torch")


class Settings:
    """Knobs of one run (from the CLI)."""

    def __init__(self, quick=False, libs=None, verbose=False):
        self.quick = quick
        self.libs = tuple(libs) if libs else _cases.LIBRARIES
        self.verbose = verbose
        self.budget_s = 0.05 if quick else 0.2
        self.min_repeats = 3 if quick else 5
        self.max_repeats = 2000
        self.warmup = 3


def run(selected, settings: Settings, log=print, on_row=None) -> dict:
    """Run `selected` cases (the copy case always runs first) and return the report dict.

    `on_row(report)`, if given, is called after each row with the report so far (rows complete with
    their rates), so that a run stopped midway keeps what it measured (``--json``)."""
    all_cases = {c.id: c for c in _cases.all_cases()}
    order = [all_cases[COPY_CASE]] + [c for c in selected if c.id != COPY_CASE]
    unavailable = {}
    for name in settings.libs:
        reason = get_library(name).unavailable()
        if reason is not None:
            unavailable[name] = reason
            log("{}: n/a ({})".format(name, reason))
    rows, copy_rate = [], None
    result = {"copy_rate": None, "rows": rows, "unavailable": unavailable,
              "rows_planned": sum(len(c.params) for c in order)}
    for case in order:
        size = case.size_for(settings.quick)
        first_rows = {}
        for param in case.params:
            row = _run_row(case, size, param, settings, unavailable, first_rows, log)
            rows.append(row)
            if case.id == COPY_CASE and copy_rate is None:
                result["copy_rate"] = copy_rate = _copy_rate(row)
            _add_rates(row, copy_rate)  # the copy case runs first: its rate is known here
            if on_row is not None:
                on_row(result)
    return result


def _run_row(case, size, param, settings, unavailable, first_rows, log) -> dict:
    row = {
        "case": case.id,
        "label": case.label(param),
        "group": case.group,
        "description": case.description,
        "param": None if param is None else str(param),
        "size": size if isinstance(size, (int, float, str)) else str(size),
        "size_label": case.describe_size(size),
        "timing": case.timing,
        "ops": case.ops,
        "nbytes": case.amount("nbytes", size, param),
        "flops": case.amount("flops", size, param),
        "extras": case.row_extras(size, param) if case.row_extras else {},
        "libs": {},
    }
    alternated = {}
    if case.rounds > 1 and case.timing in ("events", "host"):
        names = [n for n in settings.libs if n in case.setups and n not in unavailable and get_library(n).gpu
                 and not (case.peers_once and n != "cuarray" and n in first_rows)]
        if len(names) > 1:
            log("  {:<28} {} in {} alternating rounds ...".format(row["label"], ",".join(names), case.rounds))
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("default")
                alternated = _run_alternating(case, names, size, param, settings)
            _held_warnings(caught, alternated.values(), log)
    for name in settings.libs:
        if name not in case.setups:
            continue
        if name in unavailable:
            row["libs"][name] = {"time_s": None, "error": "n/a: " + unavailable[name]}
            continue
        if case.peers_once and name != "cuarray" and name in first_rows:
            row["libs"][name] = dict(first_rows[name], reused=True)
            continue
        log("  {:<28} {:<8} ...".format(row["label"], name), end="", flush=True)
        # Warnings are held until the progress line ends (printed mid-line, they split it), then
        # printed once each under it and kept in the cell.
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("default")
            result = alternated[name] if name in alternated else _run_lib(case, name, size, param, settings)
        row["libs"][name] = first_rows[name] = result
        log(" " + (_fmt_s(result["time_s"]) if result["time_s"] is not None else result["error"]))
        _held_warnings(caught, (result,), log)
    row["note"] = case.note(row) if case.note else ""
    return row


def _held_warnings(caught, results, log) -> None:
    """Print the warnings `caught` once each and keep them in each of `results`' cells."""
    said = list(dict.fromkeys("{}: {}".format(w.category.__name__, w.message) for w in caught))
    if said:
        for result in results:
            result["warnings"] = result.get("warnings", []) + said
        for text in said:
            log("      warning: " + text)


def _run_alternating(case, names, size, param, settings) -> dict:
    """`case.rounds` > 1: every GPU library in `names` set up and warmed up once, then timed in
    alternating rounds, each library a 1/rounds share of the budget a round, the order rotating
    each round, and each library's samples pooled. For rows bound by the host's time, which
    follows the host CPU's speed, and that drifts over seconds: timed one library after the
    other, two libraries are compared at two speeds. Never raises; {name: cell}."""
    made, cells = {}, {}
    sub = Settings(quick=settings.quick, libs=names, verbose=settings.verbose)
    sub.budget_s = settings.budget_s / case.rounds
    sub.min_repeats = max(1, -(-settings.min_repeats // case.rounds))
    try:
        for name in names:
            lib = get_library(name)
            try:
                fn = case.setups[name](lib.module, size, param)
                gen = None
                if inspect.isgenerator(fn):
                    gen, fn = fn, next(fn)
                made[name] = [lib, fn, gen, None, None]  # torn down below, even if its warm-up fails
                made[name][3:] = _warm(lib, fn, settings)
            except Exception as exc:
                if settings.verbose:
                    traceback.print_exc(file=sys.stderr)
                cells[name] = {"time_s": None, "error": _reason(exc)}
        order = [name for name in made if name not in cells]
        samples = {name: [] for name in order}
        extras = {name: {} for name in order}
        for r in range(case.rounds):
            if not order:
                break
            for name in order[r % len(order):] + order[:r % len(order)]:
                lib, fn, _, _, estimate = made[name]
                try:
                    if case.timing == "host":
                        got, extras[name] = _host_samples(lib, fn, _repeats(estimate, sub))
                    else:
                        got = _event_samples(lib, fn, _repeats(estimate, sub))
                    samples[name] += got
                except Exception as exc:
                    cells[name] = {"time_s": None, "error": _reason(exc)}
                    order.remove(name)  # the rotation reads a copy of the order
        for name in order:
            clock = "perf_counter+sync" if case.timing == "host" else "cuda-events"
            cells[name] = _summary(samples[name], case.ops, made[name][3],
                                   clock="{}, {} alternating rounds".format(clock, case.rounds))
            if case.timing == "host":
                cells[name]["extras"] = extras[name]
    finally:
        for name, (lib, fn, gen, _, _) in made.items():
            fn = None
            if gen is not None:
                try:
                    next(gen)
                except StopIteration:
                    pass
                except Exception as exc:
                    print("{} teardown on {}: {}".format(case.id, name, _reason(exc)), file=sys.stderr)
        made = None
        for name in names:
            try:
                get_library(name).release()
            except Exception:
                pass
    return cells


def _run_lib(case, name, size, param, settings) -> dict:
    """Set up and time one case on one library; never raises (errors become the cell's reason)."""
    lib = get_library(name)
    gen = None
    try:
        made = case.setups[name](lib.module, size, param)
        if inspect.isgenerator(made):
            gen, made = made, next(made)
        if case.timing == "process":
            return _time_process(made, size)
        if case.timing == "host" or not lib.gpu:
            return _time_host(lib, made, settings, case.ops)
        return _time_events(lib, made, settings, case.ops)
    except Exception as exc:
        if settings.verbose:
            traceback.print_exc(file=sys.stderr)
        return {"time_s": None, "error": _reason(exc)}
    finally:
        if gen is not None:
            try:
                next(gen)
            except StopIteration:
                pass
            except Exception as exc:  # a failed teardown must not hide the numbers
                print("{} teardown on {}: {}".format(case.id, name, _reason(exc)), file=sys.stderr)
        made = None
        try:
            lib.release()
        except Exception:
            pass


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    text = text[0] if text else ""
    if isinstance(exc, _cases.NotAvailable):
        return "n/a: " + text
    if isinstance(exc, ModuleNotFoundError) and exc.name:
        # A peer's or the reference's package (SciPy for the scipy groups) not installed here.
        return needs_package(exc.name.split(".")[0])
    if isinstance(exc, (NotImplementedError, AttributeError)):
        return "n/a: not implemented ({}: {})".format(type(exc).__name__, text)
    return "error: {}: {}".format(type(exc).__name__, text)


def _host_call(lib, fn):
    """Seconds for one call plus the device sync, and the call's return value."""
    t0 = time.perf_counter()
    out = fn()
    lib.sync()
    return time.perf_counter() - t0, out


def _repeats(estimate_s: float, settings) -> int:
    n = math.ceil(settings.budget_s / max(estimate_s, 1e-7))
    return max(settings.min_repeats, min(settings.max_repeats, n))


def _warm(lib, fn, settings) -> tuple[float, float]:
    """Warm up; return (first call's seconds, an estimate of one call's seconds). A call over
    SLOW_CALL_S is warmed once: the estimate is then that second call's time."""
    first, _ = _host_call(lib, fn)
    # NumPy has no compile or allocation caches to warm; one call is enough there.
    count = settings.warmup - 1 if lib.gpu else 0
    if first > SLOW_CALL_S:
        count = min(count, 1)
    rest = [_host_call(lib, fn)[0] for _ in range(count)]
    return first, min(rest) if rest else first


def _timed_once(first, estimate, ops, clock):
    """The cell of a library whose warmed call took over SLOW_CALL_S: that call's time, marked."""
    result = _summary([estimate], ops, first, clock=clock + ", timed once (a call over {:g} s)".format(SLOW_CALL_S))
    result["timed_once"] = True
    return result


def _event_samples(lib, fn, n) -> list:
    """Seconds of `n` calls, each between two events; the pairs recorded back to back, read after one sync."""
    pairs = [(lib.event(), lib.event()) for _ in range(n)]
    for start, end in pairs:
        lib.record(start)
        fn()
        lib.record(end)
    lib.sync()
    return [lib.elapsed_ms(s, e) / 1e3 for s, e in pairs]


def _host_samples(lib, fn, n) -> tuple[list, dict]:
    """Seconds of `n` calls each with its sync, and the last returned dict (extra numbers)."""
    samples, extras = [], {}
    for _ in range(n):
        dt, out = _host_call(lib, fn)
        samples.append(dt)
        if isinstance(out, dict):
            extras = out
        out = None
    return samples, extras


def _time_events(lib, fn, settings, ops) -> dict:
    first, estimate = _warm(lib, fn, settings)
    if estimate > SLOW_CALL_S:
        return _timed_once(first, estimate, ops, "perf_counter+sync")
    samples = _event_samples(lib, fn, _repeats(estimate, settings))
    return _summary(samples, ops, first, clock="cuda-events")


def _time_host(lib, fn, settings, ops) -> dict:
    first, estimate = _warm(lib, fn, settings)
    if estimate > SLOW_CALL_S:
        result = _timed_once(first, estimate, ops, "perf_counter+sync" if lib.gpu else "perf_counter")
        result["extras"] = {}
        return result
    samples, extras = _host_samples(lib, fn, _repeats(estimate, settings))
    result = _summary(samples, ops, first, clock="perf_counter+sync" if lib.gpu else "perf_counter")
    result["extras"] = extras
    return result


def _time_process(fn, runs) -> dict:
    """The callable times itself (e.g. a subprocess) and returns {"time_s": ..., **extras}."""
    outs = [fn() for _ in range(max(1, int(runs)))]
    samples = [o["time_s"] for o in outs]
    extras = {}
    for key in outs[0]:
        values = [o[key] for o in outs if isinstance(o.get(key), (int, float))]
        if key != "time_s" and values:
            extras[key] = statistics.median(values)
    result = _summary(samples, 1, samples[0], clock="process")
    result["extras"] = extras
    return result


def _summary(samples, ops, first, clock) -> dict:
    per_op = [s / ops for s in samples]
    return {
        "time_s": statistics.median(per_op),
        "min_s": min(per_op),
        "max_s": max(per_op),
        "repeats": len(samples),
        "first_call_s": first,
        "clock": clock,
        "error": None,
    }


def _copy_rate(row) -> dict | None:
    for name in _COPY_RATE_LIBS:
        cell = row["libs"].get(name)
        if cell and cell.get("time_s"):
            return {"GB/s": row["nbytes"] / cell["time_s"] / 1e9, "library": name, "bytes": row["nbytes"]}
    return None


def _add_rates(row, copy_rate) -> None:
    """GB/s (or TFLOP/s) of every timed cell, and its fraction of the copy rate for GPU libraries."""
    for name, cell in row["libs"].items():
        t = cell.get("time_s")
        if not t:
            continue
        if row["nbytes"]:
            cell["GB/s"] = row["nbytes"] / t / 1e9
            if copy_rate and get_library(name).gpu:
                cell["fraction_of_copy"] = cell["GB/s"] / copy_rate["GB/s"]
        if row["flops"]:
            cell["TFLOP/s"] = row["flops"] / t / 1e12

