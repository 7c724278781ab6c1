"""scipy.optimize.linear_sum_assignment case (group "optimize"): cuarray's auction on the device
against SciPy's Jonker-Volgenant on the host ("numpy" column) in the same run, on a square cost
matrix of uniform random float64 costs in [0, 1), n = 8192 and n / 4 = 2048 (quick: 2048 and
512). CuPy n/a: cupyx has no scipy.optimize. Each call returns the assignment as a user's call
does (cuarray reads back one count per bidding round)."""

from __future__ import annotations

import numpy

from . import register, scipy_module

lsap = register(
    "optimize-lsap", group="optimize",
    description="linear_sum_assignment of an m x m float64 cost matrix, uniform random in [0, 1)",
    size=8192, quick=2048, params=(4, 1), param_label=lambda d: "n/4" if d == 4 else "n", timing="host",
)


def costs(xp, m, seed=73):
    """The m x m cost matrix on xp's device."""
    return xp.asarray(numpy.random.default_rng(seed).random((m, m)))


@lsap.setup("cuarray", "numpy")
def _(xp, n, divisor):
    c = costs(xp, n // divisor)
    opt = scipy_module(xp, "optimize")
    return lambda: opt.linear_sum_assignment(c)
