"""Scan cases (docs/bench-targets.md "scan"): cumsum of 1 GiB float32, and cumsum along each axis of a
16384 x 16384 float32 matrix. Bytes counted: the input read once and the output written once, so
the fraction of the copy rate compares with a device copy of the same traffic (target >= 0.8)."""

from __future__ import annotations

from . import random_array, register

GIB = 2**30


def _cumsum(xp, x, axis):
    if getattr(xp, "__name__", "") == "torch":
        return lambda: xp.cumsum(x, dim=0 if axis is None else axis)
    f = xp.cumsum
    return lambda: f(x, axis=axis)


scan = register(
    "scan", group="scan",
    description="cumsum of a 1 GiB float32 array (read + write)",
    size=GIB, quick=GIB // 4, params=("cumsum",),
    nbytes=lambda n, p: 2 * n,
    size_label=lambda n: "{} MiB".format(n // 2**20),
)


@scan.setup("cuarray", "cupy", "torch")
def _(xp, nbytes, param):
    x = random_array(xp, nbytes // 4, "float32", seed=11)
    return _cumsum(xp, x, None)


scan_axis = register(
    "scan-axis", group="scan",
    description="cumsum(axis=0) and cumsum(axis=1) of a 16384x16384 float32 matrix (read + write)",
    size=16384, quick=8192, params=("axis=0", "axis=1"),
    nbytes=lambda n, p: 2 * 4 * n * n,
    size_label=lambda n: "{0}x{0} f32".format(n),
)


@scan_axis.setup("cuarray", "cupy", "torch")
def _(xp, n, param):
    x = random_array(xp, (n, n), "float32", seed=12)
    return _cumsum(xp, x, 0 if param == "axis=0" else 1)
