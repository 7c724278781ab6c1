"""Issue 15 on the device, against NumPy: data type routines and NumPy dispatch, the Array API
names (inspection, to_device, DLPack to the CPU), order letters, and the behaviour differences
the issue found (each compared with NumPy on fresh random data)."""

from __future__ import annotations

import warnings

import numpy
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402

rng = numpy.random.default_rng()


def _pair(shape=(3, 4), dtype=numpy.float64):
    h = rng.standard_normal(shape).astype(dtype) if numpy.dtype(dtype).kind != "c" else (
        rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    return h, cuarray.asarray(h)


# -- data type routines, also reached through NumPy (__array_function__) -------------------------
@pytest.mark.parametrize("dtype", [numpy.int8, numpy.float32, numpy.complex64, numpy.uint16], ids=str)
def test_dtype_routines_take_device_arrays(dtype):
    h, d = _pair(dtype=dtype)
    for xp_fn, arg in ((cuarray, d), (numpy, d)):  # numpy.X(device array) dispatches to cuarray.X
        assert xp_fn.result_type(arg, 1.0) == numpy.result_type(h, 1.0)
        assert xp_fn.result_type(arg, numpy.int64) == numpy.result_type(h, numpy.int64)
        assert xp_fn.can_cast(arg, numpy.float64) == numpy.can_cast(h, numpy.float64)
        assert xp_fn.common_type(arg) is numpy.common_type(h)
        assert xp_fn.ndim(arg) == 2 and xp_fn.shape(arg) == (3, 4) and xp_fn.size(arg) == 12
        assert xp_fn.size(arg, 1) == 4
        assert xp_fn.iscomplexobj(arg) == numpy.iscomplexobj(h)
        assert xp_fn.isrealobj(arg) == numpy.isrealobj(h)
    assert cuarray.min_scalar_type(d) == numpy.min_scalar_type(h)
    assert cuarray.min_scalar_type(cuarray.asarray(numpy.int64(300))) == numpy.min_scalar_type(numpy.int64(300))
    assert cuarray.finfo(d).dtype == numpy.finfo(h.dtype).dtype if h.dtype.kind in "fc" else True
    if h.dtype.kind in "iu":
        assert cuarray.iinfo(d).max == numpy.iinfo(h.dtype).max


def test_astype_and_unstack_as_numpy():
    h, d = _pair((3, 4, 2), numpy.float32)
    for xp_fn in (cuarray, numpy):
        r = xp_fn.astype(d, numpy.int16)
        assert isinstance(r, cuarray.ndarray)
        numpy.testing.assert_array_equal(r.get(), numpy.astype(h, numpy.int16))
        parts = xp_fn.unstack(d, axis=1)
        ref = numpy.unstack(h, axis=1)
        assert isinstance(parts, tuple) and len(parts) == len(ref)
        for p, q in zip(parts, ref):
            numpy.testing.assert_array_equal(p.get(), q)
    assert cuarray.astype(d, d.dtype, copy=False) is d
    with pytest.raises(TypeError):
        cuarray.astype(h, numpy.int16)
    with pytest.raises(ValueError):
        cuarray.unstack(cuarray.asarray(numpy.float64(1.0)))


def test_type_testing_as_numpy():
    h = numpy.array([1 + 0j, 2 + 1e-20j, -numpy.inf, numpy.inf, numpy.nan, 3 - 2j])
    d = cuarray.asarray(h)
    numpy.testing.assert_array_equal(cuarray.iscomplex(d).get(), numpy.iscomplex(h))
    numpy.testing.assert_array_equal(cuarray.isreal(d).get(), numpy.isreal(h))
    r = rng.standard_normal(8)
    r[[1, 4]] = [-numpy.inf, numpy.inf]
    dr = cuarray.asarray(r)
    numpy.testing.assert_array_equal(cuarray.isneginf(dr).get(), numpy.isneginf(r))
    numpy.testing.assert_array_equal(numpy.isposinf(dr).get(), numpy.isposinf(r))  # via dispatch
    numpy.testing.assert_array_equal(cuarray.isreal(dr).get(), numpy.isreal(r))
    with pytest.raises(TypeError, match="ambiguous"):
        cuarray.isneginf(d)
    near = numpy.array([1 + 1e-17j, 2 - 1e-18j])
    out = cuarray.real_if_close(cuarray.asarray(near))
    assert out.dtype == numpy.real_if_close(near).dtype
    assert cuarray.real_if_close(d).dtype == numpy.real_if_close(h).dtype
    f = cuarray.asfortranarray(cuarray.asarray(rng.standard_normal((3, 4))))
    assert cuarray.isfortran(f) and not cuarray.isfortran(cuarray.ones((3, 4)))


def test_shares_memory_is_exact():
    h = numpy.zeros((10, 10))
    d = cuarray.zeros((10, 10))
    cases = [(lambda a: a[::2], lambda a: a[1::2]), (lambda a: a[:, 0], lambda a: a[:, 1]),
             (lambda a: a[2:5], lambda a: a[4:8]), (lambda a: a, lambda a: a.T), (lambda a: a[:0], lambda a: a)]
    for f, g in cases:
        assert cuarray.shares_memory(f(d), g(d)) == numpy.shares_memory(f(h), g(h))
        assert numpy.may_share_memory(f(d), g(d)) == numpy.may_share_memory(f(h), g(h))
    assert not cuarray.shares_memory(d, cuarray.zeros((10, 10)))


# -- Array API ---------------------------------------------------------------------------------
def test_namespace_info_on_a_device():
    info = cuarray.__array_namespace_info__()
    devs = info.devices()
    assert isinstance(devs, tuple) and len(devs) == cuarray.cuda.runtime.getDeviceCount() >= 1
    assert info.default_device() == cuarray.cuda.Device(0) == cuarray.ones(2).device
    assert info.dtypes(device=devs[0]) == info.dtypes()
    x = cuarray.ones(3)
    assert x.__array_namespace__() is cuarray


def test_to_device():
    h, d = _pair()
    assert d.to_device(d.device) is d
    assert d.to_device(0) is d
    with pytest.raises(ValueError, match="get"):
        d.to_device("cpu")


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.int64, numpy.complex128, numpy.bool_], ids=str)
def test_dlpack_export_to_the_cpu(dtype):
    h = (rng.standard_normal((5, 6)) > 0) if dtype is numpy.bool_ else rng.standard_normal((5, 6)).astype(dtype)
    d = cuarray.asarray(h)[:, ::2]
    r = numpy.from_dlpack(d, device="cpu", copy=True)
    numpy.testing.assert_array_equal(r, h[:, ::2])
    r = numpy.from_dlpack(d, device="cpu")  # copy=None: a copy is needed and allowed
    numpy.testing.assert_array_equal(r, h[:, ::2])
    with pytest.raises(BufferError):
        d.__dlpack__(dl_device=(1, 0), copy=False)
    with pytest.raises(BufferError):
        numpy.from_dlpack(d, device="cpu", copy=False)


