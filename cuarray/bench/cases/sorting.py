"""Sorting: sort and argsort of 64 Mi float32, sort of 64 Mi int64 (full-range random
keys: no digit pass can be skipped), sort(axis=-1) of 16384 x 4096 float32 (rows sorted by one
block each). Bytes counted: the radix bound, passes x (read + write) of keys (and argsort's
int32 positions) plus the histogram read (and argsort's position fill and int64 widening): 36 B
per float32 key, 84 B per argsort key, 136 B per int64 key; one read and one write per row key.
Keys per second = size / time."""

from __future__ import annotations

import numpy

from . import register


def _to(xp, host):
    if getattr(xp, "__name__", "") == "torch":
        return xp.from_numpy(host).cuda()
    return xp.asarray(host)


def _floats(n, seed):
    return numpy.random.default_rng(seed).random(n, dtype=numpy.float32)


sort_f32 = register("sort-f32", group="sort", description="sort of float32 (uniform [0, 1))",
                    size=64 * 2**20, quick=2**22, nbytes=lambda n, p: 36 * n)


@sort_f32.setup("cuarray", "cupy")
def _(xp, n, param):
    x = _to(xp, _floats(n, 1))
    return lambda: xp.sort(x)


@sort_f32.setup("torch")
def _(torch, n, param):
    x = _to(torch, _floats(n, 1))
    return lambda: torch.sort(x, stable=True).values


argsort_f32 = register("argsort-f32", group="sort", description="argsort of float32 (int64 result)",
                       size=64 * 2**20, quick=2**22, nbytes=lambda n, p: 84 * n)


@argsort_f32.setup("cuarray", "cupy")
def _(xp, n, param):
    x = _to(xp, _floats(n, 2))
    return lambda: xp.argsort(x)


@argsort_f32.setup("torch")
def _(torch, n, param):
    x = _to(torch, _floats(n, 2))
    return lambda: torch.argsort(x, stable=True)


sort_i64 = register("sort-i64", group="sort", description="sort of int64, full-range random keys",
                    size=64 * 2**20, quick=2**22, nbytes=lambda n, p: 136 * n)


@sort_i64.setup("cuarray", "cupy", "torch")
def _(xp, n, param):
    rng = numpy.random.default_rng(3)
    x = _to(xp, rng.integers(-2**63, 2**63 - 1, n, dtype=numpy.int64, endpoint=True))
    if getattr(xp, "__name__", "") == "torch":
        return lambda: xp.sort(x, stable=True).values
    return lambda: xp.sort(x)


sort_rows = register("sort-rows", group="sort", description="sort(axis=-1) of 16384 x 4096 float32",
                     size=(16384, 4096), quick=(2048, 4096), nbytes=lambda s, p: 8 * s[0] * s[1])


@sort_rows.setup("cuarray", "cupy")
def _(xp, shape, param):
    x = _to(xp, _floats(shape[0] * shape[1], 4).reshape(shape))
    return lambda: xp.sort(x, axis=-1)


@sort_rows.setup("torch")
def _(torch, shape, param):
    x = _to(torch, _floats(shape[0] * shape[1], 4).reshape(shape))
    return lambda: torch.sort(x, dim=-1, stable=True).values
