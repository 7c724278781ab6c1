"""cuarray.scipy.fft's DCT/DST family on the GPU against scipy.fft: every type and norm, n=
(padding and truncation), axes, float32/complex/integer input, stacks and non-contiguous views."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

sfft = pytest.importorskip("scipy.fft")

import cuarray  # noqa: E402
from cuarray.scipy import fft as cfft  # noqa: E402

G = cuarray.asarray


@pytest.mark.parametrize("name", ["dct", "idct", "dst", "idst"])
@pytest.mark.parametrize("t", [1, 2, 3, 4])
@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128, np.int64], ids=lambda d: np.dtype(d).name)
def test_r2r(name, t, norm, dtype):
    rng = np.random.default_rng(t)
    x = rng.normal(size=(5, 33)) * 10
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.normal(size=x.shape)
    x = x.astype(dtype)
    for axis, n in ((-1, None), (0, None), (-1, 20), (-1, 50), (0, 7)):
        got = getattr(cfft, name)(G(x), type=t, n=n, axis=axis, norm=norm)
        want = getattr(sfft, name)(x, type=t, n=n, axis=axis, norm=norm)
        assert got.dtype == want.dtype and got.shape == want.shape
        tol = 1e-4 if want.dtype in (np.float32, np.complex64) else 1e-11
        np.testing.assert_allclose(got.get(), want, rtol=tol, atol=tol * np.abs(want).max())


@pytest.mark.parametrize("name", ["dctn", "idctn", "dstn", "idstn"])
def test_r2rn(name):
    x = np.random.default_rng(0).normal(size=(6, 8, 10))
    view = x[:, ::2, ::-1]
    # (s: cupyx's (-1, -1), the input's sizes; a scalar, the last axis's)
    for kw in ({}, {"axes": (0, 2)}, {"s": (5, 6)}, {"type": 3, "norm": "ortho"}, {"type": 1, "axes": (1,)},
               {"s": (-1, -1)}, {"s": (7, -1), "axes": (2, 0)}, {"s": 3}, {"s": -1, "type": 4}, {"axes": ()}):
        got = getattr(cfft, name)(G(x)[:, ::2, ::-1], **kw)
        want = getattr(sfft, name)(view, **kw)
        assert got.shape == want.shape, (kw, got.shape, want.shape)
        np.testing.assert_allclose(got.get(), want, rtol=1e-11, atol=1e-11 * np.abs(want).max(), err_msg=str(kw))