# -- CuPy's creation and transfer keywords, order letters -------------------------------------------
def test_asnumpy_asarray_blocking_and_stream():
    h = rng.standard_normal((64, 33))
    s = cuarray.cuda.Stream()
    d = cuarray.asarray(h, blocking=True)
    d2 = cuarray.array(h, blocking=True, order="f")
    assert d2.flags.f_contiguous
    out = cuarray.asnumpy(d, stream=s, blocking=True)
    numpy.testing.assert_array_equal(out, h)
    out = cuarray.asnumpy(d2, stream=s, blocking=False)
    s.synchronize()
    numpy.testing.assert_array_equal(out, h)


@pytest.mark.parametrize("order", ["c", "f", "a", "k", None, "C", "F"])
def test_order_letters_in_either_case(order):
    full = rng.standard_normal((4, 5))
    h, d = full[:, ::2], cuarray.asarray(full)[:, ::2]  # the same non-contiguous layout
    hn, dn = h.astype(numpy.float32, order=order), d.astype(numpy.float32, order=order)
    assert (dn.flags.c_contiguous, dn.flags.f_contiguous) == (hn.flags.c_contiguous, hn.flags.f_contiguous)
    numpy.testing.assert_array_equal(dn.get(), hn)
    for f in (lambda xp, a: xp.array(a, order=order), lambda xp, a: xp.asarray(a, order=order),
              lambda xp, a: a.copy(order=order or "K"), lambda xp, a: xp.empty_like(a, order=order or "K"),
              lambda xp, a: a.flatten(order or "C"), lambda xp, a: xp.ravel(a, order or "C")):
        r, e = f(cuarray, d), f(numpy, h)
        assert r.shape == e.shape and (r.flags.c_contiguous, r.flags.f_contiguous) == (
            e.flags.c_contiguous, e.flags.f_contiguous)
    if order in ("c", "f"):
        a = cuarray.ndarray((3, 4), numpy.float32, order=order)
        assert a.flags["F"] == (order == "f")
        assert cuarray.zeros((3, 4), order=order).flags["F"] == (order == "f")


