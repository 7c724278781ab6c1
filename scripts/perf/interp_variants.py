"""interp1d(kind='linear') evaluation (issue 53, bench row interpolate/interp1d-linear): the old
elementwise route (`_kernels._linear_def`: one thread an output, knots and values as two
arrays) against the one-kernel route (`_linear.evaluate`, templates/linear.cu) in one process,
on the bench row's data (1e4 jittered knots, 1e7 uniform float64 points, `bounds_error=False`)
and two more knot sets (1e4 evenly spaced; 1e6 jittered: a table past L1), with CuPy's
interp1d where installed.

Each row: the median of 50 CUDA-event times of the GPU's work (a spin kernel queued first, so
the host's launch time is not counted: `_timing.gpu_us`), and the fraction of the copy rate the
bench reports (bytes = 16 a point: one read of the points, one write of the values; a float64
copy of the points, timed the same way, is 1.0). "public" rows time `f(q)` as the bench does
(events around the call, the host included; the bounds_error=True row: points clipped into the
knots' range, checked in the kernel, one read in the call). The new route's values are checked bit for bit
against SciPy on the host (first 2e5 points), the old route's to 1e-12.

Issue 53's target: the bench row's "public" fraction >= 0.7, and <= CuPy's time.

The knot searches side by side (`--searches`, also printed after the rows above): the bench row's
route (numpy.interp's formula, interleaved records, PIPE as `_linear.PIPE`) prepared as an
interpolator's (fixed knots, so the cell table is built) with each SEARCH: the guess (0), the
table in two steps (1) or at once (2), the window (3) and the hybrid (4: the guess, the table on a
miss), on jittered 1e4, uniform 1e4, jittered 1e6 and clustered 1e4 knots (half of them within
~1e-3 of 5000); each row checked bit for bit against SciPy on the first 2e5 points.

Run on the GPU machine: `python scripts/perf/interp_variants.py` (about 30 s), or
`python scripts/perf/interp_variants.py --searches` (the search table alone, about 10 s)."""

import pathlib
import sys

import numpy

import cuarray
from cuarray.bench.cases.interpolate import _knots, _points
from cuarray.scipy import interpolate as ci
from cuarray.scipy.interpolate import _kernels, _linear

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from _timing import event_us, gpu_us  # noqa: E402

M = 10**7
REPS = 50
F8, I8, I4 = numpy.dtype(numpy.float64), numpy.dtype(numpy.int64), numpy.dtype(numpy.int32)


def _old(f, q):
    """The elementwise route as `_kernels.linear_eval` ran it before the kernel family."""
    below, above = f._linear_fills(F8)
    out = cuarray.empty((q.shape[0], 1), F8)
    d = _kernels._linear_def(f.x.dtype, f._y.dtype, q.dtype, F8)
    return lambda: d.run((out,), (I8.type(f.x.shape[0]), I8.type(1), I4.type(0)), out.shape,
                         raw=(f.x, f._y, q, below, above)), out


def _new(f, q, use_numpy, paired):
    below, above = f._linear_fills(F8)
    route = _linear.plan(F8, F8, F8, F8, f.x.shape[0], 1, use_numpy, paired, _linear.installed_weights_formula())
    assert route is not None and route.paired == paired
    out = cuarray.empty((q.shape[0], 1), F8)
    yr = f._y
    return lambda: _linear.evaluate(route, f.x, yr, q, below, above, False, out, f._pairs), out


def _knot_sets():
    """(label, knots, values, scale of the points' range [0, 1e4))."""
    x, y = _knots(cuarray, 10**4, 53)
    yield "1e4 jittered (bench)", x, y, 1.0
    xu = cuarray.linspace(0.0, 10**4, 10**4)
    yield "1e4 uniform", xu, cuarray.sin(xu / 17.0), 1.0
    xb, yb = _knots(cuarray, 10**6, 57)
    yield "1e6 jittered", xb, yb, 100.0


