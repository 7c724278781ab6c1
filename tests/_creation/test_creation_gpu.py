"""Numerical ranges and matrices on the device, against NumPy."""

import types

import numpy
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray import testing  # noqa: E402
from cuarray._creation import matrices, ranges  # noqa: E402

# cuarray's namespace plus this routines (until the lead exports them).
cp = types.SimpleNamespace(**{k: getattr(cuarray, k) for k in dir(cuarray) if not k.startswith("__")})
for _mod in (ranges, matrices):
    for _name in _mod.__all__:
        if not hasattr(cp, _name):
            setattr(cp, _name, getattr(_mod, _name))

DTYPES = [numpy.bool_, numpy.int8, numpy.uint16, numpy.int64, numpy.float16, numpy.float32, numpy.float64,
          numpy.complex64, numpy.complex128]
dtypes = pytest.mark.parametrize("dtype", DTYPES, ids=testing.dtype_id)


def both(fn, exact=True, **kw):
    """Run fn(numpy) and fn(cuarray); same result (or the same exception type)."""
    try:
        expected = fn(numpy)
    except Exception as exc:
        with pytest.raises(type(exc)):
            fn(cp)
        cuarray.zeros(3).get()  # the library still works
        return
    got = fn(cp)
    testing.compare_results(expected, got, exact=exact, **kw)
    return got


ARANGE = [(7,), (0,), (-2,), (2, 20, 3), (20, 2, -3), (0, 1, 0.1), (0.5, 7.25, 0.75), (-1e3, 1e3, 7.77),
          (1 + 1j, 9, 0.5), (0, 300), (5, 1)]


@pytest.mark.parametrize("args", ARANGE, ids=repr)
@pytest.mark.parametrize("dtype", [None] + DTYPES, ids=lambda d: "none" if d is None else testing.dtype_id(d))
def test_arange(args, dtype):
    with numpy.errstate(all="ignore"):
        both(lambda xp: xp.arange(*args, dtype=dtype))


def test_arange_large_float32_exact():
    both(lambda xp: xp.arange(0, 3e6, 0.37, dtype=numpy.float32))
    both(lambda xp: xp.arange(10**6, dtype=numpy.float16))
    both(lambda xp: xp.arange(-(2**40), 2**40, 2**37 + 3))


@pytest.mark.parametrize("args", [(0, 10, 0), (0, numpy.inf), (numpy.nan,)], ids=repr)
def test_arange_errors(args):
    with numpy.errstate(all="ignore"):
        both(lambda xp: xp.arange(*args))


@pytest.mark.parametrize("num", [0, 1, 2, 7, 1000])
@pytest.mark.parametrize("endpoint", [True, False])
@pytest.mark.parametrize("dtype", [None, numpy.float32, numpy.float16, numpy.int64, numpy.complex64], ids=str)
def test_linspace(num, endpoint, dtype):
    both(lambda xp: xp.linspace(-3.5, 11.25, num, endpoint=endpoint, dtype=dtype), exact=False,
         rtol=0, atol=0)


def test_linspace_retstep_and_complex_and_tiny():
    both(lambda xp: xp.linspace(0, 1, 11, retstep=True))
    both(lambda xp: xp.linspace(1 + 2j, -3 - 1j, 9))
    both(lambda xp: xp.linspace(0, 1e-320, 5))
    both(lambda xp: xp.linspace(numpy.float16(1), numpy.float16(3), 2049))


def test_linspace_arrays_axis():
    s = numpy.array([0.0, 1.5, -2.0])
    e = numpy.array([[10.0], [3.0]])
    both(lambda xp: xp.linspace(xp.asarray(s), xp.asarray(e), 5))
    both(lambda xp: xp.linspace(xp.asarray(s), 4.0, 6, axis=-1, endpoint=False))


def test_linspace_errors():
    both(lambda xp: xp.linspace(0, 1, -1))


