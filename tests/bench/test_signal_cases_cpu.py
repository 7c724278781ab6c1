"""The `signal` group's convolve and resample_poly rows on the CPU: the torch conv1d setup, run on a
NumPy stand-in for torch (conv1d as its documented cross-correlation of the zero-padded input),
returns convolve(x, k, 'same') for odd and even k and restores the TF32 setting; resample_poly's
host (SciPy) setup and its byte count."""

from __future__ import annotations

import types

import numpy as np
import pytest
import scipy.signal as ss
from numpy.lib.stride_tricks import sliding_window_view

from cuarray.bench import cases
from cuarray.bench.cases import signal as S


class _Tensor(np.ndarray):
    def cuda(self):
        return self


def _conv1d(x, w, padding=0):
    """torch.nn.functional.conv1d of one channel: out[i] = sum_j xpad[i + j] w[j]."""
    assert x.shape[:2] == (1, 1) and w.shape[:2] == (1, 1)
    xpad = np.pad(np.asarray(x[0, 0], np.float64), padding)
    return (sliding_window_view(xpad, w.shape[2]) @ np.asarray(w[0, 0], np.float64))[None, None]


def _fake_torch():
    cudnn = types.SimpleNamespace(allow_tf32=True)
    return types.SimpleNamespace(
        __name__="torch", from_numpy=lambda a: a.view(_Tensor), flip=np.flip,
        nn=types.SimpleNamespace(functional=types.SimpleNamespace(conv1d=_conv1d)),
        backends=types.SimpleNamespace(cudnn=cudnn))


def test_rows_registered():
    conv = next(c for c in cases.all_cases() if c.id == "convolve")
    assert {"cuarray", "cupy", "numpy", "torch"} <= set(conv.setups)
    assert set(S.resample.setups) == {"cuarray", "cupy", "numpy"}
    assert [S.resample.label(p) for p in S.resample.params] == ["resample_poly[3/2]", "resample_poly[160/147]"]
    assert [c.id for c in cases.select(ids=["convolve", "resample_poly"])] == ["convolve", "resample_poly"]


@pytest.mark.parametrize("k", [1, 2, 15, 16, 127, 1023, 1024, 2048])
def test_torch_conv1d_setup_is_convolve_same(k):
    n = 3001
    torch = _fake_torch()
    gen = S.conv.setups["torch"](torch, n, k)
    fn = next(gen)
    assert torch.backends.cudnn.allow_tf32 is False
    got = fn()
    x = cases.random_array(np, n, "float32", seed=21).astype(np.float64)
    w = cases.random_array(np, k, "float32", seed=22).astype(np.float64)
    want = np.convolve(x, w, "same")
    assert got.shape == (n,)
    np.testing.assert_allclose(got, want, rtol=1e-12)
    np.testing.assert_allclose(got, ss.convolve(x, w, "same", method="direct"), rtol=1e-12)
    with pytest.raises(StopIteration):
        next(gen)
    assert torch.backends.cudnn.allow_tf32 is True  # restored for the cases after this one


def test_torch_same_padding_would_be_late_for_even_k():
    # why the setup pads k // 2 itself: torch's padding='same' puts (k - 1) // 2 zeros on the left
    x, w = np.arange(1.0, 41.0), np.arange(1.0, 9.0)
    k = w.size
    left = (k - 1) // 2
    xpad = np.pad(x, (left, k - 1 - left))[None, None]
    torch_same = _conv1d(xpad, w[::-1][None, None])[0, 0]
    assert not np.allclose(torch_same, np.convolve(x, w, "same"))
    np.testing.assert_allclose(torch_same[:-1], np.convolve(x, w, "same")[1:])


@pytest.mark.parametrize("p", S.resample.params)
def test_resample_poly_host_setup_and_bytes(p):
    n = 10007
    y = S.resample.setups["numpy"](np, n, p)()
    assert y.dtype == np.float64 and y.shape == (S.resampled_len(n, *p),)
    assert S.resample.amount("nbytes", n, p) == 8.0 * (n + y.size)
