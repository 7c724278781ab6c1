"""`CensoredData` (SciPy's scipy/stats/_censored_data.py) holding device arrays: the
uncensored, left-, right- and interval-censored observations, validated as SciPy validates them
(one stacked read of the checks' flags per construction, plus the sizes of the boolean
selections that split an `interval` argument), for `rv_continuous.fit`'s censored likelihood."""

from __future__ import annotations

from types import GenericAlias

import numpy

from ..._core.host_input import as_literal_or_array
from ..._core.transfer import to_host
from ..._creation.basic import empty
from ..._logic.content import isfinite, isinf, isnan
from ..._logic.ops import logical_and, logical_not
from ..._logic.truth import all as all_
from ..._logic.truth import any as any_
from ..._manipulation.joining import column_stack, concatenate, stack
from ..._statistics.averages import mean

_NAME = "scipy.stats.CensoredData"


def _raise_first(checks):
    """Raise ValueError with the message of the first failed check, in SciPy's order: each check
    is (flag, message), the flag a host bool or a 0-d device bool; the device flags come back in
    one read."""
    device = [flag for flag, _ in checks if not isinstance(flag, bool)]
    read = iter(bool(v) for v in to_host(stack(device))) if device else iter(())  # the one read
    for flag, msg in checks:
        if flag if isinstance(flag, bool) else next(read):
            raise ValueError(msg)


def _checks_1d(a, name, checks, allow_inf=False):
    """SciPy's `_validate_1d`: the checks of `a` appended to `checks`; False at a shape error."""
    if a.ndim != 1:
        checks.append((True, "`{}` must be a one-dimensional sequence.".format(name)))
        return False
    if a.shape[0]:  # nothing to check (and no pass) in an empty one
        checks.append((any_(isnan(a)), "`{}` must not contain nan.".format(name)))
        if not allow_inf:
            checks.append((any_(isinf(a)), "`{}` must contain only finite values.".format(name)))
    return True


def _checks_interval(interval, checks):
    """SciPy's `_validate_interval`'s checks; the (m, 2) array, or None at a shape error."""
    if interval.shape == (0,):
        interval = interval.reshape((0, 2))
    if interval.ndim != 2 or interval.shape[-1] != 2:
        checks.append((True, "`interval` must be a two-dimensional array with shape (m, 2), where m is the number "
                             "of interval-censored values, but got shape {}".format(tuple(interval.shape))))
        return None
    if interval.shape[0]:
        lo, hi = interval[:, 0], interval[:, 1]
        checks.append((any_(isnan(interval)), "`interval` must not contain nan."))
        checks.append((any_(logical_and(isinf(lo), isinf(hi))),
                       "In each row in `interval`, both values must not be infinite."))
        checks.append((any_(lo > hi), "In each row of `interval`, the left value must not exceed the right value."))
    return interval


def _split_interval(interval):
    """The rows of a checked (m, 2) interval array as (uncensored, left, right, interval)."""
    if not interval.shape[0]:
        return interval[:, 0], interval[:, 1], interval[:, 0], interval
    lo, hi = interval[:, 0], interval[:, 1]
    same = lo == hi
    finite = logical_and(logical_and(isfinite(lo), isfinite(hi)), logical_not(same))
    return lo[same], hi[isinf(lo)], lo[isinf(hi)], interval[finite]


def _device(a, name):
    if a is None:
        return empty((0,), dtype=numpy.float64)
    return as_literal_or_array(a, "{}({}=)".format(_NAME, name))


def _array_repr(a):
    return " ".join(numpy.array_repr(numpy.asarray(to_host(a))).split())


