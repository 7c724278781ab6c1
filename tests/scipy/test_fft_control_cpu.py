"""cuarray.scipy.fft's backend control, workers and fftfreq/rfftfreq `xp` (no GPU): the backend
functions are scipy.fft's own (the same effect on scipy.fft's multimethods, the same errors),
`cuarray.scipy.fft` is itself a uarray backend that declines non-cuarray input, and the worker
count keeps SciPy's contract."""

from __future__ import annotations

import os
import threading

import numpy as np
import pytest
import scipy.fft

import cuarray.scipy.fft as cfft

uarray = pytest.importorskip("scipy._lib.uarray")


class _Declines:
    """A backend that implements nothing (SciPy's docstring example of register_backend)."""

    __ua_domain__ = "numpy.scipy.fft"

    @staticmethod
    def __ua_function__(method, args, kwargs):
        return NotImplemented


def test_workers_default_nesting_and_threads():
    assert cfft.get_workers() == scipy.fft.get_workers() == 1
    with cfft.set_workers(4):
        assert cfft.get_workers() == 4
        with cfft.set_workers(-1):
            assert cfft.get_workers() == os.cpu_count()
        assert cfft.get_workers() == 4
        seen = []
        t = threading.Thread(target=lambda: seen.append(cfft.get_workers()))
        t.start()
        t.join()
        assert seen == [1]   # a per-thread default, as SciPy's
        assert scipy.fft.get_workers() == 1  # SciPy's own count is its own
    assert cfft.get_workers() == 1


@pytest.mark.parametrize("bad", [0, -(os.cpu_count() or 1) - 1, 2.5, "2"])
def test_workers_errors_as_scipy(bad):
    with pytest.raises(Exception) as ours:
        with cfft.set_workers(bad):
            pass
    with pytest.raises(Exception) as theirs:
        with scipy.fft.set_workers(bad):
            pass
    assert type(ours.value) is type(theirs.value)
    assert cfft.get_workers() == 1


def test_set_backend_and_skip_backend_are_scipys():
    x = np.arange(8.0)
    with cfft.set_backend("scipy", only=True):
        np.testing.assert_allclose(scipy.fft.fft(x), np.fft.fft(x))
    with cfft.skip_backend("scipy"):
        with pytest.raises(uarray.BackendNotImplementedError):
            scipy.fft.fft(x)
    np.testing.assert_allclose(scipy.fft.fft(x), np.fft.fft(x))  # restored on exit
    for call in (cfft.set_backend, cfft.skip_backend, cfft.register_backend, cfft.set_global_backend):
        with pytest.raises(ValueError, match="Unknown backend"):
            call("cupy")
        with pytest.raises(ValueError):
            scipy.fft.set_backend("cupy")


def test_cuarray_scipy_fft_is_a_backend_that_declines_host_input():
    x = np.arange(8.0)
    want = scipy.fft.dct(x)
    with scipy.fft.set_backend(cfft):           # NumPy input: cuarray declines, SciPy's runs
        np.testing.assert_allclose(scipy.fft.dct(x), want)
        np.testing.assert_allclose(scipy.fft.fft(x), np.fft.fft(x))
    with cfft.set_backend(cfft, only=True):
        with pytest.raises(uarray.BackendNotImplementedError):
            scipy.fft.fft(x)
    assert cfft.__ua_function__(scipy.fft.fft, (x,), {}) is NotImplemented
    assert cfft.__ua_function__(scipy.fft.fht, (), {"a": x, "dln": 0.1, "mu": 0.0}) is NotImplemented
    assert cfft.__ua_function__(scipy.fft.next_fast_len, (8,), {}) is NotImplemented
    assert cfft.__ua_domain__ == "numpy.scipy.fft"


def test_global_and_registered_backends():
    x = np.arange(4.0)
    try:
        cfft.set_global_backend(_Declines, only=True)
        with pytest.raises(uarray.BackendNotImplementedError):
            scipy.fft.fft(x)
    finally:
        cfft.set_global_backend("scipy")
    np.testing.assert_allclose(scipy.fft.fft(x), np.fft.fft(x))
    cfft.register_backend(_Declines)            # tried last, declines: nothing changes
    np.testing.assert_allclose(scipy.fft.fft(x), np.fft.fft(x))


@pytest.mark.parametrize("name", ["fftfreq", "rfftfreq"])
def test_freq_in_numpy_namespace(name):
    got = getattr(cfft, name)(9, d=0.5, xp=np)
    want = getattr(scipy.fft, name)(9, d=0.5, xp=np)
    assert type(got) is np.ndarray
    np.testing.assert_array_equal(got, want)
    with pytest.raises(ValueError, match="device"):
        getattr(cfft, name)(9, xp=np, device="cpu")
    with pytest.raises(ValueError):
        getattr(scipy.fft, name)(9, xp=np, device="cpu")
