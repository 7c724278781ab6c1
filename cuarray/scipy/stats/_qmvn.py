"""The multivariate normal's box probability as SciPy computes it (scipy/stats/_qmvnt.py, after
A. Genz's MATLAB codes): one dimension by ndtr, two by the bivariate normal's closed form, three
and more by Genz's randomised lattice QMC over the separation-of-variables integrand (Genz,
"Numerical computation of multivariate normal probabilities", J. Comput. Graph. Stat. 1992),
rerun with sqrt(2) more points until 3 standard errors of the 10 shifted batches are under the
tolerance. Here every point of a batch of boxes runs together on the device: the variable
reordering (each box its own), the lattice sums and the stopping rule, with one read of the
largest remaining error per round. The lattice generator (Nuyens and Cools' fast CBC) is a few
numbers made on the host."""

from __future__ import annotations

import math

import numpy

from ..._creation.basic import zeros
from ..._creation.ranges import arange
from ..._indexing.inserting import take_along_axis
from ..._logic.truth import any as any_
from ..._manipulation.dims import expand_dims
from ..._manipulation.joining import stack
from ..._math.explog import exp
from ..._math.extrema import maximum, minimum
from ..._math.misc import absolute, sqrt
from ..._math.rounding import floor
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from ..._sorting.searching_reduce import argmin
from ..._core.transfer import to_host
from ..special._stats import ndtr, ndtri, owens_t

_TOL = 1e-10  # SciPy's singularity tolerance of the reordered Cholesky factor
_BATCHES = 10
_TINY = float(numpy.finfo(numpy.float64).smallest_subnormal)
_BELOW_ONE = float(numpy.nextafter(1.0, 0.0))


def _primes_upto(n):
    """The primes <= n (a sieve on the host)."""
    sieve = numpy.ones(n + 1, dtype=bool)
    sieve[:2] = False
    for p in range(2, int(math.isqrt(n)) + 1):
        if sieve[p]:
            sieve[p * p::p] = False
    return numpy.flatnonzero(sieve)


