"""`Generator` and `default_rng`: NumPy's Generator API over the Philox kernels.

Every method is one line over `_sample` (kernels from templates/random.cu); the parameter rules
(validation, broadcasting, `size`) are in _params.py, permutations and choice in _permutation.py.
`size=None` gives a 0-d array where NumPy gives a scalar.
"""

from __future__ import annotations

import numpy

from .._core import device_check as _device_check
from .._core.ndarray import ndarray
from . import _kernels, _params
from ._bit_generator import BitGenerator, Philox
from ._integers import integers

__all__ = ["Generator", "default_rng"]

_F32, _F64, _I64 = numpy.dtype(numpy.float32), numpy.dtype(numpy.float64), numpy.dtype(numpy.int64)
_NP = numpy.random.Generator(numpy.random.PCG64(0))  # validates scalar parameters (NumPy's messages)


def _perm():
    # _permutation brings sorting, scans and take_along_axis: 14 of the 35-40 ms that `import
    # cuarray.random` took on a CPU box, which a process's first draw does not need
    from . import _permutation  # import time: see above

    return _permutation


def _multi():
    from . import _multivariate  # import time: comparisons, joins, linalg helpers (2.5 ms, CPU box)

    return _multivariate


def _float_dtype(dtype, fn):
    dt = numpy.dtype(dtype)
    if dt not in (_F32, _F64):
        raise TypeError("Unsupported dtype {!r} for {}".format(dt, fn))
    return dt


def output(shape, dtype, out):
    """A new C-contiguous array, or `out` checked as NumPy checks it."""
    if out is None:
        return ndarray(shape, dtype)
    if not isinstance(out, ndarray):
        raise TypeError("out must be a cuarray.ndarray")
    if not out.flags.c_contiguous or not out.flags.writeable:
        raise ValueError("Supplied output array is not contiguous, writable or aligned.")
    if out.dtype != dtype:
        raise TypeError("Supplied output array has the wrong type. Expected {}, got {}".format(dtype, out.dtype))
    return out


