"""`qmc_quad`: quasi-Monte Carlo quadrature over a box, the integrand evaluated on the device.

SciPy 1.18's algorithm (scipy/integrate/_quadrature.py): `n_estimates` independently scrambled
point sets of `n_points` each, every estimate the mean of the integrand times the volume, the
result their mean and the standard error of that mean. cuarray has no `scipy.stats.qmc`: the
points come from SciPy's engine (`qrng`, a `scipy.stats.qmc.QMCEngine`; Halton by default) on
the host, with SciPy's re-scrambling between estimates, so the points are SciPy's. Each set is
scaled on the host and copied once; `func` is called on the device array (dim, n_points), the
estimates stay on the device, and nothing is read back.
"""

import math
import warnings
from collections import namedtuple

import numpy

from ..._core.host_input import as_array, as_parameter
from ..._core.transfer import to_host
from ..._manipulation.joining import stack
from ..._math.complex import real
from ..._math.sums import sum as sum_
from ..._statistics.averages import mean, std
from ._tanhsinh import _logsumexp

__all__ = ["qmc_quad"]

QMCQuadResult = namedtuple("QMCQuadResult", ["integral", "standard_error"])


def _spawn(rng, n):
    """Independent child generators of `rng`'s seed sequence (SciPy's `_rng_spawn`)."""
    bg = rng.bit_generator
    return [numpy.random.Generator(type(bg)(child)) for child in bg.seed_seq.spawn(n)]


def _validate(func, a, b, n_points, n_estimates, qrng, log):
    """SciPy's `_qmc_quad_iv`: its checks and messages; `func` must take device arrays."""
    from scipy.stats import qmc  # optional dependency: the host engines of the points  # noqa: PLC0415

    if not callable(func):
        raise TypeError("`func` must be callable.")
    fn = "scipy.integrate.qmc_quad"
    ah, bh = (numpy.asarray(to_host(as_parameter(v, fn))) for v in (a, b))  # one read of the limits
    dt = numpy.result_type(ah.dtype, bh.dtype)
    dt = dt if dt.kind == "f" else numpy.result_type(dt, numpy.float64)
    ah, bh = numpy.broadcast_arrays(numpy.atleast_1d(ah.astype(dt)), numpy.atleast_1d(bh.astype(dt)))
    ah, bh = ah.copy(), bh.copy()
    try:
        func(as_parameter((ah + bh) / 2, fn))
    except Exception as e:
        raise ValueError("`func` must evaluate the integrand at points within the integration range; e.g. "
                         "`func( (a + b) / 2)` must return the integrand at the centroid of the integration "
                         "volume.") from e
    try:
        func(as_parameter(numpy.stack([ah, bh]).T, fn))
    except Exception as e:
        raise ValueError(f"Exception encountered when attempting vectorized call to `func`: {e}. When using "
                         "array library cuarray, `func` must accept two-dimensional array `x` with shape "
                         "`(a.shape[0], n_points)` and return an array of the integrand value at each of the "
                         "`n_points`.") from e
    if n_points != int(n_points):
        raise TypeError("`n_points` must be an integer.")
    if n_estimates != int(n_estimates):
        raise TypeError("`n_estimates` must be an integer.")
    if qrng is None:
        qrng = qmc.Halton(ah.shape[0])
    elif not isinstance(qrng, qmc.QMCEngine):
        raise TypeError("`qrng` must be an instance of scipy.stats.qmc.QMCEngine.")
    if qrng.d != ah.shape[0]:
        raise ValueError("`qrng` must be initialized with dimensionality equal to the number of variables in "
                         "`a`, i.e., `qrng.random().shape[-1]` must equal `a.shape[0]`.")
    if log not in {True, False}:
        raise TypeError("`log` must be boolean (`True` or `False`).")
    return ah, bh, int(n_points), int(n_estimates), qrng


def qmc_quad(func, a, b, *, n_estimates=8, n_points=1024, qrng=None, log=False):
    """See `scipy.integrate.qmc_quad`. The points are SciPy's (`qrng`, a host
    `scipy.stats.qmc.QMCEngine`: cuarray has no `stats.qmc`), scaled on the host and copied once
    per estimate; `func` takes the device array ``(dim, n_points)``. The limits are read once;
    the integral and standard error are 0-d device arrays."""
    fn = "scipy.integrate.qmc_quad"
    a, b, n_points, n_estimates, qrng = _validate(func, a, b, n_points, n_estimates, qrng, log)
    if numpy.any(a == b):
        warnings.warn("A lower limit was equal to an upper limit, so the value of the integral is zero by "
                      "definition.", stacklevel=2)
        return QMCQuadResult(as_parameter(numpy.asarray(-numpy.inf if log else 0, a.dtype), fn),
                             as_parameter(numpy.asarray(0.0, a.dtype), fn))
    swap = b < a
    sign = (-1) ** int(numpy.count_nonzero(swap))
    a, b = numpy.where(swap, b, a), numpy.where(swap, a, b)
    d_a = float(numpy.prod(b - a)) / n_points
    estimates = []
    rngs = _spawn(qrng.rng, n_estimates)
    for i in range(n_estimates):
        sample = numpy.asarray(qrng.random(n_points), dtype=a.dtype)
        x = as_parameter(numpy.ascontiguousarray((sample * (b - a) + a).T), fn)  # (dim, n_points)
        values = as_array(func(x), fn)
        estimates.append(_logsumexp(values.reshape(1, -1))[0] + math.log(d_a) if log else sum_(values * d_a))
        # a fresh, independently scrambled engine, as SciPy makes it (its `_init_quad`: the
        # engine's own constructor keywords)
        qrng = type(qrng)(seed=rngs[i], **qrng._init_quad)
    est = stack(estimates)
    if log:
        m = _logsumexp(est.reshape(1, -1))[0] - math.log(n_estimates)
        diff = _logsumexp(stack([est, m + 0 * est + numpy.pi * 1j], axis=-1))
        s = real(0.5 * (_logsumexp((2 * diff).reshape(1, -1))[0] - math.log(n_estimates - 1)))
        sem = s - 0.5 * math.log(n_estimates)
        return QMCQuadResult(m + numpy.pi * 1j if sign < 0 else m, sem)
    m = mean(est)
    sem = std(est, ddof=1) / math.sqrt(n_estimates)
    return QMCQuadResult(m * sign, sem)