def _clustered(n, seed):
    """n sorted knots over [0, 1e4): half within ~1e-3 of 5000, half uniform (the guess misses by
    ~n/4 knots over most of the range; the table's cells there hold one knot or none)."""
    rng = numpy.random.default_rng(seed)
    x = numpy.sort(numpy.concatenate((5000.0 + rng.normal(0.0, 1e-3, n // 2), rng.uniform(0.0, 1e4, n - n // 2))))
    return cuarray.asarray(x), cuarray.asarray(numpy.sin(x / 17.0))


SEARCH_NAMES = {_linear.SEARCH_GUESS: "guess (0)", _linear.SEARCH_CELLS: "table, two steps (1)",
                _linear.SEARCH_CELLS3: "table (2)", _linear.SEARCH_WINDOW: "window (3)",
                _linear.SEARCH_HYBRID: "hybrid (4)", _linear.SEARCH_NEAR: "near (5)"}


def search_rows(q, t_copy):
    """Each SEARCH on each knot set, as an interpolator with its own knots runs it."""
    import scipy.interpolate as si  # host oracle

    fmt = "{:<22} {:<34} {:>9.1f} us  {:>5.2f} x copy"
    sets = list(_knot_sets()) + [("1e4 clustered",) + _clustered(10**4, 58) + (1.0,)]
    for label, x, y, scale in sets:
        f = ci.interp1d(x, y, assume_sorted=True, bounds_error=False)
        qk = q if scale == 1.0 else q * scale
        ref = si.interp1d(x.get(), y.get(), assume_sorted=True, bounds_error=False)(qk[:200000].get())
        below, above = f._linear_fills(F8)
        route = _linear.plan(F8, F8, F8, F8, f.x.shape[0], 1, True, True, _linear.installed_weights_formula())
        for search in _linear.SEARCHES:
            prep = _linear.Prepared(route, f.x, f._y, below, above, False, f._pairs, fixed=True, search=search)
            assert prep.route.search == search, (search, prep.route)
            out = cuarray.empty((qk.shape[0], 1), F8)
            t = gpu_us(lambda: prep(qk, out.data.ptr), REPS)
            ok = "exact" if numpy.array_equal(out[:200000, 0].get(), ref, equal_nan=True) else "DIFFERS"
            print(fmt.format(label, "search " + SEARCH_NAMES[search], t, t_copy / t), ok)


def _cupy_row(x, y, q):
    try:
        import cupy
        from cupyx.scipy import interpolate as cpi
    except ImportError:
        return None
    xc, yc, qc = (cupy.asarray(a.get()) for a in (x, y, q))
    g = cpi.interp1d(xc, yc, assume_sorted=True, bounds_error=False)
    return event_us(lambda: g(qc), REPS, 3, cupy.cuda), gpu_us(lambda: g(qc), REPS, 3, cupy.cuda)


def main():
    import scipy.interpolate as si  # host oracle

    q = _points(cuarray, M, 0.0, 10**4, 54)
    t_copy = gpu_us(lambda: q.copy(), REPS)
    print("copy of 1e7 float64: {:.1f} us = {:.0f} GB/s (read + write)".format(t_copy, 16 * M / t_copy / 1e3))
    if "--searches" in sys.argv[1:]:
        search_rows(q, t_copy)
        return
    fmt = "{:<22} {:<34} {:>9.1f} us  {:>5.2f} x copy"
    for label, x, y, scale in _knot_sets():
        f = ci.interp1d(x, y, assume_sorted=True, bounds_error=False)
        qk = q if scale == 1.0 else q * scale
        ref = si.interp1d(x.get(), y.get(), assume_sorted=True, bounds_error=False)(qk[:200000].get())
        rows = [("old elementwise", _old(f, qk)), ("new numpy-rule paired", _new(f, qk, True, True)),
                ("new numpy-rule two arrays", _new(f, qk, True, False)),
                ("new scipy-rule paired", _new(f, qk, False, True))]
        for name, (fn, out) in rows:
            t = gpu_us(fn, REPS)
            got = out[:200000, 0].get()
            if name.startswith("new numpy"):
                ok = "exact" if numpy.array_equal(got, ref, equal_nan=True) else "DIFFERS"
            else:
                ok = "close" if numpy.allclose(got, ref, rtol=1e-12, atol=1e-12, equal_nan=True) else "DIFFERS"
            print(fmt.format(label, name, t, t_copy / t), ok)
        t = event_us(lambda: f(qk), REPS)
        print(fmt.format(label, "public f(q) (events, host incl.)", t, t_copy / t))
        t = gpu_us(lambda: f(qk), REPS)
        print(fmt.format(label, "public f(q) (GPU work)", t, t_copy / t))
        lo, hi = float(x[0].get()), float(x[-1].get())
        qin = cuarray.clip(qk, lo, hi)
        g = ci.interp1d(x, y, assume_sorted=True)  # bounds_error=True: the kernel checks, one read in the call
        t = event_us(lambda: g(qin), REPS)
        print(fmt.format(label, "public, bounds_error=True (events)", t, t_copy / t))
        cp_t = _cupy_row(x, y, qk)
        if cp_t is not None:
            print(fmt.format(label, "CuPy interp1d (events)", cp_t[0], t_copy / cp_t[0]))
            print(fmt.format(label, "CuPy interp1d (GPU work)", cp_t[1], t_copy / cp_t[1]))
    search_rows(q, t_copy)


if __name__ == "__main__":
    main()
