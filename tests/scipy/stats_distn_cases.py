"""The grid both distribution test files use: each distribution's parameters (valid, broadcast,
invalid) and the x values (inside, on the edges of and outside the support, +-inf, NaN), and the
comparison with scipy.stats (SciPy's values, NaNs and infinities where SciPy has them)."""

import functools
import warnings

import numpy as np

CONTINUOUS = {  # name: (valid shape tuples, an invalid shape tuple or None, random x scale)
    "norm": ([()], None), "expon": ([()], None), "uniform": ([()], None), "cauchy": ([()], None),
    "laplace": ([()], None), "logistic": ([()], None), "gumbel_r": ([()], None), "gumbel_l": ([()], None),
    "rayleigh": ([()], None), "lognorm": ([(0.5,), (2.0,)], (-1.0,)),
    "weibull_min": ([(0.7,), (2.5,)], (0.0,)), "weibull_max": ([(0.7,), (2.5,)], (-2.0,)),
    "pareto": ([(0.8,), (5.0,)], (0.0,)), "gamma": ([(0.5,), (3.0,), (300.0,)], (-1.0,)),
    "chi2": ([(1.0,), (7.0,), (300.0,)], (0.0,)), "invgamma": ([(0.5,), (4.5,), (250.0,)], (-0.5,)),
    "beta": ([(0.5, 0.7), (2.0, 5.0)], (1.0, -1.0)), "t": ([(0.8,), (3.0,), (np.inf,), (150.0,)], (0.0,)),
    "f": ([(2.0, 3.0), (7.0, 12.0)], (-1.0, 2.0)),
    # c = 0 (the Gumbel limit), next to 0 (the stats' series branches), 1 (pdf 1 at the edge x = 1),
    # c < -1/2 (no variance)
    "genextreme": ([(0.0,), (0.5,), (-0.3,), (1.0,), (1e-9,), (-0.6,), (2.5,)], (np.inf,)),
    # a = 0 (the normal), either sign, a steep one (the left tail SciPy integrates: a > 0)
    "skewnorm": ([(0.0,), (4.0,), (-3.0,), (0.5,), (25.0,)], (np.nan,)),
    # kappa = 0 (uniform), Hill's series (its length grows with kappa) up to 49, the normal
    # approximation from 50 on (the edge 49.99/50: test_vonmises_array_kappa)
    "vonmises": ([(0.0,), (2.0,), (10.0,), (49.0,), (300.0,)], (-1.0,)),
    # each of SciPy's cases: central (a < 0 < b), both ends left (b <= 0) or right (a > 0), an
    # infinite end, a tail interval on either side
    "truncnorm": ([(0.5, 3.0), (-3.0, -1.0), (-np.inf, 1.5), (2.0, np.inf), (5.0, 6.0), (-6.0, -5.0),
                   (-np.inf, np.inf), (-1.0, 2.0)], (1.0, 1.0)),
}
DISCRETE = {"poisson": ([(0.0,), (0.6,), (14.5,), (2000.0,)], (-1.0,)),
            "binom": ([(10.0, 0.3), (80.0, 0.95), (5.0, 0.0), (7.0, 1.0)], (4.5, 0.5)),
            "geom": ([(0.2,), (1.0,), (1e-4,)], (0.0,)),
            "nbinom": ([(3.5, 0.4), (1.0, 1.0), (0.3, 0.05), (40.0, 0.9), (2.0, 1e-3)], (0.0, 0.5)),
            "hypergeom": ([(20.0, 7.0, 12.0), (5.0, 0.0, 3.0), (9.0, 9.0, 4.0), (40.0, 3.0, 40.0), (60.0, 45.0, 30.0)],
                          (10.0, 4.5, 3.0))}
# the discrete distributions with `entropy` (SciPy sums the pmf for the others: NotImplementedError)
DISCRETE_ENTROPY = ("geom", "hypergeom")


def x_grid(rng, name):
    """Values around the support of the standard distribution, its edges, +-inf and NaN."""
    base = np.concatenate([rng.standard_normal(6) * 3, rng.uniform(0, 1, 4), rng.uniform(1, 40, 4),
                           [-1e300, -50.0, -1.0, -0.0, 0.0, 1e-300, 0.5, 1.0, 1.0 + 1e-12, 50.0, 1e300,
                            -np.inf, np.inf, np.nan]])
    return base


