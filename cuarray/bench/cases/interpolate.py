"""scipy.interpolate cases (group "interpolate"): cuarray.scipy.interpolate against
cupyx.scipy.interpolate and SciPy on the host ("numpy" column) in the same run.

- interp1d-linear: interp1d(x, y, bounds_error=False) on 1e4 knots at 1e7 float64 points, with
  --quick too (bytes: one read of the points and one write of the values: the fraction of the copy
  rate, its target >= 0.7 (docs/bench-targets.md), is the row's point; at 1e6 points the host's call time, ~0.1 ms,
  would hide the kernel's ~5 us of traffic).
- cubicspline-build: CubicSpline on 1e6 knots (quick: 1e5; the slopes' tridiagonal solve and
  coefficients). make-interp-spline: make_interp_spline(x, y, k=3) on 1e6 points (quick: 1e5).
  CuPy n/a on both: it solves the collocation system with a sparse QR (cusolverSp), 6.3 s a call at
  1e5 knots on an H100 (run 5), so its warm-up and repeats alone take minutes.
- cubicspline-eval / bspline-eval: the interpolant of 1e6 knots (not-a-knot cubic) at 1e7 points
  (quick: 1e6). The spline is built once on the host by SciPy and handed to each library
  (`CubicSpline.construct_fast(c, x)`, `BSpline(t, c, 3)`), outside the timing: the rows time the
  evaluation only, of the same spline in every column (CuPy's own build of it takes minutes).
  SciPy n/a on bspline-eval: its interval search walks from the previous point's interval, about
  n/3 steps a random point (minutes at 1e6 points).
- rgi-linear / rgi-cubic: RegularGridInterpolator on a 512^3 float64 grid (quick: 128^3) at 1e7
  points (quick: 1e6), the interpolator built outside the timing. 'cubic' is n/a for CuPy (a
  sparse direct solve of the n^3 tensor system; older CuPy: one point at a time) and for SciPy (an
  iterative solve of the n^3 system) at both sizes; SciPy's 'linear' is n/a at 512^3.
- rbf: RBFInterpolator with 1e4 thin-plate-spline centres in 2-D, evaluated at 1e6 points (quick:
  1e5; built outside the timing); SciPy n/a at both sizes (1e9 to 1e10 kernel terms on the host,
  tens of seconds a call).
- rbf-neighbors: RBFInterpolator(neighbors=50) with 1e6 centres in 2-D at 1e6 points (quick: 1e5):
  each point's 50 nearest centres (a KDTree query) and a 53 x 53 solve a point; SciPy and CuPy n/a
  (CuPy: 31-38 s at 1e4 points; scripts/perf/rbf_neighbors_probe.py compares the two at 1e4).
- griddata-linear: griddata(points, values, xi, method='linear') of m scattered 2-D points at m
  query points (quick: 1e5; full: 1e6), the triangulation inside the timing as the function does it
  every call (cuarray's Delaunay is SciPy's Qhull on the host, CuPy's its GPU port of gDel2D)."""

from __future__ import annotations

import importlib

import numpy

from . import NotAvailable, random_array, register


def _interp(xp):
    name = getattr(xp, "__name__", "")
    if name == "numpy":
        try:
            return importlib.import_module("scipy.interpolate")
        except ImportError as exc:
            raise NotAvailable("scipy: {}".format(exc)) from None
    if name not in ("cuarray", "cupy"):
        raise NotAvailable("no scipy.interpolate for {}".format(name))
    full = "cuarray.scipy.interpolate" if name == "cuarray" else "cupyx.scipy.interpolate"
    try:
        return importlib.import_module(full)
    except ImportError as exc:
        raise NotAvailable("{}: {}".format(full, exc)) from None


def _knots(xp, n, seed):
    """n sorted, distinct float64 abscissae in [0, n) and smooth values, on xp's device."""
    rng = numpy.random.default_rng(seed)
    x = numpy.arange(n, dtype=float) + rng.uniform(0.05, 0.95, n)
    y = numpy.sin(x / 17.0) + 0.1 * rng.standard_normal(n)
    return xp.asarray(x), xp.asarray(y)


