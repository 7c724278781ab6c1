"""The interpolators' device evaluations: one elementwise pass over (query, column) pairs with the
knot search inside (templates/interpolate.cuh), on the engine's `Definition` (no launch of its
own); interp1d's linear evaluation has its own kernel family for the dtypes it covers (`_linear`). A query's knot search (a guess from the mean spacing, checked, then a binary search
on the side it missed) runs once per column; with one column (the common 1-D case) the
pass reads the queries, the knots through the cache and writes the values: about the copy rate.

Both functions take the values as a 2-D (points, columns) C-contiguous array; complex values are
evaluated as their float view (twice the columns: evaluation is linear in the values). The tests
replace these two functions by NumPy models of the same contract (tests/scipy/interpolate)."""

from __future__ import annotations

import pathlib

import numpy

from ..._core.copying import astype
from ..._core.elementwise import Definition, KernelParam
from ..._core.ndarray import _new_c, ndarray
from ..._core.transfer import from_host
from ..._manipulation.joining import concatenate as _concat
from . import _linear
from ...cuda import caches as _caches

__all__ = ["ppoly_eval", "linear_eval", "linear_evaluator", "ndbspline_eval", "bspline_entries", "basis_width",
           "MAX_DEGREE"]

_PREAMBLE = (pathlib.Path(__file__).parent / "templates" / "interpolate.cuh").read_text()
_F8 = numpy.dtype(numpy.float64)
_I8 = numpy.dtype(numpy.int64)
_I4 = numpy.dtype(numpy.int32)
_defs: dict = {}
_caches.register("interpolate definitions", _defs)


def _ppoly_def(x_dt, q_dt, out_dt) -> Definition:
    key = ("ppoly", x_dt, q_dt, out_dt)
    d = _defs.get(key)
    if d is None:
        params = [KernelParam("c", "raw", _F8), KernelParam("x", "raw", x_dt), KernelParam("xq", "raw", q_dt),
                  KernelParam("m", "scalar", _I8), KernelParam("k", "scalar", _I4),
                  KernelParam("ncols", "scalar", _I8), KernelParam("nu", "scalar", _I4),
                  KernelParam("ext", "scalar", _I4), KernelParam("desc", "scalar", _I4),
                  KernelParam("out0", "out", out_dt, _F8)]
        op = ("out0 = cuarray_interpolate::ppoly(c, x, m, k, ncols, i % ncols, (double)xq[i / ncols], nu, "
              "ext != 0, desc != 0)")
        d = _defs[key] = Definition("cuarray_interpolate_ppoly", params, op, preamble=_PREAMBLE)
    return d


def _linear_def(x_dt, y_dt, q_dt, out_dt) -> Definition:
    key = ("linear", x_dt, y_dt, q_dt, out_dt)
    d = _defs.get(key)
    if d is None:
        params = [KernelParam("x", "raw", x_dt), KernelParam("y", "raw", y_dt), KernelParam("xq", "raw", q_dt),
                  KernelParam("below", "raw", _F8), KernelParam("above", "raw", _F8),
                  KernelParam("n", "scalar", _I8), KernelParam("ncols", "scalar", _I8),
                  KernelParam("ext", "scalar", _I4), KernelParam("out0", "out", out_dt, _F8)]
        op = ("out0 = cuarray_interpolate::linear(x, y, n, ncols, i % ncols, (double)xq[i / ncols], ext != 0, "
              "below[i % ncols], above[i % ncols])")
        d = _defs[key] = Definition("cuarray_interpolate_linear", params, op, preamble=_PREAMBLE)
    return d


def _c(a: ndarray) -> ndarray:
    """`a` C-contiguous, float16 as float32 (a raw pointer's element is read as a C number)."""
    return astype(a, numpy.float32 if a.dtype.char == "e" else a.dtype, order="C", copy=False)