def q_grid(rng):
    return np.concatenate([rng.uniform(0, 1, 8), [0.0, 1.0, 1e-300, 1e-20, 0.5, 1 - 1e-16, 1 - 1e-10,
                                                  -0.1, 1.1, np.nan, np.inf]])


def k_grid(rng):
    return np.concatenate([rng.integers(-3, 40, 10).astype(float), [-np.inf, np.inf, np.nan, 2.5, -0.5, 0.0,
                                                                     1.0, 2100.0, 1900.0]])


def same(got, want, what, rtol=1e-12, atol=0.0):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, (what, got.shape, want.shape)
    assert got.dtype == want.dtype, (what, got.dtype, want.dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if np.ndim(atol):  # a bound per element (`atol`): NumPy's message formats only a scalar one
            ok = np.isclose(got, want, rtol=rtol, atol=atol, equal_nan=True) | (got == want) | np.isposinf(atol)
            bad = np.flatnonzero(~np.broadcast_to(ok, got.shape))
            assert bad.size == 0, (what, [(got.flat[i], want.flat[i], np.broadcast_to(atol, got.shape).flat[i])
                                          for i in bad[:5]])
            return
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, equal_nan=True, err_msg=what)


def cancellation_free(name, method, x, shapes, kw, want):
    """SciPy's value `want`, except pareto's cdf, logcdf and logsf next to its lower edge, which
    SciPy computes from 1 - x**-b and log(x**-b): at x = 1 + 1e-12 one ulp of pow is 1.4e-4 of the
    value, and glibc's, NumPy's and CUDA's pow differ in that ulp (SciPy's cdf was 8.0014e-13 on
    the GPU machine, 8.0003e-13 here; the value is 8.0007e-13). There the oracle is
    -expm1(-b*log(z)) and -b*log(z), free of the cancellation."""
    if name == "skewnorm":
        return skewnorm_tail(method, x, shapes, kw, want)
    if name != "pareto" or method not in ("cdf", "logcdf", "logsf"):
        return want
    b, loc, scale = shapes[0], kw.get("loc", 0.0), kw.get("scale", 1.0)
    with np.errstate(all="ignore"):
        z = (np.asarray(x, np.float64) - loc) / scale
        exact = -np.expm1(-b * np.log(z))
        exact = {"cdf": exact, "logcdf": np.log(exact), "logsf": -b * np.log(z)}[method]
        near = (z > 1) & (z < 1.5) & (b > 0) & (scale > 0)
    return np.where(near, exact, want)


def hypergeom_exact(ref, name, method, k, shapes, kw, want):
    """SciPy's value `want`, except hypergeom's logpmf on a one-point support (below), and its
    cdf, logcdf, sf and logsf at a non-integer k, which SciPy does not floor: its cdf and sf pass
    k to Boost, which answers NaN (a domain error), its logcdf and logsf sum the pmf over
    arange(0, k + 1) or arange(k + 1, N + 1) (at k = 2.5 the first holds 3, the second only
    non-integers). Every other discrete cdf floors k (the cdf is a step function of real k):
    there the oracle is SciPy's value at floor(k)."""
    if name != "hypergeom" or method not in ("cdf", "logcdf", "sf", "logsf", "logpmf"):
        return want
    k = np.asarray(k, np.float64)
    loc = kw.get("loc", 0.0)
    if method == "logpmf":  # a one-point support (n or N is 0 or M): the exact 0 where SciPy's
        M, n, N = shapes    # betaln sum rounds to -4.4e-16 (its pmf, Boost's, is 1)
        one = (np.maximum(N - (M - n), 0) == np.minimum(n, N)) & (k - loc == np.minimum(n, N))
        return np.where(one & ~np.isnan(want), 0.0, want)
    with np.errstate(all="ignore"):
        frac = np.isfinite(k) & (np.floor(k - loc) != k - loc)
        at_floor = getattr(ref, method)(np.floor(k - loc) + loc, *shapes, **kw)
    return np.where(frac, at_floor, want)


