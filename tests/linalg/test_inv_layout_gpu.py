"""inv and matrix_power(a, -n) give C-contiguous results, as NumPy's (they were transposed views of
the library's column-major output), with the right values for every layout of the input."""

import numpy
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray import testing  # noqa: E402


@pytest.mark.parametrize("shape", [(4, 4), (3, 5, 5), (40, 40), (2, 40, 40)])  # batched and not
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.complex64, numpy.complex128],
                         ids=testing.dtype_id)
@pytest.mark.parametrize("transposed", [False, True])
@pytest.mark.parametrize("fn", ["inv", "matrix_power_-1", "matrix_power_-3"])
@testing.numpy_cuarray_allclose(rtol={"default": 1e-4, numpy.float64: 1e-10, numpy.complex128: 1e-10},
                                atol=1e-5, contiguous_check=True)
def test_inverse_is_c_contiguous(xp, shape, dtype, transposed, fn):
    h = testing.shaped_random(shape, numpy, dtype, scale=1, seed=3) + 4 * numpy.eye(shape[-1], dtype=dtype)
    a = xp.asarray(h)
    if transposed:
        a = a.mT
    if fn == "inv":
        return xp.linalg.inv(a)
    return xp.linalg.matrix_power(a, int(fn.rsplit("_", 1)[1]))
