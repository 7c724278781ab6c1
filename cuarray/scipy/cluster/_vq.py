"""`scipy.cluster.vq` on the device: `whiten`, `vq`, `kmeans`, `kmeans2`.

The nearest code of each observation is the argmin over codes of |c|^2 - 2 x.c (one matrix
product a chunk of observations; |x|^2 is the same for every code of a row, so it is left out of
the comparison), and its distance is then computed directly from x - c (no cancellation). The new
centroids are the products of a chunk's one-hot membership matrix with its observations, divided
by the counts. Lloyd's iteration and its convergence test are SciPy's (scipy/cluster/vq/_vq_impl.py);
the random initialisations draw from SciPy's generator on the host in SciPy's order (k indices, a
(k, d) normal sample, one uniform per k-means++ centre), so a seed gives SciPy's code book."""

from __future__ import annotations

import operator
import warnings

import numpy

from ..._core.host_input import as_array, as_parameter
from ..._core.transfer import to_host
from ..._creation.basic import zeros
from ..._creation.ranges import arange
from ..._indexing.inserting import take
from ..._logic.content import isfinite
from ..._logic.truth import all as all_
from ..._manipulation.joining import concatenate
from ..._math.misc import sqrt
from ..._math.sums_scan import cumsum
from ..._sorting.searching import where
from ..._sorting.searchsorted import searchsorted
from ..._statistics.averages import mean, std
from ..._statistics.correlating import cov
from ..._statistics.histograms import bincount_known
from ...linalg._decomp import cholesky
from .._rng import check_random_state, rng_transition

__all__ = ["ClusterError", "whiten", "vq", "kmeans", "kmeans2"]

# Bytes of one chunk's (rows, codes) distance block: 2^28 keeps 10^7 x 256 float64 in 77 blocks.
_CHUNK_BYTES = 1 << 28
_FINITE = "array must not contain infs or NaNs"
_EMPTY = "One of the clusters is empty. Re-run kmeans with a different initialization."


class ClusterError(Exception):
    """See `scipy.cluster.vq.ClusterError`."""


def _checked(x, fn, check_finite):
    """`x` on the device; SciPy's ValueError for a NaN or inf when `check_finite` (one sync)."""
    x = as_array(x, fn)
    if check_finite and x.dtype.kind in "fc" and x.size and not bool(to_host(all_(isfinite(x)))):
        raise ValueError(_FINITE)
    return x


def whiten(obs, check_finite=None):
    """See `scipy.cluster.vq.whiten`. The zero-deviation check (and its warning) reads one bool."""
    check_finite = True if check_finite is None else check_finite
    obs = _checked(obs, "scipy.cluster.vq.whiten", check_finite)
    sd = std(obs, axis=0)
    zero = sd == 0
    sd = where(zero, 1.0, sd).astype(sd.dtype)
    if check_finite and bool(to_host(zero.any())):
        warnings.warn("Some columns have standard deviation zero. The values of these columns will not change.",
                      RuntimeWarning, stacklevel=2)
    return obs / sd