def hypergeom_quantile(method, q, shapes, loc):
    """hypergeom's exact quantiles (NaN where q is outside (0, 1), loc or a parameter invalid):
    the smallest k with cdf(k) >= q (ppf) or sf(k) <= q (isf), the cdf summed in integers and
    compared with q as the exact rational it is. Where the exact cdf ties with q (60, 45, 30 is
    symmetric about 22.5: cdf(22) is 1/2) SciPy's Boost sum rounds below it (0.49999999999999994)
    and its ppf(0.5) is 23; the quantile is 22."""
    from fractions import Fraction
    from math import comb

    q, loc, M, n, N = np.broadcast_arrays(*(np.asarray(v, np.float64) for v in (q, loc) + tuple(shapes)))
    out = np.full(q.shape, np.nan)
    for i in np.ndindex(q.shape):
        m_, n_, N_ = M[i], n[i], N[i]
        if not (m_ > 0 and 0 <= n_ <= m_ and 0 <= N_ <= m_ and loc[i] == loc[i] and 0 < q[i] < 1
                and all(v == int(v) for v in (m_, n_, N_))):
            continue
        m_, n_, N_ = int(m_), int(n_), int(N_)
        lo, hi = max(0, N_ - (m_ - n_)), min(n_, N_)
        x, total, cdf = Fraction(float(q[i])), comb(m_, N_), 0
        for k in range(lo, hi + 1):
            cdf += comb(n_, k) * comb(m_ - n_, N_ - k)
            if (Fraction(cdf, total) >= x) if method == "ppf" else (1 - Fraction(cdf, total) <= x):
                break
        out[i] = k + loc[i]
    return out


def quantile_overflows(name, method, q, shapes, kw):
    """Where the q-quantile lies beyond the largest double, so that -inf (ppf) or +inf (isf) is
    the correctly rounded answer: Student's t with df < 1 at q = 1e-300, whose tail beyond
    1.8e308 holds about 1e-247 (the leading term of I_x(df/2, 1/2) as x = df/(df + t**2) -> 0).
    SciPy answers -6e153 there (whose cdf is 3e-124), and its cdf at -1.8e308 underflows to 0, so
    SciPy's own cdf cannot judge it."""
    q = np.asarray(q, np.float64)
    if name != "t":
        return np.zeros(q.shape, bool)
    from scipy.special import betaln

    df, loc, scale = shapes[0], kw.get("loc", 0.0), kw.get("scale", 1.0)
    with np.errstate(all="ignore"):
        log_tail = (np.log(0.5) + df / 2 * np.log(df) - df * np.log(np.finfo(np.float64).max)
                    - np.log(df / 2) - betaln(df / 2, 0.5))
        return (q > 0) & (np.log(q) < log_tail) & (scale >= 1) & np.isfinite(loc)


_EPS = np.finfo(np.float64).eps


def _skewnorm_parts(z, a):
    """Boost's skewnorm cdf Phi(z) - 2 T(z, a), the rounding bound of that difference (8 ulp of
    each term: its absolute error whatever the two functions' implementations), and where SciPy
    replaces it by quad's integral of the pdf (cdf < 1e-6 and a > 0)."""
    from scipy.special import ndtr, owens_t

    with np.errstate(all="ignore"):
        t = 2 * owens_t(z, a)
        boost = ndtr(z) - t
        return boost, 8 * _EPS * (ndtr(z) + np.abs(t)), (boost < 1e-6) & (a > 0)


def _skewnorm_log_integral(z, a):
    """log F(z; a) by quad at epsrel 1e-13 (SciPy's own quad stops at epsabs 1.49e-8, an absolute
    tolerance that bounds nothing of a value below 1e-8: its tail cdf is off by up to 4e-5 of
    the value, e.g. a = 4 at z = -8). The pdf is integrated scaled by exp((1 + a**2) z**2 / 2)
    and in logs (log_ndtr), so that it neither underflows nor flushes Phi(a t) to 0 far out."""
    from scipy.integrate import quad
    from scipy.special import log_ndtr

    z, a = np.broadcast_arrays(np.asarray(z, float), np.asarray(a, float))
    out = np.empty(z.shape)
    for i in np.ndindex(z.shape):
        shift = (1 + a[i] ** 2) * z[i] ** 2 / 2
        if not shift < 1e5:  # log F below -1e5: 0 in any double, -inf in logs
            out[i] = -np.inf
            continue

        def scaled(t, a=a[i], shift=shift):
            return np.exp(np.log(2) - t * t / 2 - 0.5 * np.log(2 * np.pi) + log_ndtr(a * t) + shift)

        out[i] = np.log(quad(scaled, -np.inf, z[i], epsabs=0, epsrel=1e-13, limit=200)[0]) - shift
    return out


