"""scipy.signal's `find_peaks_cwt`: the wavelet transform (one 'same' convolution of the signal per
width) and its relative maxima along each row on the device; the ridge lines through those maxima
on the host. Linking the maxima of one row to the lines of the row above is sequential and
data-dependent (which line a maximum joins decides the next row's candidates), so it runs on the
host over the maxima's (row, column) pairs, copied down once (16 bytes a maximum), with the first
row of the transform (the noise windows) and the transform's values at the lines' ends (one
gather): host memory and time proportional to the number of maxima plus the signal's length, not
to widths x length. Ported from SciPy 1.18 (scipy/signal/_peak_finding.py `find_peaks_cwt`,
`_identify_ridge_lines`, `_filter_ridge_lines`; scipy/signal/_wavelets.py `_cwt`, `_ricker`), the
choice between direct and FFT convolution too (scipy/signal/_signaltools.py `_conv_ops`,
`_fftconv_faster`), so that a flat run of equal values stays equal where SciPy's does. Each row's
maxima are matched to the nearest line by a sorted search, which gives the first of the nearest
lines as SciPy's argmin over every line does."""

from __future__ import annotations

import functools
import warnings

import numpy

from ..._core.ndarray import ndarray
from ..._core.transfer import from_host as _from_host
from ..._creation.basic import empty as _empty
from ..._math.complex import conj as _conj
from ..._sorting.searching_nonzero import nonzero as _nonzero
from ..ndimage import _support as _s
from . import _args
from ._convolve import convolve as _convolve

__all__ = ["find_peaks_cwt"]


def _ricker(points, a):
    """SciPy's `_ricker` (host: at most 10 x width values), its arithmetic in its order."""
    A = 2 / (numpy.sqrt(3 * a) * (numpy.pi ** 0.25))
    wsq = a ** 2
    vec = numpy.arange(0, points) - (points - 1.0) / 2
    xsq = vec ** 2
    return A * (1 - xsq / wsq) * numpy.exp(-xsq / (2 * wsq))


def _abs_max(a) -> int:
    """int(max |a|), read back (SciPy's exactness rule for integer convolutions)."""
    return int(abs(a).max())


