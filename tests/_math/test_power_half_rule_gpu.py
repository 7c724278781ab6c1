"""power with a 0-d exponent array against NumPy on the GPU: NumPy's scalar 0.5 rule ((-inf)**0.5
is nan, (-0.0)**0.5 is -0.0) and the plain loop for other exponents, float32/float64, out= and
where= (fuzz seed 7 index 81: nan expected, inf returned)."""

import warnings

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402


@pytest.mark.parametrize("base,exp", [("f8", "f4"), ("f8", "f8"), ("f4", "f4"), ("f4", "f8")])
@pytest.mark.parametrize("e", [0.5, 2.5, -0.5, 2.0])
def test_zero_d_exponent_as_numpy(base, exp, e):
    rng = np.random.default_rng()
    h = np.concatenate([[-np.inf, np.inf, -0.0, 0.0, np.nan, -2.0, 4.0], rng.uniform(-5, 5, 9)]).astype(base)
    he = np.array(e, exp)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for a, ha in ((cuarray.asarray(h), h), (cuarray.asarray(h[3]), h[3:4].reshape(()))):
            want = np.power(ha, he)
            got = cuarray.power(a, cuarray.asarray(he))
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_array_equal(got.get(), want)
            np.testing.assert_array_equal(np.signbit(got.get()), np.signbit(want))
        mask = rng.random(h.size) < 0.5
        want = np.full(h.shape, 7.0, np.result_type(h, he))
        np.power(h, he, out=want, where=mask)
        got = cuarray.full(h.shape, 7.0, want.dtype)
        cuarray.power(cuarray.asarray(h), cuarray.asarray(he), out=got, where=cuarray.asarray(mask))
        np.testing.assert_array_equal(got.get(), want)
