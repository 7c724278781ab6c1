"""dirichlet and multinomial: vector-valued draws built from the scalar samplers."""

from __future__ import annotations

import numpy

from .._core.ndarray import ndarray
from .._core.host_input import reject
from ._params import normalize_size

__all__ = ["dirichlet", "multinomial"]


def dirichlet(gen, alpha, size):
    from .. import broadcast_to, float64, isnan

    if not isinstance(alpha, ndarray):
        raise reject(alpha, "random.dirichlet")
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


def multinomial(gen, n, pvals, size):
    """Category j ~ Binomial(n - earlier counts, p_j / (1 - earlier p)); pvals read once on the host."""
    from .. import stack

    if not isinstance(pvals, ndarray):
        raise reject(pvals, "random.multinomial")
    if pvals.ndim != 1:
        raise ValueError("pvals must be a 1-d sequence")
    p = pvals.get().astype(numpy.float64)  # k values, one synchronisation
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
    from .. import broadcast_to, int64

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
