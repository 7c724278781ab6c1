"""`RBFInterpolator`: the radial-basis system [[K + diag(smoothing), P], [P^T, 0]] built on the
device (squared distances as |x|^2 + |y|^2 - 2 x.y, one matrix product) and solved by
`cuarray.linalg.solve`; evaluation in chunks of query points, each a distance product, the kernel
elementwise and a product with the coefficients. `neighbors`: each query's k nearest centres from
`cuarray.scipy.spatial.KDTree` (built once, as SciPy builds its cKDTree), sorted as SciPy sorts
them, and one small system a query, solved as a batch a chunk of queries."""

from __future__ import annotations

import itertools
import warnings

import numpy
from numpy.linalg import LinAlgError

from ..spatial import KDTree
from ..._core.transfer import to_host
from ..._creation.basic import full, ones, zeros
from ..._creation.ranges import arange
from ..._manipulation.joining import concatenate, stack
from ..._manipulation.transpose import moveaxis
from ..._math.complex import imag, real
from ..._math.explog import exp, log
from ..._math.extrema import maximum
from ..._math.misc import sqrt
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from ..._sorting.sorting import sort
from ..._statistics.order import max as max_, min as min_
from ...linalg._solve import solve
from . import _inputs

__all__ = ["RBFInterpolator", "monomial_powers"]

_F8 = numpy.dtype(numpy.float64)
_SCALE_INVARIANT = {"linear", "thin_plate_spline", "cubic", "quintic"}
_MIN_DEGREE = {"multiquadric": 0, "linear": 0, "thin_plate_spline": 1, "cubic": 1, "quintic": 2}
_KERNELS = ("linear", "thin_plate_spline", "cubic", "quintic", "multiquadric", "inverse_multiquadric",
            "inverse_quadratic", "gaussian")
_CHUNK_BYTES = 1 << 28  # the kernel block of one evaluation chunk


def monomial_powers(ndim, degree):
    """(monomials, ndim) exponents of every monomial of total degree <= degree."""
    rows = []
    for deg in range(degree + 1):
        for combo in itertools.combinations_with_replacement(range(ndim), deg):
            row = [0] * ndim
            for v in combo:
                row[v] += 1
            rows.append(row)
    return numpy.array(rows, dtype=numpy.int64).reshape(len(rows), ndim)


def _kernel(name, r2):
    """The kernel of squared distances r2 (already scaled by epsilon^2)."""
    if name == "gaussian":
        return exp(-r2)
    if name == "inverse_quadratic":
        return 1.0 / (1.0 + r2)
    if name == "inverse_multiquadric":
        return 1.0 / sqrt(1.0 + r2)
    if name == "multiquadric":
        return -sqrt(1.0 + r2)
    r = sqrt(r2)
    if name == "linear":
        return -r
    if name == "cubic":
        return r * r2
    if name == "quintic":
        return -(r2 * r2 * r)
    return where(r2 == 0, 0.0, 0.5 * r2 * log(where(r2 == 0, 1.0, r2)))  # r^2 log r


def _sq_dist(a, b):
    """Squared distances (len(a), len(b)) by one product, clamped at zero."""
    d = sum_(a * a, axis=1)[:, None] + sum_(b * b, axis=1)[None, :] - 2.0 * (a @ b.T)
    return maximum(d, 0.0)


def _poly(xhat, powers):
    """Monomials (len(xhat), len(powers)) of the shifted and scaled points."""
    cols = []
    for row in powers:
        v = ones(xhat.shape[:-1], dtype=xhat.dtype)
        for dim, p in enumerate(row):
            if p:
                v = v * xhat[..., dim] ** int(p)
        cols.append(v)
    return stack(cols, axis=-1) if cols else zeros(xhat.shape[:-1] + (0,), dtype=xhat.dtype)


