"""The distance functions of two vectors (`scipy.spatial.distance.euclidean` and friends), with
SciPy 1.18's formulas composed of cuarray operations. Each returns a 0-d float64 device array
where SciPy returns a Python or NumPy float (no host read); `minkowski`, `euclidean` and
`sqeuclidean` take (..., N) arrays as SciPy 1.18 does and return one distance per row."""

from __future__ import annotations

import numpy

from ..._core.host_input import as_literal_or_array, as_parameter
from ..._logic.comparison import not_equal
from ..._math.explog import log
from ..._math.misc import abs as abs_
from ..._math.misc import sqrt
from ..._sorting.searching import where
from ..._statistics.order import max as max_
from ...linalg._norms import norm

__all__ = ["braycurtis", "canberra", "chebyshev", "cityblock", "correlation", "cosine", "dice",
           "euclidean", "hamming", "jaccard", "jensenshannon", "mahalanobis", "minkowski",
           "rogerstanimoto", "russellrao", "seuclidean", "sokalsneath", "sqeuclidean", "yule", "hellinger",
           "kl_divergence"]

_F8 = numpy.dtype(numpy.float64)


def _vector(u, fn, dtype=None):
    u = as_literal_or_array(u, fn)
    if dtype is not None:
        u = u.astype(dtype, copy=False)
    if u.ndim != 1:
        raise ValueError("Input vector should be 1-D.")
    return u


def _inexact(u, fn):
    u = as_literal_or_array(u, fn)
    return u if u.dtype.kind in "fc" else u.astype(_F8)


def validate_weights(w, fn):
    """SciPy's weight check: a 1-D float64 vector of non-negative values (one host read)."""
    w = as_parameter(w, fn).astype(_F8, copy=False)
    if w.ndim != 1:
        raise ValueError("Input vector should be 1-D.")
    if w.size and bool((w < 0).any()):
        raise ValueError("Input weights should be all non-negative")
    return w


def minkowski(u, v, p=2, w=None):
    """See `scipy.spatial.distance.minkowski`. Returns a device array (0-d for vectors)."""
    u, v = _inexact(u, "minkowski"), _inexact(v, "minkowski")
    if p <= 0:
        raise ValueError("p must be greater than 0")
    d = u - v
    if w is not None:
        w = validate_weights(w, "minkowski")
        if p == 1:
            root = w
        elif p == 2:
            root = sqrt(w)
        elif p == numpy.inf:
            root = (w != 0).astype(_F8)
        else:
            root = w ** (1.0 / p)
        d = root * d
    return norm(d, ord=p, axis=-1)


def euclidean(u, v, w=None):
    """See `scipy.spatial.distance.euclidean`. Returns a device array (0-d for vectors)."""
    return minkowski(u, v, p=2, w=w)


def sqeuclidean(u, v, w=None):
    """See `scipy.spatial.distance.sqeuclidean`. Returns a device array (0-d for vectors)."""
    d = _inexact(u, "sqeuclidean") - _inexact(v, "sqeuclidean")
    dw = d if w is None else validate_weights(w, "sqeuclidean") * d
    return (d * dw).sum(axis=-1)


def correlation(u, v, w=None, centered=True):
    """See `scipy.spatial.distance.correlation`. Returns a 0-d device array."""
    u, v = _vector(u, "correlation"), _vector(v, "correlation")
    if u.dtype.kind == "c" or v.dtype.kind == "c":
        raise TypeError("`u` and `v` must be real.")
    u, v = u.astype(_F8, copy=False), v.astype(_F8, copy=False)
    if w is not None:
        w = validate_weights(w, "correlation")
        w = w / w.sum()
    if centered:
        u = u - (u @ w if w is not None else u.mean())
        v = v - (v @ w if w is not None else v.mean())
    uw, vw = (u, v) if w is None else (u * w, v * w)
    dist = 1.0 - (u @ vw) / sqrt((u @ uw) * (v @ vw))
    return dist.clip(0.0, 2.0)


def cosine(u, v, w=None):
    """See `scipy.spatial.distance.cosine`. Returns a 0-d device array."""
    return correlation(u, v, w=w, centered=False)


