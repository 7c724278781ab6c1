"""Reduction cases (docs/bench-targets.md): red-full (sum, max, argmax of 1 GiB float32) and red-axis
(sum over axis 0 and over axis 1 of a 16384x16384 float32 matrix).

Bytes counted are the bytes read (the input once; the outputs are negligible), so the fraction
of the copy rate compares the reduction's read stream with a copy's read + write stream.
"""

from __future__ import annotations

from . import register, random_array

GIB = 2**30


def _cuarray_fn(xp, name):
    """cuarray.<name>."""
    return getattr(xp, name)


red_full = register(
    "red-full", group="red-full",
    description="sum, max, argmax of 1 GiB float32 (bytes read)",
    size=GIB, quick=GIB // 4, params=("sum", "max", "argmax"),
    nbytes=lambda n, p: n,
    size_label=lambda n: "{} MiB".format(n // 2**20),
)


@red_full.setup("cuarray", "cupy")
def _(xp, nbytes, param):
    x = random_array(xp, nbytes // 4, "float32", seed=11)
    f = _cuarray_fn(xp, param) if xp.__name__ == "cuarray" else getattr(xp, param)
    return lambda: f(x)


@red_full.setup("torch")
def _(torch, nbytes, param):
    x = random_array(torch, nbytes // 4, "float32", seed=11)
    f = {"sum": torch.sum, "max": torch.max, "argmax": torch.argmax}[param]
    return lambda: f(x)


red_axis = register(
    "red-axis", group="red-axis",
    description="sum(axis=0), sum(axis=1) of a 16384x16384 float32 matrix (bytes read)",
    size=16384, quick=8192, params=(0, 1),
    param_label=lambda p: "sum(axis={})".format(p),
    nbytes=lambda n, p: 4 * n * n,
    size_label=lambda n: "{0}x{0} f32".format(n),
)


@red_axis.setup("cuarray", "cupy")
def _(xp, n, axis):
    x = random_array(xp, (n, n), "float32", seed=12)
    f = _cuarray_fn(xp, "sum") if xp.__name__ == "cuarray" else xp.sum
    return lambda: f(x, axis=axis)


@red_axis.setup("torch")
def _(torch, n, axis):
    x = random_array(torch, (n, n), "float32", seed=12)
    return lambda: torch.sum(x, dim=axis)
