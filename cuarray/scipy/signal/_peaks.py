"""scipy.signal's `find_peaks`, `peak_prominences`, `peak_widths` on the GPU. Local maxima
(plateaus included) come from three kernels (templates/peaks.cu: each tile of 4096 samples counts
the peaks that start in it, the counts are scanned, the tiles write their peaks in order: x is read
twice, only the peaks are written, one host synchronisation for their number). Each left edge of a
plateau walks it (plan "tiles"); a plateau past 2048 samples sends the call to plan "ends", where
a plateau's end is the next set bit of the warps' change ballots, or for the one run a tile leaves
open, the first change of the next tile that has one (resolved in the scan): any length, no walks,
but 1.5x the time of "tiles" on ordinary data (H100: 254 against 163 us for 1e7 samples). The
height, threshold and plateau conditions are vectorised over the peaks; prominences and widths are
one thread per peak (templates/peaks.cuh, SciPy's searches); the `distance` selection is sequential by definition and
runs on one GPU thread.

Differences from SciPy: among peaks of equal height, `distance` keeps them in a stable order
(SciPy's order among ties comes from an unstable sort)."""

from __future__ import annotations

import math
import pathlib
import warnings

import numpy

from ..._core.copying import astype
from ..._core.ndarray import ndarray
from ..._core.transfer import from_host as _from_host
from ..._manipulation.joining import concatenate as _concatenate
from ..._sorting.searching import where as _where
from ..._sorting.searching_nonzero import nonzero as _nonzero
from ..._sorting.sorting import argsort as _cu_argsort
from ...cuda import launch as _launch
from ...cuda.kernel_family import KernelFamily
from ..ndimage import _support as _s
from . import _args

__all__ = ["find_peaks", "peak_prominences", "peak_widths", "source", "NAMES", "MAXIMA"]

_DIR = pathlib.Path(__file__).parent / "templates"
NAMES = ("cuarray_signal::prominences", "cuarray_signal::widths", "cuarray_signal::by_distance",
         "cuarray_signal::count_maxima", "cuarray_signal::scan_counts", "cuarray_signal::write_maxima",
         "cuarray_signal::count_ends", "cuarray_signal::scan_ends", "cuarray_signal::write_ends")
# Plans of the local maxima, the default first: "tiles" (the tile kernels: each left edge walks its
# plateau, and a plateau past _PLATEAU_LIMIT sends the call to "ends" after the count), "ends" (the
# tile kernels with run ends from change ballots and the scan: no plateau limit), "runs" (run
# boundaries and two compactions over n-sized int64 arrays: the first implementation).
# scripts/perf/peaks_lfilter_variants.py times all three (H100, 1e7 samples: tiles 163 us, ends
# 254, runs 1386; with one 5000-sample plateau: ends 266, tiles alone 1698).
MAXIMA = ("tiles", "ends", "runs")
_TILE = 256 * 16  # MAXIMA_BLOCK * MAXIMA_ITEMS of peaks.cu
_PLATEAU_LIMIT = 2048  # "tiles": the longest plateau one thread walks (a few L2 round trips)
# SciPy rounds `prominence * rel_height` before subtracting it from the peak's height; a contracted
# fma does not, and a width height SciPy computes as exactly 0.0 came out as 1.1e-16 on the GPU.
OPTIONS = ("-fmad=false",)
_BLOCK = 256
_F8 = numpy.dtype(numpy.float64)
_I8 = numpy.dtype(numpy.int64)


def source() -> str:
    return "#define CUARRAY_DEVICE __device__\n" + (_DIR / "peaks.cuh").read_text() + (_DIR / "peaks.cu").read_text()


PEAKS = KernelFamily("cuarray_signal_peaks", source, namespace="cuarray_signal", kernels=(
    "count_maxima(const double* x, long long n, long long limit, long long* counts, long long* flags)",
    "scan_counts(long long* counts, const long long* flags, long long nb, long long* tail)",
    "write_maxima(const double* x, long long n, long long limit, const long long* offsets, long long* mid, "
    "long long* left, long long* right)",
    "count_ends(const double* x, long long n, long long* counts, long long* fc, double* fcval, "
    "long long* pend, double* pval)",
    "scan_ends(long long* counts, const long long* fc, const double* fcval, const long long* pend, "
    "const double* pval, long long* pright, long long nb, long long n, long long* tail)",
    "write_ends(const double* x, long long n, const long long* offsets, const long long* pright, "
    "long long* mid, long long* left, long long* right)",
    "prominences(const double* x, long long n, const long long* peaks, long long m, long long wlen, "
    "double* prom, long long* lb, long long* rb)",
    "widths(const double* x, const long long* peaks, long long m, const double* prom, const long long* lb, "
    "const long long* rb, double rel_height, double* w, double* h, double* l, double* r)",
    "by_distance(const long long* peaks, const long long* order, long long m, long long distance, "
    "unsigned char* keep)",
))


