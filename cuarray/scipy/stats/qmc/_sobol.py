"""`QMCEngine` and `Sobol` of scipy.stats.qmc: the engine's bookkeeping (points drawn so far, its
Generator and the copy `reset` restores) on the host; the points on the device, each coordinate
computed from its index by one thread (templates/qmc.cu, sobol.cuh: the Gray-code XOR of the direction
numbers), so a draw is one launch whatever the sequence's position. The direction numbers and the
scrambling are the host's (`_sobol_init`), copied to the device once an engine."""

from __future__ import annotations

import copy
import warnings

import numpy

from ...._creation.basic import empty
from ...._creation.from_data import asarray
from ...._math.rounding import floor
from ._discrepancy import scale
from ._kernels import draw
from ._sobol_init import MAXDIM, direction_numbers, engine_rng, scrambled

__all__ = ["QMCEngine", "Sobol"]


class QMCEngine:
    """See `scipy.stats.qmc.QMCEngine`: `random` returns a device array; the engine's Generator
    (for scrambling) is NumPy's on the host."""

    def __init__(self, d, *, optimization=None, rng=None, seed=None):
        self._initialize(d, optimization=optimization, rng=rng, seed=seed)

    def _initialize(self, d, *, optimization=None, rng=None, seed=None):
        if not numpy.issubdtype(type(d), numpy.integer) or d < 0:
            raise ValueError("d must be a non-negative integer value")
        if optimization is not None:
            raise NotImplementedError("optimization={!r}: only None is implemented".format(optimization))
        self.d = d
        self.rng = engine_rng(rng, seed)
        self.rng_seed = copy.deepcopy(self.rng)
        self.num_generated = 0
        self.optimization_method = None

    def _random(self, n=1, *, workers=1):
        raise NotImplementedError

    def random(self, n=1, *, workers=1):
        """See `scipy.stats.qmc.QMCEngine.random` (a device array of float64)."""
        sample = self._random(n, workers=workers)
        self.num_generated += n
        return sample

    def integers(self, l_bounds, *, u_bounds=None, n=1, endpoint=False, workers=1):
        """See `scipy.stats.qmc.QMCEngine.integers` (a device array of int64)."""
        if u_bounds is None:
            u_bounds, l_bounds = l_bounds, 0
        u_bounds, l_bounds = numpy.atleast_1d(u_bounds), numpy.atleast_1d(l_bounds)  # parameters: host
        if endpoint:
            u_bounds = u_bounds + 1
        if not numpy.issubdtype(l_bounds.dtype, numpy.integer) or not numpy.issubdtype(u_bounds.dtype, numpy.integer):
            raise ValueError("'u_bounds' and 'l_bounds' must be integers or array-like of integers")
        sample = scale(self.random(n=n), l_bounds=l_bounds, u_bounds=u_bounds)
        return floor(sample).astype(numpy.int64)

    def reset(self):
        """See `scipy.stats.qmc.QMCEngine.reset`."""
        self.rng = copy.deepcopy(self.rng_seed)
        self.num_generated = 0
        return self

    def fast_forward(self, n):
        """See `scipy.stats.qmc.QMCEngine.fast_forward`."""
        self.random(n=n)
        return self


class Sobol(QMCEngine):
    """See `scipy.stats.qmc.Sobol` (`optimization` None only). The points are computed on the
    device, one thread a coordinate from the point's index; the direction numbers (Joe & Kuo's,
    shipped with cuarray) and the scrambling matrices are made on the host from the engine's NumPy
    Generator as SciPy makes them, so an engine seeded as SciPy's gives SciPy's points.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.stats import qmc
    >>> sampler = qmc.Sobol(d=2, scramble=False)
    >>> sampler.random_base2(m=2)
    array([[0.  , 0.  ],
           [0.5 , 0.5 ],
           [0.75, 0.25],
           [0.25, 0.75]])
    """

    MAXDIM = MAXDIM

    def __init__(self, d, *, scramble=True, bits=None, rng=None, optimization=None, seed=None):
        self._initialize(d, optimization=optimization, rng=rng, seed=seed)
        if d > self.MAXDIM:
            raise ValueError(f"Maximum supported dimensionality is {self.MAXDIM}.")
        self.bits = 30 if bits is None else bits
        if self.bits <= 32:
            self.dtype_i = numpy.uint32
        elif self.bits <= 64:
            self.dtype_i = numpy.uint64
        else:
            raise ValueError("Maximum supported 'bits' is 64")
        self.scramble = scramble
        self.maxn = 2 ** self.bits
        v = direction_numbers(d, self.bits)
        if scramble:
            shift, v = scrambled(v, self.bits, self.rng, self.dtype_i)
        else:
            shift, v = numpy.zeros(d, dtype=self.dtype_i), v.astype(self.dtype_i)
        self._shift, self._sv = shift, numpy.ascontiguousarray(v)
        self._scale = 1.0 / 2 ** self.bits
        self._device = None  # (direction numbers, shift) on the device, copied at the first draw

    def _draw(self, start, n):
        """Points start .. start + n - 1, (n, d) float64 on the device."""
        out = empty((n, self.d), dtype=numpy.float64)
        total = n * self.d
        if total:
            if self._device is None:
                self._device = (asarray(self._sv), asarray(self._shift))
            sv, shift = self._device
            name = "sobol_draw<{}>".format("unsigned int" if self.dtype_i == numpy.uint32 else "unsigned long long")
            draw(name, total, sv, shift, out, start, n, self.d, self.bits, self._scale)
        return out

    def _random(self, n=1, *, workers=1):
        total_n = self.num_generated + n
        if total_n > self.maxn:
            msg = (f"At most 2**{self.bits}={self.maxn} distinct points can be generated. {self.num_generated} points "
                   f"have been previously generated, then: n={self.num_generated}+{n}={total_n}. ")
            if self.bits != 64:
                msg += "Consider increasing `bits`."
            raise ValueError(msg)
        if self.num_generated == 0 and n & (n - 1) != 0:
            warnings.warn("The balance properties of Sobol' points require n to be a power of 2.", stacklevel=3)
        return self._draw(self.num_generated, n)

    def random_base2(self, m):
        """See `scipy.stats.qmc.Sobol.random_base2`."""
        n = 2 ** m
        total_n = self.num_generated + n
        if total_n & (total_n - 1) != 0:
            raise ValueError("The balance properties of Sobol' points require n to be a power of 2. "
                             f"{self.num_generated} points have been previously generated, then: "
                             f"n={self.num_generated}+2**{m}={total_n}. If you still want to do this, the function "
                             "'Sobol.random()' can be used.")
        return self.random(n)

    def reset(self):
        """See `scipy.stats.qmc.Sobol.reset`."""
        super().reset()
        return self

    def fast_forward(self, n):
        """See `scipy.stats.qmc.Sobol.fast_forward`: no points are computed (a point is a function
        of its index)."""
        self.num_generated += n
        return self

