"""Signal cases of issue 52 (group "signal"): `czt` (Bluestein: three FFTs of a 7-smooth length
>= 2n - 1) and `cspline1d` (two first-order recursions as the parallel lfilter scan, and one
weighted sum) of float64 signals of n samples, cuarray against cupyx.scipy.signal and SciPy on the
host ("numpy" column) in the same run. Bytes counted: the input read and the output written once
(czt: 8 + 16 bytes a sample, its output complex; cspline1d: 8 + 8), so the fraction of the copy
rate says how far each is from one pass over memory. PyTorch has neither."""

from __future__ import annotations

import importlib

from . import NotAvailable, random_array, register


def _signal(xp):
    name = getattr(xp, "__name__", "")
    full = {"cuarray": "cuarray.scipy.signal", "cupy": "cupyx.scipy.signal", "numpy": "scipy.signal"}.get(name)
    if full is None:
        raise NotAvailable("no scipy.signal for {}".format(name))
    try:
        return importlib.import_module(full)
    except ImportError as exc:
        raise NotAvailable("{}: {}".format(full, exc)) from None


czt = register(
    "czt", group="signal",
    description="signal.czt(x) of float64 x (n samples, m = n points on the unit circle)",
    size=10**7, quick=10**6,
    nbytes=lambda n, p: 24.0 * n,
)


@czt.setup("cuarray", "cupy", "numpy")
def _(xp, n, param):
    sig = _signal(xp)
    x = random_array(xp, n, "float64", seed=52)
    return lambda: sig.czt(x)


cspline = register(
    "cspline1d", group="signal",
    description="signal.cspline1d(x) of float64 x (n samples): the interpolating cubic spline's coefficients",
    size=10**7, quick=10**6,
    nbytes=lambda n, p: 16.0 * n,
)


@cspline.setup("cuarray", "cupy", "numpy")
def _(xp, n, param):
    sig = _signal(xp)
    x = random_array(xp, n, "float64", seed=53)
    return lambda: sig.cspline1d(x)
