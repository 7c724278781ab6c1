"""`scipy.stats.multivariate_normal`: SciPy's object (scipy/stats/_multivariate.py,
multivariate_normal_gen) with its parameter rules, checks, messages and shapes (x's last axis
the components). The covariance is factored as SciPy's _PSD does it, by one symmetric
eigendecomposition on the device and one read of its eigenvalues (SciPy's cutoff decides the
rank, the errors and the pseudo-determinant on the host); the densities are a batched
Mahalanobis form, the cdf SciPy's estimator for every point at once (_qmvn.py)."""

from __future__ import annotations

import math

import numpy

from ..._core.host_input import as_literal_or_array, as_parameter
from ..._core.transfer import to_host
from ..._creation.basic import full
from ..._creation.matrices import diag, eye
from ..._indexing.inserting import take
from ..._logic.truth import any as any_
from ..._manipulation.dims import broadcast_arrays, squeeze
from ..._manipulation.shape import reshape
from ..._math.explog import exp, log
from ..._math.extrema import maximum
from ..._math.misc import sqrt, square
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from ...linalg._decomp import eigh
from ...linalg._matmul import matmul
from ...random._generator import default_rng
from ..special._stats import ndtr
from ._qmvn import bvn, qauto

_LOG_2PI = math.log(2 * math.pi)
_F64 = numpy.dtype(numpy.float64)


class _PSD:
    """SciPy's _PSD of a device covariance: eigh, SciPy's eigenvalue cutoff (1e6 machine
    epsilons of the largest magnitude), its errors, the whitening factor U (U U^T the
    pseudo-inverse), the null space V, the rank and the log pseudo-determinant (host numbers)."""

    def __init__(self, cov, allow_singular=True):
        self.covariance = cov
        self.shape = tuple(cov.shape)
        s, u = eigh(cov)
        host = numpy.asarray(to_host(s), dtype=_F64)  # the one read: n eigenvalues
        if not numpy.isfinite(host).all():
            raise ValueError("array must not contain infs or NaNs")
        eps = 1e6 * numpy.finfo(_F64).eps * numpy.max(numpy.abs(host))
        if numpy.min(host) < -eps:
            raise ValueError("The input matrix must be symmetric positive semidefinite.")
        d = host[host > eps]
        if len(d) < len(host) and not allow_singular:
            raise numpy.linalg.LinAlgError("When `allow_singular is False`, the input matrix must be "
                                           "symmetric positive definite.")
        pinv = numpy.array([0.0 if abs(v) <= eps else 1 / v for v in host], dtype=_F64)
        self.U = u * as_parameter(numpy.sqrt(pinv), "scipy.stats.multivariate_normal")
        self.eps = 1e3 * eps
        self.V = u[:, :len(host) - len(d)]  # eigh's values ascend: the small ones come first
        self.rank = len(d)
        self.log_pdet = float(numpy.sum(numpy.log(d)))
        self._factor = u * sqrt(maximum(s, 0.0))  # rvs: cov = F F^T
        self._allow_singular = False

    def whiten(self, x):
        return matmul(x, self.U)

    def support_mask(self, x):
        return sqrt(sum_(square(matmul(x, self.V)), axis=-1)) < self.eps


def _param(v, fn):
    if v is None or isinstance(v, (int, float, list, tuple, numpy.ndarray, numpy.generic)):
        v = numpy.asarray(v, dtype=_F64)
    return as_parameter(v, "scipy.stats.multivariate_normal." + fn).astype(_F64, copy=False)


