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
    """See `numpy.random.random_sample` (global RandomState)."""
    return get_random_state().random_sample(size, dtype=dtype)


def random(size=None):
    """See `numpy.random.random` (global RandomState)."""
    return get_random_state().random(size)


def ranf(size=None):
    """See `numpy.random.ranf` (global RandomState)."""
    return get_random_state().ranf(size)


def sample(size=None):
    """See `numpy.random.sample` (global RandomState)."""
    return get_random_state().sample(size)


def rand(*args, dtype=float):
    """See `numpy.random.rand` (global RandomState); `dtype` as CuPy's."""
    return get_random_state().rand(*args, dtype=dtype)


def randn(*args, dtype=float):
    """See `numpy.random.randn` (global RandomState); `dtype` as CuPy's."""
    return get_random_state().randn(*args, dtype=dtype)


def randint(low, high=None, size=None, dtype=int):
    """See `numpy.random.randint` (global RandomState)."""
    return get_random_state().randint(low, high, size, dtype)


def random_integers(low, high=None, size=None):
    """See `numpy.random.random_integers` (global RandomState)."""
    return get_random_state().random_integers(low, high, size)


def tomaxint(size=None):
    """See `numpy.random.tomaxint` (global RandomState)."""
    return get_random_state().tomaxint(size)


def choice(a, size=None, replace=True, p=None):
    """See `numpy.random.choice` (global RandomState)."""
    return get_random_state().choice(a, size, replace, p)


def bytes(length):
    """See `numpy.random.bytes` (global RandomState)."""
    return get_random_state().bytes(length)


def shuffle(x):
    """See `numpy.random.shuffle` (global RandomState)."""
    return get_random_state().shuffle(x)


def permutation(x):
    """See `numpy.random.permutation` (global RandomState)."""
    return get_random_state().permutation(x)


def standard_normal(size=None, dtype=float):
    """See `numpy.random.standard_normal` (global RandomState)."""
    return get_random_state().standard_normal(size, dtype=dtype)


def standard_exponential(size=None, dtype=float):
    """See `numpy.random.standard_exponential` (global RandomState)."""
    return get_random_state().standard_exponential(size, dtype=dtype)


def standard_gamma(shape, size=None, dtype=float):
    """See `numpy.random.standard_gamma` (global RandomState)."""
    return get_random_state().standard_gamma(shape, size, dtype=dtype)


def standard_cauchy(size=None, dtype=float):
    """See `numpy.random.standard_cauchy` (global RandomState)."""
    return get_random_state().standard_cauchy(size, dtype=dtype)


def standard_t(df, size=None, dtype=float):
    """See `numpy.random.standard_t` (global RandomState)."""
    return get_random_state().standard_t(df, size, dtype=dtype)


def normal(loc=0.0, scale=1.0, size=None, dtype=float):
    """See `numpy.random.normal` (global RandomState)."""
    return get_random_state().normal(loc, scale, size, dtype=dtype)


def uniform(low=0.0, high=1.0, size=None, dtype=float):
    """See `numpy.random.uniform` (global RandomState)."""
    return get_random_state().uniform(low, high, size, dtype=dtype)


def exponential(scale=1.0, size=None, dtype=float):
    """See `numpy.random.exponential` (global RandomState)."""
    return get_random_state().exponential(scale, size, dtype=dtype)


def gamma(shape, scale=1.0, size=None, dtype=float):
    """See `numpy.random.gamma` (global RandomState)."""
    return get_random_state().gamma(shape, scale, size, dtype=dtype)


def beta(a, b, size=None, dtype=float):
    """See `numpy.random.beta` (global RandomState)."""
    return get_random_state().beta(a, b, size, dtype=dtype)


def chisquare(df, size=None, dtype=float):
    """See `numpy.random.chisquare` (global RandomState)."""
    return get_random_state().chisquare(df, size, dtype=dtype)


def noncentral_chisquare(df, nonc, size=None, dtype=float):
    """See `numpy.random.noncentral_chisquare` (global RandomState)."""
    return get_random_state().noncentral_chisquare(df, nonc, size, dtype=dtype)


