"""Convolution's arguments and result layouts without a device (conftest's `host_signal`: the public
functions over NumPy arrays, the kernels as NumPy models), SciPy the oracle: convolve2d's and
correlate2d's `fillvalue` (accepted, converted and refused as SciPy's C core does), the types
SciPy's 2-D core refuses, choose_conv_method on 0-d and mismatched ranks, and C-contiguous results
wherever SciPy's are (cupyx's tests check the flag)."""

import itertools

import numpy as np
import pytest
import scipy.signal as ss

RNG = np.random.default_rng(41)


def _outcome(call):
    try:
        return call(), None
    except Exception as exc:  # (compared by type)
        return None, type(exc)


def _same_layout(got, ref, what):
    """SciPy's C (F) contiguous result is ours too (cupyx's testing checks this direction)."""
    for flag in ("C_CONTIGUOUS", "F_CONTIGUOUS"):
        assert not ref.flags[flag] or got.flags[flag], (what, flag, got.strides, ref.strides)


def _close(got, ref, what):
    assert got.dtype == ref.dtype and got.shape == ref.shape, (what, got.dtype, ref.dtype, got.shape, ref.shape)
    np.testing.assert_allclose(got, ref, rtol=1e-9, atol=1e-9 * max(1.0, float(np.abs(ref).max(initial=0))),
                               err_msg=what)


FILLS = [2, 2.5, -1, 300, True, np.nan, None, 2 + 0j, 2 + 1j, np.float64(2.5), np.int64(3), np.array(2.5),
         np.array([2.5]), np.array([[2.5]]), np.array(3), np.array(3, np.int32), np.array([2.0, 3.0]),
         np.array([]), np.array(2 + 1j), "x"]


@pytest.mark.parametrize("dt", ["float64", "float32", "int64", "int32", "uint8", "complex128"])
def test_fillvalue_as_scipy(host_signal, dt):
    """Each fill value SciPy takes gives its values; each it refuses raises its exception type,
    in every mode (SciPy checks the value even where 'valid' never reads it), only for 'fill'."""
    a = RNG.integers(0, 5, size=(4, 5)).astype(dt)
    k = RNG.integers(0, 3, size=(2, 3)).astype(dt)
    bad = []
    for fv, mode, fn in itertools.product(FILLS, ("full", "same", "valid"), ("convolve2d", "correlate2d")):
        for boundary in ("fill", "wrap"):
            ref, rexc = _outcome(lambda: getattr(ss, fn)(a, k, mode, boundary, fv))
            got, gexc = _outcome(lambda: getattr(host_signal, fn)(a, k, mode, boundary, fv))
            if gexc is not rexc:
                bad.append((fn, mode, boundary, repr(fv), rexc, gexc))
            elif ref is not None:
                np.testing.assert_array_equal(got, ref, err_msg=repr((fn, mode, boundary, fv)))
                assert got.dtype == ref.dtype
    assert not bad, bad[:8]


def test_fill_pads_in_the_output_type(host_signal):
    """An integer image with a float kernel: the fill value is the output type's (2.5, not 2)."""
    a, k = np.arange(12).reshape(3, 4), np.full((2, 2), 0.5)
    for fn in ("convolve2d", "correlate2d"):
        _close(getattr(host_signal, fn)(a, k, "same", "fill", 2.5), getattr(ss, fn)(a, k, "same", "fill", 2.5), fn)


@pytest.mark.parametrize("dt", ["bool", "float16"])
def test_2d_types_scipy_refuses(host_signal, dt):
    a = np.ones((3, 3), dt)
    for fn in ("convolve2d", "correlate2d"):
        with pytest.raises(ValueError, match="not available for this type"):
            getattr(ss, fn)(a, a)
        with pytest.raises(ValueError, match="not available for this type"):
            getattr(host_signal, fn)(a, a)


@pytest.mark.parametrize("dt", ["float64", "complex128", "int64", "bool"])
def test_choose_conv_method_ranks(host_signal, dt):
    """0-d operands and operands of different ranks (which convolve refuses): SciPy's answer, or
    its exception."""
    for s1, s2 in [((), (5,)), ((), ()), ((5,), ()), ((3, 4, 5), (1, 2)), ((3, 4), (3,)), ((5,), (2, 2))]:
        a, b = np.ones(s1, dt), np.ones(s2, dt)
        for mode in ("full", "same", "valid"):
            ref, rexc = _outcome(lambda: ss.choose_conv_method(a, b, mode=mode))
            got, gexc = _outcome(lambda: host_signal.choose_conv_method(a, b, mode=mode))
            assert (got, gexc) == (ref, rexc), (s1, s2, mode, got, gexc, ref, rexc)


def test_results_c_contiguous_where_scipy_s_are(host_signal):
    """Direct N-D correlations (a crop of the padded kernel output), 2-D boundaries and swapped
    operands: SciPy's C-contiguous results are C-contiguous here too."""
    shapes = [((9, 8), (3, 4)), ((4, 6), (5, 2)), ((3, 4), (6, 7)), ((6, 5, 4), (2, 3, 3)), ((5, 6), (5, 6))]
    for (s1, s2), mode, method, fn in itertools.product(shapes, ("full", "same", "valid"), ("direct", "fft"),
                                                         ("convolve", "correlate")):
        a, b = RNG.normal(size=s1), RNG.normal(size=s2)
        ref, rexc = _outcome(lambda: getattr(ss, fn)(a, b, mode, method))
        if rexc is not None:
            continue
        got = getattr(host_signal, fn)(a, b, mode, method)
        what = (fn, s1, s2, mode, method)
        _close(got, ref, what)
        _same_layout(got, ref, what)
    for (s1, s2), mode, boundary, fn in itertools.product(shapes[:3] + shapes[4:], ("full", "same", "valid"),
                                                           ("fill", "wrap", "symm"), ("convolve2d", "correlate2d")):
        a, b = RNG.normal(size=s1), RNG.normal(size=s2) + 1j * RNG.normal(size=s2)
        ref, rexc = _outcome(lambda: getattr(ss, fn)(a, b, mode, boundary))
        if rexc is not None:
            continue
        got = getattr(host_signal, fn)(a, b, mode, boundary)
        what = (fn, s1, s2, mode, boundary)
        _close(got, ref, what)
        _same_layout(got, ref, what)
