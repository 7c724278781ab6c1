"""cuarray.scipy.ndimage morphology on the device against scipy.ndimage. Fresh random data."""

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
S3 = np.array([[0, 1, 1], [1, 1, 0], [0, 1, 0]], bool)
BINARY = [
    ("binary_erosion", (), dict()),
    ("binary_erosion", (S3,), dict(border_value=1, origin=(1, -1), iterations=2)),
    ("binary_erosion", (None,), dict(iterations=0)),
    ("binary_dilation", (S3,), dict(origin=(0, 1))),
    ("binary_dilation", (np.ones((2, 2)),), dict(iterations=3, border_value=1)),
    ("binary_opening", (S3,), dict()),
    ("binary_closing", (None,), dict(iterations=2)),
    ("binary_hit_or_miss", (S3,), dict()),
    ("binary_fill_holes", (), dict()),
]


@pytest.mark.parametrize("dtype", [np.bool_, np.int32, np.float32])
@pytest.mark.parametrize("name,args,kw", BINARY, ids=[c[0] + str(i) for i, c in enumerate(BINARY)])
def test_binary(name, args, kw, dtype):
    x = (RNG.random((40, 33)) < 0.55).astype(dtype)
    ref = getattr(snd, name)(x, *args, **kw)
    got = getattr(cnd, name)(cuarray.asarray(x), *args, **kw)
    assert got.dtype == ref.dtype and got.shape == ref.shape
    np.testing.assert_array_equal(got.get(), ref)


def test_binary_3d_mask_propagation_and_output():
    x = RNG.random((9, 10, 11)) < 0.05
    mask = RNG.random(x.shape) < 0.8
    ref = snd.binary_propagation(x, mask=mask)
    got = cnd.binary_propagation(cuarray.asarray(x), mask=cuarray.asarray(mask))
    np.testing.assert_array_equal(got.get(), ref)
    out = cuarray.zeros(x.shape, np.uint8)
    res = cnd.binary_dilation(cuarray.asarray(x), snd.generate_binary_structure(3, 2), output=out)
    assert res is out
    np.testing.assert_array_equal(out.get(), snd.binary_dilation(x, snd.generate_binary_structure(3, 2)))


GREY = [
    ("grey_erosion", dict(size=(3, 2), mode="constant", cval=3)),
    ("grey_dilation", dict(footprint=S3, origin=(1, 0))),
    ("grey_dilation", dict(structure=np.array([[1, 0, 2], [0, 1, 0]]), mode="nearest")),
    ("grey_opening", dict(size=3)),
    ("grey_closing", dict(footprint=S3, mode="mirror")),
    ("morphological_gradient", dict(size=(2, 3))),
    ("morphological_laplace", dict(footprint=S3)),
    ("white_tophat", dict(size=3)),
    ("black_tophat", dict(size=(3, 4))),
]


@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.float32, np.float64])
@pytest.mark.parametrize("name,kw", GREY, ids=[c[0] + str(i) for i, c in enumerate(GREY)])
def test_grey(name, kw, dtype):
    x = np.clip(RNG.normal(size=(31, 27)) * 30 + 60, 0, 200).astype(dtype)
    ref = getattr(snd, name)(x, **kw)
    got = getattr(cnd, name)(cuarray.asarray(x), **kw)
    assert got.dtype == ref.dtype and got.shape == ref.shape
    np.testing.assert_array_equal(got.get(), ref)