def f(dfnum, dfden, size=None, dtype=float):
    """See `numpy.random.f` (global RandomState)."""
    return get_random_state().f(dfnum, dfden, size, dtype=dtype)


def noncentral_f(dfnum, dfden, nonc, size=None, dtype=float):
    """See `numpy.random.noncentral_f` (global RandomState)."""
    return get_random_state().noncentral_f(dfnum, dfden, nonc, size, dtype=dtype)


def poisson(lam=1.0, size=None):
    """See `numpy.random.poisson` (global RandomState)."""
    return get_random_state().poisson(lam, size)


def binomial(n, p, size=None):
    """See `numpy.random.binomial` (global RandomState)."""
    return get_random_state().binomial(n, p, size)


def negative_binomial(n, p, size=None):
    """See `numpy.random.negative_binomial` (global RandomState)."""
    return get_random_state().negative_binomial(n, p, size)


def geometric(p, size=None):
    """See `numpy.random.geometric` (global RandomState)."""
    return get_random_state().geometric(p, size)


def hypergeometric(ngood, nbad, nsample, size=None):
    """See `numpy.random.hypergeometric` (global RandomState)."""
    return get_random_state().hypergeometric(ngood, nbad, nsample, size)


def logseries(p, size=None):
    """See `numpy.random.logseries` (global RandomState)."""
    return get_random_state().logseries(p, size)


def zipf(a, size=None):
    """See `numpy.random.zipf` (global RandomState)."""
    return get_random_state().zipf(a, size)


def gumbel(loc=0.0, scale=1.0, size=None, dtype=float):
    """See `numpy.random.gumbel` (global RandomState)."""
    return get_random_state().gumbel(loc, scale, size, dtype=dtype)


def laplace(loc=0.0, scale=1.0, size=None, dtype=float):
    """See `numpy.random.laplace` (global RandomState)."""
    return get_random_state().laplace(loc, scale, size, dtype=dtype)


def logistic(loc=0.0, scale=1.0, size=None, dtype=float):
    """See `numpy.random.logistic` (global RandomState)."""
    return get_random_state().logistic(loc, scale, size, dtype=dtype)


def lognormal(mean=0.0, sigma=1.0, size=None, dtype=float):
    """See `numpy.random.lognormal` (global RandomState)."""
    return get_random_state().lognormal(mean, sigma, size, dtype=dtype)


def rayleigh(scale=1.0, size=None, dtype=float):
    """See `numpy.random.rayleigh` (global RandomState)."""
    return get_random_state().rayleigh(scale, size, dtype=dtype)


def weibull(a, size=None, dtype=float):
    """See `numpy.random.weibull` (global RandomState)."""
    return get_random_state().weibull(a, size, dtype=dtype)


def pareto(a, size=None, dtype=float):
    """See `numpy.random.pareto` (global RandomState)."""
    return get_random_state().pareto(a, size, dtype=dtype)


def power(a, size=None, dtype=float):
    """See `numpy.random.power` (global RandomState)."""
    return get_random_state().power(a, size, dtype=dtype)


def triangular(left, mode, right, size=None, dtype=float):
    """See `numpy.random.triangular` (global RandomState)."""
    return get_random_state().triangular(left, mode, right, size, dtype=dtype)


def vonmises(mu, kappa, size=None, dtype=float):
    """See `numpy.random.vonmises` (global RandomState)."""
    return get_random_state().vonmises(mu, kappa, size, dtype=dtype)


def wald(mean, scale, size=None, dtype=float):
    """See `numpy.random.wald` (global RandomState)."""
    return get_random_state().wald(mean, scale, size, dtype=dtype)


def dirichlet(alpha, size=None):
    """See `numpy.random.dirichlet` (global RandomState)."""
    return get_random_state().dirichlet(alpha, size)


def multinomial(n, pvals, size=None):
    """See `numpy.random.multinomial` (global RandomState)."""
    return get_random_state().multinomial(n, pvals, size)


def multivariate_normal(mean, cov, size=None, check_valid="warn", tol=1e-8):
    """See `numpy.random.multivariate_normal` (global RandomState)."""
    return get_random_state().multivariate_normal(mean, cov, size, check_valid, tol)
