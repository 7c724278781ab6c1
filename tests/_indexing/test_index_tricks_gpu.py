"""r_/c_/mgrid/ogrid, ndenumerate, ndarray.flat and flatiter, broadcast, require on the device,
against NumPy. Fresh random data."""

import numpy
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray import testing  # noqa: E402

DTYPES = [numpy.bool_, numpy.int8, numpy.uint16, numpy.int64, numpy.float16, numpy.float32, numpy.float64,
          numpy.complex64, numpy.complex128]
dtypes = pytest.mark.parametrize("dtype", DTYPES, ids=testing.dtype_id)


def rand(xp, shape, dtype, seed=None):
    return testing.shaped_random(shape, xp, dtype, scale=20, seed=seed)


# -- r_ / c_ ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", range(9))
@testing.numpy_cuarray_allclose()
def test_r_(xp, case):
    a = rand(xp, (4,), numpy.float32, seed=1)
    b = rand(xp, (3,), numpy.int64, seed=2)
    m = rand(xp, (2, 3), numpy.float64, seed=3)
    return [
        lambda: xp.r_[a, b],
        lambda: xp.r_[a, 0, 1.5, b],
        lambda: xp.r_[0:5, 7, a],
        lambda: xp.r_[-1:1:6j, b],
        lambda: xp.r_["0,2", a, a],
        lambda: xp.r_["-1", m, m],
        lambda: xp.r_["0,2,0", b, b],
        lambda: xp.r_["1,3", m, m],
        lambda: xp.r_[numpy.int8(3), b],
    ][case]()


@pytest.mark.parametrize("case", range(4))
@testing.numpy_cuarray_allclose()
def test_c_(xp, case):
    a = rand(xp, (4,), numpy.float32, seed=1)
    b = rand(xp, (4,), numpy.int16, seed=2)
    m = rand(xp, (4, 2), numpy.float64, seed=3)
    return [lambda: xp.c_[a, b], lambda: xp.c_[a, m, b], lambda: xp.c_[m, m], lambda: xp.c_[0:4, a]][case]()


@testing.numpy_cuarray_allclose(accept_error=True)
def test_r_errors(xp):
    return xp.r_[rand(xp, (2, 2), numpy.float32), rand(xp, (3,), numpy.float32)]


# -- mgrid / ogrid ---------------------------------------------------------------------------------
GRIDS = [numpy.s_[0:5], numpy.s_[0:5, 1:4], numpy.s_[-1:1:0.5, 0:3], numpy.s_[0:1:5j, 2:8:3],
         numpy.s_[-1:1:7j], numpy.s_[1:2:1j, 0:4], numpy.s_[0:10:3, 5:0:-1, 0:2], numpy.s_[3:1]]


@pytest.mark.parametrize("key", GRIDS, ids=str)
@testing.numpy_cuarray_allclose()
def test_mgrid(xp, key):
    return xp.mgrid[key]


@pytest.mark.parametrize("key", GRIDS + [numpy.s_[3:1, 0:2]], ids=str)
@testing.numpy_cuarray_allclose()
def test_ogrid(xp, key):
    r = xp.ogrid[key]
    return list(r) if isinstance(r, tuple) else r


def test_mgrid_negative_size_is_numpys_error():
    with pytest.raises(ValueError):
        numpy.mgrid[3:1, 0:2]
    with pytest.raises(ValueError):
        cuarray.mgrid[3:1, 0:2]


# -- ndenumerate -----------------------------------------------------------------------------------
@dtypes
def test_ndenumerate(dtype):
    h = rand(numpy, (2, 3), dtype)
    got = list(cuarray.ndenumerate(cuarray.asarray(h)[:, ::-1]))
    ref = list(numpy.ndenumerate(h[:, ::-1]))
    assert [i for i, _ in got] == [i for i, _ in ref]
    assert [type(v) for _, v in got] == [type(v) for _, v in ref]
    numpy.testing.assert_array_equal([v for _, v in got], [v for _, v in ref])


# -- flat ------------------------------------------------------------------------------------------
FLAT_KEYS = [3, -1, slice(1, 7), slice(None, None, 2), slice(10, 2, -3), Ellipsis, "intarr", "boolarr", "intarr2d"]


def _key(xp, key, n):
    if key == "intarr":
        return xp.asarray(numpy.array([0, n - 1, 2, 2]))
    if key == "intarr2d":
        return xp.asarray(numpy.array([[1, 2], [3, 0]]))
    if key == "boolarr":
        return xp.asarray(numpy.arange(n) % 3 == 0)
    return key


@dtypes
@pytest.mark.parametrize("layout", ["c", "t", "step"])
@pytest.mark.parametrize("key", FLAT_KEYS, ids=str)
@testing.numpy_cuarray_allclose(type_check=False)
def test_flat_getitem(xp, dtype, layout, key):
    a = rand(xp, (4, 6), dtype, seed=5)
    a = {"c": a, "t": a.T, "step": a[::2, 1::2]}[layout]
    return a.flat[_key(xp, key, a.size)]


