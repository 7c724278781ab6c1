"""Arrays of structured dtypes on the device, against NumPy with fresh random data: round trips
(aligned, packed, nested, F-order, strided), creation, copies and views, field views and assignment,
multi-field indexing, struct assignment and advanced indexing, dtype views, equality, joining,
byteswap, the CUDA array interface, RawKernel and ElementwiseKernel struct arguments, refusals."""

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from structured_data import ALIGNED, NESTED, PACKED, RE_IM, assert_struct_equal, random_struct  # noqa: E402

DTYPES = {"aligned": ALIGNED, "packed": PACKED, "nested": NESTED, "re_im": RE_IM}


def assert_struct_bits_equal(got, expect):
    """Every leaf field's bits equal (byteswapped floats are any bit pattern: NaN payloads count)."""
    assert got.dtype == expect.dtype and got.shape == expect.shape
    for name in expect.dtype.names:
        if expect.dtype[name].names is not None:
            assert_struct_bits_equal(got[name], expect[name])
        else:
            bits = np.dtype("u{}".format(expect.dtype[name].itemsize))
            np.testing.assert_array_equal(got[name].view(bits), expect[name].view(bits))


@pytest.fixture
def rng():
    return np.random.default_rng()


# -- round trips and creation ------------------------------------------------------------------------
@pytest.mark.parametrize("name", list(DTYPES))
def test_round_trip(name, rng):
    dt = DTYPES[name]
    h = random_struct(dt, (7, 5), rng)
    for host in (h, np.asfortranarray(h), h[::2, ::-1], h.T):
        a = cuarray.asarray(host)
        assert a.dtype == dt and a.shape == host.shape
        assert_struct_equal(a.get(), host)
        assert_struct_equal(cuarray.asnumpy(a), host)
        assert_struct_equal(cuarray.array(host, copy=True).get(), host)
    assert_struct_equal(cuarray.asarray(h.tolist(), dtype=dt).get(), h)  # a list of tuples
    assert_struct_equal(cuarray.asarray(h[0, 0]).get(), np.asarray(h[0, 0]))  # a numpy.void


def test_round_trip_of_big_endian_fields_gives_native_ones(rng):
    h = random_struct(np.dtype([("b", ">f8"), ("a", ">i4"), ("c", ">i4")]), (9,), rng)
    a = cuarray.asarray(h)
    assert a.dtype == np.dtype([("b", "<f8"), ("a", "<i4"), ("c", "<i4")])
    for f in "abc":
        np.testing.assert_array_equal(a[f].get(), h[f])


@pytest.mark.parametrize("name", list(DTYPES))
def test_creation(name):
    dt = DTYPES[name]
    z = cuarray.zeros((4, 3), dt)
    assert_struct_equal(z.get(), np.zeros((4, 3), dt))
    assert z.get().view(np.uint8).max() == 0  # all-zero bytes, padding too
    assert_struct_equal(cuarray.zeros_like(z).get(), np.zeros((4, 3), dt))
    assert_struct_equal(cuarray.ones((2, 3), dt).get(), np.ones((2, 3), dt))
    e = cuarray.empty((2, 3), dt, order="F")
    assert e.dtype == dt and e.flags.f_contiguous and cuarray.empty_like(e).dtype == dt
    assert_struct_equal(cuarray.ones_like(e).get(), np.ones((2, 3), dt))
    v = np.zeros((), dt)
    v[()] = random_struct(dt, (), np.random.default_rng())
    assert_struct_equal(cuarray.full((3, 2), v[()], dtype=dt).get(), np.full((3, 2), v[()], dtype=dt))


# -- copies and views ------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", list(DTYPES))
def test_copies_and_views(name, rng):
    dt = DTYPES[name]
    h = random_struct(dt, (6, 8), rng)
    a = cuarray.asarray(h)
    for view in (lambda x: x[::2, 1::3], lambda x: x.T, lambda x: x[::-1].reshape(8, 6),
                 lambda x: x[:, ::-2].T, lambda x: x.reshape(2, 3, 8).transpose(2, 0, 1), lambda x: x[3]):
        assert_struct_equal(view(a).get(), view(h))
        c = view(a).copy()
        assert c.flags.c_contiguous and c.base is None
        assert_struct_equal(c.get(), view(h))
        assert_struct_equal(view(a).copy(order="F").get(), view(h))
        assert_struct_equal(view(a).ravel().get(), view(h).ravel())
    assert_struct_equal(a.astype(dt).get(), h)