def skewnorm_tail(method, x, shapes, kw, want, log=False):
    """SciPy's skewnorm values, except where SciPy integrates the pdf with quad's default
    tolerances (the cdf's left tail for a > 0, the sf's right tail for a < 0): there the same
    integral at epsrel 1e-13 (its log where `log`)."""
    if method not in ("cdf", "logcdf", "sf", "logsf"):
        return want
    if method in ("logcdf", "logsf"):  # the generic log: log F below the median, log1p(-sf) above
        plain = method[3:]
        other = {"cdf": "sf", "sf": "cdf"}[plain]
        with np.errstate(all="ignore"):
            shape = np.broadcast_shapes(np.shape(x), np.shape(shapes[0]), np.shape(kw.get("loc", 0.0)),
                                        np.shape(kw.get("scale", 1.0)))
            mine = skewnorm_tail(plain, x, shapes, kw, np.full(shape, np.nan), log=True)
            theirs = skewnorm_tail(other, x, shapes, kw, np.full(shape, np.nan))
            return np.where(~np.isnan(mine), mine, np.where(np.isfinite(theirs), np.log1p(-theirs), want))
    a, loc, scale = shapes[0], kw.get("loc", 0.0), kw.get("scale", 1.0)
    with np.errstate(all="ignore"):
        z = (np.asarray(x, np.float64) - loc) / scale
        z, a, scale = np.broadcast_arrays(z, np.asarray(a, float), np.asarray(scale, float))
        if method == "sf":  # sf(z, a) is cdf(-z, -a), as SciPy's
            z, a = -z, -a
        _, _, quad_used = _skewnorm_parts(z, a)
        quad_used = quad_used & np.isfinite(z) & (scale > 0) & np.isfinite(a)
        if not quad_used.any():
            return want
        value = np.full(z.shape, -np.inf)
        value[quad_used] = _skewnorm_log_integral(z[quad_used], np.broadcast_to(a, z.shape)[quad_used])
    return np.where(quad_used, value if log else np.exp(value), want)


_TINY = np.finfo(np.float64).tiny
_SUB = 2.0 ** -1074


# vonmises' cdf below kappa = 50 (SciPy's, Hill's algorithm) is 0.5 + x / 2 pi + V / pi with V
# from up to 52 steps of a rotation and a backward recurrence, each adding about an ulp of 1: an
# absolute rounding whatever the value (16 eps at most against a long-double evaluation of the
# same steps over kappa < 50; two double evaluations differ by twice that), so that its tails are
# known to this absolute bound only, in SciPy as here. From 50 on it is ndtr's: relative.
VONMISES_CDF_ATOL = 64 * _EPS
# and Hill's truncation: "12 decimal digits" (SciPy's comment; at most 1.8e-13 against quad of the
# pdf over kappa < 50), the accuracy to which its cdf can judge a quantile
VONMISES_CDF_ACCURACY = 1e-12


def _vonmises_atol(method, kappa, got, want):
    """The absolute bound of vonmises' cdf family below kappa = 50: VONMISES_CDF_ATOL, in log
    space over the value (log F has the absolute error dF / F), any where both values are below
    that bound's log; 1e-300 (the cdf relative) from kappa = 50 on."""
    series = np.asarray(kappa, np.float64) < 50
    if method in ("cdf", "sf"):
        return np.where(series, VONMISES_CDF_ATOL, 1e-300)
    with np.errstate(all="ignore"):
        value = np.exp(np.asarray(want, np.float64))
        bound = np.where(value > 0, VONMISES_CDF_ATOL / value, np.inf)
        floor = np.log(VONMISES_CDF_ATOL)
        both_tiny = (np.asarray(got) <= floor) & (np.asarray(want) <= floor)
        bound = np.where(both_tiny | ~(bound < np.inf), np.inf, np.maximum(bound, 1e-300))
    return np.where(series, bound, 1e-300)


