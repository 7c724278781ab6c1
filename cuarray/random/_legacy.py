"""The legacy `numpy.random` API: RandomState, the global state (seed, get_random_state) and the
module-level functions. Same Philox engine and kernels as Generator; parameters are validated by
NumPy's RandomState, so messages are the legacy ones."""

from __future__ import annotations

import threading
import warnings

import numpy

from . import _generator
from ._bit_generator import Philox
from ._integers import integers as _integers

__all__ = ["RandomState", "get_random_state", "set_random_state", "seed"]

_F64, _I64 = numpy.dtype(numpy.float64), numpy.dtype(numpy.int64)
_NP = numpy.random.RandomState(0)


class _LegacyIntegers:
    """NumPy's RandomState validates bounds through randint (it has no `integers`)."""

    @staticmethod
    def integers(low, high=None, size=None, dtype=int, endpoint=False):
        if endpoint:  # random_integers: [low, high]
            if high is None:
                return _NP.randint(low + 1 if low >= 0 else low, size=size, dtype=dtype)
            return _NP.randint(low, int(high) + 1, size=size, dtype=dtype)
        return _NP.randint(low, high, size=size, dtype=dtype)


def _float_dtype(dtype):
    """CuPy's `dtype=` of the float samplers: float32 or float64, else CuPy's TypeError."""
    dt = numpy.dtype(dtype)
    if dt.char not in "fd":
        raise TypeError("cuarray.random only supports float32 and float64")
    return dt


def _size(args):
    return args[0] if len(args) == 1 and isinstance(args[0], (tuple, list)) else tuple(args)


