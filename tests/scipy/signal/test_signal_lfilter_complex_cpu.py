"""lfilter, sosfilt, filtfilt and sosfiltfilt with complex coefficients without a device: the
real-coefficient scan (templates/iir.cuh built with g++, conftest's `host_lfilter`) under
_lfilter_complex.py's reduction to real denominators, against scipy.signal."""

import numpy as np
import pytest
import scipy.signal as ss

RNG = np.random.default_rng(52)


@pytest.fixture
def complex_standins(lfilter_standins):
    from cuarray.scipy.signal import _lfilter_complex as lc

    return {**lfilter_standins, lc: dict(_zeros=np.zeros, _concatenate=np.concatenate)}


@pytest.fixture
def host(complex_standins, host_signal_of):
    return host_signal_of(complex_standins)


def cplx(n, scale=1.0):
    return (RNG.normal(size=n) + 1j * RNG.normal(size=n)) * scale


P = 0.6 * np.exp(1j * np.array([0.3, 1.1, -2.0]))  # stable complex poles (no conjugate pairs)
FILTERS = {"complex b": (cplx(4), np.array([1.0, -0.5, 0.2])), "complex a": (np.array([1.0, 0.5]), np.poly(P)),
           "both": (cplx(3), 2.0 * np.poly(P[:2])), "fir": (cplx(5), np.array([1.0 + 0j])),
           "longer b": (cplx(6), np.poly(P[:1]))}


@pytest.mark.parametrize("name", list(FILTERS))
@pytest.mark.parametrize("xkind", ["float64", "complex128", "float32"])
def test_lfilter_complex_coefficients(host, name, xkind):
    b, a = FILTERS[name]
    x = RNG.normal(size=(3, 40, 2))
    x = (x + 1j * RNG.normal(size=x.shape)) if xkind == "complex128" else x.astype(xkind)
    for axis in (1, 0, -1):
        ref = ss.lfilter(b, a, x, axis)
        got = host.lfilter(b, a, x, axis)
        assert got.dtype == ref.dtype and got.shape == ref.shape
        np.testing.assert_allclose(got, ref, rtol=1e-10, atol=1e-10)
        K = max(len(a), len(b)) - 1
        zshape = list(x.shape)
        zshape[axis] = K
        for zi in (cplx(zshape).reshape(zshape) if K else np.zeros(zshape, complex), RNG.normal(size=zshape)):
            ry, rz = ss.lfilter(b, a, x, axis, zi)
            gy, gz = host.lfilter(b, a, x, axis, zi)
            assert gy.dtype == ry.dtype and gz.dtype == rz.dtype and gz.shape == rz.shape
            np.testing.assert_allclose(gy, ry, rtol=1e-9, atol=1e-9)
            np.testing.assert_allclose(gz, rz, rtol=1e-9, atol=1e-9)


def test_complex_zi_shape_errors(host):
    b, a = FILTERS["complex a"]
    with pytest.raises(ValueError, match="Unexpected shape"):
        host.lfilter(b, a, np.ones(10), zi=np.ones(1))


