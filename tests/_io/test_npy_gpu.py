"""save/load/savez/savez_compressed through host copies: NumPy's files, cuarray arrays back."""

import io

import numpy
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray import testing  # noqa: E402


@pytest.mark.parametrize("dtype", [numpy.bool_, numpy.int8, numpy.float16, numpy.float64, numpy.complex64],
                         ids=testing.dtype_id)
@pytest.mark.parametrize("layout", ["c", "t", "0d"])
def test_save_load_roundtrip_is_numpys_file(tmp_path, dtype, layout):
    h = testing.shaped_random((3, 5), numpy, dtype)
    h = {"c": h, "t": h.T, "0d": h[1, 2]}[layout]
    d = cuarray.asarray(numpy.ascontiguousarray(h.T)).T if layout == "t" else cuarray.asarray(h)
    path = tmp_path / "a.npy"
    cuarray.save(path, d)
    ref = io.BytesIO()
    numpy.save(ref, h)
    if layout != "t":  # (an F-ordered array may come back from the device in C order: same values)
        assert path.read_bytes() == ref.getvalue()
    back = cuarray.load(path)
    assert isinstance(back, cuarray.ndarray) and back.dtype == h.dtype and back.shape == numpy.shape(h)
    numpy.testing.assert_array_equal(back.get(), h)
    mm = cuarray.load(path, mmap_mode="r")
    numpy.testing.assert_array_equal(mm.get(), h)


@pytest.mark.parametrize("fn", ["savez", "savez_compressed"])
def test_savez_and_npzfile(tmp_path, fn):
    a = testing.shaped_random((4,), numpy, numpy.float32)
    b = testing.shaped_random((2, 3), numpy, numpy.int64)
    path = tmp_path / "z.npz"
    getattr(cuarray, fn)(path, cuarray.asarray(a), named=cuarray.asarray(b), host=numpy.arange(3))
    with cuarray.load(path) as z:
        assert sorted(z.files) == ["arr_0", "host", "named"] and len(z) == 3 and "named" in z
        assert isinstance(z["arr_0"], cuarray.ndarray)
        numpy.testing.assert_array_equal(z["arr_0"].get(), a)
        numpy.testing.assert_array_equal(z["named"].get(), b)
        numpy.testing.assert_array_equal(z["host"].get(), numpy.arange(3))
    ref = numpy.load(path)
    assert sorted(ref.files) == ["arr_0", "host", "named"]


def test_load_unsupported_dtype_raises(tmp_path):
    path = tmp_path / "s.npy"
    numpy.save(path, numpy.array(["a", "b"]))
    with pytest.raises(TypeError):
        cuarray.load(path)