# -- behaviour differences from the issue -----------------------------------------------------
def test_copyto_and_assignment_drop_leading_ones():
    src_h = rng.standard_normal((1, 1, 5))
    dst_h = numpy.zeros(5)
    numpy.copyto(dst_h, src_h)
    dst = cuarray.zeros(5)
    cuarray.copyto(dst, cuarray.asarray(src_h))
    numpy.testing.assert_array_equal(dst.get(), dst_h)
    d2 = cuarray.zeros((4, 5))
    d2[...] = cuarray.asarray(src_h)
    h2 = numpy.zeros((4, 5))
    h2[...] = src_h
    numpy.testing.assert_array_equal(d2.get(), h2)
    d2[1] = cuarray.asarray(src_h[0])
    with pytest.raises(ValueError):
        cuarray.copyto(dst, cuarray.ones((2, 5)))


def test_take_on_an_empty_axis():
    d = cuarray.zeros((0, 3))
    for idx in ([0], cuarray.asarray(numpy.array([0]))):
        with pytest.raises(IndexError, match="empty axes"):
            cuarray.take(d, idx, axis=0)
    assert cuarray.take(d, numpy.array([], numpy.intp), axis=0).shape == (0, 3)
    with pytest.raises(IndexError, match="empty axes"):
        cuarray.take(d, [1], axis=0, mode="wrap")


@pytest.mark.parametrize("cdt", [numpy.complex64, numpy.complex128], ids=str)
def test_bool_plus_complex(cdt):
    b = rng.standard_normal(7) > 0
    c = (rng.standard_normal(7) + 1j * rng.standard_normal(7)).astype(cdt)
    db, dc = cuarray.asarray(b), cuarray.asarray(c)
    for r, e in ((db + dc, b + c), (dc + db, c + b), (db * dc, b * c), (dc - db, c - b)):
        assert r.dtype == e.dtype
        numpy.testing.assert_allclose(r.get(), e, rtol=1e-6)


def test_fill_with_zero_d_arrays():
    a = cuarray.zeros((3, 4), numpy.float32)
    a.fill(cuarray.asarray(numpy.float64(2.5)))
    numpy.testing.assert_array_equal(a.get(), numpy.full((3, 4), 2.5, numpy.float32))
    a.fill(numpy.array(-1.25))
    numpy.testing.assert_array_equal(a.get(), numpy.full((3, 4), -1.25, numpy.float32))
    i = cuarray.zeros(5, numpy.int32)
    i.fill(numpy.array(7, numpy.int64))
    numpy.testing.assert_array_equal(i.get(), numpy.full(5, 7, numpy.int32))


def test_matrix_transpose_of_1d_raises_numpys_text():
    h = numpy.zeros(3)
    d = cuarray.zeros(3)
    for fn in (lambda xp, a: xp.matrix_transpose(a), lambda xp, a: a.mT):
        with pytest.raises(ValueError) as ref:
            fn(numpy, h)
        with pytest.raises(ValueError) as got:
            fn(cuarray, d)
        assert str(got.value) == str(ref.value)


