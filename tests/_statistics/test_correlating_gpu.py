"""cov and corrcoef on the device, against NumPy: every keyword, dtypes, 1-D/2-D, errors."""

import warnings

import numpy
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray import testing  # noqa: E402

TOL = dict(rtol={"f": 1e-4, "F": 1e-4, "default": 1e-10}, atol={"f": 1e-4, "F": 1e-4, "default": 1e-10})


def rand(xp, shape, dtype, seed=None):
    return testing.shaped_random(shape, xp, dtype, scale=5, seed=seed)


def weights(xp, n, seed, integral):
    rng = numpy.random.default_rng(seed)
    w = rng.integers(1, 4, n).astype(float) if integral else rng.random(n) + 0.1
    return xp.asarray(w)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.int32, numpy.complex128, numpy.bool_],
                         ids=testing.dtype_id)
@pytest.mark.parametrize("case", ["2d", "1d", "rowvar", "y", "y_rowvar", "bias", "ddof", "fw", "aw", "fw_aw",
                                  "fw_aw_ddof0", "dtype", "T"])
@testing.numpy_cuarray_allclose(**TOL)
def test_cov(xp, dtype, case):
    m = rand(xp, (3, 8), dtype, seed=1)
    if case == "2d":
        return xp.cov(m)
    if case == "1d":
        return xp.cov(m[0])
    if case == "rowvar":
        return xp.cov(m.T, rowvar=False)
    if case == "y":
        return xp.cov(m, rand(xp, (2, 8), dtype, seed=2))
    if case == "y_rowvar":
        return xp.cov(m.T, rand(xp, (8,), dtype, seed=3), rowvar=False)
    if case == "bias":
        return xp.cov(m, bias=True)
    if case == "ddof":
        return xp.cov(m, ddof=3)
    if case == "fw":
        return xp.cov(m, fweights=weights(xp, 8, 4, True))
    if case == "aw":
        return xp.cov(m, aweights=weights(xp, 8, 5, False))
    if case == "fw_aw":
        return xp.cov(m, fweights=weights(xp, 8, 4, True), aweights=weights(xp, 8, 5, False))
    if case == "fw_aw_ddof0":
        return xp.cov(m, ddof=0, fweights=weights(xp, 8, 4, True), aweights=weights(xp, 8, 5, False))
    if case == "dtype":
        return xp.cov(m, dtype=numpy.complex64 if numpy.dtype(dtype).kind == "c" else numpy.float32)
    return xp.cov(m[:, ::2].T)


@pytest.mark.parametrize("case", ["3d", "ddof_float", "fw_float", "fw_neg", "fw_len", "aw_neg", "aw_2d"])
@testing.numpy_cuarray_allclose(accept_error=True)
def test_cov_errors(xp, case):
    m = rand(xp, (3, 8), numpy.float64, seed=1)
    if case == "3d":
        return xp.cov(m.reshape(3, 2, 4))
    if case == "ddof_float":
        return xp.cov(m, ddof=1.5)
    if case == "fw_float":
        return xp.cov(m, fweights=xp.asarray(numpy.full(8, 1.5)))
    if case == "fw_neg":
        return xp.cov(m, fweights=xp.asarray(numpy.array([1, 2, 1, -1, 1, 1, 1, 1])))
    if case == "fw_len":
        return xp.cov(m, fweights=xp.asarray(numpy.ones(7)))
    if case == "aw_neg":
        return xp.cov(m, aweights=xp.asarray(numpy.array([1.0, 2, 1, -1, 1, 1, 1, 1])))
    return xp.cov(m, aweights=xp.asarray(numpy.ones((2, 8))))


def test_cov_degrees_of_freedom_warning():
    h = rand(numpy, (2, 1), numpy.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = numpy.cov(h)
    with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
        got = cuarray.cov(cuarray.asarray(h))
    numpy.testing.assert_array_equal(numpy.isnan(got.get()), numpy.isnan(ref))


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.int64, numpy.complex128], ids=testing.dtype_id)
@pytest.mark.parametrize("case", ["2d", "1d", "y", "rowvar", "dtype"])
@testing.numpy_cuarray_allclose(**TOL)
def test_corrcoef(xp, dtype, case):
    m = rand(xp, (4, 9), dtype, seed=6)
    with numpy.errstate(all="ignore"):
        if case == "2d":
            return xp.corrcoef(m)
        if case == "1d":
            return xp.corrcoef(m[0])
        if case == "y":
            return xp.corrcoef(m[0], m[1])
        if case == "rowvar":
            return xp.corrcoef(m.T, rowvar=False)
        return xp.corrcoef(m, dtype=numpy.complex128 if numpy.dtype(dtype).kind == "c" else numpy.float32)