class CensoredData:
    """See `scipy.stats.CensoredData`: the observations are device arrays (a NumPy array raises
    TypeError, as cuarray's other routines; Python lists are copied). Only `fit` of the
    continuous distributions takes it.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> data = stats.CensoredData(uncensored=cuarray.array([1., 2.]), right=cuarray.array([5.]))
    >>> int(data.num_censored())
    1
    """

    __class_getitem__: classmethod = classmethod(GenericAlias)

    def __init__(self, uncensored=None, *, left=None, right=None, interval=None):
        arrays = [_device(a, n) for a, n in ((uncensored, "uncensored"), (left, "left"), (right, "right"))]
        interval = empty((0, 2), dtype=numpy.float64) if interval is None else _device(interval, "interval")
        checks = []
        ok = all(_checks_1d(a, n, checks) for a, n in zip(arrays, ("uncensored", "left", "right")))
        interval = _checks_interval(interval, checks) if ok else None
        _raise_first(checks)
        parts = _split_interval(interval)
        self._uncensored, self._left, self._right = (concatenate((a, b)) for a, b in zip(arrays, parts))
        # only finite intervals of nonzero length, as SciPy's
        self._interval = parts[3]

    def __repr__(self):
        return "CensoredData(uncensored={}, left={}, right={}, interval={})".format(
            *(_array_repr(a) for a in (self._uncensored, self._left, self._right, self._interval)))

    def __str__(self):
        num_nc, num_lc, num_rc, num_ic = (a.shape[0] for a in (self._uncensored, self._left, self._right,
                                                                 self._interval))
        parts = ["{} not censored".format(num_nc)]
        for k, what in ((num_lc, "left"), (num_rc, "right"), (num_ic, "interval")):
            if k > 0:
                parts.append("{} {}-censored".format(k, what))
        return "CensoredData({} values: ".format(num_nc + num_lc + num_rc + num_ic) + ", ".join(parts) + ")"

    def __sub__(self, other):
        return CensoredData(uncensored=self._uncensored - other, left=self._left - other,
                            right=self._right - other, interval=self._interval - other)

    def __truediv__(self, other):
        return CensoredData(uncensored=self._uncensored / other, left=self._left / other,
                            right=self._right / other, interval=self._interval / other)

    def __len__(self):
        """The number of values (censored and not censored)."""
        return self._uncensored.shape[0] + self.num_censored()

    def num_censored(self):
        """Number of censored values."""
        return self._left.shape[0] + self._right.shape[0] + self._interval.shape[0]

    @classmethod
    def right_censored(cls, x, censored):
        """See `scipy.stats.CensoredData.right_censored`."""
        x, censored = _x_censored(x, censored)
        return cls(uncensored=x[logical_not(censored)], right=x[censored])

    @classmethod
    def left_censored(cls, x, censored):
        """See `scipy.stats.CensoredData.left_censored`."""
        x, censored = _x_censored(x, censored)
        return cls(uncensored=x[logical_not(censored)], left=x[censored])

    @classmethod
    def interval_censored(cls, low, high):
        """See `scipy.stats.CensoredData.interval_censored`."""
        low, high = _device(low, "low"), _device(high, "high")
        checks = []
        if _checks_1d(low, "low", checks, allow_inf=True) and _checks_1d(high, "high", checks, allow_inf=True):
            if low.shape[0] != high.shape[0]:
                checks.append((True, "`low` and `high` must have the same length."))
        _raise_first(checks)
        interval = column_stack((low, high))
        checks = []
        _checks_interval(interval, checks)
        _raise_first(checks)
        uncensored, left, right, interval = _split_interval(interval)
        return cls(uncensored=uncensored, left=left, right=right, interval=interval)

    def _uncensor(self):
        """The endpoints of the left- and right-censored values and the midpoints of the intervals
        with the uncensored values: data for a rough (moment) estimate of the parameters."""
        mids = mean(self._interval, axis=1) if self._interval.shape[0] else self._interval[:, 0].astype(numpy.float64)
        return concatenate((self._uncensored, self._left, self._right, mids))

    def _supported(self, a, b):
        """The values in (or overlapping) the interval (a, b)."""
        u, lo, hi = self._uncensored, self._interval[:, 0], self._interval[:, 1]
        return CensoredData(u[logical_and(a < u, u < b)], left=self._left[a < self._left],
                            right=self._right[self._right < b],
                            interval=self._interval[logical_and(a < hi, lo < b)])


def _x_censored(x, censored):
    """SciPy's `_validate_x_censored`: x finite and 1-D, `censored` 1-D of x's length (as bool)."""
    x, censored = _device(x, "x"), _device(censored, "censored")
    if x.ndim != 1:
        raise ValueError("`x` must be one-dimensional.")
    if censored.ndim != 1:
        raise ValueError("`censored` must be one-dimensional.")
    _raise_first([(logical_not(all_(isfinite(x))), "`x` must not contain nan or inf.")])
    if censored.size != x.size:
        raise ValueError("`x` and `censored` must have the same length.")
    return x, censored.astype(bool)