def vonmises_root(method, q, got, shapes, kw, rtol):
    """Where `got` is vonmises' q-quantile by its backward error: SciPy's cdf at it equal to q
    (ppf) or to 1 - q (isf: SciPy's is ppf(1 - q)) within rtol and the cdf's accuracy
    (VONMISES_CDF_ACCURACY). SciPy's root is brentq's at xtol 1e-14 on that cdf, whose error
    moves the root by 1e-13 / pdf (in the tails of kappa = 49 the cdf is not even monotone
    below 1e-13): next to q = 1/2 (a root next to 0) and in the tails neither root is the
    other's to rtol 1e-12."""
    import scipy.stats as sst

    q = np.asarray(q, np.float64)
    target = q if method == "ppf" else 1.0 - q
    with np.errstate(all="ignore"):
        cdf = sst.vonmises.cdf(got, shapes[0], loc=kw.get("loc", 0.0), scale=kw.get("scale", 1.0))
        return (np.abs(cdf - target) <= rtol * target + VONMISES_CDF_ACCURACY) & np.isfinite(got) & (q > 0) & (q < 1)


def atol(name, method, x, shapes, kw, got=None, want=None):
    """1e-300, except for skewnorm's cdf family where Boost's Phi(z) - 2 T(z, a) cancels (a > 0
    left of the median, a < 0 right of it, down to 1e-6): there the difference's rounding bound
    (`_skewnorm_parts`), SciPy's value being as uncertain as ours; in log space that bound over
    the value (log F has the absolute error dF / F), and for a value among the subnormals the
    log of its spacing: 4 * 2**-1074 / F (log(4.5e-322) is known to 1e-2; where F rounds to 0
    on one side and to the smallest subnormals on the other, -inf and a log below
    log(2**-1070) agree). vonmises': `_vonmises_atol`."""
    if name == "vonmises" and method in ("cdf", "logcdf", "sf", "logsf"):
        return _vonmises_atol(method, np.broadcast_to(shapes[0], np.shape(want)), got, want)
    if name != "skewnorm" or method not in ("cdf", "logcdf", "sf", "logsf"):
        return 1e-300
    if method in ("logcdf", "logsf") and want is not None:
        bound = atol(name, method, x, shapes, kw)
        with np.errstate(all="ignore"):
            floor = np.log(16 * _SUB)
            value = np.exp(np.maximum(want, np.log(_SUB)))
            bound = np.where(value < _TINY, np.maximum(bound, 4 * _SUB / value), bound)
            both_tiny = (np.asarray(got) <= floor) & (np.asarray(want) <= floor)
        return np.where(both_tiny, np.inf, bound)
    a, loc, scale = shapes[0], kw.get("loc", 0.0), kw.get("scale", 1.0)
    with np.errstate(all="ignore"):
        z = (np.asarray(x, np.float64) - loc) / scale
        z, a = np.broadcast_arrays(z, np.asarray(a, float))
        lower = method in ("cdf", "logcdf")
        value, bound, quad_used = _skewnorm_parts(z if lower else -z, a if lower else -a)
        bound = np.where(quad_used | ~np.isfinite(bound), 0.0, bound)
        if method in ("logcdf", "logsf"):
            _, other, _ = _skewnorm_parts(-z if lower else z, -a if lower else a)
            # the generic log: log F below the median (dF / F), log1p(-other side) above it
            bound = np.where(value < 0.5, bound / value, np.where(np.isfinite(other), other, 0.0) / value)
        return np.maximum(np.nan_to_num(bound, nan=0.0, posinf=0.0), 1e-300)