def _points(xp, m, lo, hi, seed, dims=None):
    rng = numpy.random.default_rng(seed)
    shape = (m,) if dims is None else (m, dims)
    return xp.asarray(rng.uniform(lo, hi, shape))


ALL = ("cuarray", "cupy", "numpy")

interp1d = register(
    "interp1d-linear", group="interpolate",
    description="interp1d(x, y) (1e4 knots, linear) at m float64 points",
    size=10**7, quick=10**7, nbytes=lambda m, p: 16.0 * m,
    note=lambda row: "target: cuarray >= 0.7 x copy",
)


@interp1d.setup(*ALL)
def _(xp, m, param):
    ip = _interp(xp)
    x, y = _knots(xp, 10**4, 53)
    q = _points(xp, m, 0.0, 10**4, 54)
    f = ip.interp1d(x, y, assume_sorted=True, bounds_error=False)  # the evaluation, no range check
    return lambda: f(q)


cs_build = register(
    "cubicspline-build", group="interpolate",
    description="CubicSpline(x, y) on n knots (not-a-knot)",
    size=10**6, quick=10**5, nbytes=lambda n, p: 48.0 * n,
)


def _no_cupy_build(xp):
    if getattr(xp, "__name__", "") == "cupy":
        raise NotAvailable("CuPy's sparse QR solve (cusolverSp): 6.3 s a call at 1e5 knots (H100)")


@cs_build.setup(*ALL)
def _(xp, n, param):
    _no_cupy_build(xp)
    ip = _interp(xp)
    x, y = _knots(xp, n, 55)
    return lambda: ip.CubicSpline(x, y)


cs_eval = register(
    "cubicspline-eval", group="interpolate",
    description="CubicSpline of 1e6 knots (built by SciPy on the host) at m float64 points",
    size=10**7, quick=10**6, nbytes=lambda m, p: 16.0 * m,
)


def _host_spline(kind, seed):
    """The interpolant of 1e6 knots built by SciPy on the host (NumPy arrays): (c, x) of the
    not-a-knot CubicSpline, or (t, c) of make_interp_spline(k=3)."""
    host = _interp(numpy)
    x, y = _knots(numpy, 10**6, seed)
    if kind == "cubic":
        s = host.CubicSpline(x, y)
        return s.c, s.x
    b = host.make_interp_spline(x, y, k=3)
    return b.t, b.c


@cs_eval.setup(*ALL)
def _(xp, m, param):
    ip = _interp(xp)
    c, x = _host_spline("cubic", 56)
    s = ip.CubicSpline.construct_fast(xp.asarray(c), xp.asarray(x))
    q = _points(xp, m, 0.0, 10**6, 57)
    return lambda: s(q)


mis = register(
    "make-interp-spline", group="interpolate",
    description="make_interp_spline(x, y, k=3) on n points",
    size=10**6, quick=10**5, nbytes=lambda n, p: 48.0 * n,
)


@mis.setup(*ALL)
def _(xp, n, param):
    _no_cupy_build(xp)
    ip = _interp(xp)
    x, y = _knots(xp, n, 58)
    return lambda: ip.make_interp_spline(x, y, k=3)


bspl = register(
    "bspline-eval", group="interpolate",
    description="BSpline (k=3, 1e6 points' interpolant, built by SciPy on the host) at m float64 points",
    size=10**7, quick=10**6, nbytes=lambda m, p: 16.0 * m,
)


@bspl.setup(*ALL)
def _(xp, m, param):
    if getattr(xp, "__name__", "") == "numpy":
        raise NotAvailable("SciPy walks to each point's knot interval from the last one's: ~1e11 steps")
    ip = _interp(xp)
    t, c = _host_spline("bspline", 59)
    b = ip.BSpline(xp.asarray(t), xp.asarray(c), 3)
    q = _points(xp, m, 0.0, 10**6, 60)
    return lambda: b(q)


