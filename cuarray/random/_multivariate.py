"""dirichlet, multinomial, multivariate_normal, multivariate_hypergeometric: vector-valued draws
built from the scalar samplers (and, for the normal, from cuarray.linalg's factorisations)."""

from __future__ import annotations

import numpy
from numpy import float64, int64

from .._core.host_input import is_scalar, reject
from .._core.transfer import from_host
from .._core.ndarray import ndarray
from .._creation.basic import zeros
from .._logic.comparison_reduce import allclose
from .._logic.content import isnan
from .._logic.truth import any as any_
from .._manipulation.dims import broadcast_to
from .._manipulation.joining import stack
from .._math.misc import absolute, sqrt
from ._params import normalize_size

__all__ = ["dirichlet", "multinomial", "multivariate_normal", "multivariate_hypergeometric"]


def dirichlet(gen, alpha, size):
    if not isinstance(alpha, ndarray):
        # The parameter vector is a host value, as NumPy takes it (and as `colors` of
        # multivariate_hypergeometric and `pvals` here are): a few numbers, one upload.
        alpha = _host_vector(alpha, "random.dirichlet")
        if alpha.ndim != 1:
            raise ValueError("alpha must be a one-dimensional sequence")
        alpha = from_host(alpha.astype(numpy.float64))
    if alpha.ndim != 1:
        raise ValueError("alpha must be a one-dimensional sequence")
    alpha = alpha.astype(float64)
    if bool((alpha < 0).any()):
        raise ValueError("alpha < 0")
    if bool(isnan(alpha).any()):
        raise ValueError("alpha contains NaNs")
    dims = normalize_size(size)
    shape = (() if dims is None else dims) + alpha.shape
    g = gen._sample("standard_gamma", (broadcast_to(alpha, shape),), None, check=False)
    return g / g.sum(axis=-1, keepdims=True)


def _host_vector(x, fn):
    """A distribution's parameter vector given on the host (list, tuple, NumPy array) as a NumPy
    array; anything else (another library's arrays) is refused by the host-input policy."""
    if isinstance(x, (list, tuple, numpy.ndarray)):
        return numpy.asarray(x)
    if is_scalar(x):  # NumPy's errors for a scalar where a vector belongs
        if fn == "random.dirichlet":
            raise TypeError("object of type {!r} has no len()".format(type(x).__name__))
        raise ValueError("pvals must have at least 1 dimension and the last dimension of pvals must be "
                         "greater than 0.")
    raise reject(x, fn)


def multinomial(gen, n, pvals, size):
    """Category j ~ Binomial(n - earlier counts, p_j / (1 - earlier p)); pvals read once on the host."""
    if not isinstance(pvals, ndarray):
        pvals = _host_vector(pvals, "random.multinomial")  # a host value, as in NumPy: no sync
    if pvals.ndim != 1:
        raise ValueError("pvals must be a 1-d sequence")
    p = (pvals.get() if isinstance(pvals, ndarray) else pvals).astype(numpy.float64)  # k values, one sync
    if numpy.any(p < 0) or numpy.any(p > 1) or numpy.any(numpy.isnan(p)):
        raise ValueError("pvals < 0, pvals > 1 or pvals contains NaNs")
    if p[:-1].sum() > 1.0 + 1e-12:
        raise ValueError("sum(pvals[:-1]) > 1.0")
    if isinstance(n, ndarray):
        if bool((n < 0).any()):
            raise ValueError("n < 0")
    elif int(n) < 0:
        raise ValueError("n < 0")
    dims = normalize_size(size)
    base = (n.shape if isinstance(n, ndarray) else ()) if dims is None else dims

    remaining = broadcast_to(n.astype(int64) if isinstance(n, ndarray) else int64(int(n)), base).copy()
    rem_p, cols = 1.0, []
    for pj in p[:-1]:
        q = 0.0 if rem_p <= 0 else min(max(pj / rem_p, 0.0), 1.0)
        x = gen._sample("binomial", (remaining, q), base, _I64, check=False)
        cols.append(x)
        remaining = remaining - x
        rem_p -= pj
    cols.append(remaining)
    return stack(cols, axis=-1)


