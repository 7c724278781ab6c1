"""`envelope` and `find_peaks_cwt` without a device: the public functions over NumPy arrays (numpy.fft
for cuarray.fft, ndimage's kernel models for the direct convolution), against scipy.signal: values,
dtypes, shapes, every error with SciPy's type and message; the ridge-line linking (host code) on
random and tied maxima against SciPy's own linking."""

import re
import warnings

import numpy as np
import pytest
import scipy
import scipy.signal as ss

RNG = np.random.default_rng(52)
# SciPy 1.17's `_identify_ridge_lines` ordered a line's points by the inverse of their sorting
# permutation (`rows[sortargs] = line[0]`; 1.18: `rows = line[0][sortargs]`), which moves a line's
# first point where the line holds two points of one row. cuarray follows 1.18; under an older
# SciPy the comparisons that this changes are skipped (`_scipy_is_1_18s`).
SCIPY_1_18 = tuple(int(v) for v in scipy.__version__.split(".")[:2]) >= (1, 18)


def _empty(shape, dt):
    return np.empty(shape, dt)


@pytest.fixture(scope="module")
def host(signal_standins, host_signal_of):
    from cuarray.scipy.signal import _envelope, _peaks_cwt, _resample

    return host_signal_of(signal_standins, {
        _envelope: dict(_fft=np.fft, _zeros=np.zeros, _stack=np.stack, _moveaxis=np.moveaxis),
        _resample: dict(_fft=np.fft, _from_host=np.asarray, _moveaxis=np.moveaxis, ndarray=_empty),
        _peaks_cwt: dict(_from_host=np.asarray, _empty=np.empty, _conj=np.conj, _nonzero=np.nonzero)})


def close(got, ref, tol):
    assert got.dtype == ref.dtype and got.shape == ref.shape, (got.dtype, ref.dtype, got.shape, ref.shape)
    np.testing.assert_allclose(got, ref, rtol=tol, atol=tol * max(1.0, float(np.abs(ref).max(initial=0))))


def same_error(fn_ref, fn_got):
    """Both raise, the same type and message."""
    with pytest.raises(Exception) as ref:
        fn_ref()
    with pytest.raises(ref.type, match=re.escape(str(ref.value))):
        fn_got()


ENVELOPE = [dict(), dict(bp_in=(2, 10)), dict(bp_in=(-5, 4)), dict(bp_in=(-9, -2)), dict(bp_in=(None, 3)),
            dict(bp_in=(3, None)), dict(n_out=50), dict(n_out=20, squared=True), dict(n_out=19), dict(n_out=1),
            dict(residual="all"), dict(residual=None), dict(bp_in=(-5, 4), residual="all", n_out=40),
            dict(bp_in=(-9, -2), residual="lowpass", n_out=16), dict(squared=True, residual="all")]


@pytest.mark.parametrize("kw", ENVELOPE, ids=[str(k) for k in ENVELOPE])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.complex64, np.int32])
@pytest.mark.parametrize("n", [37, 36])
def test_envelope(host, kw, dtype, n):
    x = RNG.normal(size=(3, n)) * 4
    if np.dtype(dtype).kind == "c":
        x = x + 1j * RNG.normal(size=x.shape)
    x = x.astype(dtype)
    tol = 2e-5 if np.dtype(dtype).char in "fF" else 1e-10
    try:
        ref = ss.envelope(x, **kw)
    except ValueError:  # (a band outside a short signal's bins)
        same_error(lambda: ss.envelope(x, **kw), lambda: host.envelope(x, **kw))
        return
    close(host.envelope(x, **kw), ref, tol)
    close(host.envelope(x.T, **kw, axis=0), ss.envelope(x.T, **kw, axis=0), tol)  # (axis != -1, a strided view)
    close(host.envelope(x[1], **kw), ss.envelope(x[1], **kw), tol)


def test_envelope_edges(host):
    for x in (np.array([2.0]), np.array([1.0, -1.0]), RNG.normal(size=(2, 3, 8))):
        for kw in (dict(bp_in=(None, None)), dict(), dict(n_out=3, residual="all")):
            try:
                ref = ss.envelope(x, **kw)
            except ValueError:
                same_error(lambda: ss.envelope(x, **kw), lambda: host.envelope(x, **kw))
                continue
            close(host.envelope(x, **kw), ref, 1e-10)
    x = RNG.normal(size=(2, 3, 8))
    close(host.envelope(x, axis=1), ss.envelope(x, axis=1), 1e-10)


