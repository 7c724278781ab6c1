"""The float32 loops evaluated in float (templates/bessel_float.cuh: i0e, i1e) on the GPU: within
2 ulp of SciPy's float64 values over fresh random arguments of every interval of the evaluation
and the edges, and the same bits as the host build (g++, where it is installed: the evaluation
uses only operations both round alike, so test_special_float_cpu.py's accuracy figures are the
GPU's)."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

special = pytest.importorskip("scipy.special")

import cuarray  # noqa: E402
from cuarray.scipy import special as cs  # noqa: E402
import test_special_float_cpu as host  # noqa: E402  (tests/scipy: the host build and the ulp measure)

lib = host.lib  # the module-scoped fixture that builds the host library


@pytest.mark.parametrize("name", ["i0e", "i1e"])
def test_float32_within_two_ulp(name):
    x = host.points(np.random.default_rng(), n=500_000)
    got = getattr(cs, name)(cuarray.asarray(x)).get()
    assert got.dtype == np.float32
    want = getattr(special, name)(x.astype(np.float64))
    err, exact = host.ulp_errors(got, want)
    assert err.max() <= host.MAX_ULP, "{}: {:.2f} ulp".format(name, err.max())
    assert exact.mean() > 0.6
    # non-finite arguments as SciPy
    e = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0], dtype=np.float32)
    np.testing.assert_array_equal(getattr(cs, name)(cuarray.asarray(e)).get(),
                                  getattr(special, name)(e.astype(np.float64)).astype(np.float32))


@pytest.mark.parametrize("name", ["i0e", "i1e"])
def test_float32_bits_equal_host_build(lib, name):
    x = host.points(np.random.default_rng(), n=200_000)
    got = getattr(cs, name)(cuarray.asarray(x)).get()
    ref = host.host(lib, name + "_float", x)
    np.testing.assert_array_equal(got.view(np.int32), ref.view(np.int32))


def test_float32_strided_and_fused():
    # the strided kernel and a fused kernel run the same float evaluation
    x = np.random.default_rng().uniform(-20, 20, (300, 200)).astype(np.float32)
    gx = cuarray.asarray(x)
    want = special.i0e(x.astype(np.float64)) * special.i1e(x.astype(np.float64))
    got = (cs.i0e(gx.T) * cs.i1e(gx.T)).get()
    np.testing.assert_allclose(got, want.T, rtol=1e-6)  # two results of <= 2 ulp and a product
    fused = cuarray.fuse(lambda a: cs.i0e(a) * cs.i1e(a))
    np.testing.assert_allclose(fused(gx).get(), want, rtol=1e-6)