def skewnorm_root(method, q, got, shapes, kw, rtol):
    """Where `got` is skewnorm's q-quantile by its backward error: F(got) (ppf, q <= 1/2) or
    sf(got) (ppf, q > 1/2, with 1 - q, exact there) equal to it within rtol plus the cdf's own
    rounding bound, F by `skewnorm_tail` where SciPy integrates. SciPy's quantile is Boost's
    Newton on F - q: next to q = 1 F - q cancels (ppf(1 - 1e-10, 0.5) moves by 1e-8 of itself
    per ulp of F), and in the tails it iterates on Boost's cancelling cdf (skewnorm.ppf(1e-20,
    4) is -4.197, whose cdf is below 1e-30), so SciPy's value is no oracle there; the root is."""
    import scipy.stats as sst

    q = np.asarray(q, np.float64)
    a, loc, scale = shapes[0], kw.get("loc", 0.0), kw.get("scale", 1.0)
    lower_tail = (q <= 0.5) if method == "ppf" else (q >= 0.5)
    p = np.where(q <= 0.5, q, 1.0 - q)
    with np.errstate(all="ignore"):
        cdf = skewnorm_tail("cdf", got, shapes, kw, sst.skewnorm.cdf(got, a, loc=loc, scale=scale))
        sf = skewnorm_tail("sf", got, shapes, kw, sst.skewnorm.sf(got, a, loc=loc, scale=scale))
        side = np.where(lower_tail, cdf, sf)
        bound = np.where(lower_tail, atol("skewnorm", "cdf", got, shapes, kw), atol("skewnorm", "sf", got, shapes, kw))
        return (np.abs(side - p) <= rtol * p + bound) & np.isfinite(got) & (p > 0)


# genextreme's moments from log Gamma's series below this |c| (2c = 0.2: its terms to c**24
# reach (2c)**25 / 25, 1e-19)
GENEXTREME_SERIES = 0.1


def genextreme_moments(shapes, kw, mean, var):
    """genextreme's (mean, variance) as SciPy's, except for |c| < `GENEXTREME_SERIES`, where
    SciPy's expm1(gammaln(1 + c)) / c keeps the rounding of 1 + c (eps / c of the value: its
    mean at c = 1e-9 is 0.57721571267, 8e-8 off), its variance's gammaln(1 + 2c) - 2 gammaln(1 + c)
    that of 1 + 2c (eps / (zeta(2) c**2): 1.3e-12 of it at c = 0.011) and it takes the c = 0
    limit below 1e-7: there both from log Gamma's Taylor series (A&S 6.1.33, scipy.special.zeta's
    coefficients to c**24, summed in Fractions): mean = -(Gamma(1 + c) - 1) / c,
    var = Gamma(1 + c)**2 (exp(S) - 1) / c**2 with S = log Gamma(1 + 2c) - 2 log Gamma(1 + c)."""
    from fractions import Fraction
    from scipy.special import zeta

    c, loc, scale = np.broadcast_arrays(*(np.asarray(v, np.float64) for v in (shapes[0], kw.get("loc", 0.0),
                                                                               kw.get("scale", 1.0))))
    mean, var = np.array(np.broadcast_to(mean, c.shape)), np.array(np.broadcast_to(var, c.shape))
    coef = [Fraction(-0.5772156649015329)] + [Fraction(float(zeta(k))) * (-1) ** k / k for k in range(2, 25)]

    def exp_m1(x, terms):
        return sum(x ** j / Fraction(np.prod(range(1, j + 1), dtype=object)) for j in range(1, terms + 1))

    for i in np.ndindex(c.shape):
        x = float(c[i])
        if not (abs(x) < GENEXTREME_SERIES and scale[i] > 0 and loc[i] == loc[i]):
            continue
        # the terms up to |c|**n below 1e-40 of the first (the series' terms fall as |c|**k)
        terms = 1 if x == 0 else min(len(coef), int(np.ceil(40 / -np.log10(abs(x)))) + 1)
        x = Fraction(x)
        lg1 = sum(a * x ** (k + 1) for k, a in enumerate(coef[:terms]))
        s_ = sum(a * ((2 * x) ** (k + 1) - 2 * x ** (k + 1)) for k, a in enumerate(coef[:terms]))
        g1 = 1 + exp_m1(lg1, terms)
        m = -exp_m1(lg1, terms) / x if x else -coef[0]
        v = g1 * g1 * exp_m1(s_, terms) / (x * x) if x else Fraction(float(zeta(2)))
        mean[i] = float(m * Fraction(float(scale[i])) + Fraction(float(loc[i])))
        var[i] = float(v * Fraction(float(scale[i])) ** 2)
    return mean, var