class RandomState:
    """See `numpy.random.RandomState`. Philox4x32-10 instead of MT19937: seeds give other streams.

    Examples
    --------
    >>> import cuarray
    >>> rs = cuarray.random.RandomState(1234)   # Philox4x32-10, not MT19937: other values than NumPy's
    >>> rs.rand(2, 3).shape
    (2, 3)
    >>> x = rs.randint(5, size=4)
    >>> bool(((x >= 0) & (x < 5)).all())
    True
    """

    def __init__(self, seed=None):
        self._gen = _generator.Generator(Philox(seed))

    def seed(self, seed=None):
        """See `numpy.random.RandomState.seed`."""
        self._gen = _generator.Generator(Philox(seed))

    def get_state(self):
        """The Philox state dict (not MT19937's tuple)."""
        return self._gen.bit_generator.state

    def set_state(self, state):
        self._gen.bit_generator.state = state

    def _s(self, op, values, size, dtype=_F64):
        """Sample `op` through the Generator with the legacy API's parameter checks."""
        return self._gen._sample_as(op, values, size, dtype, ref=_NP)

    # -- simple random data ---------------------------------------------------------------------
    def random_sample(self, size=None, dtype=float):
        """See `numpy.random.RandomState.random_sample`; `dtype` (float32 or float64) as CuPy's."""
        return self._gen._sample("random", (), size, _float_dtype(dtype))

    random = ranf = sample = random_sample

    def rand(self, *args, dtype=float):
        """See `numpy.random.RandomState.rand`; `dtype` (float32 or float64) as CuPy's."""
        return self.random_sample(_size(args), dtype)

    def randn(self, *args, dtype=float):
        """See `numpy.random.RandomState.randn`; `dtype` (float32 or float64) as CuPy's."""
        return self._gen._sample("standard_normal", (), _size(args), _float_dtype(dtype))

    def randint(self, low, high=None, size=None, dtype=int):
        """See `numpy.random.RandomState.randint`."""
        return _integers(self._gen.bit_generator, _LegacyIntegers, low, high, size, dtype, False, "randint")

    def random_integers(self, low, high=None, size=None):
        """See `numpy.random.RandomState.random_integers` (deprecated there too)."""
        warnings.warn("This function is deprecated. Please call randint({}, {} + 1) instead".format(
            1 if high is None else low, low if high is None else high), DeprecationWarning, stacklevel=2)
        if high is None:
            low, high = 1, low
        return _integers(self._gen.bit_generator, _LegacyIntegers, low, high, size, int, True, "random_integers")

    def tomaxint(self, size=None):
        """See `numpy.random.RandomState.tomaxint`."""
        return self.randint(0, numpy.iinfo(numpy.int64).max, size=size, dtype=numpy.int64)

    def choice(self, a, size=None, replace=True, p=None):
        """See `numpy.random.RandomState.choice`."""
        return self._gen.choice(a, size, replace, p)

    def bytes(self, length):
        """See `numpy.random.RandomState.bytes`."""
        return self._gen.bytes(length)

    def shuffle(self, x):
        """See `numpy.random.RandomState.shuffle`."""
        self._gen.shuffle(x)

    def permutation(self, x):
        """See `numpy.random.RandomState.permutation`."""
        return self._gen.permutation(x)

    # -- distributions --------------------------------------------------------------------------
    def standard_normal(self, size=None, dtype=float):
        """See `numpy.random.RandomState.standard_normal`."""
        return self._s("standard_normal", (), size, _float_dtype(dtype))

    def standard_exponential(self, size=None, dtype=float):
        """See `numpy.random.RandomState.standard_exponential`."""
        return self._s("standard_exponential", (), size, _float_dtype(dtype))

    def standard_gamma(self, shape, size=None, dtype=float):
        """See `numpy.random.RandomState.standard_gamma`."""
        return self._s("standard_gamma", (shape,), size, _float_dtype(dtype))

    def standard_cauchy(self, size=None, dtype=float):
        """See `numpy.random.RandomState.standard_cauchy`."""
        return self._s("standard_cauchy", (), size, _float_dtype(dtype))

    def standard_t(self, df, size=None, dtype=float):
        """See `numpy.random.RandomState.standard_t`."""
        return self._s("standard_t", (df,), size, _float_dtype(dtype))

    def normal(self, loc=0.0, scale=1.0, size=None, dtype=float):
        """See `numpy.random.RandomState.normal`."""
        return self._s("normal", (loc, scale), size, _float_dtype(dtype))

    def uniform(self, low=0.0, high=1.0, size=None, dtype=float):
        """See `numpy.random.RandomState.uniform`."""
        return self._s("uniform", (low, high), size, _float_dtype(dtype))

    def exponential(self, scale=1.0, size=None, dtype=float):
        """See `numpy.random.RandomState.exponential`."""
        return self._s("exponential", (scale,), size, _float_dtype(dtype))

    def gamma(self, shape, scale=1.0, size=None, dtype=float):
        """See `numpy.random.RandomState.gamma`."""
        return self._s("gamma", (shape, scale), size, _float_dtype(dtype))

    def beta(self, a, b, size=None, dtype=float):
        """See `numpy.random.RandomState.beta`."""
        return self._s("beta", (a, b), size, _float_dtype(dtype))

    def chisquare(self, df, size=None, dtype=float):
        """See `numpy.random.RandomState.chisquare`."""
        return self._s("chisquare", (df,), size, _float_dtype(dtype))

    def noncentral_chisquare(self, df, nonc, size=None, dtype=float):
        """See `numpy.random.RandomState.noncentral_chisquare`."""
        return self._s("noncentral_chisquare", (df, nonc), size, _float_dtype(dtype))

    def f(self, dfnum, dfden, size=None, dtype=float):
        """See `numpy.random.RandomState.f`."""
        return self._s("f", (dfnum, dfden), size, _float_dtype(dtype))

    def noncentral_f(self, dfnum, dfden, nonc, size=None, dtype=float):
        """See `numpy.random.RandomState.noncentral_f`."""
        return self._s("noncentral_f", (dfnum, dfden, nonc), size, _float_dtype(dtype))

    def poisson(self, lam=1.0, size=None):
        """See `numpy.random.RandomState.poisson`."""
        return self._s("poisson", (lam,), size, _I64)

    def binomial(self, n, p, size=None):
        """See `numpy.random.RandomState.binomial`."""
        return self._s("binomial", (n, p), size, _I64)

    def negative_binomial(self, n, p, size=None):
        """See `numpy.random.RandomState.negative_binomial`."""
        return self._s("negative_binomial", (n, p), size, _I64)

    def geometric(self, p, size=None):
        """See `numpy.random.RandomState.geometric`."""
        return self._s("geometric", (p,), size, _I64)

    def hypergeometric(self, ngood, nbad, nsample, size=None):
        """See `numpy.random.RandomState.hypergeometric`."""
        return self._s("hypergeometric", (ngood, nbad, nsample), size, _I64)

    def logseries(self, p, size=None):
        """See `numpy.random.RandomState.logseries`."""
        return self._s("logseries", (p,), size, _I64)

    def zipf(self, a, size=None):
        """See `numpy.random.RandomState.zipf`."""
        return self._s("zipf", (a,), size, _I64)

    def gumbel(self, loc=0.0, scale=1.0, size=None, dtype=float):
        """See `numpy.random.RandomState.gumbel`."""
        return self._s("gumbel", (loc, scale), size, _float_dtype(dtype))

    def laplace(self, loc=0.0, scale=1.0, size=None, dtype=float):
        """See `numpy.random.RandomState.laplace`."""
        return self._s("laplace", (loc, scale), size, _float_dtype(dtype))

    def logistic(self, loc=0.0, scale=1.0, size=None, dtype=float):
        """See `numpy.random.RandomState.logistic`."""
        return self._s("logistic", (loc, scale), size, _float_dtype(dtype))

    def lognormal(self, mean=0.0, sigma=1.0, size=None, dtype=float):
        """See `numpy.random.RandomState.lognormal`."""
        return self._s("lognormal", (mean, sigma), size, _float_dtype(dtype))

    def rayleigh(self, scale=1.0, size=None, dtype=float):
        """See `numpy.random.RandomState.rayleigh`."""
        return self._s("rayleigh", (scale,), size, _float_dtype(dtype))

    def weibull(self, a, size=None, dtype=float):
        """See `numpy.random.RandomState.weibull`."""
        return self._s("weibull", (a,), size, _float_dtype(dtype))

    def pareto(self, a, size=None, dtype=float):
        """See `numpy.random.RandomState.pareto`."""
        return self._s("pareto", (a,), size, _float_dtype(dtype))

    def power(self, a, size=None, dtype=float):
        """See `numpy.random.RandomState.power`."""
        return self._s("power", (a,), size, _float_dtype(dtype))

    def triangular(self, left, mode, right, size=None, dtype=float):
        """See `numpy.random.RandomState.triangular`."""
        return self._s("triangular", (left, mode, right), size, _float_dtype(dtype))

    def vonmises(self, mu, kappa, size=None, dtype=float):
        """See `numpy.random.RandomState.vonmises`."""
        return self._s("vonmises", (mu, kappa), size, _float_dtype(dtype))

    def wald(self, mean, scale, size=None, dtype=float):
        """See `numpy.random.RandomState.wald`."""
        return self._s("wald", (mean, scale), size, _float_dtype(dtype))

    def dirichlet(self, alpha, size=None):
        """See `numpy.random.RandomState.dirichlet`."""
        return self._gen.dirichlet(alpha, size)

    def multinomial(self, n, pvals, size=None):
        """See `numpy.random.RandomState.multinomial`."""
        return self._gen.multinomial(n, pvals, size)

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8):
        """See `numpy.random.RandomState.multivariate_normal` (SVD factor, as NumPy's)."""
        return self._gen.multivariate_normal(mean, cov, size, check_valid, tol)


