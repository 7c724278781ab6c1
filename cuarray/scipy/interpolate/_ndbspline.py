"""`NdBSpline`: tensor-product splines evaluated in one pass (`_kernels.ndbspline_eval`: per
point and dimension the knot search and de Boor's basis, then the (k + 1)^D coefficient sum). The
knot checks are SciPy's, on host copies of the knot vectors (short)."""

from __future__ import annotations

import operator

import numpy

from . import _kernels
from ..._core.transfer import to_host
from ..._creation.from_data import ascontiguousarray
from ...sparse._format_csr import csr_array
from . import _inputs
from ._bspline import as_knots
from ._host import host_scipy

__all__ = ["NdBSpline", "check_knots"]

_F8 = numpy.dtype(numpy.float64)
_C16 = numpy.dtype(numpy.complex128)


def check_knots(k, t_tpl):
    """SciPy's validation of NdBSpline's (k, t): the degrees as a tuple of ints."""
    if not isinstance(t_tpl, tuple):
        raise ValueError(f"Expect `t` to be a tuple of array-likes. Got {t_tpl} instead.")
    ndim = len(t_tpl)
    try:
        len(k)
    except TypeError:
        k = (k,) * ndim
    k = tuple(operator.index(ki) for ki in k)
    if len(k) != ndim:
        raise ValueError(f"len(t) = {len(t_tpl)} != {len(k) = }.")
    for d in range(ndim):
        td = t_tpl[d] if isinstance(t_tpl[d], numpy.ndarray) else (
            numpy.asarray(t_tpl[d]) if isinstance(t_tpl[d], (list, tuple)) else to_host(_inputs.param(t_tpl[d])))
        kd = k[d]
        n = td.shape[0] - kd - 1
        if kd < 0:
            raise ValueError(f"Spline degree in dimension {d} cannot be negative.")
        if td.ndim != 1:
            raise ValueError(f"Knot vector in dimension {d} must be one-dimensional.")
        if n < kd + 1:
            raise ValueError(f"Need at least {2 * kd + 2} knots for degree {kd} in dimension {d}.")
        if (numpy.diff(td) < 0).any():
            raise ValueError(f"Knots in dimension {d} must be in a non-decreasing order.")
        if len(numpy.unique(td[kd:n + 1])) < 2:
            raise ValueError(f"Need at least two internal knots in dimension {d}.")
        if not numpy.isfinite(td).all():
            raise ValueError(f"Knots in dimension {d} should not have nans or infs.")
    return k


class NdBSpline:
    """See `scipy.interpolate.NdBSpline`. Up to 16 dimensions and degree 31 on the GPU;
    `design_matrix` is host work (SciPy's, returned as a `cuarray.sparse.csr_array`)."""

    def __init__(self, t, c, k, *, extrapolate=None):
        self._k = check_knots(k, t)
        self._t = tuple(as_knots(td) for td in t)
        self.extrapolate = True if extrapolate is None else bool(extrapolate)
        c = _inputs.param(c)
        ndim = len(self._t)
        if c.ndim < ndim:
            raise ValueError(f"Coefficients must be at least {ndim}-dimensional.")
        for d in range(ndim):
            n = self._t[d].shape[0] - self._k[d] - 1
            if c.shape[d] != n:
                raise ValueError(f"Knots, coefficients and degree in dimension {d} are inconsistent: got "
                                 f"{c.shape[d]} coefficients for {self._t[d].shape[0]} knots, need at least {n} "
                                 f"for k={k}.")
        dt = _C16 if c.dtype.kind == "c" else _F8
        self._c = ascontiguousarray(c.astype(dt) if c.dtype != dt else c)

    @property
    def k(self):
        return self._k

    @property
    def t(self):
        return self._t

    @property
    def c(self):
        return self._c

    def __call__(self, xi, *, nu=None, extrapolate=None):
        """See `scipy.interpolate.NdBSpline.__call__`."""
        ndim = len(self._t)
        extrapolate = self.extrapolate if extrapolate is None else bool(extrapolate)
        if nu is None:
            nu = (0,) * ndim
        else:
            nu = numpy.asarray(nu, dtype=numpy.int64)
            if nu.ndim != 1 or nu.shape[0] != ndim:
                raise ValueError(f"invalid number of derivative orders {nu = } for ndim = {ndim}.")
            if any(nu < 0):
                raise ValueError(f"derivatives must be non-negative, got {nu = }")
            nu = tuple(int(v) for v in nu)
        xi = _inputs.data(xi)
        if xi.dtype.kind == "c":
            raise TypeError("xi must be real")
        xi_shape = xi.shape
        if xi.ndim == 0 or xi_shape[-1] != ndim:
            raise ValueError(f"Shapes: xi.shape={xi_shape} and ndim={ndim}")
        xi = xi.reshape((-1, ndim))
        if xi.dtype.kind != "f":
            xi = xi.astype(_F8)
        c = self._c.reshape(self._c.shape[:ndim] + (-1,))
        out = _kernels.ndbspline_eval(self._t, self._k, c, xi, nu, extrapolate, self._c.dtype)
        return out.reshape(xi_shape[:-1] + self._c.shape[ndim:])

    @classmethod
    def design_matrix(cls, xvals, t, k, extrapolate=True):
        """See `scipy.interpolate.NdBSpline.design_matrix`: host work (SciPy's), the matrix
        returned as a `cuarray.sparse.csr_array`."""
        host = host_scipy().NdBSpline.design_matrix(
            to_host(_inputs.data(xvals)), tuple(to_host(as_knots(td)) for td in t), k, extrapolate)
        return csr_array((_inputs.param(host.data), _inputs.param(host.indices), _inputs.param(host.indptr)), shape=host.shape)
