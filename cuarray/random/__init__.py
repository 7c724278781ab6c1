"""cuarray.random: NumPy's random API on the GPU (see docs/random.md).

`default_rng` / `Generator` over a counter-based Philox4x32-10 bit generator, and the legacy
`RandomState` API with its module-level functions (which use one global RandomState). Streams are
reproducible on every GPU and launch configuration, and not bit-identical to NumPy's.
"""

from __future__ import annotations

from ._bit_generator import BitGenerator as BitGenerator
from ._bit_generator import Philox as Philox
from ._bit_generator import MRG32k3a as MRG32k3a
from ._bit_generator import Philox4x3210 as Philox4x3210
from ._bit_generator import XORWOW as XORWOW
from ._bit_generator import SeedSequence as SeedSequence
from ._generator import Generator as Generator
from ._generator import default_rng as default_rng
from ._legacy import RandomState as RandomState
from ._legacy import get_random_state as get_random_state
from ._legacy import set_random_state as set_random_state
from ._legacy import seed as seed


# The legacy module-level functions: each calls the method of the global RandomState.


def random_sample(size=None, dtype=float):
    """See `numpy.random.random_sample` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.random.random_sample(5)
    >>> x.shape, bool(((x >= 0) & (x < 1)).all())
    ((5,), True)
    """
    return get_random_state().random_sample(size, dtype=dtype)


def random(size=None):
    """See `numpy.random.random` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.random.random((2, 3))
    >>> x.shape, bool(((x >= 0) & (x < 1)).all())
    ((2, 3), True)
    """
    return get_random_state().random(size)


def ranf(size=None):
    """See `numpy.random.ranf` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.random.ranf(5)
    >>> x.shape, bool(((x >= 0) & (x < 1)).all())
    ((5,), True)
    """
    return get_random_state().ranf(size)


def sample(size=None):
    """See `numpy.random.sample` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.random.sample(5)
    >>> x.shape, bool(((x >= 0) & (x < 1)).all())
    ((5,), True)
    """
    return get_random_state().sample(size)


def rand(*args, dtype=float):
    """See `numpy.random.rand` (global RandomState); `dtype` as CuPy's.

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.random.rand(2, 3)
    >>> x.shape, x.dtype, bool(((x >= 0) & (x < 1)).all())
    ((2, 3), dtype('float64'), True)
    """
    return get_random_state().rand(*args, dtype=dtype)


def randn(*args, dtype=float):
    """See `numpy.random.randn` (global RandomState); `dtype` as CuPy's.

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.random.randn(2, 3)
    >>> x.shape, x.dtype
    ((2, 3), dtype('float64'))
    """
    return get_random_state().randn(*args, dtype=dtype)


def randint(low, high=None, size=None, dtype=int):
    """See `numpy.random.randint` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.random.randint(0, 10, size=(2, 5))
    >>> x.shape, x.dtype, bool(((x >= 0) & (x < 10)).all())
    ((2, 5), dtype('int64'), True)
    """
    return get_random_state().randint(low, high, size, dtype)


def random_integers(low, high=None, size=None):
    """See `numpy.random.random_integers` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.random.random_integers(1, 6, size=10)   # deprecated (use randint), as in NumPy
    >>> bool(((x >= 1) & (x <= 6)).all())
    True
    """
    return get_random_state().random_integers(low, high, size)


def tomaxint(size=None):
    """See `numpy.random.RandomState.tomaxint` (global RandomState; NumPy has no module-level
    function).

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.random.tomaxint(3)
    >>> x.dtype, bool((x >= 0).all())
    (dtype('int64'), True)
    """
    return get_random_state().tomaxint(size)


def choice(a, size=None, replace=True, p=None):
    """See `numpy.random.choice` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.random.choice(10, size=4, replace=False)
    >>> x.shape, len(set(x.tolist()))
    ((4,), 4)
    >>> cuarray.random.choice(cuarray.array([5, 6]), size=3, p=cuarray.array([0.0, 1.0]))
    array([6, 6, 6])
    """
    return get_random_state().choice(a, size, replace, p)


def bytes(length):
    """See `numpy.random.bytes` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> len(cuarray.random.bytes(10))
    10
    """
    return get_random_state().bytes(length)


def shuffle(x):
    """See `numpy.random.shuffle` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.arange(5)
    >>> cuarray.random.shuffle(x)   # in place
    >>> cuarray.sort(x)
    array([0, 1, 2, 3, 4])
    """
    return get_random_state().shuffle(x)


def permutation(x):
    """See `numpy.random.permutation` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.sort(cuarray.random.permutation(5))
    array([0, 1, 2, 3, 4])
    >>> cuarray.random.permutation(cuarray.arange(6).reshape(3, 2)).shape   # rows permuted
    (3, 2)
    """
    return get_random_state().permutation(x)