@pytest.mark.parametrize("layout", ["c", "t", "step"])
@pytest.mark.parametrize("key,value", [
    (3, 7), (slice(1, 7), 2.5), (slice(1, 7), "seq3"), (slice(None), "seq_full"), ("intarr", "seq2"),
    ("boolarr", -1), (slice(0, 5), "scalar0d"),
], ids=str)
@testing.numpy_cuarray_allclose()
def test_flat_setitem(xp, layout, key, value):
    base = rand(xp, (4, 6), numpy.float64, seed=7)
    a = {"c": base, "t": base.T, "step": base[::2, 1::2]}[layout]
    if value == "seq3":
        value = xp.asarray(numpy.array([1.0, 2.0, 3.0]))
    elif value == "seq2":
        value = xp.asarray(numpy.array([10.0, 20.0]))
    elif value == "seq_full":
        value = rand(xp, (a.size,), numpy.float32, seed=8)
    elif value == "scalar0d":
        value = xp.asarray(numpy.array(4.0))
    a.flat[_key(xp, key, a.size)] = value
    return base


@testing.numpy_cuarray_allclose()
def test_flat_assign_attribute_cycles(xp):
    a = rand(xp, (3, 4), numpy.int32, seed=9)
    a.flat = xp.asarray(numpy.array([1, 2, 3], dtype=numpy.int32))
    return a


@dtypes
def test_flat_iteration_len_copy_index(dtype):
    h = rand(numpy, (3, 4), dtype).T
    d = cuarray.asarray(numpy.ascontiguousarray(h.T)).T
    it, ref = d.flat, h.flat
    assert len(it) == len(ref) and it.base is d
    got = list(it)
    numpy.testing.assert_array_equal(got, list(ref))
    assert type(got[0]) is type(h.flat[0])
    c = d.flat.copy()
    assert c.ndim == 1 and c.flags.c_contiguous
    numpy.testing.assert_array_equal(c.get(), h.flat.copy())
    fi = d.flat
    next(fi), next(fi), next(fi)
    rf = h.flat
    next(rf), next(rf), next(rf)
    assert fi.index == rf.index and fi.coords == rf.coords


def test_flat_errors():
    d = cuarray.asarray(numpy.arange(6.0).reshape(2, 3))
    with pytest.raises(IndexError):
        d.flat[6]
    with pytest.raises(TypeError):
        numpy.asarray(d.flat)


# -- broadcast -------------------------------------------------------------------------------------
def test_broadcast_attributes_and_iteration():
    hs = [rand(numpy, s, numpy.float32, seed=i) for i, s in enumerate([(3, 1), (1, 4), (4,)])]
    ds = [cuarray.asarray(h) for h in hs]
    b, r = cuarray.broadcast(*ds), numpy.broadcast(*hs)
    for attr in ("shape", "nd", "ndim", "size", "numiter", "index"):
        assert getattr(b, attr) == getattr(r, attr), attr
    got, ref = list(b), list(r)
    assert len(got) == len(ref)
    numpy.testing.assert_array_equal(numpy.array(got), numpy.array(ref))
    assert b.index == r.index
    b.reset()
    assert b.index == 0
    iters = b.iters
    assert len(iters) == 3 and all(len(i) == b.size for i in iters)
    numpy.testing.assert_array_equal(iters[1].copy().get(), numpy.broadcast_to(hs[1], r.shape).ravel())
    nested = cuarray.broadcast(b, cuarray.asarray(hs[0]))
    assert nested.numiter == 4 and nested.shape == (3, 4)
    assert cuarray.broadcast(ds[0], 5.0).shape == (3, 1)
    with pytest.raises(ValueError):
        cuarray.broadcast(cuarray.ones((2, 3)), cuarray.ones((4,)))


# -- require ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("reqs", [None, "C", "F", ["C", "W"], ["F", "O"], ["A", "E"], "O"], ids=str)
@pytest.mark.parametrize("dtype", [None, numpy.float32])
def test_require(reqs, dtype):
    h = rand(numpy, (3, 4), numpy.float64)[:, ::2]
    d = cuarray.asarray(h)[:, :]
    r, g = numpy.require(h, dtype=dtype, requirements=reqs), cuarray.require(d, dtype=dtype, requirements=reqs)
    assert r.dtype == g.dtype and r.shape == g.shape
    for flag in ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE"):
        if reqs and any(flag.startswith(q[0]) for q in (reqs if isinstance(reqs, list) else [reqs])):
            assert g.flags[flag] == r.flags[flag] == True  # noqa: E712
    numpy.testing.assert_array_equal(g.get(), r)
    with pytest.raises(ValueError):
        cuarray.require(d, requirements="CF")