def hamming(u, v, w=None):
    """See `scipy.spatial.distance.hamming`. Returns a 0-d device array."""
    u, v = _vector(u, "hamming"), _vector(v, "hamming")
    if u.shape != v.shape:
        raise ValueError("The 1d arrays must have equal lengths.")
    ne = not_equal(u, v).astype(_F8)
    if w is None:
        return ne.mean()
    w = validate_weights(w, "hamming")
    if w.shape != u.shape:
        raise ValueError("'w' should have the same length as 'u' and 'v'.")
    return ne @ (w / w.sum())


def jaccard(u, v, w=None):
    """See `scipy.spatial.distance.jaccard`. Returns a 0-d device array."""
    u, v = _vector(u, "jaccard") != 0, _vector(v, "jaccard") != 0
    unequal, nonzero = (u ^ v).astype(_F8), (u | v).astype(_F8)
    if w is not None:
        w = validate_weights(w, "jaccard")
        unequal, nonzero = w * unequal, w * nonzero
    a, b = unequal.sum(), nonzero.sum()
    return where(b != 0, a / where(b != 0, b, 1.0), 0.0)


def seuclidean(u, v, V):
    """See `scipy.spatial.distance.seuclidean`. Returns a 0-d device array."""
    u, v = _vector(u, "seuclidean"), _vector(v, "seuclidean")
    V = as_parameter(V, "seuclidean").astype(_F8, copy=False)
    if V.ndim != 1:
        raise ValueError("Input vector should be 1-D.")
    if V.shape[0] != u.shape[0] or u.shape[0] != v.shape[0]:
        raise TypeError("V must be a 1-D array of the same dimension as u and v.")
    return euclidean(u, v, w=1 / V)


def cityblock(u, v, w=None):
    """See `scipy.spatial.distance.cityblock`. Returns a 0-d device array."""
    d = abs_(_vector(u, "cityblock") - _vector(v, "cityblock"))
    if w is not None:
        d = validate_weights(w, "cityblock") * d
    return d.sum()


def mahalanobis(u, v, VI):
    """See `scipy.spatial.distance.mahalanobis`. Returns a 0-d device array."""
    d = _vector(u, "mahalanobis") - _vector(v, "mahalanobis")
    VI = as_parameter(VI, "mahalanobis")
    if VI.ndim < 2:
        VI = VI.reshape((1,) * (2 - VI.ndim) + VI.shape)
    return sqrt((d @ VI) @ d)


def chebyshev(u, v, w=None):
    """See `scipy.spatial.distance.chebyshev`. Returns a 0-d device array."""
    d = abs_(_vector(u, "chebyshev") - _vector(v, "chebyshev"))
    if w is not None:
        d = (validate_weights(w, "chebyshev") > 0) * d
    return max_(d)


def braycurtis(u, v, w=None):
    """See `scipy.spatial.distance.braycurtis`. Returns a 0-d device array."""
    u, v = _vector(u, "braycurtis"), _vector(v, "braycurtis", _F8)
    diff, total = abs_(u - v), abs_(u + v)
    if w is not None:
        w = validate_weights(w, "braycurtis")
        diff, total = w * diff, w * total
    return diff.sum() / total.sum()


def canberra(u, v, w=None):
    """See `scipy.spatial.distance.canberra`. Returns a 0-d device array."""
    u, v = _vector(u, "canberra"), _vector(v, "canberra", _F8)
    den = abs_(u) + abs_(v)
    d = abs_(u - v) / where(den == 0, 1.0, den)  # 0/0 terms are dropped (SciPy's nansum)
    if w is not None:
        d = validate_weights(w, "canberra") * d
    return d.sum()


def jensenshannon(p, q, base=None, *, axis=0, keepdims=False):
    """See `scipy.spatial.distance.jensenshannon`. Returns a device array."""
    p, q = _inexact(p, "jensenshannon"), _inexact(q, "jensenshannon")
    p = p / p.sum(axis=axis, keepdims=True)
    q = q / q.sum(axis=axis, keepdims=True)
    m = (p + q) / 2.0
    js = _rel_entr(p, m).sum(axis=axis, keepdims=keepdims) + _rel_entr(q, m).sum(axis=axis, keepdims=keepdims)
    if base is not None:
        js = js / numpy.log(base)
    return sqrt(js / 2.0)