def _k(i):
    """Kernel i of NAMES (all nine compiled together, with OPTIONS)."""
    return PEAKS.get(*NAMES, options=OPTIONS)[i]


def _argsort(a):
    return _cu_argsort(a, kind="stable")


def _prominences(x, peaks, wlen):
    m = peaks.shape[0]
    prom, lb, rb = ndarray((m,), _F8), ndarray((m,), _I8), ndarray((m,), _I8)
    if m:
        _k(0).launch(_launch.grid_one_pass(m, _BLOCK), _BLOCK, x.data.ptr, x.shape[0], peaks.data.ptr, m, wlen,
                     prom.data.ptr, lb.data.ptr, rb.data.ptr)
    return prom, lb, rb


def _widths(x, peaks, rel_height, prom, lb, rb):
    m = peaks.shape[0]
    out = [ndarray((m,), _F8) for _ in range(4)]
    if m:
        _k(1).launch(_launch.grid_one_pass(m, _BLOCK), _BLOCK, x.data.ptr, peaks.data.ptr, m, prom.data.ptr,
                     lb.data.ptr, rb.data.ptr, rel_height, *(o.data.ptr for o in out))
    return tuple(out)


def _by_distance(peaks, order, distance):
    m = peaks.shape[0]
    keep = ndarray((m,), numpy.dtype(numpy.uint8))
    if m:
        _k(2).launch(1, 1, peaks.data.ptr, order.data.ptr, m, distance, keep.data.ptr)
    return keep.astype(bool)


def _x(x):
    x = _args.data(x, "find_peaks")
    if x.ndim != 1:
        raise ValueError("`x` must be a 1-D array")
    return astype(x, _F8, order="C", copy=False)


def _peaks(peaks, x):
    p = _args.device_param(peaks, "peak_prominences")
    if p.size == 0:
        p = p.astype(_I8)
    if p.ndim != 1:
        raise ValueError("`peaks` must be a 1-D array")
    if p.dtype.kind not in "iu":
        raise TypeError("cannot safely cast `peaks` to dtype('intp')")
    p = astype(p, _I8, order="C", copy=False)
    if p.size and (bool((p < 0).any()) or bool((p >= x.shape[0]).any())):
        raise ValueError("peak {} is not a valid index for `x`".format(int(p[(p < 0) | (p >= x.shape[0])][0])))
    return p


def _wlen(value):
    if value is None:
        return -1
    if value > 1:
        return math.ceil(value)
    raise ValueError("`wlen` must be larger than 1, was {}".format(value))


def _local_maxima(x, plan, edges):
    """(midpoints, left edges, right edges) of SciPy's _local_maxima_1d (the edges None when not
    `edges` and the plan is "tiles")."""
    if plan not in MAXIMA:
        raise ValueError("unknown local maxima plan {!r}".format(plan))
    if plan == "ends" and x.shape[0] >= 3:
        return _maxima_ends(x, edges)
    if plan == "tiles" and x.shape[0] >= 3:
        found = _maxima_tiles(x, edges)
        return found if found is not None else _maxima_ends(x, edges)  # a plateau past _PLATEAU_LIMIT
    return _maxima_runs(x)


