"""`Halton` of scipy.stats.qmc: dimension j the van der Corput sequence in the j-th prime base
(Halton 1960), scrambled by Owen's digit permutations (Owen 2017, "A randomized Halton algorithm
in R", arXiv:1706.02808), drawn on the host from the engine's NumPy Generator in SciPy's order;
the points on the device, one thread a coordinate (templates/halton.cuh), equal to SciPy's bit
for bit."""

from __future__ import annotations

import math

import numpy

from ...._creation.basic import empty
from ...._creation.from_data import asarray
from ._kernels import draw
from ._sobol import QMCEngine

__all__ = ["Halton", "first_primes"]


def first_primes(n: int) -> list:
    """The first n primes (SciPy's `n_primes`), by a sieve grown until it holds them."""
    limit = 16
    while True:
        sieve = numpy.ones(limit, dtype=bool)
        sieve[:2] = False
        for i in range(2, int(limit ** 0.5) + 1):
            if sieve[i]:
                sieve[i * i::i] = False
        primes = numpy.flatnonzero(sieve)
        if len(primes) >= n:
            return [int(p) for p in primes[:n]]
        limit *= 2


def _permutations(base: int, rng) -> numpy.ndarray:
    """SciPy's `_van_der_corput_permutations`: one shuffled arange(base) for each digit a double
    can hold (base^-k > 2^-54)."""
    count = math.ceil(54 / math.log2(base)) - 1
    perms = numpy.repeat(numpy.arange(base)[None], count, axis=0)
    for perm in perms:
        rng.shuffle(perm)
    return perms


class Halton(QMCEngine):
    """See `scipy.stats.qmc.Halton` (`optimization` None only). The points are computed on the
    device, one thread a coordinate from the point's index; the scrambling permutations are drawn
    on the host from the engine's NumPy Generator as SciPy draws them, so an engine seeded as
    SciPy's gives SciPy's points. `workers` is checked and unused.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.stats import qmc
    >>> sampler = qmc.Halton(d=2, scramble=False)
    >>> sampler.random(n=4)
    array([[0.        , 0.        ],
           [0.5       , 0.33333333],
           [0.25      , 0.66666667],
           [0.75      , 0.11111111]])
    """

    def __init__(self, d, *, scramble=True, optimization=None, rng=None, seed=None):
        self._initialize(d, optimization=optimization, rng=rng, seed=seed)
        self.base = first_primes(d)
        self.scramble = scramble
        self._permutations = [None] * len(self.base)
        if scramble:
            self._permutations = [_permutations(b, self.rng) for b in self.base]
        self._device = None

    def _tables(self):
        """(bases, permutations, offsets, counts) on the device, made at the first draw."""
        if self._device is None:
            perms = self._permutations if self.scramble else [numpy.zeros((0, b), dtype=numpy.int64) for b in self.base]
            counts = numpy.array([p.shape[0] for p in perms], dtype=numpy.int32)
            sizes = numpy.array([p.size for p in perms], dtype=numpy.int64)
            offsets = numpy.concatenate([[0], numpy.cumsum(sizes)[:-1]]).astype(numpy.int64)
            flat = numpy.concatenate([p.ravel() for p in perms] + [numpy.zeros(1, dtype=numpy.int64)]).astype(numpy.int32)
            self._device = (asarray(numpy.array(self.base, dtype=numpy.int64)), asarray(flat), asarray(offsets),
                            asarray(counts))
        return self._device

    def _random(self, n=1, *, workers=1):
        if workers != -1 and workers <= 0:
            raise ValueError(f"Invalid number of workers: {workers}, must be -1 or > 0")
        return self._draw(self.num_generated, n)

    def _draw(self, start, n):
        """Points start .. start + n - 1, (n, d) float64 on the device."""
        out = empty((n, self.d), dtype=numpy.float64)
        total = n * self.d
        if total:
            bases, perms, offsets, counts = self._tables()
            draw("halton_draw", total, bases, perms, offsets, counts, out, start, n, self.d, int(self.scramble))
        return out

    def fast_forward(self, n):
        """See `scipy.stats.qmc.Halton.fast_forward`: no points are computed (a point is a
        function of its index)."""
        self.num_generated += n
        return self