def _rgi_sizes(size):
    return (512, 10**7) if size == "full" else (128, 10**6)


rgi = register(
    "rgi", group="interpolate",
    description="RegularGridInterpolator on an n^3 float64 grid at m points (built outside the timing)",
    size="full", quick="quick", params=("linear", "cubic"),
    nbytes=lambda size, p: 32.0 * _rgi_sizes(size)[1],
    size_label=lambda s: "{}^3 at {:.0e}".format(*_rgi_sizes(s)),
)


@rgi.setup(*ALL)
def _(xp, size, method):
    ip = _interp(xp)
    n, m = _rgi_sizes(size)
    name = getattr(xp, "__name__", "")
    if method == "cubic" and name in ("cupy", "numpy"):
        raise NotAvailable("cubic: CuPy and SciPy solve the n^3 tensor system (sparse QR / gcrotmk): minutes")
    if name == "numpy" and size == "full":
        raise NotAvailable("SciPy on the host: minutes at 512^3 and 1e7 points")
    g = xp.asarray(numpy.linspace(0.0, 1.0, n))
    values = random_array(xp, (n, n, n), "float64", seed=61)
    f = ip.RegularGridInterpolator((g, g, g), values, method=method)
    q = _points(xp, m, 0.0, 1.0, 62, dims=3)
    return lambda: f(q)


rbf = register(
    "rbf", group="interpolate",
    description="RBFInterpolator (thin plate spline, 1e4 centres in 2-D) at m points (built outside the timing)",
    size=10**6, quick=10**5, flops=lambda m, p: 2.0 * m * 10**4,
)


@rbf.setup(*ALL)
def _(xp, m, param):
    ip = _interp(xp)
    if getattr(xp, "__name__", "") == "numpy":
        raise NotAvailable("SciPy on the host: {:.0e} kernel terms, tens of seconds a call".format(m * 1e4))
    y = _points(xp, 10**4, 0.0, 1.0, 63, dims=2)
    d = xp.sin(6.0 * y[:, 0]) * y[:, 1]
    f = ip.RBFInterpolator(y, d, smoothing=1e-6)
    q = _points(xp, m, 0.0, 1.0, 64, dims=2)
    return lambda: f(q)


rbf_local = register(
    "rbf-neighbors", group="interpolate",
    description="RBFInterpolator(neighbors=50) with 1e6 thin-plate-spline centres in 2-D at m points (built "
                "outside the timing: the tree of the centres)",
    size=10**6, quick=10**5, flops=lambda m, p: 2.0 * 50**3 * m,
)


@rbf_local.setup(*ALL)
def _(xp, m, param):
    ip = _interp(xp)
    if getattr(xp, "__name__", "") == "numpy":
        raise NotAvailable("SciPy on the host: a 50 x 50 solve a point, minutes a call")
    if getattr(xp, "__name__", "") == "cupy":
        raise NotAvailable("CuPy: 31-38 s at 1e4 points on an H200 (scripts/perf/rbf_neighbors_probe.py times both "
                           "there), minutes at this size")
    y = _points(xp, 10**6, 0.0, 1.0, 67, dims=2)
    d = xp.sin(6.0 * y[:, 0]) * y[:, 1]
    f = ip.RBFInterpolator(y, d, neighbors=50, smoothing=1e-6)
    q = _points(xp, m, 0.0, 1.0, 68, dims=2)
    return lambda: f(q)


grid = register(
    "griddata-linear", group="interpolate",
    description="griddata(points, values, xi, method='linear') of m scattered 2-D points at m points",
    size=10**6, quick=10**5, flops=lambda m, p: 10.0 * m,
)


@grid.setup(*ALL)
def _(xp, m, param):
    ip = _interp(xp)
    pts = _points(xp, m, 0.0, 1.0, 65, dims=2)
    vals = xp.sin(6.0 * pts[:, 0]) * pts[:, 1]
    q = _points(xp, m, 0.05, 0.95, 66, dims=2)
    return lambda: ip.griddata(pts, vals, q, method="linear")
