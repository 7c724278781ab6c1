"""scipy.optimize cases (group "optimize"), nonlinear least squares of many independent fits.

- lsq-exp-fits: 1e4 independent fits of ``y = a exp(-b t) + c`` (3 parameters, 50 points each,
  noisy data from random true parameters), from (1, 1, 0) with the analytic Jacobian at
  ftol = xtol = gtol = 1e-10: cuarray's `least_squares_batched` (every fit its own damping and
  stopping, one batched solve a step, one host read a step) against `scipy.optimize.least_squares`
  on the host one fit at a time, timed on a sample of 100 fits and scaled to the batch (the fits
  are independent, so the host's time is linear in their number); the NumPy cell's extras give
  the sample. CuPy has no scipy.optimize (cupyx.scipy has none). Timing "process": each callable
  times itself; cuarray's call ends with its host reads, so its device work is done.
"""

from __future__ import annotations

import time

import numpy

from . import NotAvailable, register, sampled_host, scipy_module

BATCH = 10**4
SAMPLE = 100
M = 50
TOL = dict(ftol=1e-10, xtol=1e-10, gtol=1e-10)


def fits(batch, seed=71):
    """(t (M,), y (batch, M)) on the host: noisy exponentials with random parameters."""
    rng = numpy.random.default_rng(seed)
    t = numpy.linspace(0.0, 4.0, M)
    p = numpy.stack([rng.uniform(2, 3, batch), rng.uniform(0.7, 1.5, batch), rng.uniform(-1, 1, batch)], axis=1)
    y = p[:, :1] * numpy.exp(-p[:, 1:2] * t) + p[:, 2:] + 0.05 * rng.standard_normal((batch, M))
    return t, y


def batched(xp):
    """(fun, jac) of the whole batch: rows are fits."""
    def fun(x, t, y):
        return x[:, :1] * xp.exp(-x[:, 1:2] * t) + x[:, 2:] - y

    def jac(x, t, y):
        e = xp.exp(-x[:, 1:2] * t)
        return xp.stack([e, -x[:, :1] * t * e, xp.ones_like(e)], axis=2)
    return fun, jac


def one():
    """(fun, jac) of one fit, for SciPy."""
    def fun(x, t, y):
        return x[0] * numpy.exp(-x[1] * t) + x[2] - y

    def jac(x, t, y):
        e = numpy.exp(-x[1] * t)
        return numpy.stack([e, -x[0] * t * e, numpy.ones_like(e)], axis=1)
    return fun, jac


exp_fits = register(
    "lsq-exp-fits", group="optimize",
    description="least squares of 1e4 independent exponential fits, 50 points each (host: a sample, scaled)",
    size=3, quick=1, timing="process",
    size_label=lambda runs: "1e4 fits",
)


@exp_fits.setup("cuarray", "numpy")
def _(xp, runs, param, batch=BATCH, sample=SAMPLE):
    optimize = scipy_module(xp, "optimize")
    t, y = fits(batch)
    if getattr(xp, "__name__", "") == "numpy":
        fun, jac = one()
        return sampled_host(lambda i: optimize.least_squares(fun, [1.0, 1.0, 0.0], jac=jac, args=(t, y[i]), **TOL),
                            batch, sample)
    if not hasattr(optimize, "least_squares_batched"):
        raise NotAvailable("no least_squares_batched")
    fun, jac = batched(xp)
    td, yd = xp.asarray(t), xp.asarray(y)
    x0 = xp.asarray(numpy.tile([1.0, 1.0, 0.0], (batch, 1)))
    optimize.least_squares_batched(fun, x0[:8], jac=jac, args=(td, yd[:8]), **TOL)  # compiles the kernels

    def device():
        start = time.perf_counter()
        res = optimize.least_squares_batched(fun, x0, jac=jac, args=(td, yd), **TOL)
        return {"time_s": time.perf_counter() - start, "success": float(res.success.mean())}

    return device
