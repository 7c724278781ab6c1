"""The float32 loops evaluated in float (templates/bessel_float.cuh: i0e, i1e; templates/
gamma_float.cuh: gammaln for x >= 0) on the GPU: within 2 ulp of SciPy's float64 values over fresh
random arguments of every interval of the evaluation and the edges, and the same bits as the host
build (g++, where it is installed: the evaluation uses only operations both round alike, so
test_special_float_cpu.py's accuracy figures are the GPU's)."""

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
NAMES = sorted(host.FUNCS)  # i0e_float, ... (host names); host.FUNCS[name] is the ufunc's


@pytest.mark.parametrize("name", NAMES)
def test_float32_within_two_ulp(name):
    x = host.points(np.random.default_rng(), name, n=500_000)
    got = getattr(cs, host.FUNCS[name])(cuarray.asarray(x)).get()
    assert got.dtype == np.float32
    host.check(name, x, got)
    e = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0], dtype=np.float32)
    np.testing.assert_array_equal(getattr(cs, host.FUNCS[name])(cuarray.asarray(e)).get(),
                                  getattr(special, host.FUNCS[name])(e.astype(np.float64)).astype(np.float32))


@pytest.mark.parametrize("name", NAMES)
def test_float32_bits_equal_host_build(lib, name):
    x = host.points(np.random.default_rng(), name, n=200_000)
    got = getattr(cs, host.FUNCS[name])(cuarray.asarray(x)).get()
    ref = host.host(lib, name, x)
    keep = x >= 0 if name == "gammaln_float" else np.ones(x.shape, bool)  # (gammaln below 0: CUDA's double lgamma)
    np.testing.assert_array_equal(got[keep].view(np.int32), ref[keep].view(np.int32))


def test_gammaln_float32_negative_axis():
    # below 0 the float32 loop computes in double: SciPy's value rounded once (absolutely
    # accurate near the negative roots), inf at the poles, -inf at -inf
    rng = np.random.default_rng()
    x = np.concatenate([rng.uniform(-40, 0, 200_000), -np.arange(0, 40), [-1e-40, -3e38, -np.inf]]).astype(np.float32)
    got = cs.gammaln(cuarray.asarray(x)).get()
    want = special.gammaln(x.astype(np.float64)).astype(np.float32)
    np.testing.assert_allclose(got, want, rtol=2.5e-7, atol=1e-6)


def test_gammaln_float32_overflow_edge():
    # x (log x - 1) past 1e30 is rounded once from double, as SciPy's float32 loop rounds its
    # double: inf exactly where SciPy's is (FLT_MAX before, at 4.0850034e36), 2 ulp elsewhere
    c = np.float32(4.0850034e36)
    x = (c + np.arange(-2**18, 2**18, dtype=np.float64) * float(np.spacing(c))).astype(np.float32)
    got = cs.gammaln(cuarray.asarray(x)).get()
    host.check("gammaln_float", x, got)
    assert got[2**18] == np.inf


def test_float32_strided_and_fused():
    # the strided kernel and a fused kernel run the same float evaluations
    x = np.random.default_rng().uniform(0.01, 20, (300, 200)).astype(np.float32)
    gx = cuarray.asarray(x)
    x8 = x.astype(np.float64)
    want = special.i0e(x8) * special.i1e(x8) * special.gammaln(x8)
    got = (cs.i0e(gx.T) * cs.i1e(gx.T) * cs.gammaln(gx.T)).get()
    # three results within 2 ulp and two products; gammaln's roots 1 and 2 are relative too
    np.testing.assert_allclose(got, want.T, rtol=1.5e-6)
    fused = cuarray.fuse(lambda a: cs.i0e(a) * cs.i1e(a) * cs.gammaln(a))
    np.testing.assert_allclose(fused(gx).get(), want, rtol=1.5e-6)
