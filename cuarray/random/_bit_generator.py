"""The bit generator of cuarray.random: Philox4x32-10 keyed from a `numpy.random.SeedSequence`.

A Philox object holds no device state: a 64-bit key (from the seed) and a draw counter that the
host advances once per call. Each kernel computes the words it needs from (key, draw, position)
(templates/philox.cuh has the counter layout), so a draw is the same on every GPU and for every
launch configuration, and costs no state read-back. `spawn` gives children with independent keys
(SeedSequence.spawn), as NumPy's bit generators do.

`philox4x32_10` below is a NumPy model of the device function: the known-answer tests check it
against the Random123 vectors and the kernels against it.
"""

from __future__ import annotations

import numpy

__all__ = ["Philox", "BitGenerator", "SeedSequence", "philox4x32_10"]

SeedSequence = numpy.random.SeedSequence

_M0, _M1 = numpy.uint64(0xD2511F53), numpy.uint64(0xCD9E8D57)
_W0, _W1 = 0x9E3779B9, 0xBB67AE85
_MASK32 = numpy.uint64(0xFFFFFFFF)


def philox4x32_10(counters, key) -> numpy.ndarray:
    """Philox4x32-10 of uint32 `counters` (shape (..., 4)) under `key` (two uint32): uint32 (..., 4)."""
    c = numpy.asarray(counters, dtype=numpy.uint32).astype(numpy.uint64)
    x0, x1, x2, x3 = (c[..., j].copy() for j in range(4))
    k0, k1 = int(key[0]) & 0xFFFFFFFF, int(key[1]) & 0xFFFFFFFF
    for r in range(10):
        if r:
            k0, k1 = (k0 + _W0) & 0xFFFFFFFF, (k1 + _W1) & 0xFFFFFFFF
        p0, p1 = _M0 * x0, _M1 * x2
        hi0, lo0, hi1, lo1 = p0 >> numpy.uint64(32), p0 & _MASK32, p1 >> numpy.uint64(32), p1 & _MASK32
        x0, x1, x2, x3 = hi1 ^ x1 ^ numpy.uint64(k0), lo1, hi0 ^ x3 ^ numpy.uint64(k1), lo0
    return numpy.stack([x0, x1, x2, x3], axis=-1).astype(numpy.uint32)


class BitGenerator:
    """Base of cuarray's bit generators (only Philox exists); see `numpy.random.BitGenerator`.

    Examples
    --------
    >>> import cuarray
    >>> isinstance(cuarray.random.default_rng(0).bit_generator, cuarray.random.BitGenerator)
    True
    """