def test_complex_warning_on_complex_to_real():
    h, d = _pair(dtype=numpy.complex64)
    with pytest.warns(numpy.exceptions.ComplexWarning):
        r = d.astype(numpy.float32)
    numpy.testing.assert_array_equal(r.get(), h.real)
    dst = cuarray.zeros((3, 4), numpy.float64)
    with pytest.warns(cuarray.exceptions.ComplexWarning):
        cuarray.copyto(dst, d, casting="unsafe")
    with pytest.warns(cuarray.exceptions.ComplexWarning):
        dst[...] = d
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        d.astype(numpy.complex128)
        d.real.copy()


@pytest.mark.parametrize("wdt", [numpy.float64, numpy.float32, numpy.int32], ids=str)
@pytest.mark.parametrize("minlength", [0, 4])
def test_bincount_of_an_empty_list(wdt, minlength):
    x = numpy.array([], numpy.int64)
    w = numpy.array([], wdt)
    e = numpy.bincount(x, weights=w, minlength=minlength)
    r = cuarray.bincount(cuarray.asarray(x), weights=cuarray.asarray(w), minlength=minlength)
    assert r.dtype == e.dtype and r.shape == e.shape
    numpy.testing.assert_array_equal(r.get(), e)
    xs = rng.integers(0, 5, 20)
    ws = rng.standard_normal(20).astype(wdt)
    numpy.testing.assert_allclose(cuarray.bincount(cuarray.asarray(xs), cuarray.asarray(ws)).get(),
                                  numpy.bincount(xs, ws))


class Tagged(cuarray.ndarray):
    def __array_finalize__(self, obj):
        self.tag = getattr(obj, "tag", "new")


def test_explicit_constructor_and_subclassing():
    a = cuarray.ndarray((2, 3), numpy.float32)
    assert a.shape == (2, 3) and a.dtype == numpy.float32 and a.flags.c_contiguous
    b = cuarray.ndarray((2, 3), "f8", strides=(8, 16))
    assert b.flags.f_contiguous
    c = cuarray.ndarray((2, 3), numpy.int32, memptr=a.data)
    assert c.data.ptr == a.data.ptr
    t = Tagged((4,), numpy.float64)
    assert type(t) is Tagged and t.tag == "new"
    t[...] = cuarray.asarray(numpy.arange(4.0))
    t.tag = "mine"
    v = t.view(Tagged)
    assert type(v) is Tagged and v.tag == "mine" and v.data.ptr == t.data.ptr
    w = cuarray.arange(4.0).view(type=Tagged)
    assert type(w) is Tagged
    numpy.testing.assert_array_equal(w.get(), numpy.arange(4.0))
    assert isinstance(t + 1, cuarray.ndarray)
    with pytest.raises(TypeError):
        a.view(type=numpy.ndarray)


def test_tobytes_and_format():
    h, d = _pair((3, 4), numpy.float32)
    assert d.tobytes() == h.tobytes() and d.tobytes("F") == h.tobytes("F")
    s = cuarray.asarray(numpy.float64(3.14159))
    assert "{:.2f}".format(s) == "{:.2f}".format(numpy.float64(3.14159))
    assert format(d) == format(h)


def test_added_ndarray_methods():
    h = rng.integers(0, 3, (4, 5))
    d = cuarray.asarray(h)
    choices = [numpy.full((4, 5), k) for k in range(3)]
    numpy.testing.assert_array_equal(d.choose([cuarray.asarray(c) for c in choices]).get(), h.choose(choices))
    cond = numpy.array([True, False, True, True])
    numpy.testing.assert_array_equal(d.compress(cuarray.asarray(cond), axis=0).get(), h.compress(cond, axis=0))
    hp, dp = h.copy(), d.copy()
    hp.put([0, 7, 19], [9, 8, 7])
    dp.put(cuarray.asarray(numpy.array([0, 7, 19])), cuarray.asarray(numpy.array([9, 8, 7])))
    numpy.testing.assert_array_equal(dp.get(), hp)
    hr, dr = h.copy(), d.copy()
    hr.resize((5, 6), refcheck=False)
    dr.resize((5, 6))
    numpy.testing.assert_array_equal(dr.get(), hr)
    dr.resize(3)
    assert dr.shape == (3,)
    with pytest.raises(ValueError):
        d[1:].resize((2,))
    d.setflags(write=False)
    with pytest.raises(ValueError):
        d[0] = 1
    d.setflags(write=True)
    d[0, 0] = 2
    assert (2 in d) and (99 not in d)
    with pytest.raises(ValueError, match="cannot delete"):
        del d[0]


