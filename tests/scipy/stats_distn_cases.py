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