# -- the global state --------------------------------------------------------------------------
_lock = threading.Lock()
_state: RandomState | None = None


def get_random_state() -> RandomState:
    """The RandomState behind the module-level functions (created on first use). CuPy's
    `cupy.random.get_random_state`.

    Examples
    --------
    >>> import cuarray
    >>> isinstance(cuarray.random.get_random_state(), cuarray.random.RandomState)
    True
    """
    global _state
    if _state is None:
        with _lock:
            if _state is None:
                _state = RandomState()
    return _state


def set_random_state(rs: RandomState) -> None:
    """Make `rs` the RandomState behind the module-level functions. CuPy's
    `cupy.random.set_random_state`.

    Examples
    --------
    >>> import cuarray
    >>> old, rs = cuarray.random.get_random_state(), cuarray.random.RandomState(0)
    >>> cuarray.random.set_random_state(rs)   # cuarray.random.rand(...) now draws from rs
    >>> cuarray.random.get_random_state() is rs
    True
    >>> cuarray.random.set_random_state(old)
    """
    global _state
    if not isinstance(rs, RandomState):
        raise TypeError("set_random_state: expected a cuarray.random.RandomState")
    _state = rs


def seed(seed=None):
    """See `numpy.random.seed`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.random.seed(0)
    >>> a = cuarray.random.rand(3)
    >>> cuarray.random.seed(0)
    >>> bool((cuarray.random.rand(3) == a).all())   # the same seed, the same stream
    True
    """
    get_random_state().seed(seed)