@pytest.mark.parametrize("name", ["aligned", "nested"])
def test_field_views(name, rng):
    dt = DTYPES[name]
    h = random_struct(dt, (5, 6), rng)
    a = cuarray.asarray(h)
    for idx in ((), (slice(None, None, 2),), (slice(None), slice(None, None, -3))):
        for f in dt.names:
            if dt[f].names is None:
                got = a[idx][f]
                assert got.strides == h[idx][f].strides and got.dtype == h[f].dtype
                np.testing.assert_array_equal(got.get(), h[idx][f])
                np.testing.assert_array_equal(a[f][idx].copy().get(), h[f][idx])
    if name == "nested":
        np.testing.assert_array_equal(a["p"]["u"].get(), h["p"]["u"])
        assert_struct_equal(a["p"].get(), h["p"])
        np.testing.assert_array_equal((a["p"]["v"] * 2 + a["id"]).get(), h["p"]["v"] * 2 + h["id"])
    else:
        np.testing.assert_allclose((a["x"] * a["y"]).sum(axis=1).get(), (h["x"] * h["y"]).sum(axis=1))


@pytest.mark.parametrize("name", ["aligned", "nested"])
def test_field_assignment(name, rng):
    dt = DTYPES[name]
    h = random_struct(dt, (5, 4), rng)
    a = cuarray.asarray(h)
    other = random_struct(dt, (5, 4), rng)
    f0 = dt.names[0]
    h[f0] = -7
    a[f0] = -7
    fl = dt.names[-1]  # a numeric field: from a device array, a NumPy array, a field of another array
    h[fl][::2] = other[fl][::2]
    a[fl][::2] = cuarray.asarray(other[fl][::2])
    h[fl][1::2] = other[fl][1::2]
    a[fl][1::2] = other[fl][1::2]
    if name == "nested":
        h["p"]["u"] += h["p"]["v"]
        a["p"]["u"] += a["p"]["v"]
        h["p"] = other["p"]
        a["p"] = cuarray.asarray(other)["p"]
    else:
        h["x"] = h["y"]
        a["x"] = a["y"]
        h[:, 1]["b"] = True
        a[:, 1]["b"] = True
    assert_struct_equal(a.get(), h)


def test_multi_field_indexing(rng):
    h = random_struct(ALIGNED, (6,), rng)
    a = cuarray.asarray(h)
    m = a[["b", "x"]]
    assert m.dtype == h[["b", "x"]].dtype and not m.flags.writeable
    np.testing.assert_array_equal(m["x"].get(), h["x"])
    np.testing.assert_array_equal(m.get()["b"], h[["b", "x"]]["b"])
    # Assignment pairs fields by position (NumPy's rule): a tuple, a number, another struct array.
    h[["x", "y"]] = (2.5, 3)
    a[["x", "y"]] = (2.5, 3)
    assert_struct_equal(a.get(), h)
    h[["y", "b"]] = 0
    a[["y", "b"]] = 0
    assert_struct_equal(a.get(), h)
    src = random_struct(np.dtype([("p", "<f8"), ("q", "<i4")], align=True), (6,), rng)
    h[["x", "y"]] = src
    a[["x", "y"]] = cuarray.asarray(src)
    assert_struct_equal(a.get(), h)
    g = random_struct(ALIGNED, (6,), rng)
    h[["x", "y"]] = g[["x", "y"]]
    a[["x", "y"]] = g[["x", "y"]]  # host data: NumPy converts it
    assert_struct_equal(a.get(), h)


def test_struct_assignment(rng):
    for dt in (ALIGNED, PACKED, NESTED):
        h = random_struct(dt, (6, 5), rng)
        a = cuarray.asarray(h)
        other = random_struct(dt, (6, 5), rng)
        v = other[0, 0]  # a numpy.void
        h[1] = v
        a[1] = v
        h[2, 3] = other[2, 3].tolist()  # a tuple
        a[2, 3] = other[2, 3].tolist()
        h[::2, ::2] = other[::2, ::2]  # NumPy data
        a[::2, ::2] = other[::2, ::2]
        h[:, 4] = other[:, 0]  # a device column
        a[:, 4] = cuarray.asarray(other)[:, 0]
        h[:3] = other[5]  # a device row, broadcast
        a[:3] = cuarray.asarray(other)[5]
        h[1:] = h[:-1].copy()  # overlapping
        a[1:] = a[:-1]
        assert_struct_equal(a.get(), h)
        b = cuarray.asarray(h)
        b.fill(other[5, 4])
        hb = h.copy()
        hb.fill(other[5, 4])
        assert_struct_equal(b.get(), hb)
        b[...] = 3  # a number in every field
        hb[...] = 3
        assert_struct_equal(b.get(), hb)