def standard_normal(size=None, dtype=float):
    """See `numpy.random.standard_normal` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.random.standard_normal((2, 3)).shape
    (2, 3)
    """
    return get_random_state().standard_normal(size, dtype=dtype)


def standard_exponential(size=None, dtype=float):
    """See `numpy.random.standard_exponential` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> bool((cuarray.random.standard_exponential(5) >= 0).all())
    True
    """
    return get_random_state().standard_exponential(size, dtype=dtype)


def standard_gamma(shape, size=None, dtype=float):
    """See `numpy.random.standard_gamma` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> bool((cuarray.random.standard_gamma(2.0, size=5) >= 0).all())
    True
    """
    return get_random_state().standard_gamma(shape, size, dtype=dtype)


def standard_cauchy(size=None, dtype=float):
    """See `numpy.random.standard_cauchy` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.random.standard_cauchy((2, 3)).shape
    (2, 3)
    """
    return get_random_state().standard_cauchy(size, dtype=dtype)


def standard_t(df, size=None, dtype=float):
    """See `numpy.random.standard_t` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.random.standard_t(10.0, size=(2, 3)).shape
    (2, 3)
    """
    return get_random_state().standard_t(df, size, dtype=dtype)


def normal(loc=0.0, scale=1.0, size=None, dtype=float):
    """See `numpy.random.normal` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.random.normal(10.0, 2.0, size=(2, 3))
    >>> x.shape, x.dtype
    ((2, 3), dtype('float64'))
    """
    return get_random_state().normal(loc, scale, size, dtype=dtype)


def uniform(low=0.0, high=1.0, size=None, dtype=float):
    """See `numpy.random.uniform` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.random.uniform(-1.0, 1.0, size=5)
    >>> bool(((x >= -1) & (x < 1)).all())
    True
    """
    return get_random_state().uniform(low, high, size, dtype=dtype)


def exponential(scale=1.0, size=None, dtype=float):
    """See `numpy.random.exponential` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> bool((cuarray.random.exponential(2.0, size=5) >= 0).all())
    True
    """
    return get_random_state().exponential(scale, size, dtype=dtype)


def gamma(shape, scale=1.0, size=None, dtype=float):
    """See `numpy.random.gamma` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> bool((cuarray.random.gamma(2.0, 1.5, size=5) >= 0).all())
    True
    """
    return get_random_state().gamma(shape, scale, size, dtype=dtype)


def beta(a, b, size=None, dtype=float):
    """See `numpy.random.beta` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.random.beta(2.0, 5.0, size=5)
    >>> bool(((x >= 0) & (x <= 1)).all())
    True
    """
    return get_random_state().beta(a, b, size, dtype=dtype)


def chisquare(df, size=None, dtype=float):
    """See `numpy.random.chisquare` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> bool((cuarray.random.chisquare(2.0, size=5) >= 0).all())
    True
    """
    return get_random_state().chisquare(df, size, dtype=dtype)


def noncentral_chisquare(df, nonc, size=None, dtype=float):
    """See `numpy.random.noncentral_chisquare` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> bool((cuarray.random.noncentral_chisquare(3.0, 2.0, size=5) >= 0).all())
    True
    """
    return get_random_state().noncentral_chisquare(df, nonc, size, dtype=dtype)


def f(dfnum, dfden, size=None, dtype=float):
    """See `numpy.random.f` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> bool((cuarray.random.f(5.0, 10.0, size=5) >= 0).all())
    True
    """
    return get_random_state().f(dfnum, dfden, size, dtype=dtype)


def noncentral_f(dfnum, dfden, nonc, size=None, dtype=float):
    """See `numpy.random.noncentral_f` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> bool((cuarray.random.noncentral_f(3.0, 20.0, 3.0, size=5) >= 0).all())
    True
    """
    return get_random_state().noncentral_f(dfnum, dfden, nonc, size, dtype=dtype)


def poisson(lam=1.0, size=None):
    """See `numpy.random.poisson` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.random.poisson(4.0, size=(2, 3))
    >>> x.shape, bool((x >= 0).all())
    ((2, 3), True)
    """
    return get_random_state().poisson(lam, size)


def binomial(n, p, size=None):
    """See `numpy.random.binomial` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.random.binomial(10, 0.3, size=5)
    >>> bool(((x >= 0) & (x <= 10)).all())
    True
    """
    return get_random_state().binomial(n, p, size)


def negative_binomial(n, p, size=None):
    """See `numpy.random.negative_binomial` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> bool((cuarray.random.negative_binomial(5, 0.5, size=5) >= 0).all())
    True
    """
    return get_random_state().negative_binomial(n, p, size)


def geometric(p, size=None):
    """See `numpy.random.geometric` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> bool((cuarray.random.geometric(0.3, size=5) >= 1).all())
    True
    """
    return get_random_state().geometric(p, size)


