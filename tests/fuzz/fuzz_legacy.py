"""The first generation of the fuzzer's draws, kept to re-make the cases fuzz_regressions.CASES
lists by (row, seed, index): a case is its draws, so the values those bugs were found with come
only from the generators of then. fuzz_values.GENERATION = 1 (fuzz_values.generation(1)) selects
them; every other run draws with the current generators (fuzz_values, generation 2)."""

from __future__ import annotations

import math

import numpy as np

_EDGE_FLOATS = (0.0, -0.0, 1.0, -1.0, np.nan, np.inf, -np.inf, 0.5, 1e-30, -1e30, 2.0)


def random_values(rng, shape, dtype, edges=True):
    """Fresh random values of `dtype` (never all zeros), some replaced by the dtype's edge values."""
    n = math.prod(shape)
    k = dtype.kind
    # (generation 1 had no "finite" level, whose rows drew no edge values, and no "dups": edge values)
    edges = edges is True or edges == "dups"
    if k == "b":
        v = rng.random(n) < 0.5
    elif k in "iu":
        info = np.iinfo(dtype)
        lo, hi = (-9, 10) if k == "i" else (0, 20)
        v = rng.integers(lo, hi, n).astype(dtype)
        if edges and n and rng.random() < 0.3:
            pos = rng.integers(0, n, max(1, n // 4))
            v[pos] = rng.choice(np.array([info.min, info.max, 0, 1, info.max // 2], dtype=dtype), len(pos))
    else:
        real = np.finfo(dtype).dtype if k == "c" else dtype
        v = (rng.standard_normal(n) * 3).astype(real)
        if k == "c":
            v = v + 1j * (rng.standard_normal(n) * 3).astype(real)
            v = v.astype(dtype)
        if edges and n and rng.random() < 0.3:
            pos = rng.integers(0, n, max(1, n // 4))
            with np.errstate(all="ignore"):
                v[pos] = np.array(rng.choice(_EDGE_FLOATS, len(pos))).astype(dtype)
    return v.reshape(shape)


def array_shape(rng, kind, max_ndim):
    """Generation 1's shapes of the matrix kinds "m" and "sq"."""
    if kind == "m":
        shp = tuple(int(rng.choice((0, 1, 1, 2, 3, 3, 4, 5, 7))) for _ in range(
            int(rng.choice([2, 2, 3] if max_ndim > 2 else [2]))))
        return shp[:-2] + tuple(max(1, d) for d in shp[-2:]) if rng.random() < 0.9 else shp
    n = int(rng.choice([1, 2, 3, 4, 5]))
    return (int(rng.choice([2, 3])),) * int(rng.random() < 0.3) + (n, n)
