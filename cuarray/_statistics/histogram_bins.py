"""Bin edges of `histogram` and `histogram_bin_edges`: NumPy's rules for an int `bins`, explicit
edges and the string estimators ('auto', 'fd', 'doane', 'scott', 'stone', 'rice', 'sturges',
'sqrt'), with NumPy's host arithmetic on scalars read from the device (the number of bins is a
host value that depends on the data: these reads are the synchronisations a string rule needs).
"""

from __future__ import annotations

import builtins
import operator
import warnings

import numpy

from .._core.host_input import as_parameter
from .._core.ndarray import ndarray
from .._logic.comparison import greater, greater_equal, less_equal
from .._logic.ops import logical_and
from .._logic.truth import any as any_
from .._math.arithmetic import divide, power, subtract
from .averages import mean, std
from .histograms import histogram, minmax, upload
from .quantiles import percentile

__all__ = ["bin_edges", "finite_edges", "outer_edges", "unsigned_subtract"]

_F4 = numpy.dtype(numpy.float32)
_S2U = {numpy.byte: numpy.ubyte, numpy.short: numpy.ushort, numpy.intc: numpy.uintc, numpy.int_: numpy.uint,
        numpy.longlong: numpy.ulonglong}


def unsigned_subtract(a, b):
    """a - b for a >= b, unsigned for signed integers (NumPy's `_unsigned_subtract`)."""
    dt = numpy.result_type(a, b)
    u = _S2U.get(dt.type)
    if u is None:
        return numpy.subtract(a, b, dtype=dt)
    return numpy.subtract(numpy.asarray(a, dtype=dt), numpy.asarray(b, dtype=dt), casting="unsafe", dtype=u)


def outer_edges(a: ndarray, range):  # noqa: A002
    """(first, last) edge from `range` or from the data's min and max (one device read)."""
    if range is not None:
        first_edge, last_edge = range
        if first_edge > last_edge:
            raise ValueError("max must be larger than min in range parameter.")
        if not (numpy.isfinite(first_edge) and numpy.isfinite(last_edge)):
            raise ValueError("supplied range of [{}, {}] is not finite".format(first_edge, last_edge))
    elif a._size == 0:
        first_edge, last_edge = 0, 1
    else:
        if a._dtype.kind == "c":
            # NumPy answers (edges ordered lexicographically, complex edges): not implemented here,
            # which the NotImplementedError says (a TypeError claimed NumPy refuses it too)
            raise NotImplementedError("histogram of complex data with automatic edges is not supported")
        first_edge, last_edge = minmax(a)
        if not (numpy.isfinite(first_edge) and numpy.isfinite(last_edge)):
            raise ValueError("autodetected range of [{}, {}] is not finite".format(first_edge, last_edge))
    if first_edge == last_edge:
        first_edge = first_edge - 0.5
        last_edge = last_edge + 0.5
    return first_edge, last_edge


def _fits(v, dt) -> bool:
    if isinstance(v, (numpy.floating, float)) or not float(v).is_integer():
        return True  # (a float edge: the comparison's type is already a float)
    info = numpy.iinfo(dt)
    return info.min <= int(v) <= info.max


def _k(dt):
    return _F4 if dt.char == "e" else dt


def bin_edges(a: ndarray, bins, range, weights, counting=False):  # noqa: A002
    """(edges on the device, uniform) for the 1-D `a`; `uniform` is None for explicit edges, else
    ((K, B, S, C) dtypes, kernel scalars) of NumPy's equal-bin arithmetic (templates/histograms.cu).
    `counting`: equal bins whose edges are not finite raise ValueError (`finite_edges`)."""
    n_equal_bins = None
    if isinstance(bins, (list, tuple, numpy.ndarray)) and numpy.ndim(bins) >= 1:
        bins = as_parameter(bins, "histogram")  # explicit edges from the host, as CuPy accepts
    if isinstance(bins, str):
        if bins not in _SELECTORS:
            raise ValueError("{!r} is not a valid estimator for `bins`".format(bins))
        if weights is not None:
            raise TypeError("Automated estimation of the number of bins is not supported for weighted data")
        first_edge, last_edge = outer_edges(a, range)
        if range is not None:
            keep = logical_and(greater_equal(a, first_edge), less_equal(a, last_edge))
            a = a[keep]
        if a._size == 0:
            n_equal_bins = 1
        else:
            width = _SELECTORS[bins](a, (first_edge, last_edge))
            if width:
                if numpy.issubdtype(a._dtype, numpy.integer) and width < 1:
                    width = 1
                n_equal_bins = int(numpy.ceil(unsigned_subtract(last_edge, first_edge) / width))
            else:
                n_equal_bins = 1
    elif isinstance(bins, ndarray) and bins.ndim == 1:
        if bins._size > 1 and bool(any_(greater(bins[:-1], bins[1:]))):
            raise ValueError("`bins` must increase monotonically, when an array")
        return bins, None
    elif isinstance(bins, ndarray) and bins.ndim > 1:
        raise ValueError("`bins` must be 1d, when an array")
    elif numpy.ndim(bins) == 0:
        try:
            n_equal_bins = operator.index(bins)
        except TypeError as e:
            raise TypeError("`bins` must be an integer, a string, or an array") from e
        if n_equal_bins < 1:
            raise ValueError("`bins` must be positive, when an integer")
        first_edge, last_edge = outer_edges(a, range)
    else:
        raise TypeError("cuarray.histogram: `bins` as a list or NumPy array: call cuarray.asarray() on it first")
    proto = numpy.empty(0, a._dtype)
    bin_type = numpy.result_type(first_edge, last_edge, proto)
    if numpy.issubdtype(bin_type, numpy.integer):
        bin_type = numpy.result_type(bin_type, float)
    edges = numpy.linspace(first_edge, last_edge, n_equal_bins + 1, endpoint=True, dtype=bin_type)
    if numpy.any(edges[:-1] >= edges[1:]):
        raise ValueError("Too many bins for data range. Cannot create {} finite-sized bins.".format(n_equal_bins))
    if counting:
        finite_edges(edges, first_edge, last_edge)
    # NumPy's steps: keep (a compared with the edges: K), cast to the edges' type (B), subtract
    # first_edge (S), divide by the width (C), times the number of bins.
    kdt = numpy.result_type(proto, first_edge)
    if kdt.kind in "iu" and not all(_fits(v, kdt) for v in (first_edge, last_edge)):
        # NumPy 2 compares uint8 data with an edge of -5 exactly (NEP 50's out-of-range Python
        # int): compare in a type holding both (int64; float64 for uint64 data)
        kdt = numpy.result_type(kdt, numpy.int64)
    sdt = numpy.result_type(numpy.empty(0, bin_type), first_edge)
    if counting and sdt.kind == "f":
        # NumPy's x - first_edge in sdt: past sdt's range (finite float32 edges of a float64 range
        # wider than float32's) it overflows (NumPy: an IndexError; the kernel: every value in bin 0)
        with numpy.errstate(over="ignore", invalid="ignore"):
            finite_edges(numpy.array([sdt.type(last_edge) - sdt.type(first_edge)]), first_edge, last_edge,
                         nbins=edges.size - 1)
    denom = unsigned_subtract(last_edge, first_edge)
    cdt = numpy.result_type(numpy.empty(0, sdt), denom)
    types = tuple(_k(t) for t in (kdt, bin_type, sdt, cdt))
    args = (types[0].type(first_edge), types[0].type(last_edge), types[2].type(first_edge), types[3].type(denom))
    dev = upload(edges)
    if bin_type.char == "e":
        return dev, (types, args, upload(edges.astype(_F4)))
    return dev, (types, args, dev)