def _params(mean, cov, fn):
    """SciPy's _process_parameters_psd: (dim, mean vector, covariance matrix) on the device."""
    if mean is None:
        dim = 1 if cov is None or numpy.ndim(cov) < 2 else numpy.shape(cov)[0]
        mean = numpy.zeros(dim)
    mean = _param(mean, fn)
    dim = mean.size
    cov = _param(1.0 if cov is None else cov, fn)
    if dim == 1:
        mean, cov = reshape(mean, (1,)), reshape(cov, (1, 1))
    if mean.ndim != 1 or mean.shape[0] != dim:
        raise ValueError(f"Array 'mean' must be a vector of length {dim}.")
    if cov.ndim == 0:
        cov = cov * eye(dim)
    elif cov.ndim == 1:
        cov = diag(cov)
    elif cov.ndim == 2 and tuple(cov.shape) != (dim, dim):
        rows, cols = cov.shape
        if rows != cols:
            msg = f"Array 'cov' must be square if it is two dimensional, but cov.shape = {str(tuple(cov.shape))}."
        else:
            msg = (f"Dimension mismatch: array 'cov' is of shape {tuple(cov.shape)}, "
                   f"but 'mean' is a vector of length {len(mean)}.")
        raise ValueError(msg)
    elif cov.ndim > 2:
        raise ValueError(f"Array 'cov' must be at most two-dimensional, but cov.ndim = {cov.ndim}")
    return dim, mean, cov


def _quantiles(x, dim, fn):
    """SciPy's _process_quantiles: float64, a point per row of the last axis."""
    x = as_literal_or_array(x, "scipy.stats.multivariate_normal." + fn).astype(_F64, copy=False)
    if x.ndim == 0:
        return reshape(x, (1,))
    if x.ndim == 1:
        return reshape(x, (-1, 1) if dim == 1 else (1, -1))
    return x


def _logpdf(x, mean, psd, dim):
    dev = x - mean
    out = -0.5 * (psd.rank * _LOG_2PI + psd.log_pdet + sum_(square(psd.whiten(dev)), axis=-1))
    if psd.rank < dim:
        out = where(psd.support_mask(dev), out, -numpy.inf)
    return squeeze(out)


def _cdf(x, mean, cov, maxpts, abseps, lower_limit, rng):
    """SciPy's _cdf: the box (lower_limit, x] with its ends ordered and the sign of the swaps,
    then SciPy's estimator by dimension for every point at once."""
    dim = mean.shape[0]
    lower = full(mean.shape, -numpy.inf) if lower_limit is None else \
        as_literal_or_array(lower_limit, "scipy.stats.multivariate_normal.cdf").astype(_F64, copy=False)
    b, a = broadcast_arrays(x, lower)
    b, a = b - mean, a - mean
    swap = b < a
    signs = where(sum_(swap, axis=-1) % 2 == 1, -1.0, 1.0)
    a, b = where(swap, b, a), where(swap, a, b)
    a2, b2 = reshape(a, (-1, dim)), reshape(b, (-1, dim))
    if dim == 1:
        sd = sqrt(cov[0, 0])
        p = ndtr(b2[:, 0] / sd) - ndtr(a2[:, 0] / sd)
    elif dim == 2:
        p = bvn(a2, b2, cov)
    else:
        p = qauto(cov, a2, b2, rng, abseps, maxpts)
    return squeeze(reshape(p, a.shape[:-1]) * signs)


def _log(cdf):
    # SciPy's: the log of a negative (a box with swapped ends) is complex; one read decides
    return log(cdf + 0j if bool(to_host(any_(cdf < 0))) else cdf)


def _marginal_dims(dimensions, n):
    """SciPy's _validate_marginal_input (host indices)."""
    dims = numpy.atleast_1d(numpy.copy(dimensions))
    if len(dims) == 0:
        raise ValueError("Cannot marginalize all dimensions.")
    if not numpy.issubdtype(dims.dtype, numpy.integer):
        raise ValueError("Elements of `dimensions` must be integers - the indices "
                         "of the marginal variables being retained.")
    original = numpy.copy(dims)
    dims[dims < 0] += n
    if len(numpy.unique(dims)) != len(dims):
        raise ValueError("All elements of `dimensions` must be unique.")
    bad = (dims < 0) | (dims >= n)
    if numpy.any(bad):
        raise ValueError(f"Dimensions {original[bad]} are invalid for a distribution in {n} dimensions.")
    return dims