def test_logspace_geomspace():
    both(lambda xp: xp.logspace(0, 3, 7), exact=False)
    both(lambda xp: xp.logspace(1, -2, 5, base=2.0, endpoint=False), exact=False)
    both(lambda xp: xp.logspace(0, 1, 4, dtype=numpy.float32), exact=False)
    both(lambda xp: xp.geomspace(1, 1000, 4), exact=False)
    both(lambda xp: xp.geomspace(-1, -1000, 5), exact=False)
    both(lambda xp: xp.geomspace(2, 7, 6, endpoint=False, dtype=numpy.float32), exact=False)
    both(lambda xp: xp.geomspace(1j, 1000j, 4), exact=False)
    both(lambda xp: xp.geomspace(0, 10, 3))


@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("copy", [False, True])
def test_meshgrid(indexing, sparse, copy):
    x = testing.shaped_random((3,), numpy, numpy.float32, seed=1)
    y = testing.shaped_random((4,), numpy, numpy.int16, seed=2)
    z = testing.shaped_random((2,), numpy, numpy.complex64, seed=3)
    both(lambda xp: xp.meshgrid(xp.asarray(x), xp.asarray(y), xp.asarray(z), indexing=indexing, sparse=sparse,
                                copy=copy))
    both(lambda xp: xp.meshgrid(xp.asarray(x), indexing=indexing))


def test_meshgrid_bad_indexing():
    both(lambda xp: xp.meshgrid(xp.arange(3), indexing="q"))


@dtypes
@pytest.mark.parametrize("k", [-2, 0, 1, 5])
@pytest.mark.parametrize("order", ["C", "F"])
def test_eye(dtype, k, order):
    got = both(lambda xp: xp.eye(4, 6, k=k, dtype=dtype, order=order), contiguous_check=True)
    assert got.flags.f_contiguous == (order == "F")


def test_identity_tri():
    both(lambda xp: xp.identity(5, dtype=numpy.int8))
    both(lambda xp: xp.identity(0))
    for k in (-1, 0, 2):
        both(lambda xp: xp.tri(3, 5, k=k, dtype=numpy.float16))
        both(lambda xp: xp.tri(4, k=k))
    both(lambda xp: xp.eye(-1))


@dtypes
@pytest.mark.parametrize("k", [-1, 0, 2])
@pytest.mark.parametrize("layout", testing.LAYOUTS)
def test_tril_triu(dtype, k, layout):
    h = testing.shaped_random((2, 4, 5), numpy, dtype, seed=4)
    for xp_fn in ("tril", "triu"):
        both(lambda xp: getattr(xp, xp_fn)(testing.non_contiguous(h, layout, xp=xp), k=k))
    both(lambda xp: xp.tril(xp.asarray(h[0, 0]), k=k))


@dtypes
@pytest.mark.parametrize("k", [-2, 0, 3])
def test_diag(dtype, k):
    v = testing.shaped_random((4,), numpy, dtype, seed=5)
    m = testing.shaped_random((4, 6), numpy, dtype, seed=6)
    both(lambda xp: xp.diag(xp.asarray(v), k))
    got = both(lambda xp: xp.diag(xp.asarray(m), k))
    assert not got.flags.writeable
    both(lambda xp: xp.diag(xp.asarray(m)[::-1, ::2], k))
    both(lambda xp: xp.diagflat(xp.asarray(m[:2, :3]), k))


def test_diag_shares_memory_and_errors():
    m = cuarray.asarray(testing.shaped_random((3, 3), numpy, numpy.float32, seed=7))
    d = cp.diag(m)
    m[1, 1] = 42
    assert d[1].item() == 42
    both(lambda xp: xp.diag(xp.zeros((2, 2, 2))))


@pytest.mark.parametrize("dtype", [numpy.bool_, numpy.int8, numpy.int64, numpy.float32, numpy.float64,
                                   numpy.complex64], ids=testing.dtype_id)
@pytest.mark.parametrize("N", [None, 0, 6])
@pytest.mark.parametrize("increasing", [False, True])
def test_vander(dtype, N, increasing):
    x = testing.shaped_random((5,), numpy, dtype, seed=8, scale=3)
    # complex: NumPy's complex multiply may use FMA (SIMD loops) or not; allow an ulp or two
    kw = dict(exact=False, rtol=1e-15, atol=0) if numpy.dtype(dtype).kind == "c" else {}
    both(lambda xp: xp.vander(xp.asarray(x)[::-1], N, increasing), **kw)


def test_vander_error():
    both(lambda xp: xp.vander(xp.ones((2, 2))))