class Generator:
    """See `numpy.random.Generator`. Values are not NumPy's (docs/random.md says what is guaranteed).

    Examples
    --------
    >>> import cuarray
    >>> rng = cuarray.random.Generator(cuarray.random.Philox(7))
    >>> rng.normal(0.0, 1.0, size=(2, 3)).shape
    (2, 3)
    >>> x = rng.integers(1, 7, size=100)
    >>> bool(((x >= 1) & (x < 7)).all())
    True
    >>> cuarray.sort(rng.permutation(5))
    array([0, 1, 2, 3, 4])
    >>> cuarray.sort(rng.choice(5, size=5, replace=False))
    array([0, 1, 2, 3, 4])
    """

    def __init__(self, bit_generator):
        if not isinstance(bit_generator, BitGenerator):
            raise TypeError("Generator: bit_generator must be a cuarray.random bit generator (Philox)")
        self._bit_generator = bit_generator

    @property
    def bit_generator(self):
        return self._bit_generator

    def spawn(self, n_children: int) -> list:
        """See `numpy.random.Generator.spawn`."""
        return [Generator(b) for b in self._bit_generator.spawn(n_children)]

    def __repr__(self):
        return "Generator({})".format(self._bit_generator)

    # -- the one sampling path -----------------------------------------------------------------
    def _sample(self, op, values, size, dtype=_F64, out=None, fn=None, check=True, ref=_NP):
        fn = fn or op
        if out is not None and size is not None and tuple(out.shape) != _params.normalize_size(size):
            raise ValueError("size must match out.shape when used together")
        if out is not None and size is None:
            size = out.shape
        if out is not None and _device_check.active[0]:  # the sampler writes `out` by pointer
            _device_check.check((out,))
        shape, params, keep = _params.prepare(ref, op, values, size, fn, check)
        res = output(shape, dtype, out)
        draw = self._bit_generator.next_draw()
        if res._size:
            _kernels.fill(op, res, res._size, draw, params)
        del keep  # the launch is stream-ordered: the pool reuses the memory only after it
        return res

    def _sample_as(self, op, values, size, dtype, ref=_NP):
        """`_sample` into `dtype`; float32 for a sampler compiled only for double (CuPy's `dtype=`
        on every float distribution) is sampled in double and rounded, one extra pass."""
        if dtype == _F32 and op not in _kernels.F32_OPS:
            return self._sample(op, values, size, _F64, ref=ref).astype(_F32)
        return self._sample(op, values, size, dtype, ref=ref)

    # -- simple random data ---------------------------------------------------------------------
    def random(self, size=None, dtype=numpy.float64, out=None):
        """See `numpy.random.Generator.random`."""
        return self._sample("random", (), size, _float_dtype(dtype, "random"), out)

    def integers(self, low, high=None, size=None, dtype=numpy.int64, endpoint=False):
        """See `numpy.random.Generator.integers`. Lemire's unbiased method, every bound exact."""
        return integers(self._bit_generator, _NP, low, high, size, dtype, endpoint, "integers")

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        """See `numpy.random.Generator.choice`. Without replacement the sample is the start of a
        keyed random permutation (templates/permutation.cu); with `p` too, the items of the m
        smallest exponential keys E_i / p_i (one sort), which follow NumPy's law but not its stream.
        `shuffle=False` is accepted; the sample comes in its drawing order either way."""
        return _perm().choice(self, a, size, replace, p, axis, "choice")

    def bytes(self, length):
        """See `numpy.random.Generator.bytes` (made on the device, copied to the host)."""
        return self.integers(0, 256, size=int(length), dtype=numpy.uint8).get().tobytes()

    # -- permutations ---------------------------------------------------------------------------
    def shuffle(self, x, axis=0):
        """See `numpy.random.Generator.shuffle`."""
        _perm().shuffle(self._bit_generator, x, axis)

    def permutation(self, x, axis=0):
        """See `numpy.random.Generator.permutation`."""
        return _perm().permutation(self._bit_generator, x, axis)

    def permuted(self, x, *, axis=None, out=None):
        """See `numpy.random.Generator.permuted`."""
        return _perm().permuted(self._bit_generator, x, axis, out)

    # -- distributions --------------------------------------------------------------------------
    def standard_normal(self, size=None, dtype=numpy.float64, out=None):
        """See `numpy.random.Generator.standard_normal` (Box-Muller, not a ziggurat)."""
        return self._sample("standard_normal", (), size, _float_dtype(dtype, "standard_normal"), out)

    def standard_exponential(self, size=None, dtype=numpy.float64, method="zig", out=None):
        """See `numpy.random.Generator.standard_exponential` (always by inversion)."""
        if method not in ("zig", "inv"):
            raise ValueError("'method' argument must be either 'zig' or 'inv'")
        return self._sample("standard_exponential", (), size, _float_dtype(dtype, "standard_exponential"), out)

    def standard_gamma(self, shape, size=None, dtype=numpy.float64, out=None):
        """See `numpy.random.Generator.standard_gamma` (Marsaglia-Tsang, computed in double)."""
        return self._sample("standard_gamma", (shape,), size, _float_dtype(dtype, "standard_gamma"), out)

    def normal(self, loc=0.0, scale=1.0, size=None):
        """See `numpy.random.Generator.normal`."""
        return self._sample("normal", (loc, scale), size)

    def uniform(self, low=0.0, high=1.0, size=None):
        """See `numpy.random.Generator.uniform`."""
        return self._sample("uniform", (low, high), size)

    def exponential(self, scale=1.0, size=None):
        """See `numpy.random.Generator.exponential`."""
        return self._sample("exponential", (scale,), size)

    def gamma(self, shape, scale=1.0, size=None):
        """See `numpy.random.Generator.gamma`."""
        return self._sample("gamma", (shape, scale), size)

    def beta(self, a, b, size=None):
        """See `numpy.random.Generator.beta`."""
        return self._sample("beta", (a, b), size)

    def chisquare(self, df, size=None):
        """See `numpy.random.Generator.chisquare`."""
        return self._sample("chisquare", (df,), size)

    def noncentral_chisquare(self, df, nonc, size=None):
        """See `numpy.random.Generator.noncentral_chisquare`."""
        return self._sample("noncentral_chisquare", (df, nonc), size)

    def f(self, dfnum, dfden, size=None):
        """See `numpy.random.Generator.f`."""
        return self._sample("f", (dfnum, dfden), size)

    def noncentral_f(self, dfnum, dfden, nonc, size=None):
        """See `numpy.random.Generator.noncentral_f`."""
        return self._sample("noncentral_f", (dfnum, dfden, nonc), size)

    def standard_t(self, df, size=None):
        """See `numpy.random.Generator.standard_t`."""
        return self._sample("standard_t", (df,), size)

    def standard_cauchy(self, size=None):
        """See `numpy.random.Generator.standard_cauchy`."""
        return self._sample("standard_cauchy", (), size)

    def poisson(self, lam=1.0, size=None):
        """See `numpy.random.Generator.poisson` (multiplication below lam 10, PTRS above)."""
        return self._sample("poisson", (lam,), size, _I64)

    def binomial(self, n, p, size=None):
        """See `numpy.random.Generator.binomial` (inversion below n*p 10, BTRS above; NumPy: BTPE)."""
        return self._sample("binomial", (n, p), size, _I64)

    def negative_binomial(self, n, p, size=None):
        """See `numpy.random.Generator.negative_binomial`."""
        return self._sample("negative_binomial", (n, p), size, _I64)

    def geometric(self, p, size=None):
        """See `numpy.random.Generator.geometric`."""
        return self._sample("geometric", (p,), size, _I64)

    def hypergeometric(self, ngood, nbad, nsample, size=None):
        """See `numpy.random.Generator.hypergeometric` (urn simulation: O(min(nsample, total -
        nsample)) per draw; NumPy uses HRUA for large samples)."""
        return self._sample("hypergeometric", (ngood, nbad, nsample), size, _I64)

    def logseries(self, p, size=None):
        """See `numpy.random.Generator.logseries`."""
        return self._sample("logseries", (p,), size, _I64)

    def zipf(self, a, size=None):
        """See `numpy.random.Generator.zipf`."""
        return self._sample("zipf", (a,), size, _I64)

    def gumbel(self, loc=0.0, scale=1.0, size=None):
        """See `numpy.random.Generator.gumbel`."""
        return self._sample("gumbel", (loc, scale), size)

    def laplace(self, loc=0.0, scale=1.0, size=None):
        """See `numpy.random.Generator.laplace`."""
        return self._sample("laplace", (loc, scale), size)

    def logistic(self, loc=0.0, scale=1.0, size=None):
        """See `numpy.random.Generator.logistic`."""
        return self._sample("logistic", (loc, scale), size)

    def lognormal(self, mean=0.0, sigma=1.0, size=None):
        """See `numpy.random.Generator.lognormal`."""
        return self._sample("lognormal", (mean, sigma), size)

    def rayleigh(self, scale=1.0, size=None):
        """See `numpy.random.Generator.rayleigh`."""
        return self._sample("rayleigh", (scale,), size)

    def weibull(self, a, size=None):
        """See `numpy.random.Generator.weibull`."""
        return self._sample("weibull", (a,), size)

    def pareto(self, a, size=None):
        """See `numpy.random.Generator.pareto`."""
        return self._sample("pareto", (a,), size)

    def power(self, a, size=None):
        """See `numpy.random.Generator.power`."""
        return self._sample("power", (a,), size)

    def triangular(self, left, mode, right, size=None):
        """See `numpy.random.Generator.triangular`."""
        return self._sample("triangular", (left, mode, right), size)

    def vonmises(self, mu, kappa, size=None):
        """See `numpy.random.Generator.vonmises`."""
        return self._sample("vonmises", (mu, kappa), size)

    def wald(self, mean, scale, size=None):
        """See `numpy.random.Generator.wald`."""
        return self._sample("wald", (mean, scale), size)

    def dirichlet(self, alpha, size=None):
        """See `numpy.random.Generator.dirichlet` (normalised gammas; NumPy switches to stick-breaking
        when every alpha < 0.1)."""
        return _multi().dirichlet(self, alpha, size)

    def multinomial(self, n, pvals, size=None):
        """See `numpy.random.Generator.multinomial` (conditional binomials, one launch per category)."""
        return _multi().multinomial(self, n, pvals, size)

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8, *, method="svd"):
        """See `numpy.random.Generator.multivariate_normal`: standard normals times a factor of
        `cov` from cuarray.linalg (svd by default, eigh or cholesky), plus `mean`."""
        return _multi().multivariate_normal(self, mean, cov, size, check_valid, tol, method)

    def multivariate_hypergeometric(self, colors, nsample, size=None, method="marginals"):
        """See `numpy.random.Generator.multivariate_hypergeometric` (conditional hypergeometric
        draws, one launch per color, for either method)."""
        return _multi().multivariate_hypergeometric(self, colors, nsample, size, method)


def default_rng(seed=None) -> Generator:
    """See `numpy.random.default_rng`: a Generator over Philox (NumPy's default is PCG64).

    Examples
    --------
    >>> import cuarray
    >>> rng = cuarray.random.default_rng(42)   # Philox here, PCG64 in NumPy: other values
    >>> x = rng.random(3)
    >>> x.shape, x.dtype, bool(((x >= 0) & (x < 1)).all())
    ((3,), dtype('float64'), True)
    >>> rng.integers(0, 10, size=(2, 2)).shape
    (2, 2)
    """
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, BitGenerator):
        return Generator(seed)
    if isinstance(seed, (numpy.random.Generator, numpy.random.BitGenerator)):
        raise TypeError("default_rng: a NumPy generator cannot drive cuarray.random; pass a seed or a "
                        "numpy.random.SeedSequence")
    return Generator(Philox(seed))
