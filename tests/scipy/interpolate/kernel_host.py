"""templates/interpolate.cuh compiled for the host with g++ (the kernels' per-element bodies run in a
serial loop), wrapped with the contracts of cuarray.scipy.interpolate._kernels' functions, so the
CPU tests run the device code itself against SciPy (conftest.py's `native_interpolate`)."""

import ctypes

import numpy as np

DRIVER = r"""
#include <math.h>
#include <cmath>
#define __device__
#define __forceinline__ inline
#include "interpolate.cuh"
using namespace cuarray_interpolate;
typedef long long ll;
extern "C" void ppoly_all(const double* c, const double* x, ll m, int k, ll ncols, const double* xq, ll nq, int nu,
                          int ext, int desc, double* out) {
  for (ll i = 0; i < nq * ncols; ++i) out[i] = ppoly(c, x, m, k, ncols, i % ncols, xq[i / ncols], nu, ext != 0, desc != 0);
}
extern "C" void linear_all(const double* x, const double* y, ll n, ll ncols, const double* xq, ll nq, int ext,
                           const double* below, const double* above, double* out) {
  for (ll i = 0; i < nq * ncols; ++i)
    out[i] = linear(x, y, n, ncols, i % ncols, xq[i / ncols], ext != 0, below[i % ncols], above[i % ncols]);
}
template <int D>
void nd_all(const double* t, const ll* toff, const ll* nt, const ll* kk, const ll* nu, const double* c,
            const ll* cstride, ll ncols, const double* xi, ll nq, int ext, double* out) {
  for (ll i = 0; i < nq * ncols; ++i)
    out[i] = ndbspline<D, 8, double>(t, toff, nt, kk, nu, c, cstride, ncols, i % ncols, xi, i / ncols, ext != 0);
}
extern "C" void nd_any(int d, const double* t, const ll* toff, const ll* nt, const ll* kk, const ll* nu, const double* c,
                       const ll* cstride, ll ncols, const double* xi, ll nq, int ext, double* out) {
  switch (d) {
    case 1: nd_all<1>(t, toff, nt, kk, nu, c, cstride, ncols, xi, nq, ext, out); break;
    case 2: nd_all<2>(t, toff, nt, kk, nu, c, cstride, ncols, xi, nq, ext, out); break;
    case 3: nd_all<3>(t, toff, nt, kk, nu, c, cstride, ncols, xi, nq, ext, out); break;
  }
}
extern "C" void entries_all(const double* t, ll n, int k, const double* xq, ll nq, int ext, double* data, ll* col) {
  for (ll i = 0; i < nq * (k + 1); ++i) {
    ll cc;
    data[i] = bspline_entry<8, double>(t, n, k, xq, i / (k + 1), (int)(i % (k + 1)), ext != 0, &cc);
    col[i] = cc;
  }
}
"""

_P = ctypes.c_void_p
_LL = ctypes.c_longlong
_I = ctypes.c_int


def _ptr(a):
    return a.ctypes.data_as(_P)


def _real(a):
    a = np.ascontiguousarray(a)
    if a.dtype.kind == "c":
        return np.ascontiguousarray(a.astype(np.complex128)).view(np.float64)
    return np.ascontiguousarray(a, dtype=np.float64)


def _finish(out, ncols, out_dt):
    out_dt = np.dtype(out_dt)
    if out_dt.kind == "c":
        return out.view(np.complex128).astype(out_dt)
    return out.astype(out_dt)


def models(lib):
    """The four _kernels functions over the compiled library."""

    def ppoly_eval(c, x, xq, nu, extrapolate, out_dt, desc=False):
        k, m = c.shape[0], c.shape[1]
        cr = _real(np.asarray(c).reshape(k, m, -1))
        ncols = cr.shape[2]
        xq = np.ascontiguousarray(xq, dtype=np.float64)
        out = np.empty((xq.shape[0], ncols))
        lib.ppoly_all(_ptr(cr), _ptr(np.ascontiguousarray(x, np.float64)), _LL(m), _I(k), _LL(ncols), _ptr(xq),
                      _LL(xq.shape[0]), _I(nu), _I(bool(extrapolate)), _I(bool(desc)), _ptr(out))
        return _finish(out, ncols, out_dt)

    def linear_eval(x, y, xq, below, above, extrapolate, out_dt, use_numpy=False, pairs=None, check=None,
                    weights=False):
        if check is not None:
            check(xq)
        yr = _real(y)
        ncols = yr.shape[1]
        xq = np.ascontiguousarray(xq, dtype=np.float64)
        out = np.empty((xq.shape[0], ncols))
        b = np.ascontiguousarray(below, np.float64).reshape(-1)
        a = np.ascontiguousarray(above, np.float64).reshape(-1)
        if b.size < ncols:
            b, a = np.resize(b, ncols), np.resize(a, ncols)
        lib.linear_all(_ptr(np.ascontiguousarray(x, np.float64)), _ptr(yr), _LL(x.shape[0]), _LL(ncols), _ptr(xq),
                       _LL(xq.shape[0]), _I(bool(extrapolate)), _ptr(b), _ptr(a), _ptr(out))
        return _finish(out, ncols, out_dt)

    def ndbspline_eval(ts, ks, c, xi, nus, extrapolate, out_dt):
        d = len(ts)
        cr = _real(c)
        ncols = cr.shape[-1]
        lens = np.array([len(t) for t in ts], dtype=np.int64)
        offs = np.concatenate(([0], np.cumsum(lens)[:-1])).astype(np.int64)
        strides = np.array([int(np.prod(c.shape[i + 1:d])) for i in range(d)], dtype=np.int64)
        t_all = np.ascontiguousarray(np.concatenate([np.asarray(t, float) for t in ts]))
        xi = np.ascontiguousarray(xi, dtype=np.float64)
        out = np.empty((xi.shape[0], ncols))
        lib.nd_any(_I(d), _ptr(t_all), _ptr(offs), _ptr(lens), _ptr(np.array(ks, np.int64)),
                   _ptr(np.array(nus, np.int64)), _ptr(cr), _ptr(strides), _LL(ncols), _ptr(xi), _LL(xi.shape[0]),
                   _I(bool(extrapolate)), _ptr(out))
        return _finish(out, ncols, out_dt)

    def bspline_entries(t, k, xq, extrapolate):
        t = np.ascontiguousarray(t, np.float64)
        xq = np.ascontiguousarray(xq, np.float64)
        data = np.empty((xq.shape[0], k + 1))
        col = np.empty((xq.shape[0], k + 1), dtype=np.int64)
        lib.entries_all(_ptr(t), _LL(t.shape[0] - k - 1), _I(k), _ptr(xq), _LL(xq.shape[0]), _I(bool(extrapolate)),
                        _ptr(data), _ptr(col))
        return data, col

    return ppoly_eval, linear_eval, ndbspline_eval, bspline_entries