def hellinger(u, v):
    """See `cupyx.scipy.spatial.distance.hellinger` (a cupyx name; SciPy has none): the Hellinger
    distance of two 1-D arrays by cupyx's definition, sqrt(sum((sqrt(u) - sqrt(v))^2) / 2), in
    float64 (NaN where an entry is negative). Returns a 0-d device array; `cdist`/`pdist` take it
    as metric 'hellinger'."""
    u, v = _vector(u, "hellinger", _F8), _vector(v, "hellinger", _F8)
    d = sqrt(u) - sqrt(v)
    return sqrt((d * d).sum() / 2.0)


def kl_divergence(u, v):
    """See `cupyx.scipy.spatial.distance.kl_divergence` (a cupyx name; SciPy has none): the
    Kullback-Leibler divergence sum(u log(u / v)) of two 1-D arrays, with `scipy.special.rel_entr`'s
    conventions for zeros (0 where u = 0 <= v, inf where u > 0 = v or an entry is negative), in
    float64. Returns a 0-d device array; `cdist`/`pdist` take it as metric 'kl_divergence' (or
    'kl_div', 'kld')."""
    u, v = _vector(u, "kl_divergence", _F8), _vector(v, "kl_divergence", _F8)
    return _rel_entr(u, v).sum()


def _rel_entr(x, y):
    """`scipy.special.rel_entr` composed here: x log(x/y), 0 at x == 0, inf where x < 0 or y <= 0."""
    ok = (x > 0) & (y > 0)
    val = x * log(where(ok, x, 1.0) / where(ok, y, 1.0))
    return where(ok, val, where((x == 0) & (y >= 0), 0.0, numpy.inf))


def _counts(u, v, w, fn):
    """(nff, nft, ntf, ntt) as SciPy's `_nbool_correspond_all` counts them: numeric products."""
    u, v = _vector(u, fn), _vector(v, fn)
    u, v = u.astype(_F8), v.astype(_F8)
    nu, nv = 1.0 - u, 1.0 - v
    if w is not None:
        w = validate_weights(w, fn)
        nu, u = w * nu, w * u
    return (nu * nv).sum(), (nu * v).sum(), (u * nv).sum(), (u * v).sum()


def yule(u, v, w=None):
    """See `scipy.spatial.distance.yule`. Returns a 0-d device array."""
    nff, nft, ntf, ntt = _counts(u, v, w, "yule")
    half_r = ntf * nft
    return where(half_r == 0, 0.0, 2.0 * half_r / (ntt * nff + half_r + (half_r == 0)))


def dice(u, v, w=None):
    """See `scipy.spatial.distance.dice`. Returns a 0-d device array."""
    _, nft, ntf, ntt = _counts(u, v, w, "dice")
    return (ntf + nft) / (2.0 * ntt + ntf + nft)


def rogerstanimoto(u, v, w=None):
    """See `scipy.spatial.distance.rogerstanimoto`. Returns a 0-d device array."""
    nff, nft, ntf, ntt = _counts(u, v, w, "rogerstanimoto")
    return 2.0 * (ntf + nft) / (ntt + nff + 2.0 * (ntf + nft))


def russellrao(u, v, w=None):
    """See `scipy.spatial.distance.russellrao`. Returns a 0-d device array."""
    u, v = _vector(u, "russellrao"), _vector(v, "russellrao")
    uv = u.astype(_F8) * v.astype(_F8)
    if w is None:
        n, ntt = float(u.shape[0]), uv.sum()
    else:
        w = validate_weights(w, "russellrao")
        n, ntt = w.sum(), (uv * w).sum()
    return (n - ntt) / n


def sokalsneath(u, v, w=None):
    """See `scipy.spatial.distance.sokalsneath`. Returns a 0-d device array; the all-false
    ValueError costs one host read, as SciPy's test does."""
    _, nft, ntf, ntt = _counts(u, v, w, "sokalsneath")
    denom = ntt + 2.0 * (ntf + nft)
    if not bool(denom != 0):
        raise ValueError("Sokal-Sneath dissimilarity is not defined for vectors that are entirely false.")
    return 2.0 * (ntf + nft) / denom