def test_sos_and_filtfilt_complex(host):
    sos = np.array([[1.0, 0.5j, 0.1, 1.0, -0.4 + 0.3j, 0.1j], [0.5, 0.2, 0.0, 1.0, 0.3, 0.1]])
    x = cplx(60)
    np.testing.assert_allclose(host.sosfilt(sos, x), ss.sosfilt(sos, x), rtol=1e-10, atol=1e-10)
    zi = cplx((2, 2)).reshape(2, 2)
    for g, r in zip(host.sosfilt(sos, x, zi=zi), ss.sosfilt(sos, x, zi=zi)):
        np.testing.assert_allclose(g, r, rtol=1e-10, atol=1e-10)
    b, a = FILTERS["both"]
    np.testing.assert_allclose(host.filtfilt(b, a, x), ss.filtfilt(b, a, x), rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(host.lfilter_zi(b, a), ss.lfilter_zi(b, a), rtol=1e-12)


def test_sosfiltfilt_complex(host):
    sos = np.array([[1.0, 0.5j, 0.1, 1.0, -0.4 + 0.3j, 0.1j]])
    x = RNG.normal(size=(2, 50))
    np.testing.assert_allclose(host.sosfilt_zi(sos), ss.sosfilt_zi(sos), rtol=1e-12)
    np.testing.assert_allclose(host.sosfiltfilt(sos, x), ss.sosfiltfilt(sos, x), rtol=1e-9, atol=1e-9)


@pytest.fixture
def host_gust(complex_standins, host_signal_of):
    from cuarray.scipy.signal import _filtfilt_gust as fg

    return host_signal_of(complex_standins, {fg: dict(_moveaxis=np.moveaxis, _concatenate=np.concatenate,
                                                      _matmul=np.matmul, _from_host=np.asarray)})


@pytest.mark.parametrize("irlen", [None, 10, 200])
@pytest.mark.parametrize("ba", ["butter", "complex", "gain"])
def test_filtfilt_gust(host_gust, irlen, ba):
    b, a = {"butter": ss.butter(3, 0.2), "complex": FILTERS["both"], "gain": ([2.0], [4.0])}[ba]
    x = RNG.normal(size=(3, 60, 2))
    for axis in (1, -1, 0):
        ref = ss.filtfilt(b, a, x, axis=axis, method="gust", irlen=irlen)
        got = host_gust.filtfilt(b, a, x, axis=axis, method="gust", irlen=irlen)
        assert got.dtype == ref.dtype and got.shape == ref.shape
        np.testing.assert_allclose(got, ref, rtol=1e-8, atol=1e-8)


def test_host_states_are_taken(lfilter_standins, host_signal_of):
    """zi given as a list or NumPy array (a small parameter, as SciPy takes it) is copied up."""
    from cuarray.scipy.ndimage import _support
    from cuarray.scipy.signal import _args

    uploaded = []
    host_lfilter = host_signal_of(lfilter_standins, {
        _args: dict(_literal=lambda a, fn: uploaded.append(a) or np.asarray(a)),
        _support: dict(lfilter_standins[_support], is_array=lambda a: False)})
    b, a = ss.butter(2, 0.3)
    x = RNG.normal(size=20)
    for g, r in zip(host_lfilter.lfilter(b, a, x, zi=[0.5, -0.2]), ss.lfilter(b, a, x, zi=[0.5, -0.2])):
        np.testing.assert_allclose(g, r, rtol=1e-12)
    assert any(np.array_equal(u, [0.5, -0.2]) for u in uploaded)


@pytest.mark.parametrize("axis", [0, -1])
def test_filtfilt_gust_unstable_filter(host_gust, axis):
    # cupyx's TestFiltFilt draws integer filters; a = [1, 0, -1, -1] has a pole at 1.3247, so the
    # passes grow to |y_fb| ~ 1e11 over 51 samples and the answer (~0.1) is their cancellation:
    # SciPy's lstsq keeps it to rounding of |y_fb|; an explicit pseudo-inverse lost it (errors ~1e6)
    b, a = np.array([0, -1]), np.array([1, 0, -1, -1])
    x = np.moveaxis(RNG.uniform(-0.1, 0.1, size=(3, 2, 51)), -1, axis)
    ref = ss.filtfilt(b, a, x, axis=axis, method="gust")
    got = host_gust.filtfilt(b, a, x, axis=axis, method="gust")
    y_fb = ss.lfilter(b, a, ss.lfilter(b, a, x, axis=axis)[::-1] if axis == 0 else
                      ss.lfilter(b, a, x, axis=axis)[..., ::-1], axis=axis)
    np.testing.assert_allclose(got, ref, rtol=0, atol=1e-14 * np.abs(y_fb).max())
    assert np.abs(ref).max() < 10  # the cancellation happened (SciPy's answer is of x's size)
