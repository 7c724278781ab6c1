"""`Rectangle`: the hyperrectangle helper of SciPy's kd-tree module (bounds, volume, split, and
Minkowski distances from points or other rectangles). The bounds are two small device vectors;
the distances are elementwise device work over any number of points (x of shape (..., m)), each
reduced by `distance.minkowski` as SciPy 1.18 reduces them."""

from __future__ import annotations

import numpy

from ..._core.host_input import as_literal_or_array, as_parameter
from ..._core.transfer import to_host
from ..._creation.basic import zeros_like
from ..._math.extrema import maximum, minimum
from ..._math.sums import prod
from ._distance_vec import minkowski

__all__ = ["Rectangle"]


def _norm(delta, p):
    return minkowski(zeros_like(delta), delta, p)


class Rectangle:
    """See `scipy.spatial.Rectangle`. `maxes` and `mins` are float64 device arrays (host
    sequences are copied); `volume` and the distances are device arrays (0-d for one point)."""

    def __init__(self, maxes, mins):
        maxes, mins = as_parameter(maxes, "Rectangle"), as_parameter(mins, "Rectangle")
        self.maxes = maximum(maxes, mins).astype(numpy.float64)
        self.mins = minimum(maxes, mins).astype(numpy.float64)
        self.m, = self.maxes.shape

    def __repr__(self):
        return f"<Rectangle {list(zip(to_host(self.mins), to_host(self.maxes)))}>"

    def volume(self):
        """See `scipy.spatial.Rectangle.volume`."""
        return prod(self.maxes - self.mins)

    def split(self, d, split):
        """See `scipy.spatial.Rectangle.split`."""
        mid = self.maxes.copy()
        mid[d] = split
        less = Rectangle(self.mins, mid)
        mid = self.mins.copy()
        mid[d] = split
        return less, Rectangle(mid, self.maxes)

    def min_distance_point(self, x, p=2.0):
        """See `scipy.spatial.Rectangle.min_distance_point`."""
        x = as_literal_or_array(x, "Rectangle.min_distance_point")
        return _norm(maximum(0, maximum(self.mins - x, x - self.maxes)), p)

    def max_distance_point(self, x, p=2.0):
        """See `scipy.spatial.Rectangle.max_distance_point`."""
        x = as_literal_or_array(x, "Rectangle.max_distance_point")
        return _norm(maximum(self.maxes - x, x - self.mins), p)

    def min_distance_rectangle(self, other, p=2.0):
        """See `scipy.spatial.Rectangle.min_distance_rectangle`."""
        return _norm(maximum(0, maximum(self.mins - other.maxes, other.mins - self.maxes)), p)

    def max_distance_rectangle(self, other, p=2.0):
        """See `scipy.spatial.Rectangle.max_distance_rectangle`."""
        return _norm(maximum(self.maxes - other.mins, other.maxes - self.mins), p)