def _real_view(a: ndarray) -> ndarray:
    """A C-contiguous (rows, columns) array of a real dtype: a complex array's float view."""
    if a.dtype.kind == "c":
        a = astype(a, a.dtype, order="C", copy=False)
        return a.view(numpy.dtype("f{}".format(a.dtype.itemsize // 2)))
    return _c(a)


def _out_of(nq, ncols, out_dt):
    """(real output of the kernel, the array returned) for values of dtype `out_dt`."""
    if out_dt.kind == "c":
        real = ndarray((nq, 2 * ncols), numpy.dtype("f{}".format(out_dt.itemsize // 2)))
        return real, real.view(out_dt)
    real = ndarray((nq, ncols), out_dt)
    return real, real


def ppoly_eval(c: ndarray, x: ndarray, xq: ndarray, nu: int, extrapolate: bool, out_dt,
               desc: bool = False) -> ndarray:
    """(len(xq), columns) values of the nu-th derivative of the piecewise polynomial with
    coefficients `c` (k, m, columns) on breakpoints `x` (m + 1, increasing or decreasing) at the
    1-D queries `xq`; NaN outside when not `extrapolate`; `desc`: decreasing breakpoints."""
    k, m = c.shape[0], c.shape[1]
    cr = _real_view(astype(c, numpy.result_type(c.dtype, _F8), copy=False))
    cr = astype(cr, _F8, order="C", copy=False)
    ncols = cr.shape[2] if cr.ndim == 3 else 1
    xq, x = _c(xq), _c(x)
    real, out = _out_of(xq.shape[0], c.shape[2], numpy.dtype(out_dt))
    if real.size == 0:
        return out
    _ppoly_def(x.dtype, xq.dtype, real.dtype).run(
        (real,), (_I8.type(m), _I4.type(k), _I8.type(ncols), _I4.type(nu), _I4.type(bool(extrapolate)),
                  _I4.type(desc)), real.shape, raw=(cr, x, xq))
    return out


def linear_eval(x: ndarray, y: ndarray, xq: ndarray, below: ndarray, above: ndarray, extrapolate: bool,
                out_dt, use_numpy: bool = False, pairs=None, check=None, weights: bool = False) -> ndarray:
    """interp1d's linear values (len(xq), columns) of data `y` (n, columns) on increasing `x`;
    `below`/`above`: the fill values, one a column (float64; complex: the float view's columns);
    `use_numpy`: numpy.interp's formula (SciPy's delegation, `_linear.numpy_rule`); `pairs`: the
    (n, 2) interleaved knots and values (`_linear.pair_dtype`) or None; `check` (bounds_error):
    None, or the caller's host check of the points, `check(xq)`; `weights`: SciPy 1.18's formula
    (`_linear.weights_formula`), else 1.17's. One kernel (`_linear.evaluate`,
    which checks the bounds on the device: one read of its record) where `_linear.plan` takes the dtypes, else
    `check` and the elementwise pass."""
    out_dt = numpy.dtype(out_dt)
    yr = _real_view(y)
    ncols = yr.shape[1]
    real, out = _out_of(xq.shape[0], y.shape[1], out_dt)
    if real.size == 0:
        return out
    route = _linear.plan(x.dtype, y.dtype, xq.dtype, out_dt, x.shape[0], ncols, use_numpy, pairs is not None,
                         weights)
    if route is not None:
        _linear.evaluate(route, x, yr, xq, below, above, extrapolate, real, pairs, check is not None)
        return out
    if check is not None:
        check(xq)
    xq, x = _c(xq), _c(x)
    _linear_def(x.dtype, yr.dtype, xq.dtype, real.dtype).run(
        (real,), (_I8.type(x.shape[0]), _I8.type(ncols), _I4.type(bool(extrapolate))), real.shape,
        raw=(x, yr, xq, astype(below, _F8, order="C", copy=False), astype(above, _F8, order="C", copy=False)))
    return out


def linear_evaluator(x: ndarray, y: ndarray, q_dt, below: ndarray, above: ndarray, extrapolate: bool, out_dt,
                     use_numpy: bool = False, pairs=None, weights: bool = False, fixed: bool = False):
    """`linear_eval` for points of dtype `q_dt`, prepared once: a function (xq, shape, check) ->
    the values (len(xq) * columns of them) as a C-contiguous array of `shape` (the caller's final
    shape: no reshape), `check` as linear_eval's. Its `snapshot` attribute: it holds converted
    copies of `x` or `y` (a caller aliasing them prepares again each call). `fixed`: `x` is the
    caller's own copy, never written again (the kernel's cell table is built from it once)."""
    out_dt = numpy.dtype(out_dt)
    yr = _real_view(y)
    route = _linear.plan(x.dtype, y.dtype, q_dt, out_dt, x.shape[0], yr.shape[1], use_numpy, pairs is not None,
                         weights)
    if route is None:
        def run(xq, shape, check=None):
            return linear_eval(x, y, xq, below, above, extrapolate, out_dt, use_numpy, pairs, check,
                               weights).reshape(shape)
        run.snapshot = False
        return run
    launch = _linear.Prepared(route, x, yr, below, above, extrapolate, pairs, fixed)

    def run(xq, shape, check=None):
        out = _new_c(shape, out_dt)
        if out.size:
            launch(xq, out.data.ptr, check is not None)
        return out

    run.snapshot = launch.snapshot or yr.data.ptr != y.data.ptr
    return run


_K1 = (2, 4, 6, 8, 12, 16, 24, 32)
MAX_DEGREE = _K1[-1] - 1
MAX_DIMS = 16


def basis_width(kmax: int) -> int:
    """The compile-time size of a thread's basis arrays for degrees up to `kmax`."""
    for w in _K1:
        if kmax + 1 <= w:
            return w
    raise NotImplementedError(f"B-spline degree {kmax} > {MAX_DEGREE} is not supported on the GPU")


def _nd_def(ndim, width, q_dt, out_dt) -> Definition:
    key = ("nd", ndim, width, q_dt, out_dt)
    d = _defs.get(key)
    if d is None:
        params = [KernelParam("t", "raw", _F8), KernelParam("toff", "raw", _I8), KernelParam("nt", "raw", _I8),
                  KernelParam("kk", "raw", _I8), KernelParam("nu", "raw", _I8), KernelParam("c", "raw", _F8),
                  KernelParam("cstride", "raw", _I8), KernelParam("xi", "raw", q_dt),
                  KernelParam("ncols", "scalar", _I8), KernelParam("ext", "scalar", _I4),
                  KernelParam("out0", "out", out_dt, _F8)]
        op = ("out0 = cuarray_interpolate::ndbspline<{}, {}>(t, toff, nt, kk, nu, c, cstride, ncols, i % ncols, "
              "xi, i / ncols, ext != 0)".format(ndim, width))
        d = _defs[key] = Definition("cuarray_interpolate_ndbspline", params, op, preamble=_PREAMBLE)
    return d


def _entry_def(width, q_dt) -> Definition:
    key = ("entry", width, q_dt)
    d = _defs.get(key)
    if d is None:
        params = [KernelParam("t", "raw", _F8), KernelParam("xq", "raw", q_dt), KernelParam("n", "scalar", _I8),
                  KernelParam("k", "scalar", _I4), KernelParam("ext", "scalar", _I4),
                  KernelParam("data", "out", _F8), KernelParam("col", "out", _I8)]
        op = ("long long _col; data = cuarray_interpolate::bspline_entry<{}>(t, n, k, xq, i / (k + 1), "
              "(int)(i % (k + 1)), ext != 0, &_col); col = _col".format(width))
        d = _defs[key] = Definition("cuarray_interpolate_bspline_entry", params, op, preamble=_PREAMBLE)
    return d


def _i8(values):
    return from_host(numpy.asarray(values, dtype=_I8))


def ndbspline_eval(ts, ks, c: ndarray, xi: ndarray, nus, extrapolate: bool, out_dt) -> ndarray:
    """Values (points, columns) of the tensor-product spline with knot vectors `ts` (device
    float64), degrees `ks`, coefficients `c` (n_1, ..., n_D, columns) at `xi` (points, D);
    `nus`: derivative orders per dimension; NaN outside unless `extrapolate`."""
    ndim = len(ts)
    if ndim > MAX_DIMS:
        raise NotImplementedError(f"NdBSpline of {ndim} > {MAX_DIMS} dimensions")
    out_dt = numpy.dtype(out_dt)
    cr = _real_view(astype(c, numpy.result_type(c.dtype, _F8), copy=False))
    cr = astype(cr, _F8, order="C", copy=False)
    ncols = cr.shape[-1]
    lens = [int(t.shape[0]) for t in ts]
    offs = numpy.concatenate(([0], numpy.cumsum(lens)[:-1]))
    strides = [int(numpy.prod(c.shape[d + 1:ndim], dtype=numpy.int64)) for d in range(ndim)]
    t_all = ts[0] if ndim == 1 else _concat([astype(t, _F8, copy=False) for t in ts])
    t_all = astype(t_all, _F8, order="C", copy=False)
    xi = _c(xi)
    real, out = _out_of(xi.shape[0], c.shape[-1], out_dt)
    if real.size == 0:
        return out
    width = basis_width(max(int(k) for k in ks))
    _nd_def(ndim, width, xi.dtype, real.dtype).run(
        (real,), (_I8.type(ncols), _I4.type(bool(extrapolate))), real.shape,
        raw=(t_all, _i8(offs), _i8(lens), _i8(ks), _i8(nus), cr, _i8(strides), xi))
    return out


def bspline_entries(t: ndarray, k: int, xq: ndarray, extrapolate: bool):
    """(data, columns), each (len(xq), k + 1): the nonzero B-splines at each query and their indices."""
    n = t.shape[0] - k - 1
    data = ndarray((xq.shape[0], k + 1), _F8)
    col = ndarray((xq.shape[0], k + 1), _I8)
    xq = _c(xq)
    if data.size:
        _entry_def(basis_width(k), xq.dtype).run(
            (data, col), (_I8.type(n), _I4.type(k), _I4.type(bool(extrapolate))), data.shape,
            raw=(astype(t, _F8, order="C", copy=False), xq))
    return data, col