# -- the remaining NumPy names of this issue -------------------------------------------------------
def test_block_as_numpy():
    A, B = rng.standard_normal((2, 2)), rng.standard_normal((2, 3))
    C, D = rng.standard_normal((1, 2)), rng.standard_normal((1, 3))
    dA, dB, dC, dD = (cuarray.asarray(x) for x in (A, B, C, D))
    for spec_h, spec_d in (([[A, B], [C, D]], [[dA, dB], [dC, dD]]), ([A, A], [dA, dA]),
                           ([[[A]], [[A]]], [[[dA]], [[dA]]]), ([1.5, 2.5], [1.5, 2.5]), (3, 3)):
        e, r = numpy.block(spec_h), cuarray.block(spec_d)
        assert r.shape == e.shape and r.dtype == e.dtype
        numpy.testing.assert_array_equal(r.get(), e)
    with pytest.raises(ValueError, match="depths are mismatched"):
        cuarray.block([[dA], dA])
    with pytest.raises(TypeError):
        cuarray.block((dA, dA))


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32, numpy.int64], ids=str)
def test_unwrap_as_numpy(dtype):
    if numpy.dtype(dtype).kind == "i":
        h = rng.integers(-50, 50, (3, 20)).astype(dtype)
        kw = {"period": 12}
    else:
        h = numpy.cumsum(rng.uniform(-4, 4, (3, 20)), axis=1).astype(dtype) % (2 * numpy.pi)
        kw = {}
    for axis in (-1, 0):
        e = numpy.unwrap(h, axis=axis, **kw)
        r = cuarray.unwrap(cuarray.asarray(h), axis=axis, **kw)
        assert r.dtype == e.dtype
        numpy.testing.assert_allclose(r.get(), e, rtol=1e-5 if dtype == numpy.float32 else 1e-12, atol=1e-4)
    e = numpy.unwrap(h, discont=4.0)
    numpy.testing.assert_allclose(cuarray.unwrap(cuarray.asarray(h), discont=4.0).get(), e, rtol=1e-5, atol=1e-4)


def test_creation_from_host_forms():
    h = rng.standard_normal(10).astype(numpy.float32)
    for r, e in ((cuarray.frombuffer(h.tobytes(), numpy.float32), numpy.frombuffer(h.tobytes(), numpy.float32)),
                 (cuarray.frombuffer(h.tobytes(), numpy.float32, count=3, offset=8),
                  numpy.frombuffer(h.tobytes(), numpy.float32, count=3, offset=8)),
                 (cuarray.fromiter((i * i for i in range(7)), numpy.int32), numpy.fromiter((i * i for i in range(7)), numpy.int32)),
                 (cuarray.fromstring("1 2 3.5", sep=" "), numpy.fromstring("1 2 3.5", sep=" ")),
                 (cuarray.fromfunction(lambda i, j: i * 10 + j, (3, 4)), numpy.fromfunction(lambda i, j: i * 10 + j, (3, 4))),
                 (cuarray.fromfunction(lambda i: i % 3, (5,), dtype=int), numpy.fromfunction(lambda i: i % 3, (5,), dtype=int))):
        assert isinstance(r, cuarray.ndarray) and r.dtype == e.dtype
        numpy.testing.assert_array_equal(r.get(), e)
    numpy.testing.assert_array_equal(cuarray.asarray_chkfinite(cuarray.asarray(h)).get(), h)
    bad = h.copy()
    bad[3] = numpy.nan
    with pytest.raises(ValueError, match="infs or NaNs"):
        cuarray.asarray_chkfinite(cuarray.asarray(bad))


