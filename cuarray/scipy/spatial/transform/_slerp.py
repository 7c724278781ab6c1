"""`Slerp`: spherical linear interpolation between consecutive rotations of a `Rotation`."""

from __future__ import annotations

from ...._core.host_input import as_parameter
from ...._math.sums_scan import diff
from ...._sorting.searchsorted import searchsorted
from ...._sorting.searching import where
from . import _quat as Q
from ._rotation import Rotation, _raw

__all__ = ["Slerp"]


class Slerp:
    """See `scipy.spatial.transform.Slerp`. The interval search and the interpolation are device
    work; the range and order checks read one boolean each."""

    def __init__(self, times, rotations):
        if not isinstance(rotations, Rotation):
            raise TypeError("`rotations` must be a `Rotation` instance.")
        if rotations.single or len(rotations) <= 1:
            raise ValueError("`rotations` must be a sequence of at least 2 rotations.")
        q = rotations._quat
        if q.ndim > 2:
            raise ValueError("Rotations with more than 1 leading dimension are not supported.")
        times = as_parameter(times, "Slerp").astype(q.dtype)
        if times.ndim != 1:
            raise ValueError("Expected times to be specified in a 1 dimensional array, got {} dimensions.".format(
                times.ndim))
        if times.shape[0] != len(rotations):
            raise ValueError("Expected number of rotations to be equal to number of timestamps given, got {} "
                             "rotations and {} timestamps.".format(len(rotations), times.shape[0]))
        self.times = times
        self.timedelta = diff(times)
        if bool((self.timedelta <= 0).any()):
            raise ValueError("Times must be in strictly increasing order.")
        self.rotations = _raw(q[:-1])
        self.rotvecs = Q.as_rotvec(Q.compose(Q.inv(q[:-1]), q[1:]))

    def __call__(self, times):
        t = as_parameter(times, "Slerp").astype(self.times.dtype)
        if t.ndim > 1:
            raise ValueError("`times` must be at most 1-dimensional.")
        single = t.ndim == 0
        t = t.reshape(-1)
        ind = searchsorted(self.times, t) - 1
        ind = where(t == self.times[0], 0, ind)
        n = self.rotations._quat.shape[0]
        if t.size and bool(((ind < 0) | (ind > n - 1)).any()):
            lo, hi = (float(x) for x in self.times[::self.times.shape[0] - 1].get())
            raise ValueError("Interpolation times must be within the range [{}, {}], both inclusive.".format(lo, hi))
        alpha = (t - self.times[ind]) / self.timedelta[ind]
        step = Q.from_rotvec(self.rotvecs[ind] * alpha[:, None])
        q = Q.compose(self.rotations._quat[ind], step)
        q = q / Q.norm_last(q, keepdims=True)
        return _raw(q[0] if single else q)