def _rows_per_chunk(k, itemsize):
    return max(1, _CHUNK_BYTES // (max(k, 1) * itemsize))


def _nearest(obs2, cb2, want_dist):
    """(codes int32, distances or None) of the (n, d) observations against the (k, d) codes, both
    of one float dtype, in chunks of rows; the first of equal distances wins, as in SciPy."""
    n, k = obs2.shape[0], cb2.shape[0]
    if n == 0:
        return zeros((0,), dtype=numpy.int32), (zeros((0,), dtype=obs2.dtype) if want_dist else None)
    cn = (cb2 * cb2).sum(axis=1)
    rows = _rows_per_chunk(k, obs2.dtype.itemsize)
    codes, dists = [], []
    for i0 in range(0, n, rows):
        x = obs2[i0:i0 + rows]
        code = (cn[None, :] - 2 * (x @ cb2.T)).argmin(axis=1).astype(numpy.int32)
        codes.append(code)
        if want_dist:
            diff = x - take(cb2, code, axis=0)
            dists.append(sqrt((diff * diff).sum(axis=1)))
    code = codes[0] if len(codes) == 1 else concatenate(codes)
    return code, ((dists[0] if len(dists) == 1 else concatenate(dists)) if want_dist else None)


def _means(obs2, code, nc):
    """(nc, d) centroids of the observations of each code (zeros where none) and the counts:
    the chunks' one-hot (nc, rows) membership matrices times their rows, in obs2's dtype."""
    n, d = obs2.shape
    sums = zeros((nc, d), dtype=obs2.dtype)
    labels = arange(nc, dtype=numpy.int32)[:, None]
    rows = _rows_per_chunk(nc, obs2.dtype.itemsize)
    for i0 in range(0, n, rows):
        onehot = (code[None, i0:i0 + rows] == labels).astype(obs2.dtype)
        sums += onehot @ obs2[i0:i0 + rows]
    counts = bincount_known(code, None, nc)
    means = (sums / where(counts == 0, 1, counts)[:, None]).astype(obs2.dtype)
    return means, counts > 0


def _as_rows(obs, code_book):
    """SciPy's rank and width checks, then both as 2-D arrays."""
    if obs.ndim != code_book.ndim:
        raise ValueError("observation and code should have same number of dimensions")
    if obs.ndim not in (1, 2):
        raise ValueError("ndim different than 1 or 2 are not supported")
    if obs.ndim == 1:
        return obs[:, None], code_book[:, None]
    if obs.shape[1] != code_book.shape[1]:
        raise ValueError("obs and code should have same number of features (columns)")
    return obs, code_book


def vq(obs, code_book, check_finite=True):
    """See `scipy.cluster.vq.vq`. Codes are int32 and distances of the common float dtype (int64
    and float64 for integer inputs, as SciPy's fallback gives); an empty code book raises
    ValueError (SciPy returns unset memory)."""
    fn = "scipy.cluster.vq.vq"
    obs = _checked(obs, fn, check_finite)
    code_book = _checked(as_parameter(code_book, fn), fn, check_finite)
    o2, c2 = _as_rows(obs, code_book)
    if c2.shape[0] == 0 and o2.shape[0]:
        raise ValueError("code_book is empty")
    ct = numpy.result_type(obs.dtype, code_book.dtype)
    integer = ct.kind not in "f"
    ct = numpy.dtype(numpy.float64) if integer else ct
    code, dist = _nearest(o2.astype(ct), c2.astype(ct), True)
    return (code.astype(numpy.int64) if integer else code), dist


def _assign(obs2, book):
    """`vq`'s step: both in their common dtype (a float64 guess widens only this comparison: the
    centroids are means in the observations' dtype, as SciPy's)."""
    ct = numpy.result_type(obs2.dtype, book.dtype)
    return _nearest(obs2.astype(ct, copy=False), book.astype(ct, copy=False), True)


def _lloyd(obs2, book, thresh, squeeze):
    """SciPy's `_kmeans`: Lloyd's steps until the mean distortion changes by at most `thresh`,
    empty codes dropped; one host read a step (the distortion and which codes kept members)."""
    prev = numpy.inf
    diff = numpy.inf
    while diff > thresh:
        code, dist = _assign(obs2, book)
        means, has = _means(obs2, code, book.shape[0])
        state = to_host(concatenate([mean(dist).astype(numpy.float64).reshape(1), has.astype(numpy.float64)]))
        avg, keep = state[0], state[1:] > 0
        book = means if keep.all() else take(means, as_parameter(numpy.flatnonzero(keep), "kmeans"), axis=0)
        diff, prev = abs(prev - avg), avg
    _, dist = _assign(obs2, book)
    avg = mean(dist)
    return (book[:, 0] if squeeze else book), avg


def _kpoints(data, k, rng):
    idx = rng.choice(data.shape[0], size=int(k), replace=False)
    return take(data, as_parameter(numpy.asarray(idx, dtype=numpy.int64), "kmeans"), axis=0)


@rng_transition("seed")
def kmeans(obs, k_or_guess, iter=20, thresh=1e-5, check_finite=True, *, rng=None):  # noqa: A002
    """See `scipy.cluster.vq.kmeans`. One host read a Lloyd step (its convergence test); the
    random code books are SciPy's draws (the same seed gives SciPy's result). The distortion is
    a 0-d device array."""
    fn = "scipy.cluster.vq.kmeans"
    obs = _checked(obs, fn, check_finite)
    guess = k_or_guess if isinstance(k_or_guess, int) else _checked(as_parameter(k_or_guess, fn), fn,
                                                                     check_finite)
    if iter < 1:
        raise ValueError(f"iter must be at least 1, got {iter}")
    size = 1 if isinstance(guess, int) else guess.size
    if obs.ndim not in (1, 2):
        raise ValueError("ndim different than 1 or 2 are not supported")
    squeeze = obs.ndim == 1
    obs2 = obs[:, None] if squeeze else obs
    obs2 = obs2 if obs2.dtype.kind == "f" else obs2.astype(numpy.float64)
    if size != 1:
        if size < 1:
            raise ValueError(f"Asked for 0 clusters. Initial book was {guess}")
        _, g2 = _as_rows(obs, guess)
        return _lloyd(obs2, g2 if g2.dtype.kind == "f" else g2.astype(numpy.float64), thresh, squeeze)
    value = guess if isinstance(guess, int) else to_host(guess).reshape(()).item()
    k = int(value)
    if k != value:
        raise ValueError("If k_or_guess is a scalar, it must be an integer.")
    if k < 1:
        raise ValueError(f"Asked for {k} clusters.")
    rng = check_random_state(rng)
    best, best_book, best_avg = numpy.inf, None, None
    for _ in range(iter):
        book, avg = _lloyd(obs2, _kpoints(obs2, k, rng), thresh, squeeze)
        value = float(to_host(avg))
        if value < best:
            best, best_book, best_avg = value, book, avg
    return best_book, best_avg


def _krandinit(data, k, rng):
    """SciPy's Gaussian code book: k draws of N(mean, cov(data)) (through the SVD when d > n)."""
    mu = mean(data, axis=0)
    if data.ndim == 1:
        x = as_parameter(rng.standard_normal(size=k), "kmeans2") * sqrt(cov(data))
    elif data.shape[1] > data.shape[0]:
        # fewer observations than features (a small matrix): LAPACK's SVD on the host, whose signs
        # of the singular vectors SciPy's draw depends on (cuSOLVER may flip them)
        _, s, vh = numpy.linalg.svd(to_host(data - mu), full_matrices=False)
        x = rng.standard_normal(size=(k, s.size)) @ (s[:, None] * vh / numpy.sqrt(data.shape[0] - 1.0))
        x = as_parameter(x, "kmeans2")
    else:
        c = cov(data.T).reshape(data.shape[1], data.shape[1])
        x = as_parameter(rng.standard_normal(size=(k, mu.size)), "kmeans2") @ cholesky(c).T
    return x + mu


def _integer_below(rng, n):
    if isinstance(rng, numpy.random.Generator):
        return int(rng.integers(n, dtype=numpy.int64))
    return int(rng.randint(n, dtype=numpy.int64))


def _kpp(data, k, rng):
    """SciPy's k-means++ (Arthur and Vassilvitskii 2007): each next centre drawn with probability
    proportional to the squared distance to the nearest centre so far (kept as a running minimum
    on the device); one host read a centre (its index)."""
    data2 = data[:, None] if data.ndim == 1 else data
    rows = [_integer_below(rng, data2.shape[0])]
    d2 = None
    for _ in range(1, k):
        diff = data2 - data2[rows[-1]][None, :]
        new = (diff * diff).sum(axis=1, dtype=numpy.float64)
        d2 = new if d2 is None else where(new < d2, new, d2)
        cum = cumsum(d2 / d2.sum())
        r = rng.uniform()
        rows.append(int(to_host(searchsorted(cum, as_parameter(numpy.float64(r), "kmeans2")))))
    init = take(data2, as_parameter(numpy.asarray(rows, dtype=numpy.int64), "kmeans2"), axis=0)
    init = init.astype(numpy.float64)
    return init[:, 0] if data.ndim == 1 else init


_INIT = {"random": _krandinit, "points": _kpoints, "++": _kpp}


@rng_transition("seed")
def kmeans2(data, k, iter=10, thresh=1e-5, minit="random", missing="warn", check_finite=True, *,  # noqa: A002
            rng=None):
    """See `scipy.cluster.vq.kmeans2`. One host read a step (whether a cluster went empty); the
    random initialisations are SciPy's draws in SciPy's order ('++' reads one index a centre), so
    a seed gives SciPy's result. Labels are int32."""
    fn = "scipy.cluster.vq.kmeans2"
    if int(iter) < 1:
        raise ValueError(f"Invalid iter ({iter}), must be a positive integer.")
    if missing not in ("warn", "raise"):
        raise ValueError(f"Unknown missing method {missing!r}")
    data = _checked(data, fn, check_finite)
    book = k if isinstance(k, int) else as_parameter(k, fn)
    if data.ndim not in (1, 2):
        raise ValueError("Input of rank > 2 is not supported.")
    d = 1 if data.ndim == 1 else data.shape[1]
    size = 1 if isinstance(book, int) else book.size
    if data.size < 1 or size < 1:
        raise ValueError("Empty input is not supported.")
    if minit == "matrix" or size > 1:
        if isinstance(book, int) or data.ndim != book.ndim:
            raise ValueError("k array doesn't match data rank")
        nc = book.shape[0]
        if data.ndim > 1 and book.shape[1] != d:
            raise ValueError("k array doesn't match data dimension")
    else:
        value = book if isinstance(book, int) else to_host(book).reshape(()).item()
        nc = int(value)
        if nc < 1:
            raise ValueError(f"Cannot ask kmeans2 for {nc} clusters (k was {value})")
        if nc != value:
            warnings.warn("k was not an integer, was converted.", stacklevel=2)
        if minit not in _INIT:
            raise ValueError(f"Unknown init method {minit!r}")
        book = _INIT[minit](data, nc, check_random_state(rng))
    squeeze = data.ndim == 1
    data2, book2 = (data[:, None], book[:, None]) if squeeze else (data, book)
    dt = data2.dtype if data2.dtype.kind == "f" else numpy.dtype(numpy.float64)
    if check_finite and book2.dtype.kind in "fc" and not bool(to_host(all_(isfinite(book2)))):
        raise ValueError(_FINITE)
    data_dt = data2.astype(dt, copy=False)
    for _ in range(operator.index(int(iter))):
        ct = numpy.result_type(dt, book2.dtype)  # the first step's may be wider (a float64 code book)
        label, _ = _nearest(data2.astype(ct, copy=False), book2.astype(ct, copy=False), False)
        means, has = _means(data_dt, label, nc)
        if not bool(to_host(all_(has))):  # the step's one host read
            if missing == "raise":
                raise ClusterError(_EMPTY)
            warnings.warn(_EMPTY, stacklevel=2)
            means = where(has[:, None], means, book2.astype(dt))
        book2 = means
    return (book2[:, 0] if squeeze else book2), label