class Philox(BitGenerator):
    """See `numpy.random.Philox`. Here the 4x32 variant (NumPy's is 4x64), keyed by 64 bits from a
    SeedSequence; the counter is a draw index advanced by one per call, not NumPy's block counter.
    `key=` (an int below 2**64) sets the key directly, as in NumPy.

    Examples
    --------
    >>> import cuarray
    >>> rng = cuarray.random.Generator(cuarray.random.Philox(12345))
    >>> rng.random(4).shape
    (4,)
    """

    def __init__(self, seed=None, *, key=None, counter=0):
        if key is not None:
            if seed is not None:
                raise ValueError("seed and key cannot be both used")
            key = int(key)
            if not 0 <= key < 2**64:
                raise ValueError("key must be an integer in [0, 2**64)")
            self._seed_seq = None
            self._key = (key & 0xFFFFFFFF, key >> 32)
        else:
            if isinstance(seed, BitGenerator):
                raise TypeError("Philox: seed must be None, an int, a sequence of ints or a SeedSequence")
            ss = seed if isinstance(seed, numpy.random.SeedSequence) else numpy.random.SeedSequence(seed)
            self._seed_seq = ss
            k = ss.generate_state(2, numpy.uint32)
            self._key = (int(k[0]), int(k[1]))
        self._draw = int(counter)

    @property
    def seed_seq(self):
        return self._seed_seq

    def next_draw(self) -> tuple:
        """(key0, key1, draw) for one kernel launch, advancing the draw counter. Past 2**32 draws the
        high bits of the counter are folded into the key (another key: another independent stream)."""
        d = self._draw
        self._draw = d + 1
        hi = d >> 32
        k0, k1 = self._key
        if hi:
            k1 ^= (hi * 0x9E3779B9) & 0xFFFFFFFF
            k0 ^= (hi >> 32) & 0xFFFFFFFF
        return numpy.uint32(k0), numpy.uint32(k1), numpy.uint32(d & 0xFFFFFFFF)

    @property
    def state(self) -> dict:
        return {"bit_generator": "Philox4x32", "state": {"key": self._key[0] | (self._key[1] << 32),
                                                         "counter": self._draw}}

    @state.setter
    def state(self, value):
        if not isinstance(value, dict) or value.get("bit_generator") != "Philox4x32":
            raise ValueError("state must be a dict from a cuarray Philox (bit_generator 'Philox4x32')")
        key = int(value["state"]["key"])
        self._key = (key & 0xFFFFFFFF, key >> 32)
        self._draw = int(value["state"]["counter"])

    def advance(self, delta: int):
        """Skip `delta` draws (calls), as if that many had been made."""
        self._draw += int(delta)
        return self

    def jumped(self, jumps: int = 1):
        """A copy whose draw counter is `jumps` * 2**48 draws ahead (a disjoint block of draws)."""
        new = Philox.__new__(Philox)
        new._seed_seq, new._key, new._draw = self._seed_seq, self._key, self._draw + int(jumps) * 2**48
        return new

    def spawn(self, n_children: int) -> list:
        """See `numpy.random.BitGenerator.spawn`."""
        if self._seed_seq is None:
            raise TypeError("The underlying SeedSequence does not implement spawning (set by key=).")
        return [Philox(s) for s in self._seed_seq.spawn(n_children)]

    def __repr__(self):
        return "Philox4x32(key={:#x}, draw={})".format(self._key[0] | (self._key[1] << 32), self._draw)


class _CuPyName(Philox):
    """A CuPy bit generator's name over cuarray's Philox4x32-10: code written for CuPy's
    `Generator(XORWOW(seed))` runs with the same statistical contract (independent uniform 32-bit
    words), but the streams are not bit-identical to CuPy's cuRAND ones (docs/random.md). `size`
    (CuPy's number of cuRAND states) is accepted and has no meaning here."""

    def __init__(self, seed=None, *, size=-1):
        super().__init__(seed)


class XORWOW(_CuPyName):
    """CuPy's `cupy.random.XORWOW` name; Philox4x32-10 underneath (see `_CuPyName`).

    Examples
    --------
    >>> import cuarray
    >>> rng = cuarray.random.Generator(cuarray.random.XORWOW(0))   # code written for CuPy runs
    >>> isinstance(rng.bit_generator, cuarray.random.Philox)   # cuarray's Philox underneath
    True
    """


class MRG32k3a(_CuPyName):
    """CuPy's `cupy.random.MRG32k3a` name; Philox4x32-10 underneath (see `_CuPyName`).

    Examples
    --------
    >>> import cuarray
    >>> rng = cuarray.random.Generator(cuarray.random.MRG32k3a(0))   # code written for CuPy runs
    >>> isinstance(rng.bit_generator, cuarray.random.Philox)   # cuarray's Philox underneath
    True
    """


class Philox4x3210(_CuPyName):
    """CuPy's `cupy.random.Philox4x3210` name: the same algorithm as cuarray's Philox, but keyed
    and counted as cuarray's (see `Philox`), so not CuPy's stream.

    Examples
    --------
    >>> import cuarray
    >>> rng = cuarray.random.Generator(cuarray.random.Philox4x3210(0))   # code written for CuPy runs
    >>> isinstance(rng.bit_generator, cuarray.random.Philox)   # cuarray's Philox underneath
    True
    """
