"""Filter design (SciPy on the host, arrays to the device) and order_filter without a device (NumPy
arrays for cuarray arrays): every design function called positionally and by keyword with SciPy's
parameters, its arrays converted; the `xp`/`device` keywords (None and cuarray: device arrays; numpy:
SciPy's host arrays; a bad device: ValueError); `besselap`, `firwin_2d`; SciPy's errors."""

import inspect

import numpy as np
import pytest
import scipy.signal as ss


@pytest.fixture
def host_design(signal_standins, host_signal_of):
    from cuarray.scipy.signal import _host_calls

    converted = []

    def from_host(a):
        converted.append(a)
        return np.asarray(a)

    return host_signal_of(signal_standins, {_host_calls: dict(_from_host=from_host)}), converted


def same(got, ref, rtol=0):
    got, ref = (got, ref) if isinstance(ref, tuple) else ((got,), (ref,))
    assert len(got) == len(ref)
    for g, r in zip(got, ref):
        assert type(g) is type(r)
        if isinstance(r, np.ndarray):
            assert g.dtype == r.dtype and g.shape == r.shape
        np.testing.assert_allclose(g, r, rtol=rtol, atol=0)


# (positional arguments, keyword arguments) of SciPy 1.18's signatures, the defaults varied
DESIGNS = [
    ("butter", (4, 0.2), {}), ("butter", (4, [0.2, 0.4], "bandpass"), dict(output="sos")),
    ("butter", (3, 100.0), dict(btype="high", fs=1000.0, output="zpk")), ("butter", (2, 1.5, "low", True), {}),
    ("cheby1", (3, 1, 0.3), {}), ("cheby1", (3, 1, [0.2, 0.5]), dict(btype="bandstop", output="zpk")),
    ("cheby2", (3, 20, 0.3), {}), ("cheby2", (4, 30, 200.0, "highpass"), dict(fs=1000.0, output="sos")),
    ("ellip", (3, 1, 20, 0.3), {}), ("ellip", (4, 0.5, 40, [0.1, 0.3]), dict(btype="band", analog=False)),
    ("bessel", (3, 0.3), {}), ("bessel", (4, 0.3), dict(norm="mag", output="zpk")),
    ("bessel", (4, 2.0), dict(analog=True, norm="delay")),
    ("iirfilter", (3, 0.3, None, None, "lowpass"), {}), ("iirfilter", (4, [0.2, 0.4]), dict(rp=1, rs=40, ftype="ellip")),
    ("iirfilter", (2, 0.3), dict(btype="low", ftype="cheby1", rp=2, output="sos")),
    ("iirnotch", (0.3, 30.0), {}), ("iirnotch", (60.0, 30.0, 1000.0), {}), ("iirpeak", (0.3, 30.0), {}),
    ("iirpeak", (60.0, 10.0), dict(fs=500.0)),
    ("firwin", (31, 0.3), {}), ("firwin", (30, [0.2, 0.4]), dict(pass_zero=False, window="hann", scale=False)),
    ("firwin", (31, 50.0), dict(width=10.0, fs=400.0)),
    ("firwin2", (31, [0, 0.5, 1], [1, 1, 0]), {}), ("firwin2", (30, [0, 0.4, 1], [0, 1, 0]), dict(antisymmetric=True)),
    ("firwin2", (31, [0, 100, 200], [1, 1, 0]), dict(nfreqs=513, window="blackman", fs=400.0)),
    ("remez", (21, [0, 0.2, 0.3, 0.5], [1, 0]), {}),
    ("remez", (20, [0, 100, 150, 500], [1, 0]), dict(weight=[1, 5], fs=1000.0, maxiter=40, grid_density=20)),
    ("remez", (21, [0.05, 0.45], [1]), dict(type="hilbert")),
    ("firwin_2d", ((5, 7), ("hamming", "hann")), dict(fc=0.3)), ("firwin_2d", ((9, 9), "hamming"), dict(fc=0.4,
                                                                                                      circular=True)),
    ("besselap", (4,), {}), ("besselap", (3, "delay"), {}), ("besselap", (0,), {}),
]


@pytest.mark.parametrize("name, args, kw", DESIGNS, ids=["{}-{}".format(d[0], i) for i, d in enumerate(DESIGNS)])
def test_designs(host_design, name, args, kw):
    sig, converted = host_design
    ref = getattr(ss, name)(*args, **kw)
    same(getattr(sig, name)(*args, **kw), ref)
    arrays = sum(isinstance(r, np.ndarray) for r in (ref if isinstance(ref, tuple) else (ref,)))
    assert len(converted) == arrays  # (each array of SciPy's result went up once)
    # every argument by its name (SciPy's parameter names, keyword-only ones included)
    names = list(inspect.signature(getattr(ss, name)).parameters)
    by_name = dict(zip(names, args), **kw)
    same(getattr(sig, name)(**by_name), ref)


def test_design_takes_device_arguments(host_design):
    from cuarray.scipy.signal import _host_calls as hc

    class Dev:  # a stand-in device array: get() is its host copy
        def __init__(self, a):
            self.a = np.asarray(a)

        def get(self):
            return self.a

    sig, _ = host_design
    from cuarray.testing.fake_device import host_packages
    from cuarray.scipy import signal as cs

    sig = host_packages([cs], {hc: dict(ndarray=Dev, _from_host=np.asarray)})[cs]
    same(sig.butter(4, Dev([0.2, 0.4]), "bandpass"), ss.butter(4, [0.2, 0.4], "bandpass"))
    same(sig.firwin2(31, Dev([0, 0.5, 1]), Dev([1, 1, 0])), ss.firwin2(31, [0, 0.5, 1], [1, 1, 0]))