def _rvs(mean, psd, size, rng):
    shape = () if size is None else tuple(int(v) for v in numpy.atleast_1d(size))
    z = rng.standard_normal(shape + (mean.shape[0],))
    return squeeze(mean + matmul(z, psd._factor.T))


class multivariate_normal_gen:
    """See `scipy.stats.multivariate_normal` (docs/scipy-stats.md: what differs on the GPU).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.asarray([[0.0, 0.0], [1.0, -0.5]])
    >>> cuarray.round(stats.multivariate_normal.pdf(x, mean=[0.0, 0.0], cov=[[2.0, 0.3], [0.3, 0.5]]), 6)
    array([0.16684 , 0.081675])
    >>> rv = stats.multivariate_normal([0.0, 0.0, 0.0], 1.0)
    >>> round(float(rv.cdf(cuarray.zeros(3))), 6)   # independent: 1/8
    0.125
    >>> round(float(rv.entropy()), 6)
    4.256816
    """

    def __repr__(self):
        return "<cuarray.scipy.stats.multivariate_normal distribution>"

    def __call__(self, mean=None, cov=1, allow_singular=False, seed=None, **kwds):
        return multivariate_normal_frozen(mean, cov, allow_singular=allow_singular, seed=seed, **kwds)

    def _process_parameters(self, mean, cov, allow_singular=True, fn="freeze"):
        dim, mean, cov = _params(mean, cov, fn)
        return dim, mean, _PSD(cov, allow_singular=allow_singular)

    def logpdf(self, x, mean=None, cov=1, allow_singular=False):
        """See `scipy.stats.multivariate_normal.logpdf`."""
        dim, mean, psd = self._process_parameters(mean, cov, allow_singular, "logpdf")
        return _logpdf(_quantiles(x, dim, "logpdf"), mean, psd, dim)

    def pdf(self, x, mean=None, cov=1, allow_singular=False):
        """See `scipy.stats.multivariate_normal.pdf`."""
        dim, mean, psd = self._process_parameters(mean, cov, allow_singular, "pdf")
        return exp(_logpdf(_quantiles(x, dim, "pdf"), mean, psd, dim))

    def cdf(self, x, mean=None, cov=1, allow_singular=False, maxpts=None, abseps=1e-5, releps=1e-5, *,
            lower_limit=None, rng=None):
        """See `scipy.stats.multivariate_normal.cdf`: `rng` a seed or a cuarray Generator (the
        lattice shifts are not SciPy's stream); `releps` is unused, as SciPy's."""
        dim, mean, psd = self._process_parameters(mean, cov, allow_singular, "cdf")
        x = _quantiles(x, dim, "cdf")
        return _cdf(x, mean, psd.covariance, maxpts or 1000000 * dim, abseps, lower_limit, default_rng(rng))

    def logcdf(self, x, mean=None, cov=1, allow_singular=False, maxpts=None, abseps=1e-5, releps=1e-5, *,
               lower_limit=None, rng=None):
        """See `scipy.stats.multivariate_normal.logcdf` (complex where the cdf is negative)."""
        return _log(self.cdf(x, mean, cov, allow_singular, maxpts, abseps, releps, lower_limit=lower_limit, rng=rng))

    def rvs(self, mean=None, cov=1, size=1, random_state=None):
        """See `scipy.stats.multivariate_normal.rvs`: cuarray.random's normals times the
        covariance's eigenvector factor (`random_state`: None, a seed or a cuarray Generator;
        not SciPy's stream)."""
        _, mean, psd = self._process_parameters(mean, cov, True, "rvs")
        return _rvs(mean, psd, size, default_rng(random_state))

    def entropy(self, mean=None, cov=1):
        """See `scipy.stats.multivariate_normal.entropy` (a host float, from the eigenvalues read)."""
        _, _, psd = self._process_parameters(mean, cov, True, "entropy")
        return numpy.float64(0.5 * (psd.rank * (_LOG_2PI + 1) + psd.log_pdet))

    def fit(self, x, fix_mean=None, fix_cov=None):
        """See `scipy.stats.multivariate_normal.fit` (device results)."""
        x = as_literal_or_array(x, "scipy.stats.multivariate_normal.fit").astype(_F64, copy=False)
        if x.ndim != 2:
            raise ValueError("`x` must be two-dimensional.")
        n_vectors, dim = x.shape
        if fix_mean is not None:
            fix_mean = _param(fix_mean, "fit")
            if fix_mean.ndim == 0:
                fix_mean = reshape(fix_mean, (1,))
            if tuple(fix_mean.shape) != (dim,):
                raise ValueError("`fix_mean` must be a one-dimensional array the same "
                                 "length as the dimensionality of the vectors `x`.")
            mean = fix_mean
        else:
            mean = sum_(x, axis=0) / n_vectors
        if fix_cov is not None:
            fix_cov = _param(fix_cov, "fit")
            fix_cov = reshape(fix_cov, (1,) * (2 - fix_cov.ndim) + tuple(fix_cov.shape)) if fix_cov.ndim < 2 else fix_cov
            if tuple(fix_cov.shape) != (dim, dim):
                raise ValueError("`fix_cov` must be a two-dimensional square array "
                                 "of same side length as the dimensionality of the vectors `x`.")
            s = numpy.asarray(to_host(eigh(fix_cov)[0]), dtype=_F64)
            if numpy.min(s) < -1e6 * numpy.finfo(_F64).eps * numpy.max(numpy.abs(s)):
                raise ValueError("`fix_cov` must be symmetric positive semidefinite.")
            return mean, fix_cov
        centered = x - mean
        return mean, matmul(centered.T, centered) / n_vectors

    def marginal(self, dimensions, mean=None, cov=1, allow_singular=False):
        """See `scipy.stats.multivariate_normal.marginal`."""
        n, mean, psd = self._process_parameters(mean, cov, allow_singular, "marginal")
        dims = as_parameter(_marginal_dims(dimensions, n), "scipy.stats.multivariate_normal.marginal")
        cov = take(take(psd.covariance, dims, axis=0), dims, axis=1)
        return multivariate_normal_frozen(take(mean, dims, axis=0), cov, allow_singular)


