"""`LatinHypercube` of scipy.stats.qmc (McKay, Beckman & Conover 1979), strength 1: in each
dimension one point in each of the n strata [k/n, (k+1)/n), the strata's order a uniformly random
permutation (the argsort of uniform keys, a column each), the point uniform within its stratum
(or at its centre without `scramble`). The draws are the device's (cuarray.random), seeded from
the engine's NumPy Generator, so `reset` replays a sample; they are not SciPy's numbers."""

from __future__ import annotations

import numpy

from ...._sorting.sorting import argsort
from ....random._generator import default_rng
from ._sobol import QMCEngine

__all__ = ["LatinHypercube"]


class LatinHypercube(QMCEngine):
    """See `scipy.stats.qmc.LatinHypercube` (strength 1; `optimization` None only). The sample is
    drawn on the device by cuarray.random, seeded from the engine's NumPy Generator: a sample
    with SciPy's stratification and distribution, not SciPy's numbers.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.stats import qmc
    >>> sample = qmc.LatinHypercube(d=2, rng=1).random(n=5)
    >>> sample.shape
    (5, 2)
    """

    def __init__(self, d, *, scramble=True, strength=1, optimization=None, rng=None, seed=None):
        self._initialize(d, optimization=optimization, rng=rng, seed=seed)
        self.scramble = scramble
        if strength not in (1, 2):
            raise ValueError(f"{strength!r} is not a valid strength. It must be one of {set((1, 2))!r}")
        if strength == 2:
            raise NotImplementedError("strength=2 (orthogonal-array LHS) is not implemented")
        self.strength = strength

    def _random(self, n=1, *, workers=1):
        # one seed a draw from the engine's Generator: the device's stream is a function of it
        draw = self.rng.integers if isinstance(self.rng, numpy.random.Generator) else self.rng.randint  # legacy: RandomState
        gen = default_rng(int(draw(2**63, dtype=numpy.int64)))
        order = argsort(gen.random((n, self.d)), axis=0) + 1  # a random permutation of 1..n a column
        inner = gen.random((n, self.d)) if self.scramble else 0.5
        return (order - inner) / n