@pytest.mark.parametrize("case", ["axis", "axis0", "zero length", "bp three", "bp float", "bp numpy int",
                                  "n_out zero", "n_out float", "residual", "band empty", "band high", "band low",
                                  "scalar"])
def test_envelope_errors(host, case):
    x = RNG.normal(size=(2, 10))
    x, kw = {"axis": (x, dict(axis=2)), "axis0": (x, dict(axis=-3)), "zero length": (np.zeros((2, 0)), {}),
             "bp three": (x, dict(bp_in=(1, 2, 3))), "bp float": (x, dict(bp_in=(1.0, None))),
             "bp numpy int": (x, dict(bp_in=(np.int64(1), None))), "n_out zero": (x, dict(n_out=0)),
             "n_out float": (x, dict(n_out=5.0)), "residual": (x, dict(residual="high")),
             "band empty": (x, dict(bp_in=(3, 3))), "band high": (x, dict(bp_in=(1, 7))),
             "band low": (x, dict(bp_in=(-6, 2))), "scalar": (np.float64(1.0) * np.ones(()), {})}[case]
    same_error(lambda: ss.envelope(x, **kw), lambda: host.envelope(x, **kw))


def test_envelope_takes_device_arrays_only():
    from cuarray.scipy import signal as cs

    with pytest.raises(TypeError, match="cuarray.asarray"):
        cs.envelope(np.ones(8))


def _sine(n=500):
    return np.sin(np.linspace(0, 6 * np.pi, n))


CWT_CASES = {
    "sine": (_sine(), np.arange(1, 10), {}),
    "sine float32": (_sine().astype(np.float32), np.arange(1, 10), {}),
    "noise": (RNG.normal(size=400), np.arange(1, 6), {}),
    "noise float widths": (RNG.normal(size=300), [1.5, 2.5, 3.7], {}),
    "noise options": (RNG.normal(size=300), np.arange(1, 8), dict(min_snr=0.5, noise_perc=30, window_size=25,
                                                                 gap_thresh=2, min_length=2)),
    "noise distances": (RNG.normal(size=300), np.arange(1, 5), dict(max_distances=[1, 2, 3, 4, 5])),
    "peaks": (np.convolve(RNG.poisson(0.05, 600) * 5.0, np.hanning(15), "same") + 0.1 * RNG.normal(size=600),
              np.arange(2, 12), {}),
    # (integers without a symmetric plateau: two transform values equal in exact arithmetic are
    # decided by the rounding of their sums, which no other summation order reproduces)
    "integers": (RNG.integers(-50, 50, size=400), np.arange(1, 10), {}),
    "constant": (np.ones(50), [1, 2, 3], {}),
    "zeros": (np.zeros(50), [1, 2], {}),
    "ramp": (np.arange(50.0), [1, 2, 3], {}),
    "one sample": (np.array([1.0]), [1, 2], {}),
    "three samples": (np.array([1.0, 2.0, 1.0]), [1], {}),
    "scalar width": (RNG.normal(size=100), 3, {}),
    "complex data": (_sine() + 0.5j, np.arange(1, 10), {}),
    "long": (np.cumsum(RNG.normal(size=5000)), np.arange(5, 60, 5), {}),  # (SciPy convolves by FFT here)
}


def _scipy_is_1_18s(x, widths, wavelet=None, max_distances=None, gap_thresh=None, **kw):
    """Whether the installed SciPy's find_peaks_cwt answers as 1.18's for these arguments: 1.18 or
    newer, or no ridge line of SciPy's own holds two points of one row."""
    if SCIPY_1_18:
        return True
    from scipy.signal._peak_finding import _identify_ridge_lines  # (private: the linking SciPy runs)
    from scipy.signal._wavelets import _cwt, _ricker

    widths = np.atleast_1d(np.asarray(widths))
    matr = _cwt(x, wavelet or _ricker, widths)
    lines = _identify_ridge_lines(matr, widths / 4.0 if max_distances is None else max_distances,
                                  np.ceil(widths[0]) if gap_thresh is None else gap_thresh)
    return all(len(np.unique(rows)) == len(rows) for rows, _ in lines)


