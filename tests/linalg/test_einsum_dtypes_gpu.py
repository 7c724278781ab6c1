"""einsum against NumPy where CuPy's suite found differences: one operand of every dtype (NumPy
keeps the operand's dtype: no sum promotion), unary views, Python scalar operands (NumPy converts
them to int64/float64 arrays, so some casts are refused as NumPy refuses them)."""

import numpy
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray import testing  # noqa: E402


@testing.for_all_dtypes()
@pytest.mark.parametrize("subscripts", ["ii", "ij->", "ij->i", "ij->j", "ii->i", "ij->ji", "ij", "...", "i...->...i",
                                        "ji->", "iji->j"])
@testing.numpy_cuarray_allclose(rtol={numpy.float16: 1e-2, "default": 1e-6})
def test_unary_dtype_and_values(xp, dtype, subscripts):
    shape = (3, 4, 3) if subscripts.startswith("iji") else ((3, 3) if "ii" in subscripts else (3, 4))
    a = testing.shaped_random(shape, xp, dtype, scale=3)
    return xp.einsum(subscripts, a)


@pytest.mark.parametrize("subscripts", ["ii->i", "ij->ji", "ij", "ij->ij", "i...->...i"])
def test_unary_views_as_numpy(subscripts):
    h = testing.shaped_random((3, 3), numpy, numpy.float32)
    d = cuarray.asarray(h)
    want, got = numpy.einsum(subscripts, h), cuarray.einsum(subscripts, d)
    assert got is not d
    assert got.strides == want.strides and got.flags.writeable == want.flags.writeable
    assert numpy.shares_memory(want, h) == (got.data.ptr >= d.data.ptr and got.data.ptr < d.data.ptr + d.nbytes)


@testing.for_all_dtypes()
@pytest.mark.parametrize("subscripts, scalar_first", [(",i->", True), ("i,->i", False), ("i,->", False)])
@pytest.mark.parametrize("scalar", [3, 2.5, True])
@testing.numpy_cuarray_allclose(rtol={numpy.float16: 1e-2, "default": 1e-6})
def test_python_scalar_operand(xp, dtype, subscripts, scalar_first, scalar):
    a = testing.shaped_arange((4,), xp, dtype)
    return xp.einsum(subscripts, scalar, a) if scalar_first else xp.einsum(subscripts, a, scalar)


@pytest.mark.parametrize("dtype, scalar", [(numpy.int8, 2), (numpy.float32, 2.5)])
@testing.numpy_cuarray_allclose(accept_error=TypeError)
def test_python_scalar_with_dtype_refused_as_numpy(xp, dtype, scalar):
    return xp.einsum("i,->i", testing.shaped_arange((3,), xp, dtype), scalar, dtype=dtype)


@pytest.mark.parametrize("subscripts", ["ijk->kji", "iii->i", "...i->...i", "ij...->ji...", "ijk->", "ijk->ij",
                                        "iij->j", "ij,jk", "ij,ij->ij", "ijk,k->ij"])
@pytest.mark.parametrize("kw", [{"dtype": numpy.uint8, "casting": "unsafe"}, {"dtype": numpy.float64},
                                {"dtype": numpy.uint8}, {"dtype": numpy.int64, "optimize": True},
                                {"dtype": numpy.float16, "casting": "same_kind", "optimize": "greedy"}])
def test_dtype_and_casting_as_numpy(subscripts, kw):
    """dtype=/casting= against NumPy 2.5: one operand whose labels are all kept is NumPy's view of it
    whatever they say; a sum or a product casts the operands (its TypeError where the cast is
    refused) and computes in the asked type (uint8 wraps)."""
    rng = numpy.random.default_rng()
    a = rng.integers(0, 40, (3, 3, 3)).astype(numpy.int32)
    ops = {"ij,jk": [a[0], a[1]], "ij,ij->ij": [a[0], a[1]], "ijk,k->ij": [a, a[0, 0]]}.get(subscripts, [a])
    try:
        want = numpy.einsum(subscripts, *ops, **kw)
    except TypeError:
        with pytest.raises(TypeError):
            cuarray.einsum(subscripts, *[cuarray.asarray(o) for o in ops], **kw)
        return
    got = cuarray.einsum(subscripts, *[cuarray.asarray(o) for o in ops], **kw)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype)
    numpy.testing.assert_allclose(got.get(), want, rtol=1e-2 if want.dtype == numpy.float16 else 1e-6)