class RBFInterpolator:
    """See `scipy.interpolate.RBFInterpolator`. With `neighbors`, each query's nearest centres come
    from a `cuarray.scipy.spatial.KDTree` of the centres; SciPy solves each distinct neighbourhood
    once, cuarray each query's (the same system: the same values)."""

    def __init__(self, y, d, neighbors=None, smoothing=0.0, kernel="thin_plate_spline", epsilon=None,
                 degree=None):
        y, d = _inputs.values(y), _inputs.values(d)
        y = y.astype(_F8)
        if y.ndim != 2:
            raise ValueError("`y` must be a 2-dimensional array.")
        ny, ndim = y.shape
        d_dtype = numpy.complex128 if d.dtype.kind == "c" else _F8
        d = d.astype(d_dtype)
        if d.shape[0] != ny:
            raise ValueError(f"Expected the first axis of `d` to have length {ny}.")
        d_shape = d.shape[1:]
        d = d.reshape((ny, -1))
        smoothing = _inputs.param(smoothing).astype(_F8)
        if smoothing.ndim == 0:
            smoothing = full((ny,), 0.0) + smoothing
        elif smoothing.shape != (ny,):
            raise ValueError(f"Expected `smoothing` to be a scalar or have shape ({ny},).")
        if not isinstance(kernel, str):  # SciPy's LowLevelCallable kernels run on the host only
            raise ValueError("The kernel must be a string (LowLevelCallable kernels are host code).")
        kernel = kernel.lower()
        if kernel not in _KERNELS:
            raise ValueError(f"String `kernel` must be one of {set(_KERNELS)}")
        if epsilon is None:
            if kernel in _SCALE_INVARIANT:
                epsilon = 1.0
            else:
                raise ValueError(f"`epsilon` must be specified if `kernel` is not one of {_SCALE_INVARIANT}.")
        else:
            epsilon = float(epsilon)
        min_degree = _MIN_DEGREE.get(kernel, -1)
        if degree is None:
            degree = max(min_degree, 0)
        else:
            degree = int(degree)
            if degree < -1:
                raise ValueError("`degree` must be at least -1.")
            if -1 < degree < min_degree:
                warnings.warn(f"`degree` should not be below {min_degree} except -1 when `kernel` is '{kernel}'."
                              "The interpolant may not be uniquely solvable, and the smoothing parameter may have "
                              "an unintuitive effect.", UserWarning, stacklevel=2)
        if neighbors is None:
            nobs = ny
        else:
            neighbors = int(min(neighbors, ny))
            nobs = neighbors
        powers = monomial_powers(ndim, degree)
        if powers.shape[0] > nobs:
            raise ValueError(f"At least {powers.shape[0]} data points are required when `degree` is {degree} and "
                             f"the number of dimensions is {ndim}.")
        self.y, self.d, self.d_shape, self.d_dtype = y, d, d_shape, d_dtype
        self.neighbors, self.smoothing, self.kernel = neighbors, smoothing, kernel
        self.epsilon, self.powers = epsilon, powers
        if neighbors is None:
            self._shift, self._scale, self._coeffs = self._solve(y, d, smoothing)
        else:
            self._tree = KDTree(y)

    def _shift_scale(self, y):
        lo, hi = min_(y, axis=-2), max_(y, axis=-2)
        shift = (hi + lo) / 2
        scale = (hi - lo) / 2
        return shift, where(scale == 0.0, 1.0, scale)

    def _system(self, y, d, smoothing):
        """lhs (..., p + r, p + r) and rhs (..., p + r, s) of the centres y (..., p, ndim)."""
        shift, scale = self._shift_scale(y)
        yhat = (y - shift[..., None, :]) / scale[..., None, :]
        ye = y * self.epsilon
        sq = sum_(ye * ye, axis=-1)
        r2 = maximum(sq[..., :, None] + sq[..., None, :] - 2.0 * (ye @ moveaxis(ye, -1, -2)), 0.0)
        kmat = _kernel(self.kernel, r2)
        p, r = y.shape[-2], self.powers.shape[0]
        kmat = kmat + _diag(smoothing, p)
        pmat = _poly(yhat, self.powers)
        top = concatenate((kmat, pmat), axis=-1)
        bottom = concatenate((moveaxis(pmat, -1, -2), zeros(y.shape[:-2] + (r, r))), axis=-1)
        lhs = concatenate((top, bottom), axis=-2)
        rhs = concatenate((d, zeros(d.shape[:-2] + (r, d.shape[-1]), dtype=d.dtype)), axis=-2)
        return lhs, rhs, shift, scale

    def _solve(self, y, d, smoothing):
        lhs, rhs, shift, scale = self._system(y, d, smoothing)
        try:
            coeffs = _solve_real(lhs, rhs)
        except LinAlgError:
            msg = "Singular matrix."
            nmonos = self.powers.shape[0]
            if nmonos > 0:
                rank = numpy.linalg.matrix_rank(to_host(_poly((y - shift) / scale, self.powers)))
                if rank < nmonos:
                    msg = ("Singular matrix. The matrix of monomials evaluated at the data point coordinates does not "
                           f"have full column rank ({rank}/{nmonos}).")
            raise LinAlgError(msg) from None
        return shift, scale, coeffs

    def __call__(self, x):
        """See `scipy.interpolate.RBFInterpolator.__call__`."""
        x = _inputs.data(x).astype(_F8)
        if x.ndim != 2:
            raise ValueError("`x` must be a 2-dimensional array.")
        nx, ndim = x.shape
        if ndim != self.y.shape[1]:
            raise ValueError(f"Expected the second axis of `x` to have length {self.y.shape[1]}.")
        if self.neighbors is None:
            out = self._evaluate_global(x)
        else:
            out = self._evaluate_neighbors(x)
        return out.astype(self.d_dtype).reshape((nx,) + self.d_shape)

    def _evaluate_global(self, x):
        p = self.y.shape[0]
        chunk = max(1, _CHUNK_BYTES // (8 * max(p, 1)))
        parts = []
        ye = self.y * self.epsilon
        for start in range(0, x.shape[0], chunk):
            xs = x[start:start + chunk]
            kvec = _kernel(self.kernel, _sq_dist(xs * self.epsilon, ye))
            pvec = _poly((xs - self._shift) / self._scale, self.powers)
            parts.append(_matvec(kvec, self._coeffs[:p]) + _matvec(pvec, self._coeffs[p:]))
        if not parts:
            return zeros((0, self.d.shape[1]), dtype=self.d_dtype)
        return parts[0] if len(parts) == 1 else concatenate(parts)

    def _evaluate_neighbors(self, x):
        k = self.neighbors
        if x.shape[0] == 0:
            return zeros((0, self.d.shape[1]), dtype=self.d_dtype)
        # each query's k nearest centres, their indices sorted (SciPy's order of the system's rows)
        nearest = sort(self._tree.query(x, k)[1].reshape((x.shape[0], k)), axis=1)
        chunk = max(1, _CHUNK_BYTES // (8 * (k + self.powers.shape[0]) ** 2))
        parts = []
        for start in range(0, x.shape[0], chunk):
            xs = x[start:start + chunk]
            idx = nearest[start:start + chunk]
            yn = self.y[idx]  # (m, k, ndim)
            dn = self.d[idx]  # (m, k, s)
            shift, scale, coeffs = self._solve(yn, dn, self.smoothing[idx])
            kvec = _kernel(self.kernel, sum_((xs[:, None, :] * self.epsilon - yn * self.epsilon) ** 2, axis=-1))
            pvec = _poly((xs - shift) / scale, self.powers)
            vals = sum_(kvec[:, :, None] * coeffs[:, :k], axis=1) + sum_(pvec[:, :, None] * coeffs[:, k:], axis=1)
            parts.append(vals)
        return parts[0] if len(parts) == 1 else concatenate(parts)


def _diag(v, p):
    """diag(v) over the last two axes for v (..., p)."""
    eye = (arange(p)[:, None] == arange(p)[None, :]).astype(_F8)
    return v[..., :, None] * eye


def _solve_real(lhs, rhs):
    """Solve with a real lhs: complex right-hand sides as their real and imaginary columns."""
    if rhs.dtype.kind != "c":
        return solve(lhs, rhs)
    s = rhs.shape[-1]
    both = concatenate((real(rhs), imag(rhs)), axis=-1)
    sol = solve(lhs, both)
    return sol[..., :s] + 1j * sol[..., s:]


def _matvec(a, coeffs):
    if coeffs.shape[0] == 0:
        return zeros((a.shape[0], coeffs.shape[1]), dtype=coeffs.dtype)
    if coeffs.dtype.kind == "c":
        return (a @ real(coeffs)) + 1j * (a @ imag(coeffs))
    return a @ coeffs
