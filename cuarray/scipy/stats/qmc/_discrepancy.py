"""The discrepancies of a sample in the unit hypercube (Fang, Li & Sudjianto 2006; Zhou, Fang &
Ning 2013 for the mixture discrepancy; Hickernell 1998 for the centered and wrap-around L2 ones),
as SciPy's `_qmc_cy` defines them: a sum over the points and a sum over every pair of points of a
product over the dimensions. The pair sum is formed on the device block by block of rows
((rows, n, d) temporaries, no n^2 d memory); and `scale` to and from given bounds."""

from __future__ import annotations

import numpy

from ...._core.host_input import as_literal_or_array, as_parameter
from ...._logic.truth import all as all_
from ...._logic.truth import any as any_
from ...._manipulation.dims import broadcast_to
from ...._manipulation.joining import stack
from ...._math.extrema import maximum
from ...._math.misc import abs as abs_
from ...._math.misc import sqrt
from ...._math.sums import prod
from ...._math.sums import sum as sum_

__all__ = ["discrepancy", "scale"]

_BLOCK = 1 << 22  # elements of one (rows, n, d) temporary of the pair sums
_METHODS = ("CD", "WD", "MD", "L2-star")


def _pair(a, b, method):
    """The factor of dimension k for the pairs of rows of a (rows, 1, d) and b (1, n, d)."""
    dab = abs_(a - b)
    if method == "CD":
        return 1 + 0.5 * abs_(a - 0.5) + 0.5 * abs_(b - 0.5) - 0.5 * dab
    if method == "WD":
        return 1.5 - dab + dab ** 2
    if method == "MD":
        return 15.0 / 8.0 - 0.25 * abs_(a - 0.5) - 0.25 * abs_(b - 0.5) - 0.75 * dab + 0.5 * dab ** 2
    return 1 - maximum(a, b)


def _single(x, method):
    """The factor of dimension k for each point (the sum over points' term)."""
    c = abs_(x - 0.5)
    if method == "CD":
        return 1 + 0.5 * c - 0.5 * c ** 2
    if method == "MD":
        return 5.0 / 3.0 - 0.25 * c - 0.25 * c ** 2
    return 1 - x ** 2  # L2-star


def _unit(sample, fn):
    sample = as_literal_or_array(sample, fn)
    if sample.ndim != 2:
        raise ValueError("Sample is not a 2D array")
    return sample.astype(numpy.float64)


def discrepancy(sample, *, iterative=False, method="CD", workers=1):
    """See `scipy.stats.qmc.discrepancy`. The pair sum is O(n^2 d) device work, in blocks of
    rows; `workers` is checked as SciPy's and otherwise unused (the device is the parallelism).
    One host read checks that the sample lies in the unit hypercube; the result is a 0-d device
    array.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.stats import qmc
    >>> space = cuarray.array([[1., 3], [2, 6], [3, 2], [4, 5], [5, 1], [6, 4]])
    >>> space = qmc.scale(space, [0.5, 0.5], [6.5, 6.5], reverse=True)
    >>> round(float(qmc.discrepancy(space)), 6)
    0.008142
    """
    sample = _unit(sample, "discrepancy")
    if bool(any_(stack([sample.max() > 1.0, sample.min() < 0.0])).get()):  # the one read
        raise ValueError("Sample is not in unit hypercube")
    if workers != -1 and workers <= 0:
        raise ValueError(f"Invalid number of workers: {workers}, must be -1 or > 0")
    if method not in _METHODS:
        raise ValueError(f"{method!r} is not a valid method. It must be one of {set(_METHODS)!r}")
    n, d = sample.shape
    rows = max(1, _BLOCK // max(n * d, 1))
    pairs = 0.0
    for i in range(0, n, rows):
        pairs = pairs + sum_(prod(_pair(sample[i:i + rows, None, :], sample[None, :, :], method), axis=-1))
    m = n + 1 if iterative else n
    if method == "WD":
        return -(4.0 / 3.0) ** d + pairs / m ** 2
    single = sum_(prod(_single(sample, method), axis=-1))
    if method == "CD":
        return (13.0 / 12.0) ** d - 2.0 / m * single + pairs / m ** 2
    if method == "MD":
        return (19.0 / 12.0) ** d - 2.0 / m * single + pairs / m ** 2
    return sqrt(3.0 ** -d - 1.0 / m * 2.0 ** (1 - d) * single + pairs / m ** 2)


def scale(sample, l_bounds, u_bounds, *, reverse=False):
    """See `scipy.stats.qmc.scale`. One host read checks the bounds and that the sample lies in
    the unit hypercube (or, with `reverse`, within the bounds).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.stats import qmc
    >>> sample = cuarray.array([[0.5, 0.75], [0.5, 0.5], [0.75, 0.25]])
    >>> qmc.scale(sample, [-2, 0], [6, 5])
    array([[2.  , 3.75],
           [2.  , 2.5 ],
           [4.  , 1.25]])
    """
    sample = as_literal_or_array(sample, "scale")
    if sample.ndim != 2:
        raise ValueError("Sample is not a 2D array")
    d = sample.shape[1]
    try:
        lower = broadcast_to(as_parameter(l_bounds, "scale"), (d,))
        upper = broadcast_to(as_parameter(u_bounds, "scale"), (d,))
    except ValueError as exc:
        raise ValueError("'l_bounds' and 'u_bounds' must be broadcastable and respect the sample dimension") from exc
    if reverse:
        inside = all_(sample >= lower) & all_(sample <= upper)
    else:
        inside = ~((sample.max() > 1.0) | (sample.min() < 0.0))  # NaN passes, as SciPy's
    ok = stack([all_(lower < upper), inside]).get()  # the one read
    if not ok[0]:
        raise ValueError("Bounds are not consistent 'l_bounds' < 'u_bounds'")
    if not ok[1]:
        raise ValueError("Sample is out of bounds" if reverse else "Sample is not in unit hypercube")
    if reverse:
        return (sample - lower) / (upper - lower)
    return sample * (upper - lower) + lower