@pytest.mark.parametrize("name", list(CWT_CASES))
def test_find_peaks_cwt(host, name):
    x, widths, kw = CWT_CASES[name]
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if not _scipy_is_1_18s(x, widths, **kw):
            pytest.skip("SciPy {} links these ridge lines with its bug fixed in 1.18".format(scipy.__version__))
    with pytest.warns() if name == "complex data" else _nothing():
        ref = ss.find_peaks_cwt(x, widths, **kw)
    with pytest.warns() if name == "complex data" else _nothing():
        got = host.find_peaks_cwt(x, widths, **kw)
    assert got.dtype == ref.dtype
    np.testing.assert_array_equal(got, ref)


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_find_peaks_cwt_wavelets(host):
    x = RNG.normal(size=300)

    def flat_top(n, w):  # a user wavelet
        return np.ones(int(n)) / max(w, 1)

    if _scipy_is_1_18s(x, [2, 4, 6], wavelet=flat_top):
        np.testing.assert_array_equal(host.find_peaks_cwt(x, [2, 4, 6], wavelet=flat_top),
                                      ss.find_peaks_cwt(x, [2, 4, 6], wavelet=flat_top))

    def cplx(n, w):  # a complex wavelet: a complex transform
        t = np.arange(int(n)) - (n - 1) / 2
        return np.exp(-t ** 2 / (2 * w ** 2)) * (1 + 0.5j)

    got, ref = host.find_peaks_cwt(x, [2, 3, 4], wavelet=cplx), ss.find_peaks_cwt(x, [2, 3, 4], wavelet=cplx)
    if _scipy_is_1_18s(x, [2, 3, 4], wavelet=cplx):
        np.testing.assert_array_equal(got, ref)
    assert got.dtype == ref.dtype


@pytest.mark.parametrize("case", ["empty", "zero width", "negative width", "no widths", "2-D", "distances"])
def test_find_peaks_cwt_errors(host, case):
    x = RNG.normal(size=100)
    args, kw = {"empty": ((np.array([]), [1, 2]), {}), "zero width": ((x, [0]), {}),
                "negative width": ((x, [-1, 2]), {}), "no widths": ((x, []), {}), "2-D": ((np.ones((3, 10)), [1, 2]), {}),
                "distances": ((x, [1, 2, 3]), dict(max_distances=[1]))}[case]
    with np.errstate(all="ignore"):
        same_error(lambda: ss.find_peaks_cwt(*args, **kw), lambda: host.find_peaks_cwt(*args, **kw))


def _scipy_lines(matr, max_distances, gap_thresh):
    from scipy.signal._peak_finding import _identify_ridge_lines  # the linking SciPy runs (private)

    return _identify_ridge_lines(matr, max_distances, gap_thresh)


@pytest.mark.parametrize("seed", range(40))
def test_ridge_linking_is_scipys(seed):
    """The vectorised linking (nearest line by a sorted search, ties to the first line) against
    SciPy's loop over every maximum, on matrices with many ties: small integers, several maxima a
    row near one line, lines ending and starting."""
    from cuarray.scipy.signal import _peaks_cwt as pc

    rng = np.random.default_rng(seed)
    rows, cols = rng.integers(3, 9), rng.integers(10, 60)
    matr = rng.integers(0, 4, size=(rows, cols)).astype(float)
    max_distances = rng.integers(0, 6, size=rows).astype(float)
    gap_thresh = float(rng.integers(0, 3))
    inner = matr[:, 1:-1]
    is_max = (inner > matr[:, :-2]) & (inner > matr[:, 2:])
    r, c = np.nonzero(is_max)
    c = c + 1
    line_of = pc._identify_ridge_lines(r, c, rows, max_distances, gap_thresh)
    lengths, first_rows, first_cols = pc._line_starts(r, c, line_of)
    ref = _scipy_lines(matr, max_distances, gap_thresh)
    got = sorted((int(n), int(fr), int(fc)) for n, fr, fc in zip(lengths, first_rows, first_cols))
    want = sorted((len(line[0]), int(line[0][0]), int(line[1][0])) for line in ref)
    if not SCIPY_1_18:  # (1.17's first point of a line with two points on one row is not 1.18's: lengths only)
        got, want = sorted(g[0] for g in got), sorted(w[0] for w in want)
    assert got == want


def test_find_peaks_cwt_reads_integer_data_once(host):
    """SciPy's exactness rule for an integer signal needs max |data|: read back once for all the
    widths, not once a width (a device synchronisation each)."""
    g = host.find_peaks_cwt.__globals__
    reads, abs_max = [], g["_abs_max"]
    x = RNG.integers(-50, 50, size=400)
    g["_abs_max"] = lambda a: reads.append(a.shape) or abs_max(a)
    try:
        got = host.find_peaks_cwt(x, np.arange(1, 10))
    finally:
        g["_abs_max"] = abs_max
    assert reads.count(x.shape) == 1, reads
    np.testing.assert_array_equal(got, ss.find_peaks_cwt(x, np.arange(1, 10)))