def finite_edges(edges: numpy.ndarray, first_edge, last_edge, dim=None, nbins=None) -> None:
    """Equal bins over a range whose width overflows the edges' dtype (or whose ends do) have edges
    that are not finite (numpy.linspace's: NaN, inf): no count over them means anything. NumPy
    counts on, into an IndexError, its histogramdd's ValueError from an index of -1, or counts over
    a NaN edge; cuarray raises ValueError (docs/differences.md, "Numerics")."""
    if numpy.isfinite(edges).all():
        return
    where = "" if dim is None else "`bins[{}]`: ".format(dim)
    raise ValueError("{}Too many bins for data range. Cannot create {} finite-sized bins: the range [{}, {}] "
                     "overflows {} edges".format(where, edges.size - 1 if nbins is None else nbins, first_edge,
                                                 last_edge, edges.dtype))


# -- the string estimators (NumPy's `_hist_bin_*`), on scalars read from the device --------------
def _host(x) -> numpy.generic:
    return x.get()[()]


def _ptp(x):
    lo, hi = minmax(x)
    return unsigned_subtract(hi, lo)


def _std(x):
    return _host(std(x))


def _sqrt(x, range):  # noqa: A002
    return _ptp(x) / numpy.sqrt(x._size)


def _sturges(x, range):  # noqa: A002
    return _ptp(x) / (numpy.log2(x._size) + 1.0)


def _rice(x, range):  # noqa: A002
    return _ptp(x) / (2.0 * x._size ** (1.0 / 3))


def _scott(x, range):  # noqa: A002
    return (24.0 * numpy.pi**0.5 / x._size) ** (1.0 / 3.0) * _std(x)


def _stone(x, range):  # noqa: A002
    n = x._size
    ptp_x = _ptp(x)
    if n <= 1 or ptp_x == 0:
        return 0

    def jhat(nbins):
        hh = ptp_x / nbins
        p_k = histogram(x, bins=nbins, range=range)[0].get() / n
        return (2 - (n + 1) * p_k.dot(p_k)) / hh

    upper = max(100, int(numpy.sqrt(n)))
    nbins = min(builtins.range(1, upper + 1), key=jhat)
    if nbins == upper:
        warnings.warn("The number of bins estimated may be suboptimal.", RuntimeWarning, stacklevel=3)
    return ptp_x / nbins


def _doane(x, range):  # noqa: A002
    if x._size > 2:
        sg1 = numpy.sqrt(6.0 * (x._size - 2) / ((x._size + 1.0) * (x._size + 3)))
        sigma_d = std(x)
        sigma = _host(sigma_d)
        if sigma > 0.0:
            g1 = _host(mean(power(divide(subtract(x, mean(x)), sigma_d), 3)))
            return _ptp(x) / (1.0 + numpy.log2(x._size) + numpy.log2(1.0 + numpy.absolute(g1) / sg1))
    return 0.0


def _fd(x, range):  # noqa: A002
    q = percentile(x, upload(numpy.array([75, 25]))).get()
    iqr = numpy.subtract(*q)
    return 2.0 * iqr * x._size ** (-1.0 / 3.0)


def _auto(x, range):  # noqa: A002
    fd_bw = _fd(x, range)
    sturges_bw = _sturges(x, range)
    sqrt_bw = _sqrt(x, range)
    return min(max(fd_bw, sqrt_bw / 2), sturges_bw)


_SELECTORS = {"stone": _stone, "auto": _auto, "doane": _doane, "fd": _fd, "rice": _rice, "scott": _scott,
              "sqrt": _sqrt, "sturges": _sturges}