def test_advanced_indexing(rng):
    for dt in (ALIGNED, PACKED, NESTED):
        h = random_struct(dt, (7, 4), rng)
        a = cuarray.asarray(h)
        idx = rng.integers(0, 7, 9)
        assert_struct_equal(a[idx].get(), h[idx])
        assert_struct_equal(a[cuarray.asarray(idx), 1:].get(), h[idx, 1:])
        mask = rng.random((7, 4)) < 0.5
        assert_struct_equal(a[cuarray.asarray(mask)].get(), h[mask])
        assert_struct_equal(a[..., [3, 0]].get(), h[..., [3, 0]])
        assert_struct_equal(cuarray.take(a, cuarray.asarray(idx[:3]), axis=0).get(), np.take(h, idx[:3], axis=0))
        other = random_struct(dt, (7, 4), rng)
        rows = rng.permutation(7)[:3]
        h[rows] = other[:3]
        a[cuarray.asarray(rows)] = cuarray.asarray(other[:3])
        h[mask] = other[0, 0]
        a[cuarray.asarray(mask)] = other[0, 0]
        assert_struct_equal(a.get(), h)


def test_dtype_views(rng):
    h = random_struct(RE_IM, (4, 6), rng)
    a = cuarray.asarray(h)
    z = a.view(np.complex128)
    np.testing.assert_array_equal(z.get(), h.view(np.complex128))
    np.testing.assert_array_equal((z * 2j).get(), h.view(np.complex128) * 2j)
    z *= 2
    np.testing.assert_array_equal(a["im"].get(), h["im"] * 2)
    np.testing.assert_array_equal(a.view(np.float64).get(), (h.view(np.float64) * 2))
    c = rng.normal(size=(3, 4)) + 1j * rng.normal(size=(3, 4))
    s = cuarray.asarray(c).view(RE_IM)
    np.testing.assert_array_equal(s["re"].get(), c.real)
    assert_struct_equal(s.get(), c.view(RE_IM))
    u = cuarray.asarray(random_struct(PACKED, (5,), rng))
    assert u.view(np.uint8).shape == (55,)
    np.testing.assert_array_equal(u.view(np.uint8).get(), u.get().view(np.uint8))


def test_equality_is_numpy_s(rng):
    h = random_struct(ALIGNED, (8,), rng)
    g = h.copy()
    g["y"][::3] += 1
    g["x"][1] = np.nan
    h["x"][1] = np.nan  # NaN fields compare unequal, as in NumPy
    a, b = cuarray.asarray(h), cuarray.asarray(g)
    np.testing.assert_array_equal((a == b).get(), h == g)
    np.testing.assert_array_equal((a != b).get(), h != g)
    np.testing.assert_array_equal((a == a).get(), h == h)
    np.testing.assert_array_equal((a == b[2]).get(), h == g[2])
    np.testing.assert_array_equal((a == g[2]).get(), h == g[2])  # a numpy.void
    with pytest.raises(TypeError):
        a == 1


def test_joining_and_byteswap(rng):
    h = random_struct(NESTED, (3, 4), rng)
    g = random_struct(NESTED, (2, 4), rng)
    a, b = cuarray.asarray(h), cuarray.asarray(g)
    assert_struct_equal(cuarray.concatenate([a, b]).get(), np.concatenate([h, g]))
    assert_struct_equal(cuarray.concatenate([a.T, b.T], axis=1).get(), np.concatenate([h.T, g.T], axis=1))
    parts = [random_struct(NESTED, (2, 4), rng) for _ in range(6)]  # the batched copy (5 or more pieces)
    assert_struct_equal(cuarray.concatenate([cuarray.asarray(p) for p in parts]).get(), np.concatenate(parts))
    assert_struct_equal(cuarray.stack([a, a]).get(), np.stack([h, h]))
    sw = random_struct(NESTED, (5, 3), rng)
    assert_struct_bits_equal(cuarray.asarray(sw).byteswap().get(), sw.byteswap())
    assert_struct_bits_equal(cuarray.asarray(sw)[:, ::2].byteswap().get(), sw[:, ::2].byteswap())
    x = cuarray.asarray(sw)
    assert x.byteswap(inplace=True) is x
    assert_struct_bits_equal(x.get(), sw.byteswap())


def test_cuda_array_interface(rng):
    h = random_struct(ALIGNED, (4, 3), rng)
    a = cuarray.asarray(h)
    cai = a.__cuda_array_interface__
    assert cai["typestr"] == "|V16" and cai["descr"] == ALIGNED.descr

    class Foreign:
        __cuda_array_interface__ = cai

    b = cuarray.asarray(Foreign())
    assert b.data.ptr == a.data.ptr and b.dtype == ALIGNED
    assert_struct_equal(b.get(), h)
    t = a[:, ::2].__cuda_array_interface__
    assert t["strides"] == a[:, ::2].strides
    with pytest.raises(BufferError):
        a.__dlpack__()