def test_stride_tricks_as_numpy():
    from cuarray.lib import stride_tricks as st

    h = rng.standard_normal((6, 7))
    d = cuarray.asarray(h)
    for args in (((3, 1),), ((2, 3),), (3, 0), ((2, 2), (0, 1)), (2, -1)):
        e = numpy.lib.stride_tricks.sliding_window_view(h, *args)
        r = st.sliding_window_view(d, *args)
        assert r.shape == e.shape and r.strides == e.strides and not r.flags.writeable
        numpy.testing.assert_array_equal(r.get(), e)
    e = numpy.lib.stride_tricks.as_strided(h, shape=(3, 4), strides=(16, 8))
    r = st.as_strided(d, shape=(3, 4), strides=(16, 8))
    numpy.testing.assert_array_equal(r.get(), e)
    for bad in (((8,), 0), ((3,),), ((2, 2), (0,))):  # NumPy's ValueErrors
        with pytest.raises(ValueError):
            numpy.lib.stride_tricks.sliding_window_view(h, *bad)
        with pytest.raises(ValueError):
            st.sliding_window_view(d, *bad)
    assert cuarray.lib.array_utils.normalize_axis_index(-1, 3) == 2


def test_printing_is_numpys_of_a_host_copy():
    h = rng.standard_normal((3, 4))
    d = cuarray.asarray(h)
    assert cuarray.array2string(d, precision=3) == numpy.array2string(h, precision=3)
    assert cuarray.array_repr(d) == numpy.array_repr(h) and cuarray.array_str(d) == numpy.array_str(h)
    with cuarray.printoptions(precision=2):
        assert repr(d) == repr(h) and str(d) == str(h)
    assert cuarray.get_printoptions() == numpy.get_printoptions()


def test_text_and_raw_files_through_the_host(tmp_path):
    import pickle

    h = rng.standard_normal((4, 3))
    d = cuarray.asarray(h)
    txt = tmp_path / "a.txt"
    cuarray.savetxt(txt, d, fmt="%.17g")
    for r, e in ((cuarray.loadtxt(txt), numpy.loadtxt(txt)), (cuarray.genfromtxt(txt), numpy.genfromtxt(txt))):
        assert isinstance(r, cuarray.ndarray) and r.dtype == e.dtype
        numpy.testing.assert_array_equal(r.get(), e)
    raw = tmp_path / "a.bin"
    d.tofile(raw)
    numpy.testing.assert_array_equal(cuarray.fromfile(raw).get(), numpy.fromfile(raw))
    numpy.testing.assert_array_equal(cuarray.fromfile(raw, count=5, offset=8).get(), numpy.fromfile(raw, count=5, offset=8))
    back = pickle.loads(d.dumps())
    assert isinstance(back, cuarray.ndarray)
    numpy.testing.assert_array_equal(back.get(), h)
    d.dump(tmp_path / "p.pkl")
    with open(tmp_path / "p.pkl", "rb") as f:
        numpy.testing.assert_array_equal(pickle.load(f).get(), h)
    miss = tmp_path / "m.txt"
    miss.write_text("1,2\n3,\n")
    assert isinstance(numpy.genfromtxt(miss, delimiter=",", usemask=True), numpy.ma.MaskedArray)
    with pytest.raises(TypeError):
        cuarray.genfromtxt(miss, delimiter=",", usemask=True)


@pytest.mark.parametrize("axis", [-1, 0, None])
def test_sort_descending_is_the_array_apis(axis):
    h = rng.integers(0, 4, (6, 9)).astype(numpy.float32)  # many ties: stability is visible
    d = cuarray.asarray(h)
    flat = h.reshape(-1) if axis is None else h
    ax = 0 if axis is None else axis
    # the standard's stable descending order: sort the negated keys stably (exact for these values)
    e_idx = numpy.argsort(-flat, axis=ax, stable=True)
    r_idx = cuarray.argsort(d, axis=axis, descending=True)
    numpy.testing.assert_array_equal(r_idx.get(), e_idx)
    numpy.testing.assert_array_equal(cuarray.sort(d, axis=axis, descending=True).get(),
                                     -numpy.sort(-flat, axis=ax))
    numpy.testing.assert_array_equal(cuarray.argsort(d, axis=axis).get(), numpy.argsort(flat, axis=ax, stable=True))
