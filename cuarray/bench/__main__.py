"""``python -m cuarray.bench``: run benchmark cases and print a table of cuarray against its peers."""

from __future__ import annotations

import argparse
import datetime
import sys
import time

from . import cases as _cases, plot
from . import harness, report
from .libs import device_info, get_library, versions


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m cuarray.bench",
        description="Time cuarray against NumPy, CuPy and PyTorch (those installed). "
        "The table is printed last; targets are in docs/bench-targets.md.",
    )
    p.add_argument("--quick", action="store_true", help="smaller sizes and shorter timing (on an H100, 191 rows took about 6.5 minutes, most of it the peers; pick cases with --cases or --group)")
    p.add_argument("--cases", help="comma-separated case ids (or groups) to run")
    p.add_argument("--group", help="comma-separated groups to run, e.g. ew-large (compilers runs only when named)")
    p.add_argument("--libs", help="comma-separated libraries among {} (default: those the selected cases run on)".format(",".join(_cases.LIBRARIES)))
    p.add_argument("--json", metavar="PATH", help="write every number (and device, versions, date) here, row by row: a run stopped midway keeps its rows")
    p.add_argument("--plot", metavar="FILE.png",
                   help="draw cuarray/peer ratios, one bar per case and peer (needs matplotlib: cuarray[plot])")
    p.add_argument("--from-json", metavar="PATH",
                   help="run nothing: print the table (and --plot) from a file written by --json (a partial one too)")
    p.add_argument("--list", action="store_true", help="list the cases and exit")
    p.add_argument("-v", "--verbose", action="store_true", help="print the traceback of each failing cell")
    return p


def _split(text):
    return [t.strip() for t in text.split(",") if t.strip()] if text else []


def _list(cases) -> str:
    lines = []
    for c in cases:
        libs = ",".join(n for n in _cases.LIBRARIES if n in c.setups)
        params = "" if c.params == (None,) else "  rows: " + ", ".join(c.label(p) for p in c.params)
        only = "  (only when named)" if c.explicit else ""
        lines.append("{:<14} {:<12} {}  [{}]{}{}".format(c.id, c.group, c.description, libs, params, only))
    return "\n".join(lines)


def default_libs(selected) -> list:
    """The libraries the `selected` cases run on, in column order. JAX (seconds to import, its own
    GPU start, CUDA libraries of its own) is a default column only with the compilers group (an
    explicit group); elsewhere (minimize-logreg's BFGS) it runs when `--libs` names it."""
    return [n for n in _cases.LIBRARIES
            if any(n in c.setups and (n != "jax" or c.explicit) for c in selected)]


def _plot(result, path) -> int:
    try:
        plot.save(result, path)
    except ImportError as exc:
        print("error: --plot needs matplotlib ({}); pip install \"cuarray[plot]\"".format(exc), file=sys.stderr)
        return 2
    except ValueError as exc:
        print("error: --plot: {}".format(exc), file=sys.stderr)
        return 2
    print("plot: " + path)
    return 0


def _from_json(args) -> int:
    try:
        result = report.read_json(args.from_json)
    except (OSError, ValueError, KeyError) as exc:
        print("error: --from-json {}: {}".format(args.from_json, exc), file=sys.stderr)
        return 2
    libs = _split(args.libs) or list(_cases.LIBRARIES)
    print(report.format_header(result))
    print(report.format_table(result, libs))
    return _plot(result, args.plot) if args.plot else 0


def _no_gpu(libs) -> str:
    """The one-line reason and a hint when cuarray cannot run here (no GPU, no driver), else "": a
    table of "n/a" rows would teach nothing."""
    reason = get_library("cuarray").unavailable()
    if reason is None:
        return ""
    return ("error: cuarray cannot run here: {}\n"
            "hint: run the benchmarks on a machine with an NVIDIA GPU (compute capability 7.5+) and its "
            "driver; `python -m cuarray info` says what is missing. Without a GPU, `--libs numpy` times NumPy "
            "alone, and cuarray.lazy(evaluate=\"numpy\") runs lazy-mode programs on NumPy "
            "(docs/lazy-numpy.md).".format(reason))


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    if args.from_json:
        return _from_json(args)
    try:
        selected = _cases.select(_split(args.cases), _split(args.group))
    except KeyError as exc:
        print("error: {}. Use --list to see the cases.".format(exc.args[0]), file=sys.stderr)
        return 2
    if args.list:
        print(_list(selected if args.cases or args.group else _cases.all_cases()))
        return 0
    libs = _split(args.libs) or default_libs(selected)
    bad = [n for n in libs if n not in _cases.LIBRARIES]
    if bad:
        print("error: unknown library {}".format(", ".join(bad)), file=sys.stderr)
        return 2
    if "cuarray" in libs:
        reason = _no_gpu(libs)
        if reason:
            print(reason, file=sys.stderr)
            return 1
    if args.plot:
        try:  # before the run, not after minutes of it
            import matplotlib  # noqa: F401
        except ImportError as exc:
            print("error: --plot needs matplotlib ({}); pip install \"cuarray[plot]\"".format(exc), file=sys.stderr)
            return 2
    settings = harness.Settings(quick=args.quick, libs=libs, verbose=args.verbose)
    started = time.perf_counter()
    header = dict(
        date=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        mode="quick" if args.quick else "full",
        device=device_info(libs),
        versions=versions(libs),
        settings={"budget_s": settings.budget_s, "min_repeats": settings.min_repeats,
                  "max_repeats": settings.max_repeats, "warmup": settings.warmup,
                  "slow_call_s": harness.SLOW_CALL_S},
    )

    def written(result, complete=False):
        # Row by row: a run killed midway (a time limit) keeps every row it measured.
        if args.json:
            report.write_json(dict(result, **header, complete=complete,
                                   wall_s=time.perf_counter() - started), args.json)

    result = harness.run(selected, settings, on_row=written)
    written(result, complete=True)
    result.update(header, complete=True, wall_s=time.perf_counter() - started)
    print()
    print(report.format_header(result))
    print(report.format_table(result, libs))
    return _plot(result, args.plot) if args.plot else 0


if __name__ == "__main__":
    sys.exit(main())
