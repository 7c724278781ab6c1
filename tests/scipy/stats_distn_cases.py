"""The grid both distribution test files use: each distribution's parameters (valid, broadcast,
invalid) and the x values (inside, on the edges of and outside the support, +-inf, NaN), and the
comparison with scipy.stats (SciPy's values, NaNs and infinities where SciPy has them)."""

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
}
DISCRETE = {"poisson": ([(0.0,), (0.6,), (14.5,), (2000.0,)], (-1.0,)),
            "binom": ([(10.0, 0.3), (80.0, 0.95), (5.0, 0.0), (7.0, 1.0)], (4.5, 0.5)),
            "geom": ([(0.2,), (1.0,), (1e-4,)], (0.0,))}


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
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, equal_nan=True, err_msg=what)


def cancellation_free(name, method, x, shapes, kw, want):
    """SciPy's value `want`, except pareto's cdf, logcdf and logsf next to its lower edge, which
    SciPy computes from 1 - x**-b and log(x**-b): at x = 1 + 1e-12 one ulp of pow is 1.4e-4 of the
    value, and glibc's, NumPy's and CUDA's pow differ in that ulp (SciPy's cdf was 8.0014e-13 on
    the GPU machine, 8.0003e-13 here; the value is 8.0007e-13). There the oracle is
    -expm1(-b*log(z)) and -b*log(z), free of the cancellation."""
    if name != "pareto" or method not in ("cdf", "logcdf", "logsf"):
        return want
    b, loc, scale = shapes[0], kw.get("loc", 0.0), kw.get("scale", 1.0)
    with np.errstate(all="ignore"):
        z = (np.asarray(x, np.float64) - loc) / scale
        exact = -np.expm1(-b * np.log(z))
        exact = {"cdf": exact, "logcdf": np.log(exact), "logsf": -b * np.log(z)}[method]
        near = (z > 1) & (z < 1.5) & (b > 0) & (scale > 0)
    return np.where(near, exact, want)


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