def _maxima_ends(x, edges):
    """The "ends" kernels' maxima (count_ends, scan_ends, write_ends of peaks.cu)."""
    n = x.shape[0]
    nb = -(-n // _TILE)
    # per tile: counts (then offsets), first change, its value, pending left edge, its value, the
    # pending run's right edge; then the total. The values are float64 in int64 slots.
    work = ndarray((6 * nb + 1,), _I8)
    counts, fc, fcval, pend, pval, pright = (work[j * nb:(j + 1) * nb].data.ptr for j in range(6))
    tail = work[6 * nb:]
    _k(6).launch(nb, 256, x.data.ptr, n, counts, fc, fcval, pend, pval)
    _k(7).launch(1, 1024, counts, fc, fcval, pend, pval, pright, nb, n, tail.data.ptr)
    m = int(tail.get()[0])  # the host synchronisation: the result's size
    out = [ndarray((m,), _I8) for _ in range(3 if edges else 1)]
    if m:
        ptrs = tuple(o.data.ptr for o in out) + ((0, 0) if not edges else ())
        _k(8).launch(nb, 256, x.data.ptr, n, counts, pright, *ptrs)
    return (out[0], out[1], out[2]) if edges else (out[0], None, None)


def _maxima_tiles(x, edges):
    """The walking tile kernels' maxima, or None when a plateau is longer than _PLATEAU_LIMIT."""
    n = x.shape[0]
    nb = -(-n // _TILE)
    work = ndarray((2 * nb + 2,), _I8)  # per tile: counts (then offsets), flags; the total, any flag
    counts, flags, tail = work[:nb], work[nb:2 * nb], work[2 * nb:]
    args = (x.data.ptr, n, _PLATEAU_LIMIT)
    _k(3).launch(nb, 256, *args, counts.data.ptr, flags.data.ptr)
    _k(4).launch(1, 1024, counts.data.ptr, flags.data.ptr, nb, tail.data.ptr)
    m, over = (int(v) for v in tail.get())  # the host synchronisation: the result's size
    if over:
        return None
    out = [ndarray((m,), _I8) for _ in range(3 if edges else 1)]
    if m:
        ptrs = tuple(o.data.ptr for o in out) + ((0, 0) if not edges else ())
        _k(5).launch(nb, 256, *args, counts.data.ptr, *ptrs)
    return (out[0], out[1], out[2]) if edges else (out[0], None, None)


def _maxima_runs(x):
    """The maxima from run boundaries: the changes' positions compacted, each run's neighbours
    gathered and compared, the peaks' runs compacted (no limit on plateaus)."""
    n = x.shape[0]
    empty = _from_host(numpy.zeros(0, numpy.int64))
    if n < 3:
        return empty, empty, empty
    change = _concatenate((_from_host(numpy.ones(1, bool)), x[1:] != x[:-1]))
    starts = _nonzero(change)[0]
    ends = _concatenate((starts[1:] - 1, _from_host(numpy.array([n - 1]))))
    before = x[_where(starts > 0, starts - 1, 0)]
    after = x[_where(ends < n - 1, ends + 1, n - 1)]
    v = x[starts]
    ok = (starts > 0) & (ends < n - 1) & (before < v) & (after < v)
    sel = _nonzero(ok)[0]
    left, right = starts[sel], ends[sel]
    return (left + right) // 2, left, right


def _condition(interval, x, peaks):
    """SciPy's interval forms: a value (the lower border), or any pair (a 2-tuple or list, an array
    of two elements: (min, max), either None); a border an array of x's size is taken at the
    peaks (a list or NumPy array is a small host parameter here)."""
    if _s.is_array(interval) or isinstance(interval, numpy.ndarray):
        if interval.ndim == 1 and interval.shape[0] == 2:  # (SciPy unpacks any two-element array)
            # (device: 0-d arrays, compared without a copy; host: Python scalars, a NumPy scalar or
            # 0-d array meets a device array in no operator)
            return [interval[0], interval[1]] if _s.is_array(interval) else interval.tolist()
        imin, imax = interval, None
    else:
        try:
            imin, imax = interval
        except (TypeError, ValueError):
            imin, imax = (interval, None)
    out = []
    for which, v in (("lower", imin), ("upper", imax)):
        if isinstance(v, (list, tuple)):
            v = numpy.asarray(v)
        if _s.is_array(v) or isinstance(v, numpy.ndarray):  # (a 0-d array too, as SciPy)
            if v.size != x.size:
                raise ValueError("array size of {} interval border must match x".format(which))
            v = (v if _s.is_array(v) else _from_host(v))[peaks]
        elif isinstance(v, numpy.generic):  # a NumPy scalar: its exact Python value (x is float64)
            v = v.item()
        out.append(v)
    return out


def _all_true(values):
    t = values == values
    return t | ~t


def _select(values, pmin, pmax):
    keep = _all_true(values)
    if pmin is not None:
        keep = keep & (pmin <= values)
    if pmax is not None:
        keep = keep & (values <= pmax)
    return keep


def find_peaks(x, height=None, threshold=None, distance=None, prominence=None, width=None, wlen=None, rel_height=0.5,
               plateau_size=None):
    """See `scipy.signal.find_peaks`. Peaks and properties are cuarray arrays.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> x = cuarray.array([0., 2., 1., 3., 0.5, 1.])
    >>> peaks, properties = signal.find_peaks(x)
    >>> peaks
    array([1, 3])
    >>> signal.find_peaks(x, height=2.5)[0]
    array([3])
    """
    return _find_peaks(x, height, threshold, distance, prominence, width, wlen, rel_height, plateau_size, MAXIMA[0])


def _find_peaks(x, height=None, threshold=None, distance=None, prominence=None, width=None, wlen=None, rel_height=0.5,
                plateau_size=None, maxima=MAXIMA[0]):
    """find_peaks with the local maxima's plan named (`MAXIMA`)."""
    x = _x(x)
    if distance is not None and distance < 1:
        raise ValueError("`distance` must be greater or equal to 1")
    peaks, left_edges, right_edges = _local_maxima(x, maxima, plateau_size is not None)
    props = {}

    def apply(keep):
        nonlocal peaks, props
        idx = _nonzero(keep)[0]
        peaks = peaks[idx]
        props = {k: v[idx] for k, v in props.items()}

    if plateau_size is not None:
        sizes = right_edges - left_edges + 1
        pmin, pmax = _condition(plateau_size, x, peaks)
        keep = _select(sizes, pmin, pmax)
        props.update(plateau_sizes=sizes, left_edges=left_edges, right_edges=right_edges)
        apply(keep)
    if height is not None:
        heights = x[peaks]
        hmin, hmax = _condition(height, x, peaks)
        props["peak_heights"] = heights
        apply(_select(heights, hmin, hmax))
    if threshold is not None:
        tmin, tmax = _condition(threshold, x, peaks)
        lt = x[peaks] - x[peaks - 1]
        rt = x[peaks] - x[peaks + 1]
        keep = _all_true(lt)
        if tmin is not None:
            keep = keep & (tmin <= _where(lt < rt, lt, rt))
        if tmax is not None:
            keep = keep & (_where(lt > rt, lt, rt) <= tmax)
        props.update(left_thresholds=lt, right_thresholds=rt)
        apply(keep)
    if distance is not None:
        apply(_by_distance(peaks, _argsort(x[peaks]), math.ceil(distance)))
    if prominence is not None or width is not None:
        prom, lb, rb = _prominences(x, peaks, _wlen(wlen))
        props.update(prominences=prom, left_bases=lb, right_bases=rb)
    if prominence is not None:
        pmin, pmax = _condition(prominence, x, peaks)
        apply(_select(props["prominences"], pmin, pmax))
    if width is not None:
        if rel_height < 0:
            raise ValueError("`rel_height` must be greater or equal to 0.0")
        w, h, li, ri = _widths(x, peaks, rel_height, props["prominences"], props["left_bases"], props["right_bases"])
        props.update(widths=w, width_heights=h, left_ips=li, right_ips=ri)
        wmin, wmax = _condition(width, x, peaks)
        apply(_select(props["widths"], wmin, wmax))
    return peaks, props


def peak_prominences(x, peaks, wlen=None):
    """See `scipy.signal.peak_prominences`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> x = cuarray.array([0., 2., 1., 3., 0.5, 1.])
    >>> prominences, left, right = signal.peak_prominences(x, cuarray.array([1, 3]))
    >>> prominences
    array([1. , 2.5])
    """
    x = _x(x)
    p = _peaks(peaks, x)
    prom, lb, rb = _prominences(x, p, _wlen(wlen))
    if p.size and bool((prom == 0).any()):
        try:
            from scipy.signal import PeakPropertyWarning  # SciPy's warning class, when SciPy is there
        except ImportError:  # SciPy is optional: the same message, as a RuntimeWarning
            PeakPropertyWarning = RuntimeWarning
        warnings.warn("some peaks have a prominence of 0", PeakPropertyWarning, stacklevel=2)
    return prom, lb, rb


def peak_widths(x, peaks, rel_height=0.5, prominence_data=None, wlen=None):
    """See `scipy.signal.peak_widths`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> x = cuarray.array([0., 2., 1., 3., 0.5, 1.])
    >>> widths, heights, left, right = signal.peak_widths(x, cuarray.array([1, 3]))
    >>> widths
    array([0.75 , 1.125])
    """
    x = _x(x)
    p = _peaks(peaks, x)
    if rel_height < 0:
        raise ValueError("`rel_height` must be greater or equal to 0.0")
    if prominence_data is None:
        prom, lb, rb = _prominences(x, p, _wlen(wlen))
    else:
        prom, lb, rb = prominence_data
        prom = astype(_args.device_param(prom, "peak_widths"), _F8, order="C", copy=False)
        lb = astype(_args.device_param(lb, "peak_widths"), _I8, order="C", copy=False)
        rb = astype(_args.device_param(rb, "peak_widths"), _I8, order="C", copy=False)
        if not (p.shape[0] == prom.shape[0] == lb.shape[0] == rb.shape[0]):
            raise ValueError("arrays in `prominence_data` must have the same shape as `peaks`")
        if p.size:  # SciPy's check (a host sync, only for user-given prominence data)
            bad = _nonzero((lb < 0) | (lb > p) | (p > rb) | (rb >= x.shape[0]))[0]
            if bad.size:
                raise ValueError("prominence data is invalid for peak {}".format(int(p[bad[0]])))
    return _widths(x, p, rel_height, prom, lb, rb)