def hypergeometric(ngood, nbad, nsample, size=None):
    """See `numpy.random.hypergeometric` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.random.hypergeometric(10, 5, 4, size=6)   # draws of 4 from 10 good, 5 bad
    >>> bool(((x >= 0) & (x <= 4)).all())
    True
    """
    return get_random_state().hypergeometric(ngood, nbad, nsample, size)


def logseries(p, size=None):
    """See `numpy.random.logseries` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> bool((cuarray.random.logseries(0.6, size=5) >= 1).all())
    True
    """
    return get_random_state().logseries(p, size)


def zipf(a, size=None):
    """See `numpy.random.zipf` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> bool((cuarray.random.zipf(2.0, size=5) >= 1).all())
    True
    """
    return get_random_state().zipf(a, size)


def gumbel(loc=0.0, scale=1.0, size=None, dtype=float):
    """See `numpy.random.gumbel` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.random.gumbel(0.0, 1.0, size=(2, 3)).shape
    (2, 3)
    """
    return get_random_state().gumbel(loc, scale, size, dtype=dtype)


def laplace(loc=0.0, scale=1.0, size=None, dtype=float):
    """See `numpy.random.laplace` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.random.laplace(0.0, 1.0, size=(2, 3)).shape
    (2, 3)
    """
    return get_random_state().laplace(loc, scale, size, dtype=dtype)


def logistic(loc=0.0, scale=1.0, size=None, dtype=float):
    """See `numpy.random.logistic` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.random.logistic(0.0, 1.0, size=(2, 3)).shape
    (2, 3)
    """
    return get_random_state().logistic(loc, scale, size, dtype=dtype)


def lognormal(mean=0.0, sigma=1.0, size=None, dtype=float):
    """See `numpy.random.lognormal` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> bool((cuarray.random.lognormal(0.0, 1.0, size=5) > 0).all())
    True
    """
    return get_random_state().lognormal(mean, sigma, size, dtype=dtype)


def rayleigh(scale=1.0, size=None, dtype=float):
    """See `numpy.random.rayleigh` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> bool((cuarray.random.rayleigh(2.0, size=5) >= 0).all())
    True
    """
    return get_random_state().rayleigh(scale, size, dtype=dtype)


def weibull(a, size=None, dtype=float):
    """See `numpy.random.weibull` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> bool((cuarray.random.weibull(1.5, size=5) >= 0).all())
    True
    """
    return get_random_state().weibull(a, size, dtype=dtype)


def pareto(a, size=None, dtype=float):
    """See `numpy.random.pareto` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> bool((cuarray.random.pareto(3.0, size=5) >= 0).all())
    True
    """
    return get_random_state().pareto(a, size, dtype=dtype)


def power(a, size=None, dtype=float):
    """See `numpy.random.power` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.random.power(5.0, size=5)
    >>> bool(((x >= 0) & (x <= 1)).all())
    True
    """
    return get_random_state().power(a, size, dtype=dtype)


def triangular(left, mode, right, size=None, dtype=float):
    """See `numpy.random.triangular` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.random.triangular(-1.0, 0.0, 2.0, size=5)
    >>> bool(((x >= -1) & (x <= 2)).all())
    True
    """
    return get_random_state().triangular(left, mode, right, size, dtype=dtype)


def vonmises(mu, kappa, size=None, dtype=float):
    """See `numpy.random.vonmises` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.random.vonmises(0.0, 4.0, size=5)
    >>> bool(((x >= -cuarray.pi) & (x <= cuarray.pi)).all())
    True
    """
    return get_random_state().vonmises(mu, kappa, size, dtype=dtype)


def wald(mean, scale, size=None, dtype=float):
    """See `numpy.random.wald` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> bool((cuarray.random.wald(1.0, 2.0, size=5) > 0).all())
    True
    """
    return get_random_state().wald(mean, scale, size, dtype=dtype)


def dirichlet(alpha, size=None):
    """See `numpy.random.dirichlet` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.random.dirichlet([1.0, 2.0, 3.0], size=4)
    >>> x.shape, bool(cuarray.allclose(x.sum(axis=1), 1.0))
    ((4, 3), True)
    """
    return get_random_state().dirichlet(alpha, size)


def multinomial(n, pvals, size=None):
    """See `numpy.random.multinomial` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.random.multinomial(20, [0.2, 0.3, 0.5], size=4)
    >>> x.shape, x.sum(axis=1)
    ((4, 3), array([20, 20, 20, 20]))
    """
    return get_random_state().multinomial(n, pvals, size)


def multivariate_normal(mean, cov, size=None, check_valid="warn", tol=1e-8):
    """See `numpy.random.multivariate_normal` (global RandomState).

    Examples
    --------
    >>> import cuarray
    >>> mean, cov = cuarray.array([0.0, 1.0]), cuarray.array([[1.0, 0.5], [0.5, 2.0]])
    >>> x = cuarray.random.multivariate_normal(mean, cov, size=5)
    >>> x.shape
    (5, 2)
    """
    return get_random_state().multivariate_normal(mean, cov, size, check_valid, tol)