# -- kernels -------------------------------------------------------------------------------------------
RAW_SRC = r"""
struct Rec { double x; int y; bool b; };
extern "C" __global__ void use_recs(const Rec* r, double* out, Rec* w, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = r[i].b ? r[i].x * r[i].y : -r[i].x;
        w[i].x = r[i].x + 1.0;
        w[i].y = r[i].y * 2;
        w[i].b = !r[i].b;
    }
}
"""


def test_raw_kernel_takes_struct_arrays_as_pointers(rng):
    assert ALIGNED.itemsize == 16 and ALIGNED.fields["b"][1] == 12  # C's layout of Rec
    h = random_struct(ALIGNED, (300,), rng)
    r = cuarray.asarray(h)
    out = cuarray.empty(300, np.float64)
    w = cuarray.zeros(300, ALIGNED)
    k = cuarray.RawKernel(RAW_SRC, "use_recs")
    k((3,), (128,), (r, out, w, np.int32(300)))
    np.testing.assert_array_equal(out.get(), np.where(h["b"], h["x"] * h["y"], -h["x"]))
    got = w.get()
    np.testing.assert_array_equal(got["x"], h["x"] + 1.0)
    np.testing.assert_array_equal(got["y"], h["y"] * 2)
    np.testing.assert_array_equal(got["b"], ~h["b"])


def test_elementwise_kernel_struct_arrays(rng):
    h = random_struct(ALIGNED, (40, 3), rng)
    a = cuarray.asarray(h)
    k = cuarray.ElementwiseKernel("S p, float64 s", "float64 z", "z = p.b ? p.x * s : (double)p.y", "struct_elems")
    np.testing.assert_array_equal(k(a, 2.0).get(), np.where(h["b"], h["x"] * 2.0, h["y"].astype(np.float64)))
    np.testing.assert_array_equal(k(a[::-2, 1:], 3.0).get(),
                                  np.where(h[::-2, 1:]["b"], h[::-2, 1:]["x"] * 3.0, h[::-2, 1:]["y"].astype(np.float64)))
    out = cuarray.zeros((40, 3), ALIGNED)
    k2 = cuarray.ElementwiseKernel("raw S p", "S q", "q = p[_ind.size() - 1 - i]; q.y += 1;", "struct_out")
    k2(a, out)
    want = h.ravel()[::-1].reshape(40, 3).copy()
    want["y"] += 1
    assert_struct_equal(out.get(), want)
    k3 = cuarray.ElementwiseKernel("double2 v", "float64 z", "z = v.x * v.y", "double2_elems")
    c = random_struct(RE_IM, (17,), rng)
    np.testing.assert_array_equal(k3(cuarray.asarray(c)).get(), c["re"] * c["im"])
    k4 = cuarray.ElementwiseKernel("S p", "float64 z", "z = p.x + p.h + p.c", "packed_elems")
    pk = random_struct(PACKED, (33,), rng)
    np.testing.assert_array_equal(k4(cuarray.asarray(pk)).get(), pk["x"] + pk["h"] + pk["c"])


# -- refusals ------------------------------------------------------------------------------------------
def test_refusals(rng):
    h = random_struct(ALIGNED, (5,), rng)
    a = cuarray.asarray(h)
    for op in (lambda x: x + x, lambda x: -x, lambda x: x < x, lambda x: x.sum(), lambda x: x.max()):
        with pytest.raises(TypeError) as theirs:
            op(h)
        with pytest.raises(TypeError) as ours:
            op(a)
        assert type(ours.value) is type(theirs.value)
    for op in (cuarray.sort, cuarray.argsort, cuarray.unique, cuarray.cumsum, lambda x: x.astype(np.float64)):
        with pytest.raises(TypeError):
            op(a)
    p = cuarray.asarray(random_struct(PACKED, (4,), rng))
    with pytest.raises(ValueError, match="aligned for GPU"):
        p["x"]
    with pytest.raises(TypeError, match="sub-array"):
        cuarray.asarray(np.zeros(3, "i4,(2,)f4"))
    with pytest.raises(TypeError, match="object"):
        cuarray.asarray(np.zeros(3, "q,O"))
    assert_struct_equal(a.get(), h)  # nothing was written


def test_files(tmp_path, rng):
    h = random_struct(NESTED, (6,), rng)
    cuarray.save(tmp_path / "s.npy", cuarray.asarray(h))
    assert_struct_equal(cuarray.load(tmp_path / "s.npy").get(), h)
    (tmp_path / "t.csv").write_text("a,b\n1,2.5\n3,-4.5\n")
    g = cuarray.genfromtxt(tmp_path / "t.csv", delimiter=",", names=True)
    assert_struct_equal(g.get(), np.genfromtxt(tmp_path / "t.csv", delimiter=",", names=True))