@functools.lru_cache(maxsize=64)
def _vonmises_even_moments(k):
    from scipy.integrate import quad
    from scipy.special import cosm1

    half = np.pi if k <= (40 / np.pi) ** 2 else 40 / np.sqrt(k)
    m = [quad(lambda x, n=n: x ** n * np.exp(k * cosm1(x)), 0, half, epsabs=0, epsrel=1e-13, limit=200)[0]
         for n in (0, 2, 4)]
    return m[1] / m[0], m[2] / m[0]


def vonmises_moments(shapes, kw):
    """vonmises' (mean, variance, skewness, excess kurtosis): loc, E[X**2] scale**2, 0 and
    E[X**4] / E[X**2]**2 - 3 with E[X**n] over [-pi, pi] by quad at epsrel 1e-13 over [0, L]
    (L = min(pi, 40 / sqrt(kappa)): the mass beyond is below exp(-800)); NaN for invalid
    parameters (kappa < 0, scale <= 0, a NaN). SciPy integrates ppf(q)**n over q with quad
    (its stats take seconds, a brentq per point): its variance is off by 1e-7 at kappa = 10,
    its mean and skewness are 1e-16 instead of 0."""
    kappa, loc, scale = np.broadcast_arrays(*(np.asarray(v, np.float64) for v in (shapes[0], kw.get("loc", 0.0),
                                                                                   kw.get("scale", 1.0))))
    outs = [np.full(kappa.shape, np.nan) for _ in range(4)]
    for i in np.ndindex(kappa.shape):
        k = float(kappa[i])
        if not (k >= 0 and scale[i] > 0 and loc[i] == loc[i]):
            continue
        e2, e4 = _vonmises_even_moments(k)
        outs[0][i], outs[1][i], outs[2][i], outs[3][i] = loc[i], e2 * scale[i] ** 2, 0.0, e4 / e2 ** 2 - 3
    return tuple(outs)


def moments_exact(name, method, shapes, kw, scipy_value):
    """SciPy's `method` ("mean", "var", "std" or "stats" (a tuple, mean and variance first):
    `scipy_value()`), except genextreme's next to c = 0 (`genextreme_moments`) and vonmises'
    (`vonmises_moments`, without calling SciPy's)."""
    if name == "vonmises" and method in ("mean", "var", "std", "stats"):
        m, v, sk, ku = (np.asarray(a)[()] for a in vonmises_moments(shapes, kw))
        return {"stats": (m, v, sk, ku), "mean": m, "var": v, "std": np.sqrt(v)}[method]
    want = scipy_value()
    if method not in ("mean", "var", "std", "stats") or name != "genextreme":
        return want
    if method == "stats":
        m, v = genextreme_moments(shapes, kw, want[0], want[1])
        return (m, v) + tuple(want[2:])
    if method == "mean":
        return genextreme_moments(shapes, kw, want, want)[0]
    v = genextreme_moments(shapes, kw, want, want if method == "var" else np.square(want))[1]
    return v if method == "var" else np.sqrt(v)


def truncnorm_root(method, q, got, want, shapes, kw):
    """Where `got` is truncnorm's q-quantile at least as well as SciPy's `want` (to 1e-12) by
    SciPy's log-space cdf and sf (accurate in both tails): the larger of |logcdf(x) - log q| and
    |logsf(x) - log1p(-q)| (ppf; isf with the two sides swapped). SciPy's isf subtracts (1 - q)
    mass from Phi(-a) where b >= 0, all rounding for q below eps (its isf(1e-300, 2, inf) is
    8.64: the quantile is 37.15), and its log|e**p - e**q| loses eps / (p - q) of itself."""
    import scipy.stats as sst

    q = np.asarray(q, np.float64)
    kw = dict(loc=kw.get("loc", 0.0), scale=kw.get("scale", 1.0))
    lower, upper = ("logcdf", "logsf") if method == "ppf" else ("logsf", "logcdf")
    with np.errstate(all="ignore"):
        def err(x):
            e = np.maximum(np.abs(getattr(sst.truncnorm, lower)(x, *shapes, **kw) - np.log(q)),
                           np.abs(getattr(sst.truncnorm, upper)(x, *shapes, **kw) - np.log1p(-q)))
            return np.where(np.isnan(e), np.inf, e)
        return (err(got) <= err(want) + 1e-12) & np.isfinite(got) & (q > 0) & (q < 1)