XP_FUNCTIONS = [("iirnotch", (0.3, 30.0)), ("iirpeak", (0.3, 30.0)), ("savgol_coeffs", (7, 2)), ("besselap", (3,)),
                ("buttap", (3,)), ("cheb1ap", (3, 1.0)), ("cheb2ap", (3, 20.0)), ("ellipap", (3, 1.0, 20.0)),
                ("iircomb", (0.1, 30.0)), ("gammatone", (440, "iir", None, None, 16000))]


@pytest.mark.parametrize("name, args", XP_FUNCTIONS, ids=[f[0] for f in XP_FUNCTIONS])
def test_xp_and_device(host_design, name, args):
    import cuarray
    from cuarray.cuda import Device

    sig, converted = host_design
    ref = getattr(ss, name)(*args)
    n_arrays = sum(isinstance(r, np.ndarray) for r in (ref if isinstance(ref, tuple) else (ref,)))
    rtol = 1e-12 if name == "savgol_coeffs" else 0  # (cuarray's least squares, not SciPy's)
    for xp in (None, cuarray):  # cuarray's arrays (NumPy stand-ins here): every array converted
        converted.clear()
        same(getattr(sig, name)(*args, xp=xp), ref, rtol)
        assert len(converted) == n_arrays
    converted.clear()
    same(getattr(sig, name)(*args, xp=np, device="cpu"), ref, rtol)  # numpy: host arrays, nothing uploaded
    same(getattr(sig, name)(*args, xp=np), ref, rtol)
    assert not converted
    with pytest.raises(ValueError, match="cuarray.cuda.Device"):
        getattr(sig, name)(*args, device="cuda:0")
    with pytest.raises(ValueError, match="cuarray.cuda.Device"):
        getattr(sig, name)(*args, xp=cuarray, device=0)
    with pytest.raises(ValueError):  # (NumPy's own error for a device it does not have)
        getattr(sig, name)(*args, xp=np, device=Device(0))
    sig_ref = inspect.signature(getattr(ss, name)).parameters
    assert sig_ref["xp"].kind is inspect.Parameter.KEYWORD_ONLY and sig_ref["device"].kind is inspect.Parameter.KEYWORD_ONLY


class _Namespace:
    """A foreign array namespace: asarray records what it is given."""

    def __init__(self):
        self.calls = []

    def asarray(self, a, **kw):
        self.calls.append(kw)
        return ("converted", a)


def test_other_namespace(host_design):
    sig, converted = host_design
    xp = _Namespace()
    b, a = sig.iirnotch(0.3, 30.0, xp=xp, device="dev1")
    assert b[0] == "converted" and a[0] == "converted" and xp.calls == [{"device": "dev1"}] * 2
    z, p, k = sig.besselap(3, xp=xp)
    assert z[0] == p[0] == "converted" and isinstance(k, float) and xp.calls[-1] == {}
    assert not converted


ERRORS = [("butter", (4, 1.2), {}), ("butter", (4, 0.2), dict(btype="sideways")), ("cheby1", (3, 1, 0.3, "low", False, "xyz"), {}),
          ("ellip", (3, 1, 20, [0.4, 0.2], "band"), {}), ("bessel", (3, 0.3), dict(norm="nope")),
          ("iirfilter", (3, 0.3), dict(ftype="nope")), ("iirnotch", (1.5, 30.0), {}), ("iirpeak", (0.3, 30.0, None), {}),
          ("firwin", (30, 0.3), dict(pass_zero=False)), ("firwin", (31, 1.3), {}), ("firwin2", (31, [0, 0.5], [1, 0]), {}),
          ("remez", (21, [0, 0.3, 0.2, 0.5], [1, 0]), {}), ("remez", (21, [0, 0.2, 0.3, 0.5], [1, 0]), dict(type="x")),
          ("firwin_2d", ((5,), "hamming"), {}), ("firwin_2d", ((5, 5), "hamming"), dict(circular=True)),
          ("firwin_2d", ((5, 5), "hamming"), dict(fc=0.3)), ("besselap", (-1,), {}), ("besselap", (3, "x"), {}),
          ("savgol_coeffs", (5, 5), {}), ("savgol_coeffs", (5, 2), dict(use="x"))]


@pytest.mark.parametrize("name, args, kw", ERRORS, ids=["{}-{}".format(e[0], i) for i, e in enumerate(ERRORS)])
def test_design_errors(host_design, name, args, kw):
    sig, _ = host_design
    with pytest.raises(Exception) as ref:
        getattr(ss, name)(*args, **kw)
    with pytest.raises(ref.type, match=None if not str(ref.value) else __import__("re").escape(str(ref.value))):
        getattr(sig, name)(*args, **kw)


def test_order_filter(host_design):
    sig, _ = host_design
    x = np.round(np.random.default_rng(3).normal(size=(9, 10)) * 5)
    dom = np.array([[1, 0, 1], [1, 1, 1], [0, 1, 0]])
    for rank in (0, 2, 5):
        np.testing.assert_array_equal(sig.order_filter(x, dom, rank), ss.order_filter(x, dom, rank))
    with pytest.raises(ValueError):
        sig.order_filter(x, np.ones((2, 3)), 1)
