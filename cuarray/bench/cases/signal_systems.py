"""Signal cases (group "signal"): `lfilter` of an order-8 IIR filter along a batch of
1024 float64 signals of 1e5 samples, `sosfilt` (4 sections, the same order) at the same size,
`freqz` of an order-8 IIR filter at 1e6 frequencies, and `lsim` of an order-10 single-input system
over 1e6 steps (float64). cuarray.scipy.signal against cupyx.scipy.signal in the same run, and
scipy.signal on the host in the NumPy column where it finishes in reasonable time (`quick` sizes
for the filters; lsim's Python loop over 1e6 steps is n/a). Bytes counted: one read and one write
of the signal (lfilter, sosfilt, lsim's input and output), the response's 16 bytes a point for
freqz. PyTorch has none of these operations."""

from __future__ import annotations

import math

from . import NotAvailable, random_array, register, scipy_module


def _signal(xp):
    return scipy_module(xp, "signal")


def _order8():
    """A stable order-8 low-pass: eight poles at z = 0.5 (exact binary coefficients), unit gain at DC."""
    import numpy

    a = numpy.array([math.comb(8, k) * (-0.5) ** k for k in range(9)])
    return numpy.full(9, a.sum() / 9), a


def _host_too_slow(xp, n):
    if getattr(xp, "__name__", "") == "numpy" and n > 20000:
        raise NotAvailable("too slow on the host at this size (run --quick)")


lfb = register(
    "lfilter-batch", group="signal",
    description="signal.lfilter(b, a, x) of an order-8 IIR filter along 1024 float64 signals of n samples",
    size=100000, quick=10000, nbytes=lambda n, p: 16.0 * 1024 * n,
)


@lfb.setup("cuarray", "cupy", "numpy")
def _(xp, n, param):
    _host_too_slow(xp, n)
    sig = _signal(xp)
    b, a = _order8()
    x = random_array(xp, (1024, n), "float64", seed=52)
    bb, aa = xp.asarray(b), xp.asarray(a)
    return lambda: sig.lfilter(bb, aa, x)


sosb = register(
    "sosfilt-batch", group="signal",
    description="signal.sosfilt(sos, x) of 4 second-order sections along 1024 float64 signals of n samples",
    size=100000, quick=10000, nbytes=lambda n, p: 16.0 * 1024 * n,
)


@sosb.setup("cuarray", "cupy", "numpy")
def _(xp, n, param):
    import numpy

    _host_too_slow(xp, n)
    sig = _signal(xp)
    # four identical sections (1 - 0.5 z^-1)^-2, each with unit gain at DC: no SciPy needed to set up
    sos = numpy.tile([[0.25, 0.0, 0.0, 1.0, -1.0, 0.25]], (4, 1))
    x = random_array(xp, (1024, n), "float64", seed=53)
    s = xp.asarray(sos)
    return lambda: sig.sosfilt(s, x)


fz = register(
    "freqz", group="signal",
    description="signal.freqz(b, a, worN=n) of an order-8 IIR filter (float64)",
    size=1000000, quick=100000, nbytes=lambda n, p: 16.0 * n,
)


@fz.setup("cuarray", "cupy", "numpy")
def _(xp, n, param):
    sig = _signal(xp)
    b, a = _order8()
    bb, aa = xp.asarray(b), xp.asarray(a)
    return lambda: sig.freqz(bb, aa, worN=n)


ls = register(
    "lsim", group="signal",
    description="signal.lsim((A, B, C, D), u, t) of an order-10 single-input system over n steps (float64)",
    size=1000000, quick=100000, nbytes=lambda n, p: 16.0 * n,
)


@ls.setup("cuarray", "cupy", "numpy")
def _(xp, n, param):
    import numpy

    if getattr(xp, "__name__", "") == "numpy" and n > 100000:
        raise NotAvailable("SciPy's Python loop over the steps: too slow at this size (run --quick)")
    sig = _signal(xp)
    rng = numpy.random.default_rng(54)
    A = rng.normal(size=(10, 10))
    A -= (max(numpy.linalg.eigvals(A).real) + 0.5) * numpy.eye(10)  # stable
    B, C, D = rng.normal(size=(10, 1)), rng.normal(size=(1, 10)), numpy.zeros((1, 1))
    t = xp.asarray(numpy.arange(n) * 1e-3)
    u = random_array(xp, n, "float64", seed=55)
    return lambda: sig.lsim((A, B, C, D), u, t)