def stats_rtol(name, shapes, rtol):
    """(mean, var, skew, kurtosis) tolerances: `rtol`, except truncnorm's from SciPy's moment
    recurrences, which cancel on a tail interval (truncnorm(5, 6)'s kurtosis moves by 7e-10 of
    itself when the pdf at an end moves by 2 ulp): there twice the change that 8 ulp of the
    end pdfs (the device's log_ndtr and exp to a few ulp) make of each moment."""
    if name != "truncnorm":
        return (rtol,) * 4
    import scipy.stats as sst

    a, b = (np.asarray(s, np.float64) for s in shapes)
    with np.errstate(all="ignore"):
        p_a = np.where(np.isfinite(a), sst.truncnorm.pdf(a, a, b), 0.0)
        p_b = np.where(np.isfinite(b), sst.truncnorm.pdf(b, a, b), 0.0)

        def moments(pa, pb):
            ta, tb = np.where(pa != 0, a, 0.0), np.where(pb != 0, b, 0.0)
            m1 = pa - pb
            m2, mu2 = 1 + pa * ta - pb * tb, 1 + pa * (ta - m1) - pb * (tb - m1)
            m3, m4 = 2 * m1 + pa * ta ** 2 - pb * tb ** 2, 3 * (1 + pa * ta - pb * tb) + pa * ta ** 3 - pb * tb ** 3
            mu3, mu4 = m3 + m1 * (-3 * m2 + 2 * m1 ** 2), m4 + m1 * (-4 * m3 + 3 * m1 * (2 * m2 - m1 ** 2))
            return np.array([m1, mu2, mu3 / mu2 ** 1.5, mu4 / mu2 ** 2 - 3])

        base, worst = moments(p_a, p_b), 0.0
        for da, db in ((1, 0), (0, 1), (1, 1), (1, -1)):
            moved = moments(p_a * (1 + 8 * _EPS * da), p_b * (1 + 8 * _EPS * db))
            worst = np.maximum(worst, np.nan_to_num(np.abs(moved - base) / np.abs(base), nan=0.0, posinf=0.0))
    return tuple(np.max(np.maximum(rtol, 2 * w)) for w in worst)


# truncnorm's far tails: (a, b) with infinite ends, tail intervals and a central one; q next to 0
# and next to 1 (1 - q exact), where Phi(x) next to 1 keeps only an absolute eps of its log
TRUNCNORM_TAILS = ((-np.inf, 1.5), (-1.5, np.inf), (-np.inf, np.inf), (2.0, np.inf), (-np.inf, -2.0), (-1.0, 2.0))
TAIL_Q = np.array([1e-300, 1e-100, 1e-20, 2.0 ** -53, 1e-10, 0.25, 1 - 1e-10, 1 - 2.0 ** -40, 1 - 2.0 ** -53])


def truncnorm_quantile(method, q, a, b):
    """truncnorm's standard q-quantile (ppf) or (1 - q)-quantile (isf) by bisection of SciPy's
    log-space cdf and sf (differences of log_ndtr masses, no subtraction from 1): logcdf(x) =
    log q where that tail holds at most half, else logsf(x) = log1p(-q) (the sides swapped for
    isf). Near a finite end the masses cancel, but only as far as eps of x itself."""
    import scipy.stats as sst

    q, a, b = np.broadcast_arrays(*(np.asarray(v, np.float64) for v in (q, a, b)))
    low = (q <= 0.5) == (method == "ppf")
    target = np.where(q <= 0.5, np.log(q), np.log1p(-q))
    lo, hi = np.maximum(a, -40.0), np.minimum(b, 40.0)
    with np.errstate(all="ignore"):
        while True:  # from 80 wide to adjacent doubles: under 70 halvings
            mid = lo + (hi - lo) / 2
            if np.all((mid == lo) | (mid == hi)):
                return mid
            below = np.where(low, sst.truncnorm.logcdf(mid, a, b) < target,
                             sst.truncnorm.logsf(mid, a, b) > target)
            lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