def _conv_method(data, w, data_max):
    """'fft' or 'direct' as SciPy's `choose_conv_method` decides for the 1-D 'same' convolution of
    `data` with `w` (its measured CPU constants; `data_max`: a callable giving `_abs_max(data)`,
    called only where an operand is an integer array, for the exactness rule)."""
    n, k = data.shape[-1], w.shape[-1]
    if (data.dtype.kind in "ui" or w.dtype.kind in "ui") and n and k:
        largest = data_max() * _abs_max(w) * min(n, k)
        if largest > 2 ** numpy.finfo(float).nmant - 1:
            return "direct"
    if data.dtype.kind == w.dtype.kind == "b":
        return "direct"
    direct_ops = n * k if n < k else n * k - (k // 2) * ((k + 1) // 2)
    full = n + k - 1
    fft_ops = 3 * full * numpy.log(full) if full > 0 else numpy.nan
    o_fft, o_direct, o_offset = (3.2646654e-9, 2.8478277e-10, -1e-3) if k <= n else (3.21635404e-9, 1.1773253e-8, -1e-5)
    return "fft" if o_fft * fft_ops < o_direct * direct_ops + o_offset else "direct"


def _wavelet_on_device(w, n):
    """The wavelet as a device array; numpy.convolve's errors for an empty operand, which SciPy's
    direct convolution reaches (`n`: the signal's length)."""
    w = w if isinstance(w, ndarray) else numpy.asarray(w)
    if w.size == 0 or n == 0:
        raise ValueError("a cannot be empty" if w.size == 0 and n == 0 else "v cannot be empty")
    return w if isinstance(w, ndarray) else _from_host(w)


def _cwt(data, wavelet, widths):
    """SciPy's `_cwt`: row i is `data` convolved ('same') with the reversed conjugate wavelet of
    min(10 widths[i], len(data)) points."""
    first = wavelet(1, widths[0])
    complex_out = (first.dtype if isinstance(first, ndarray) else numpy.asarray(first).dtype).char in "FDG"
    out = _empty((len(widths), len(data)), dtype=numpy.complex128 if complex_out else numpy.float64)
    data_max = functools.cache(lambda: _abs_max(data))  # (one read for every width, on first need)
    for ind, width in enumerate(widths):
        N = numpy.min([10 * width, len(data)])
        w = _conj(_wavelet_on_device(wavelet(N, width), len(data))[::-1])
        row = _convolve(data, w, mode="same", method=_conv_method(data, w, data_max))
        if row.dtype.kind == "c" and not complex_out:  # (NumPy's assignment into the real output)
            warnings.warn("Casting complex values to real discards the imaginary part", numpy.exceptions.ComplexWarning,
                          stacklevel=3)
            row = row.real
        out[ind] = row
    return out


def _relative_maxima(matr):
    """(rows, cols) of the points greater than both neighbours along each row (SciPy's
    `_boolrelextrema(..., numpy.greater, axis=1)`: the end points are not maxima), as host arrays
    in row-major order."""
    inner = matr[:, 1:-1]
    is_max = (inner > matr[:, :-2]) & (inner > matr[:, 2:])
    rows, cols = _nonzero(is_max)
    return _s.host_param(rows), _s.host_param(cols) + 1


def _nearest_lines(cols, line_cols, line_ids):
    """For each of `cols` (ascending), the distance to the nearest of the lines ending at
    `line_cols` and that line's position in `line_ids` (ascending ids), the first of equally near
    ones: SciPy's ``argmin(abs(col - prev_ridge_cols))`` for every col at once."""
    order = numpy.lexsort((line_ids, line_cols))
    sorted_cols = line_cols[order]
    values, first = numpy.unique(sorted_cols, return_index=True)
    first_pos = order[first]  # the first line (in list order) of each end column
    j = numpy.searchsorted(values, cols)
    left, right = numpy.clip(j - 1, 0, len(values) - 1), numpy.clip(j, 0, len(values) - 1)
    d_left = numpy.where(j > 0, cols - values[left], numpy.iinfo(numpy.int64).max)
    d_right = numpy.where(j < len(values), values[right] - cols, numpy.iinfo(numpy.int64).max)
    pos = numpy.where(d_left < d_right, first_pos[left],
                      numpy.where(d_right < d_left, first_pos[right], numpy.minimum(first_pos[left], first_pos[right])))
    return numpy.minimum(d_left, d_right), pos


def _identify_ridge_lines(rows, cols, n_rows, max_distances, gap_thresh):
    """SciPy's `_identify_ridge_lines` over the maxima (rows, cols): each maximum's line id (ids
    in the order SciPy creates its lines, which is its list order)."""
    if len(max_distances) < n_rows:
        raise ValueError('Max_distances must have at least as many rows as matr')
    line_of = numpy.full(len(rows), -1, dtype=numpy.int64)
    if len(rows) == 0:
        return line_of
    bounds = numpy.searchsorted(rows, numpy.arange(n_rows + 1))
    last_col = numpy.zeros(len(rows), dtype=cols.dtype)  # by line id (no more lines than maxima)
    gap = numpy.zeros(len(rows), dtype=numpy.int64)
    start_row = rows[-1]
    begin, end = bounds[start_row], bounds[start_row + 1]
    n_lines = end - begin
    line_of[begin:end] = numpy.arange(n_lines)
    last_col[:n_lines] = cols[begin:end]
    active = numpy.arange(n_lines)  # the ids of the lines still open, ascending (SciPy's list order)
    for row in range(start_row - 1, -1, -1):
        begin, end = bounds[row], bounds[row + 1]
        this_cols = cols[begin:end]
        gap[active] += 1
        if len(this_cols):
            joins = numpy.zeros(len(this_cols), dtype=bool)
            ids = numpy.full(len(this_cols), -1, dtype=numpy.int64)
            if len(active):
                dist, pos = _nearest_lines(this_cols, last_col[active], active)
                joins = dist <= max_distances[row]
                ids[joins] = active[pos[joins]]
            new = int((~joins).sum())
            ids[~joins] = n_lines + numpy.arange(new)
            n_lines += new
            line_of[begin:end] = ids
            # a line joined by several maxima of the row ends at the last of them (the largest col)
            ids_rev = ids[::-1]
            uniq, last = numpy.unique(ids_rev, return_index=True)
            last_col[uniq] = this_cols[::-1][last]
            gap[ids] = 0
            active = numpy.concatenate((active, ids[~joins]))
        active = active[gap[active] <= gap_thresh]
    return line_of


def _line_starts(rows, cols, line_of):
    """Per line: its number of points and its first (row, col) once sorted by row, as SciPy takes
    them (``argsort`` of the rows in the order the points joined: where the lowest row holds
    several points, NumPy's argsort of that sequence decides, as in SciPy)."""
    # The points joined in decreasing row order, increasing column order within a row: the
    # maxima's row-major order reversed by row.
    joined = numpy.lexsort((cols, -rows))
    ids = line_of[joined]
    by_line = numpy.argsort(ids, kind="stable")
    ids, seq_rows, seq_cols = ids[by_line], rows[joined][by_line], cols[joined][by_line]
    n_lines = int(ids.max()) + 1 if len(ids) else 0
    starts = numpy.searchsorted(ids, numpy.arange(n_lines + 1))
    lengths = numpy.diff(starts)
    last = starts[1:] - 1  # a line's rows do not increase: its lowest row ends it
    first_rows, first_cols = seq_rows[last], seq_cols[last]
    shared = numpy.flatnonzero((lengths > 1) & (seq_rows[numpy.maximum(last - 1, 0)] == first_rows))
    for line in shared:  # several points on the lowest row: SciPy's argsort of the line's rows picks
        r = seq_rows[starts[line]:starts[line + 1]]
        k = starts[line] + numpy.argsort(r)[0]
        first_rows[line], first_cols[line] = seq_rows[k], seq_cols[k]
    return lengths, first_rows, first_cols


def _noise_floor(row_one, col, window_size, noise_perc):
    """SciPy's noise at `col`: the `noise_perc` percentile of the first row's window there."""
    from scipy.stats import scoreatpercentile  # host statistics (optional dependency, imported on first use)

    hf_window, odd = divmod(window_size, 2)
    start, end = max(col - hf_window, 0), min(col + hf_window + odd, len(row_one))
    return scoreatpercentile(row_one[start:end], per=noise_perc)


def find_peaks_cwt(vector, widths, wavelet=None, max_distances=None, gap_thresh=None, min_length=None,
                   min_snr=1, noise_perc=10, window_size=None):
    """See `scipy.signal.find_peaks_cwt`. The wavelet transform and its maxima are computed on the
    device; the ridge lines are linked on the host (see the module's docstring: one copy of the
    maxima's positions and of the transform's first row). `wavelet` may return host or cuarray
    arrays. The peak positions are a cuarray array.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> x = cuarray.sin(cuarray.linspace(0., 6. * cuarray.pi, 500))
    >>> signal.find_peaks_cwt(x, cuarray.arange(1, 10))
    array([ 42, 208, 375])
    """
    vector = _args.data(vector, "find_peaks_cwt")
    widths = numpy.atleast_1d(_args.host_param(widths))
    if gap_thresh is None:
        gap_thresh = numpy.ceil(widths[0])
    max_distances = widths / 4.0 if max_distances is None else _args.host_param(max_distances)
    cwt = _cwt(vector, _ricker if wavelet is None else wavelet, widths)
    rows, cols = _relative_maxima(cwt)
    line_of = _identify_ridge_lines(rows, cols, cwt.shape[0], max_distances, gap_thresh)
    lengths, first_rows, first_cols = _line_starts(rows, cols, line_of)
    num_points = cwt.shape[1]
    min_length = numpy.ceil(cwt.shape[0] / 4) if min_length is None else min_length
    window_size = int(numpy.ceil(num_points / 20) if window_size is None else window_size)
    long_enough = numpy.flatnonzero(lengths >= min_length)
    peaks = []
    if len(long_enough):
        values = _s.host_param(cwt[_from_host(first_rows[long_enough]), _from_host(first_cols[long_enough])])
        row_one = _s.host_param(cwt[0])
        noises = {}
        for line, value in zip(long_enough, values):
            col = int(first_cols[line])
            if col not in noises:
                noises[col] = _noise_floor(row_one, col, window_size, noise_perc)
            if not abs(value / noises[col]) < min_snr:
                peaks.append(first_cols[line])
    max_locs = numpy.asarray(peaks)
    max_locs.sort()
    return _from_host(max_locs)
