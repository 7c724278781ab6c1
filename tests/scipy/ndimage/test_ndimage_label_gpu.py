"""cuarray.scipy.ndimage label and find_objects on the device against scipy.ndimage."""

import numpy as np
import pytest
import scipy.ndimage as snd

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray.scipy import ndimage as cnd  # noqa: E402

RNG = np.random.default_rng()


@pytest.mark.parametrize("shape,conn", [((300, 257), 1), ((300, 257), 2), ((30, 31, 29), 1), ((30, 31, 29), 3),
                                        ((5000,), 1), ((6, 5, 7, 4), 2)])
@pytest.mark.parametrize("dtype", [np.bool_, np.uint8, np.float32])
def test_label(shape, conn, dtype):
    x = (RNG.random(shape) < RNG.uniform(0.3, 0.7)).astype(dtype)
    s = snd.generate_binary_structure(len(shape), conn)
    ref, rn = snd.label(x, s)
    got, n = cnd.label(cuarray.asarray(x), s)
    assert n == rn and got.dtype == ref.dtype
    np.testing.assert_array_equal(got.get(), ref)
    objs = cnd.find_objects(got)
    assert objs == snd.find_objects(ref)


def test_label_output_and_edges():
    x = RNG.random((64, 65)) < 0.5
    out = cuarray.empty((64, 65), np.int64)
    n = cnd.label(cuarray.asarray(x), output=out)
    ref, rn = snd.label(x)
    assert n == rn
    np.testing.assert_array_equal(out.get(), ref)
    got, n = cnd.label(cuarray.asarray(np.zeros((3, 4), bool)))
    assert n == 0 and not got.get().any()
    got, n = cnd.label(cuarray.asarray(np.array(5.0)))
    assert n == 1
    with pytest.raises(ValueError):
        cnd.label(cuarray.asarray(x), np.ones((3, 2)))
    with pytest.raises(RuntimeError):
        cnd.label(cuarray.asarray(x), np.ones((3, 3, 3)))
    labels = cuarray.asarray(np.array([[0, 2, 2], [4, 0, 2]], np.int32))
    assert cnd.find_objects(labels) == snd.find_objects(labels.get())
    assert cnd.find_objects(labels, max_label=6) == snd.find_objects(labels.get(), max_label=6)