def _primitive_root(p):
    """The smallest primitive root of the prime p."""
    pm = p - 1
    factors = [f for f in _primes_upto(int(math.isqrt(pm)) + 1) if pm % f == 0]
    rest = pm
    for f in factors:
        while rest % f == 0:
            rest //= f
    if rest > 1:
        factors.append(rest)
    r = 2
    while any(pow(r, pm // int(f), p) == 1 for f in factors):
        r += 1
    return r


def cbc_lattice(n_dim, n_samples):
    """(generator vector in (0, 1), the prime number of points <= n_samples): Nuyens and Cools'
    fast component-by-component construction with SciPy's weights (product weights 0.8^j)."""
    p = int(_primes_upto(n_samples)[-1])
    z = numpy.arange(1, n_dim + 1)
    m = (p - 1) // 2
    g = _primitive_root(p)
    perm = numpy.ones(m, dtype=numpy.int64)
    for j in range(m - 1):
        perm[j + 1] = (g * perm[j]) % p
    perm = numpy.minimum(p - perm, perm)
    pn = perm / p
    c = pn * pn - pn + 1.0 / 6
    fc = numpy.fft.fft(c)
    gm = numpy.hstack([1.0, 0.8 ** numpy.arange(n_dim - 1)])
    q, w = 1, 0
    for s in range(1, n_dim):
        q = q * (1.0 + gm[s - 1] * numpy.hstack([c[:w + 1][::-1], c[w + 1:m][::-1]]))
        w = numpy.fft.ifft(fc * numpy.fft.fft(q)).real.argmin()
        z[s] = perm[w]
    return z / p, p


def _col(a, idx):
    """a[p, idx[p]] for each row p."""
    return take_along_axis(a, expand_dims(idx, 1), axis=1)[:, 0]


def permuted_cholesky(cov, lo, hi):
    """SciPy's _permuted_cholesky for each box (rows of lo, hi) at once: the covariance scaled
    to unit diagonal, then a Cholesky factor whose next variable is, box by box, the one of
    least conditional probability (the last of equal ones, as SciPy's scan), rows scaled to a
    unit diagonal with the bounds. Returns (factor (P, n, n), lo, hi)."""
    n = cov.shape[0]
    dc = sqrt(maximum(stack([cov[i, i] for i in range(n)]), 0.0))
    dc = where(dc == 0.0, 1.0, dc)
    lo, hi = lo / dc, hi / dc
    a = expand_dims(cov / dc / expand_dims(dc, 1), 0) + zeros((lo.shape[0], 1, 1))  # one per box
    cho = zeros(a.shape)
    y = zeros(lo.shape)
    rows = arange(n)
    for k in range(n):
        s = sum_(cho[:, k:, :k] * expand_dims(y[:, :k], 1), axis=-1)
        dg = stack([a[:, i, i] for i in range(k, n)], axis=1)
        ok = dg > _TOL
        ci = sqrt(where(ok, dg, 1.0))
        lo_i, hi_i = (lo[:, k:] - s) / ci, (hi[:, k:] - s) / ci
        de = ndtr(hi_i) - ndtr(lo_i)
        cand = where(ok & (de <= 1.0), de, numpy.inf)
        j = (n - 1 - k) - argmin(cand[:, ::-1], axis=1)  # the last of equal minima
        found = _col(cand, j) < numpy.inf
        im = where(found, j + k, k)
        j = im - k
        ck = where(found, _col(ci, j), 0.0)
        dem = where(found, _col(de, j), 1.0)
        lo_m, hi_m = where(found, _col(lo_i, j), 0.0), where(found, _col(hi_i, j), 0.0)
        perm = where(rows == k, expand_dims(im, 1), where(rows == expand_dims(im, 1), k, rows))
        cho = take_along_axis(cho, expand_dims(perm, 2), axis=1)
        a = take_along_axis(take_along_axis(a, expand_dims(perm, 2), axis=1), expand_dims(perm, 1), axis=2)
        lo, hi = take_along_axis(lo, perm, axis=1), take_along_axis(hi, perm, axis=1)
        good = ck > (k + 1) * _TOL
        ckk = where(good, ck, 1.0)
        col = where(rows > k, a[:, :, k] / expand_dims(ckk, 1), where(rows == k, expand_dims(ck, 1), 0.0))
        col = where(expand_dims(good, 1), col, 0.0)
        cho[:, :, k] = col
        a = a - expand_dims(col, 2) * expand_dims(col, 1)
        sqtp = math.sqrt(2 * math.pi)
        small = absolute(dem) <= _TOL
        mid = where(lo_m < -10, hi_m, where(hi_m > 10, lo_m, (lo_m + hi_m) / 2))
        yk = where(small, mid, (exp(-lo_m * lo_m / 2) - exp(-hi_m * hi_m / 2)) / (sqtp * where(small, 1.0, dem)))
        y[:, k] = where(good, yk, (lo[:, k] + hi[:, k]) / 2)
        cho[:, k, :k + 1] = cho[:, k, :k + 1] / expand_dims(ckk, 1)
        lo[:, k] = lo[:, k] / ckk
        hi[:, k] = hi[:, k] / ckk
    return cho, lo, hi


def _qmvn(m, cho, lo, hi, rng):
    """One lattice rule of about m points (10 randomly shifted copies) for every box:
    (estimates, 3 standard errors of the batch means, points used), SciPy's _qmvn_inner."""
    n = cho.shape[1]
    q, n_qmc = cbc_lattice(n - 1, max(m // _BATCHES, 1))
    return qmvn_inner(q, rng.random(size=(lo.shape[0], _BATCHES, n)), n_qmc, cho, lo, hi)


def qmvn_inner(q, rndm, n_qmc, cho, lo, hi):
    """The lattice sums of SciPy's _qmvn_inner for every box: rndm (P, 10, n) the shifts."""
    n = cho.shape[1]
    ct = cho[:, 0, 0]
    ci = ndtr(lo[:, 0] / ct)
    dci = ndtr(hi[:, 0] / ct) - ci
    prob = zeros(lo.shape[0])
    error_var = zeros(lo.shape[0])
    i_samples = arange(1, n_qmc + 1, dtype=numpy.float64)
    for j in range(_BATCHES):
        c, dc = expand_dims(ci, 1), expand_dims(dci, 1)
        pv = dc
        ys = []
        for i in range(1, n):
            z = float(q[i - 1]) * i_samples + rndm[:, j, i:i + 1]  # SciPy shifts by column i
            x = absolute(2 * (z - floor(z)) - 1)  # the tent periodisation of the shifted lattice
            # into [tiny, 1 - 2^-53]: the same as SciPy's inside (0, 1), and a finite y where
            # c + x dc rounds onto or past an end (ndtri's inf, then 0 * inf, would make it NaN)
            ys.append(ndtri(minimum(maximum(c + x * dc, _TINY), _BELOW_ONE)))
            s = expand_dims(cho[:, i, 0], 1) * ys[0]
            for t in range(1, i):
                s = s + expand_dims(cho[:, i, t], 1) * ys[t]
            ct = expand_dims(cho[:, i, i], 1)
            c = ndtr((lo[:, i:i + 1] - s) / ct)
            dc = ndtr((hi[:, i:i + 1] - s) / ct) - c
            pv = pv * dc
        d = (sum_(pv, axis=-1) / n_qmc - prob) / (j + 1)
        prob = prob + d
        error_var = (j - 1) * error_var / (j + 1) + d * d
    return prob, 3 * sqrt(error_var), n_qmc * _BATCHES


def qauto(cov, lo, hi, rng, error, limit):
    """SciPy's _qauto for every box (rows of lo, hi; n >= 3): reruns with sqrt(2) more points,
    each box's running estimate weighted by its error, until every error is <= `error` or more
    than `limit` points were used. One read of the largest error per round."""
    n = cov.shape[0]
    cho, lo, hi = permuted_cholesky(cov, lo, hi)
    mi = min(limit, n * 1000)
    prob = zeros(lo.shape[0])
    est_error = prob + 1.0
    n_samples = 0
    active = est_error > error
    while n_samples < limit:
        mi = round(math.sqrt(2) * mi)
        pi, ei, ni = _qmvn(mi, cho, lo, hi, rng)
        n_samples += ni
        wt = 1.0 / (1 + (ei / est_error) ** 2)
        prob = where(active, prob + wt * (pi - prob), prob)
        est_error = where(active, sqrt(wt) * ei, est_error)
        active = est_error > error
        if not bool(to_host(any_(active))):  # the round's one read
            break
    return prob


def bvn_upper(h, k, r):
    """P(X > h, Y > k) of standard normals of correlation r (SciPy's _bivariate_normal_cdf) by
    Owen's T: Phi2(H, K) = (Phi(H) + Phi(K)) / 2 - T(H, aH) - T(K, aK) - [HK < 0 or HK = 0 > H + K] / 2
    at H = -h, K = -k (Owen 1956), infinite limits by the marginals."""
    hh, kk = 0.0 - h, 0.0 - k  # +0.0 for a zero: the sign picks T(0, +-inf)
    sq = sqrt((1 - r) * (1 + r))
    zero = (hh == 0.0) & (kk == 0.0)
    safe_h, safe_k = where(hh == 0.0, 1.0, hh), where(kk == 0.0, 1.0, kk)
    inf_h = where(kk - r * hh >= 0, numpy.inf, -numpy.inf)
    inf_k = where(hh - r * kk >= 0, numpy.inf, -numpy.inf)
    a0 = sqrt((1 - r) / where(r == -1.0, 1.0, 1 + r))
    a0 = where(r == -1.0, numpy.inf, a0)
    ah = where(zero, a0, where(hh == 0.0, inf_h, (kk - r * hh) / (safe_h * sq)))
    ak = where(zero, a0, where(kk == 0.0, inf_k, (hh - r * kk) / (safe_k * sq)))
    beta = (hh * kk < 0) | ((hh * kk == 0) & (hh + kk < 0))
    p = 0.5 * ndtr(hh) + 0.5 * ndtr(kk) - owens_t(hh, ah) - owens_t(kk, ak) - where(beta, 0.5, 0.0)
    p = where(h == -numpy.inf, ndtr(kk), where(k == -numpy.inf, ndtr(hh), p))
    return where((h == numpy.inf) | (k == numpy.inf), 0.0, p)


def bvn(lo, hi, cov):
    """SciPy's _bvn for every box: P(lo < X < hi) in two dimensions, clipped to [0, 1]."""
    s1, s2 = sqrt(cov[0, 0]), sqrt(cov[1, 1])
    r = cov[0, 1] / (s1 * s2)
    xl, xu, yl, yu = lo[:, 0] / s1, hi[:, 0] / s1, lo[:, 1] / s2, hi[:, 1] / s2
    p = bvn_upper(xl, yl, r) - bvn_upper(xu, yl, r) - bvn_upper(xl, yu, r) + bvn_upper(xu, yu, r)
    return maximum(0.0, minimum(p, 1.0))