class multivariate_normal_frozen:
    """See `scipy.stats.multivariate_normal`: mean and covariance fixed
    (`multivariate_normal(mean, cov, allow_singular, seed, maxpts, abseps, releps)`)."""

    def __init__(self, mean=None, cov=1, allow_singular=False, seed=None, maxpts=None, abseps=1e-5,
                 releps=1e-5):
        self._dist = multivariate_normal
        self.dim, self.mean, self.cov_object = self._dist._process_parameters(mean, cov, allow_singular)
        self.allow_singular = allow_singular or self.cov_object._allow_singular
        self.maxpts = maxpts or 1000000 * self.dim
        self.abseps = abseps
        self.releps = releps
        self._rng = default_rng(seed)  # SciPy's frozen object keeps one generator of its seed

    @property
    def cov(self):
        return self.cov_object.covariance

    def logpdf(self, x):
        return _logpdf(_quantiles(x, self.dim, "logpdf"), self.mean, self.cov_object, self.dim)

    def pdf(self, x):
        return exp(self.logpdf(x))

    def cdf(self, x, *, lower_limit=None, rng=None):
        x = _quantiles(x, self.dim, "cdf")
        return _cdf(x, self.mean, self.cov, self.maxpts, self.abseps, lower_limit,
                    self._rng if rng is None else default_rng(rng))

    def logcdf(self, x, *, lower_limit=None, rng=None):
        return _log(self.cdf(x, lower_limit=lower_limit, rng=rng))

    def rvs(self, size=1, random_state=None):
        return _rvs(self.mean, self.cov_object, size, self._rng if random_state is None else default_rng(random_state))

    def entropy(self):
        return numpy.float64(0.5 * (self.cov_object.rank * (_LOG_2PI + 1) + self.cov_object.log_pdet))

    def marginal(self, dimensions):
        return self._dist.marginal(dimensions, self.mean, self.cov, self.allow_singular)


multivariate_normal = multivariate_normal_gen()
