"""argrelextrema, oaconvolve and Savitzky-Golay without a device, against scipy.signal."""


import numpy as np
import pytest
import scipy.signal as ss

@pytest.fixture
def host_misc(signal_standins, host_signal_of):
    from cuarray.scipy.signal import _host_calls, _misc

    return host_signal_of(signal_standins, {_misc: dict(_from_host=np.asarray, _moveaxis=np.moveaxis,
                                                        _nonzero=np.nonzero), _host_calls: dict(_from_host=np.asarray)})


RNG = np.random.default_rng(23)


@pytest.mark.parametrize("order", [1, 2, 4])
@pytest.mark.parametrize("mode", ["clip", "wrap"])
def test_argrel(host_misc, order, mode):
    x = np.round(RNG.normal(size=(6, 40)) * 3)
    for axis in (0, 1):
        for fn in ("argrelmax", "argrelmin"):
            for g, r in zip(getattr(host_misc, fn)(x, axis, order, mode), getattr(ss, fn)(x, axis, order, mode)):
                np.testing.assert_array_equal(g, r)
        for g, r in zip(host_misc.argrelextrema(x, np.greater_equal, axis, order, mode),
                        ss.argrelextrema(x, np.greater_equal, axis, order, mode)):
            np.testing.assert_array_equal(g, r)


def test_oaconvolve(host_misc):
    a, b = RNG.normal(size=(300,)), RNG.normal(size=(20,))
    for mode in ("full", "same", "valid"):
        np.testing.assert_allclose(host_misc.oaconvolve(a, b, mode), ss.oaconvolve(a, b, mode), atol=1e-10)


@pytest.mark.parametrize("wl,po,deriv", [(5, 2, 0), (7, 3, 1), (8, 2, 0), (11, 4, 2), (4, 3, 3), (6, 2, 3)])
@pytest.mark.parametrize("mode", ["interp", "mirror", "constant", "nearest", "wrap"])
def test_savgol(host_misc, wl, po, deriv, mode):
    np.testing.assert_allclose(host_misc.savgol_coeffs(wl, po, deriv), ss.savgol_coeffs(wl, po, deriv), atol=1e-10)
    np.testing.assert_allclose(host_misc.savgol_coeffs(wl, po, deriv, pos=1, use="dot"),
                               ss.savgol_coeffs(wl, po, deriv, pos=1, use="dot"), atol=1e-10)
    x = RNG.normal(size=(4, 30))
    for axis in (-1, 0):
        if mode == "interp" and x.shape[axis] < wl:
            continue
        got = host_misc.savgol_filter(x, wl, po, deriv, delta=0.5, axis=axis, mode=mode, cval=1.0)
        ref = ss.savgol_filter(x, wl, po, deriv, delta=0.5, axis=axis, mode=mode, cval=1.0)
        assert got.dtype == ref.dtype
        np.testing.assert_allclose(got, ref, rtol=1e-8, atol=1e-8)
    xi = np.round(x * 10).astype(np.int32)
    np.testing.assert_allclose(host_misc.savgol_filter(xi, wl, po, mode=mode), ss.savgol_filter(xi, wl, po, mode=mode),
                               atol=1e-8)