_I64 = numpy.dtype(numpy.int64)


def multivariate_normal(gen, mean, cov, size, check_valid, tol, method):
    """NumPy's construction: standard normals times a factor of `cov` (svd, eigh or cholesky, on
    the device), plus `mean`. The positive-semidefinite check reads one bool back, as NumPy's
    warning or error needs it."""
    import warnings

    if method not in ("svd", "eigh", "cholesky"):
        raise ValueError("method must be one of {'eigh', 'svd', 'cholesky'}")
    for name, v in (("mean", mean), ("cov", cov)):
        if not isinstance(v, ndarray):
            raise reject(v, "random.multivariate_normal")
    if mean.ndim != 1:
        raise ValueError("mean must be 1 dimensional")
    if cov.ndim != 2 or cov.shape[0] != cov.shape[1]:
        raise ValueError("cov must be 2 dimensional and square")
    if mean.shape[0] != cov.shape[0]:
        raise ValueError("mean and cov must have same length")
    if check_valid not in ("warn", "raise", "ignore"):
        raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")
    dims = normalize_size(size)
    k = mean.shape[0]
    x = gen.standard_normal((() if dims is None else dims) + (k,))
    cov = cov.astype(float64)
    # linalg costs 30-70 ms of a first `default_rng()` that never factors a matrix:
    from ..linalg._decomp import cholesky, eigh  # import time: see above
    from ..linalg._svd import svd  # import time: see above

    if method == "svd":
        u, s, vh = svd(cov)
    elif method == "eigh":
        s, u = eigh(cov)
    else:
        factor = cholesky(cov)
    if check_valid != "ignore" and method != "cholesky":
        if method == "svd":
            psd = bool(allclose((vh.T * s) @ vh, cov, rtol=tol, atol=tol))
        else:
            psd = not bool(any_(s < -tol))
        if not psd:
            if check_valid == "warn":
                warnings.warn("covariance is not symmetric positive-semidefinite.", RuntimeWarning, stacklevel=3)
            else:
                raise ValueError("covariance is not symmetric positive-semidefinite.")
    if method == "eigh":
        factor = u * sqrt(absolute(s))
    elif method == "svd":
        factor = u * sqrt(s)
    return mean + x @ factor.T


def multivariate_hypergeometric(gen, colors, nsample, size, method):
    """Marginals (NumPy's method='marginals'): color i ~ Hypergeometric(colors[i], colors after i,
    what is left to draw), one launch per color over every sample. method='count' is accepted and
    draws the same distribution the same way (its streams differ from NumPy's either way)."""
    if method not in ("count", "marginals"):
        raise ValueError('method must be "count" or "marginals".')
    if isinstance(colors, ndarray):
        colors = colors.get()  # a few counts: one read
    c = numpy.asarray(colors)
    bad = c.ndim != 1 or (c.size and (c.dtype.kind not in "iu" or (c < 0).any()))
    if bad:
        raise ValueError("colors must be a one-dimensional sequence of nonnegative integers not exceeding "
                         "{}.".format(numpy.iinfo(numpy.int64).max))
    c = c.astype(numpy.int64)
    nsample = int(nsample)
    if nsample < 0:
        raise ValueError("nsample must be nonnegative.")
    total = int(c.sum())
    if nsample > total:
        raise ValueError("nsample > sum(colors)")
    dims = normalize_size(size)
    base = () if dims is None else dims
    if c.size == 0:
        return zeros(base + (0,), dtype=int64)
    remaining = broadcast_to(int64(nsample), base).copy()
    rest, cols = total, []
    for ci in c[:-1].tolist():
        rest -= ci
        x = gen._sample("hypergeometric", (int(ci), rest, remaining), base, _I64, check=False)
        cols.append(x)
        remaining = remaining - x
    cols.append(remaining)
    return stack(cols, axis=-1)
