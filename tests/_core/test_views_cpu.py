"""No-device checks for creation plans, views, interop structs and generated kernels.

Arrays here are views on a fake pointer (address arithmetic only): every routine tested this way
only changes shape/strides/offset, which is exactly what must match NumPy.
"""

import ctypes
import math

import numpy
import pytest
from numpy.exceptions import AxisError

from cuarray._core import interop
from cuarray._core.ndarray import ndarray
from cuarray._creation import ranges
from cuarray._manipulation import dims
from cuarray._manipulation import transpose as tr
from cuarray.cuda.memory import BaseMemory, MemoryPointer

BASE = 1 << 32


def fake(host: numpy.ndarray) -> ndarray:
    """A cuarray view with `host`'s shape, strides and dtype on a fake device address; element 0
    at BASE + (its offset inside `host`'s buffer)."""
    mem = BaseMemory(BASE, 1 << 20, device_id=0)
    root = ndarray._view((host.size,), (host.itemsize,), host.dtype, MemoryPointer(mem, 0), None)
    return ndarray._view(host.shape, host.strides, host.dtype, MemoryPointer(mem, 0), root)


def layout(a):
    return a.shape, a.strides, a.data.ptr - BASE


def np_layout(h, base):
    return h.shape, h.strides, h.__array_interface__["data"][0] - base.__array_interface__["data"][0]


# -- arange ---------------------------------------------------------------------------------
ARANGE_CASES = [
    (5,), (5.0,), (0,), (-3,), (2, 9), (9, 2), (9, 2, -2), (0, 1, 0.1), (1, 2, 0.3), (0.5, 7.25, 0.75),
    (numpy.int8(5),), (numpy.float32(5),), (numpy.float32(0), 1, 0.1), (1, 5, numpy.float32(0.5)),
    (numpy.uint8(3), numpy.uint8(9)), (numpy.float16(1), 3), (1 + 0j, 4), (True,), (0, 3, 1.5),
    (-1e3, 1e3, 7.77), (numpy.int8(100), numpy.int8(-100), numpy.int8(-1)), (10**18, 10**18 + 5),
]
ARANGE_DTYPES = [None, numpy.int8, numpy.uint16, numpy.int64, numpy.uint64, numpy.float16, numpy.float32,
                 numpy.float64, numpy.complex64, numpy.complex128]


def _simulate(length, dt, first, second):
    """The values our kernel computes, with NumPy scalar arithmetic of the same precision."""
    dt = numpy.dtype(dt)
    scal = ranges._arange_scalars(dt, first, second)
    out = numpy.empty(length, dt)
    with numpy.errstate(all="ignore"):
        for i in range(length):
            if dt.kind in "iub":
                start, delta = scal
                v = (int(start) + i * int(delta)) % 2**64
                out[i] = numpy.array(v, numpy.uint64).astype(dt) if dt.kind != "b" else bool(v)
            elif dt.kind == "f":
                start, second_, delta = scal
                ct = type(start)
                out[i] = start if i == 0 else second_ if i == 1 else ct(start + ct(i) * delta)
            else:
                start, second_, delta = scal
                rt = numpy.float32 if dt.char == "F" else numpy.float64
                if i == 0:
                    out[i] = start
                elif i == 1:
                    out[i] = second_
                else:
                    out[i] = complex(rt(rt(start.real) + rt(i) * rt(delta.real)),
                                     rt(rt(start.imag) + rt(i) * rt(delta.imag)))
    return out


@pytest.mark.parametrize("args", ARANGE_CASES, ids=[repr(a) for a in ARANGE_CASES])
@pytest.mark.parametrize("dtype", ARANGE_DTYPES, ids=lambda d: "none" if d is None else numpy.dtype(d).name)
def test_arange_plan_matches_numpy(args, dtype):
    with numpy.errstate(all="ignore"):
        try:
            expected = numpy.arange(*args, dtype=dtype)
        except Exception as exc:
            with pytest.raises(type(exc)):
                ranges.arange_plan(*args, dtype=dtype)
            return
        length, dt, first, second = ranges.arange_plan(*(args + (None,) * (3 - len(args))), dtype=dtype)
    assert length == expected.shape[0]
    assert dt == expected.dtype
    if length <= 2000:
        got = _simulate(length, dt, first, second)
        numpy.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("args,exc", [
    ((0, 10, 0), ZeroDivisionError), ((0, numpy.inf), ValueError), ((numpy.nan,), ValueError),
    ((0, 3), TypeError),
])
def test_arange_plan_errors(args, exc):
    dtype = bool if args == (0, 3) else None
    with numpy.errstate(all="ignore"):
        with pytest.raises(exc):
            numpy.arange(*args, dtype=dtype)
        with pytest.raises(exc):
            ranges.arange_plan(*(args + (None,) * (3 - len(args))), dtype=dtype)


def test_arange_unsupported_dtype():
    with pytest.raises(TypeError):
        ranges.arange_plan(3, None, None, dtype="U3")


# -- linspace ---------------------------------------------------------------------------------
@pytest.mark.parametrize("start,stop,num,endpoint,dtype", [
    (0, 1, 5, True, None), (0, 1, 5, False, None), (2.5, -1, 7, True, numpy.float32),
    (numpy.float16(0), numpy.float16(1), 9, True, None), (0, 10, 4, True, int), (0, 1, 1, True, None),
    (0, 1, 0, True, None), (1 + 1j, 2 - 1j, 4, True, None), (0, 1e-320, 3, True, None),
])
def test_linspace_plan(start, stop, num, endpoint, dtype):
    plan = ranges.linspace_plan(start, stop, num, endpoint, dtype)
    expected, step = numpy.linspace(start, stop, num, endpoint, retstep=True, dtype=dtype)
    assert plan[0] == num
    assert plan[3] == expected.dtype
    assert numpy.array_equal(numpy.asarray(plan[7]), numpy.asarray(step), equal_nan=True)


def test_linspace_negative_num():
    with pytest.raises(ValueError, match="must be non-negative"):
        ranges.linspace_plan(0, 1, -1)


# -- views on fake memory ---------------------------------------------------------------------
def _host(shape=(2, 3, 4), dtype=numpy.float32):
    return numpy.arange(math.prod(shape), dtype=dtype).reshape(shape)


VIEW_CASES = [
    ("transpose", lambda xp, a: xp.transpose(a)),
    ("transpose_axes", lambda xp, a: xp.transpose(a, (1, 0, 2))),
    ("transpose_neg", lambda xp, a: xp.transpose(a, (-1, 0, 1))),
    ("permute_dims", lambda xp, a: xp.permute_dims(a, (2, 0, 1))),
    ("swapaxes", lambda xp, a: xp.swapaxes(a, 0, -1)),
    ("moveaxis", lambda xp, a: xp.moveaxis(a, 0, -1)),
    ("moveaxis_multi", lambda xp, a: xp.moveaxis(a, (0, 1), (2, 0))),
    ("rollaxis", lambda xp, a: xp.rollaxis(a, 2)),
    ("rollaxis_start", lambda xp, a: xp.rollaxis(a, 0, 3)),
    ("matrix_transpose", lambda xp, a: xp.matrix_transpose(a)),
    ("squeeze_none", lambda xp, a: xp.squeeze(a[:, :1])),
    ("squeeze_axis", lambda xp, a: xp.squeeze(a[:, :1, ::2], axis=1)),
    ("expand_dims", lambda xp, a: xp.expand_dims(a, 0)),
    ("expand_dims_multi", lambda xp, a: xp.expand_dims(a[:, ::2], (0, 3, -1))),
    ("broadcast_to", lambda xp, a: xp.broadcast_to(a[0, :1], (5, 3, 4))),
    ("atleast_1d", lambda xp, a: xp.atleast_1d(a[0, 0, 0, ...])),
    ("atleast_2d", lambda xp, a: xp.atleast_2d(a[0, 0])),
    ("atleast_3d_1d", lambda xp, a: xp.atleast_3d(a[0, 0, ::-1])),
    ("atleast_3d_2d", lambda xp, a: xp.atleast_3d(a[1])),
    ("atleast_3d_0d", lambda xp, a: xp.atleast_3d(a[1, 1, 1, ...])),
]


class _Fake:
    """The cuarray routines under test, spelled like NumPy's."""
    transpose = staticmethod(tr.transpose)
    permute_dims = staticmethod(tr.permute_dims)
    swapaxes = staticmethod(tr.swapaxes)
    moveaxis = staticmethod(tr.moveaxis)
    rollaxis = staticmethod(tr.rollaxis)
    matrix_transpose = staticmethod(tr.matrix_transpose)
    squeeze = staticmethod(dims.squeeze)
    expand_dims = staticmethod(dims.expand_dims)
    broadcast_to = staticmethod(dims.broadcast_to)
    atleast_1d = staticmethod(dims.atleast_1d)
    atleast_2d = staticmethod(dims.atleast_2d)
    atleast_3d = staticmethod(dims.atleast_3d)


@pytest.mark.parametrize("name,fn", VIEW_CASES, ids=[c[0] for c in VIEW_CASES])
@pytest.mark.parametrize("start", ["c", "f", "neg"])
def test_view_layout_matches_numpy(name, fn, start):
    h = _host()
    if start == "f":
        h = numpy.asfortranarray(h)
    base = h
    if start == "neg":
        base = _host((2, 3, 8))
        h = base[::-1, :, ::-2]
    a = fake(base)
    if start == "neg":
        a = a[::-1, :, ::-2]
    expected = fn(numpy, h)
    got = fn(_Fake, a)
    assert layout(got) == np_layout(expected, base)
    assert got.flags.c_contiguous == expected.flags.c_contiguous
    assert got.flags.f_contiguous == expected.flags.f_contiguous
    assert got.flags.writeable == expected.flags.writeable
    assert got.base is a._root()


def test_broadcast_arrays_layout():
    h1, h2 = numpy.ones((3, 1), numpy.int16), numpy.ones((4,), numpy.int16)
    e = numpy.broadcast_arrays(h1, h2)
    g = dims.broadcast_arrays(fake(h1), fake(h2))
    assert type(g) is tuple
    assert [x.shape for x in g] == [x.shape for x in e]
    assert [x.strides for x in g] == [x.strides for x in e]


@pytest.mark.parametrize("fn,exc", [
    (lambda xp, a: xp.transpose(a, (0, 0, 1)), ValueError),
    (lambda xp, a: xp.transpose(a, (0, 1)), ValueError),
    (lambda xp, a: xp.transpose(a, (0, 1, 3)), AxisError),
    (lambda xp, a: xp.swapaxes(a, 0, 3), AxisError),
    (lambda xp, a: xp.moveaxis(a, (0, 1), (0,)), ValueError),
    (lambda xp, a: xp.moveaxis(a, 0, 5), AxisError),
    (lambda xp, a: xp.rollaxis(a, 0, 5), AxisError),
    (lambda xp, a: xp.squeeze(a, 0), ValueError),
    (lambda xp, a: xp.squeeze(a, 4), AxisError),
    (lambda xp, a: xp.expand_dims(a, 5), AxisError),
    (lambda xp, a: xp.expand_dims(a, (0, 0)), ValueError),
    (lambda xp, a: xp.broadcast_to(a, (3, 4)), ValueError),
    (lambda xp, a: xp.broadcast_to(a, ()), ValueError),
    (lambda xp, a: xp.broadcast_to(a, (-1, 3, 4)), ValueError),
    (lambda xp, a: xp.matrix_transpose(a[0, 0]), ValueError),
])
def test_view_errors_match_numpy(fn, exc):
    h = _host()
    with pytest.raises(exc) as e_np:
        fn(numpy, h)
    with pytest.raises(exc) as e_cu:
        fn(_Fake, fake(h))
    assert type(e_cu.value) is type(e_np.value)
    assert str(e_cu.value) == str(e_np.value)


def test_broadcast_to_is_read_only():
    b = dims.broadcast_to(fake(_host((3,))), (2, 3))
    assert not b.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        b[0] = 1


# -- interop ----------------------------------------------------------------------------------
def test_dlpack_struct_sizes():
    # DLPack 1.x on a 64-bit platform.
    assert ctypes.sizeof(interop.DLDevice) == 8
    assert ctypes.sizeof(interop.DLDataType) == 4
    assert ctypes.sizeof(interop.DLTensor) == 48
    assert ctypes.sizeof(interop.DLManagedTensor) == 64
    assert ctypes.sizeof(interop.DLManagedTensorVersioned) == 80
    assert interop.DLManagedTensorVersioned.dl_tensor.offset == 32
    assert interop.DLManagedTensorVersioned.flags.offset == 24


@pytest.mark.parametrize("dt", ["?", "b", "B", "h", "H", "i", "I", "q", "Q", "e", "f", "d", "F", "D"])
def test_dlpack_dtype_roundtrip(dt):
    dt = numpy.dtype(dt)
    assert interop.dtype_from_dlpack(*interop.dlpack_dtype(dt)) == dt


def test_dlpack_dtype_unsupported():
    with pytest.raises(TypeError):
        interop.dtype_from_dlpack(interop.kDLBfloat, 16, 1)
    with pytest.raises(TypeError):
        interop.dtype_from_dlpack(interop.kDLFloat, 32, 4)


def _cai(a, monkeypatch):
    from cuarray.cuda import stream

    monkeypatch.setattr(stream, "get_current_stream", lambda *args: stream.Stream.null)
    return interop.cuda_array_interface(a)


def test_cai_contiguous(monkeypatch):
    a = fake(_host((2, 3), numpy.float64))
    d = _cai(a, monkeypatch)
    assert d == {"shape": (2, 3), "typestr": "<f8", "descr": [("", "<f8")], "data": (BASE, False),
                 "strides": None, "version": 3, "stream": 1}


def test_cai_strided_and_readonly(monkeypatch):
    a = fake(_host((4, 6), numpy.int16))[1:, ::-2]
    d = _cai(a, monkeypatch)
    assert d["strides"] == (12, -4)
    assert d["data"] == (BASE + 12 + 10, False)
    b = dims.broadcast_to(fake(_host((3,), numpy.complex64)), (2, 3))
    d = _cai(b, monkeypatch)
    assert d["data"][1] is True and d["strides"] == (0, 8) and d["typestr"] == "<c8"


def test_cai_empty_has_null_pointer(monkeypatch):
    a = fake(_host((2, 3)))[:, 3:]
    assert _cai(a, monkeypatch)["data"] == (0, False)


def test_dlpack_rejects_stream_zero():
    with pytest.raises(ValueError):
        interop.to_dlpack(fake(_host((3,))), stream=0)


def test_dlpack_cpu_without_copy_is_buffer_error():
    with pytest.raises(BufferError):
        interop.to_dlpack(fake(_host((3,))), stream=-1, dl_device=(1, 0), copy=False)


def test_dlpack_other_device_is_buffer_error():
    with pytest.raises(BufferError):
        interop.to_dlpack(fake(_host((3,))), stream=-1, dl_device=(2, 7))


@pytest.mark.parametrize("copy", [None, False, True])
@pytest.mark.parametrize("dt", ["M8[ns]", "m8[s]"])
def test_from_dlpack_of_datetime_is_buffer_error_as_numpy(dt, copy):
    """NumPy's from_dlpack takes even its own arrays through __dlpack__, which has no DLPack code
    for datetime64/timedelta64; ours returned a cuarray array unchecked (the GPU test_interop)."""
    h = numpy.zeros(3, dt)
    with pytest.raises(BufferError) as theirs:
        numpy.from_dlpack(h, copy=copy)
    with pytest.raises(BufferError) as ours:
        interop.from_dlpack(fake(h), copy=copy)
    # NumPy 2.5 adds "(or dtypes registered by third-party packages)", which cuarray has none of
    assert str(theirs.value).startswith(str(ours.value).rstrip("."))


@pytest.mark.parametrize("versioned", [False, True])
def test_capsule_roundtrip_without_device(versioned):
    """Export a fake array, read the struct back as a consumer would, and check the deleter."""
    a = fake(_host((2, 3, 4), numpy.float32))[:, ::2, ::-1]
    cap = interop.to_dlpack(a, stream=-1, max_version=(1, 2) if versioned else None)
    name = interop._PyCapsule_GetName(cap)
    assert name == (b"dltensor_versioned" if versioned else b"dltensor")
    n_live = len(interop._live)
    addr = interop._PyCapsule_GetPointer(id(cap), ctypes.addressof(interop._NAME_V if versioned else interop._NAME))
    m = (interop.DLManagedTensorVersioned if versioned else interop.DLManagedTensor).from_address(addr)
    t = m.dl_tensor
    assert t.data == a.data.ptr and t.byte_offset == 0
    assert (t.device.device_type, t.device.device_id) == (2, 0)
    assert t.ndim == 3 and [t.shape[i] for i in range(3)] == [2, 2, 4]
    assert [t.strides[i] for i in range(3)] == [12, 8, -1]
    assert (t.dtype.code, t.dtype.bits, t.dtype.lanes) == (2, 32, 1)
    if versioned:
        assert (m.version.major, m.version.minor) == (1, 0) and m.flags == 0
    # Unconsumed capsule: its destructor releases the tensor.
    del t, m, cap
    assert len(interop._live) == n_live - 1


def test_capsule_read_only_flag():
    b = dims.broadcast_to(fake(_host((3,))), (2, 3))
    cap = interop.to_dlpack(b, stream=-1, max_version=(1, 0))
    addr = interop._PyCapsule_GetPointer(id(cap), ctypes.addressof(interop._NAME_V))
    m = interop.DLManagedTensorVersioned.from_address(addr)
    assert m.flags & interop.DLPACK_FLAG_BITMASK_READ_ONLY
    # Consumed: rename, then call the deleter as a consumer does.
    interop._PyCapsule_SetName(cap, ctypes.addressof(interop._USED_V))
    before = len(interop._live)
    interop._Deleter(ctypes.cast(m.deleter, ctypes.c_void_p).value)(addr)
    assert len(interop._live) == before - 1
    del cap
    assert len(interop._live) == before - 1


def test_get_array_module():
    import cuarray

    assert interop.get_array_module(numpy.ones(2), 1) is numpy
    assert interop.get_array_module(1, fake(_host((2,)))) is cuarray


# -- generated kernels compile for sm_90 --------------------------------------------------------
def _definitions():
    from cuarray._core import copying, dtypes
    from cuarray._creation import matrices

    out = []
    for dt in dtypes.SUPPORTED_DTYPES:
        out += [ranges._arange_def(dt), matrices._mask_def("eye", dt), matrices._mask_def("tri", dt)]
    for calc in "efdFD":
        for o in "edFl?":
            if o in "l?" and calc in "FD":
                continue
            for mode in ("step", "scaled", "nodiv"):
                out.append(ranges._linspace_def(numpy.dtype(calc), numpy.dtype(o), mode, o == "l", mode == "step"))
    out.append(ranges._pow_def(numpy.dtype("d"), numpy.dtype("f"), numpy.dtype("f"), True))
    out.append(copying._masked_entry(numpy.dtype("e"), numpy.dtype("e"), True)[0])
    out.append(copying._masked_entry(numpy.dtype("F"), numpy.dtype("D"), False)[0])
    return out


def _captured(monkeypatch, call):
    """Definitions that ``call(matrices)`` would launch, on a private copy of `matrices` whose
    outputs are fake (run is intercepted)."""
    from cuarray._core import elementwise
    from cuarray._creation import matrices
    from cuarray.testing.fake_device import host_module

    seen = []
    monkeypatch.setattr(elementwise.Definition, "run", lambda self, *a, **k: seen.append(self))
    call(host_module(matrices, {"_new_c": lambda shape, dt: fake(numpy.empty(shape, dt))}))
    return seen


@pytest.mark.nvrtc_fast
def test_generated_kernels_compile(monkeypatch):
    from cuarray.cuda import compiler

    defs = _definitions()
    for dt in ("?", "b", "e", "F", "D", "Q"):
        h = numpy.ones((3, 4), dt)
        defs += _captured(monkeypatch, lambda m: m.tril(fake(h), 1))
        defs += _captured(monkeypatch, lambda m: m.triu(fake(h), -1))
        defs += _captured(monkeypatch, lambda m: m.vander(fake(h[0]), 3))
    assert len(defs) > 100
    seen = set()
    for d in defs:
        for lay in ("flat", "vec", "nd"):
            if lay == "vec" and d._vec == 1:
                continue
            _, src = d.source(lay, 2, numpy.int32 if lay != "nd" else numpy.int64)
            if src not in seen:
                seen.add(src)
                compiler.compile_cubin(src, arch="sm_90", options=d.options)


# -- fast view paths and read-only propagation ---------------------------------------------------

@pytest.mark.parametrize("shape,order", [((6, 4), "C"), ((6, 4), "F"), ((1, 5, 1), "C"), ((3, 1, 4), "F"),
                                         ((0, 3), "C"), ((), "C"), ((7,), "C")])
def test_T_and_reshape_flags_match_numpy(shape, order):
    h = numpy.zeros(shape, numpy.float32, order=order)
    d = fake(h)
    cases = [(d.T, h.T), (d.T.T, h.T.T)]
    ro = "C" if h.flags.c_contiguous else "F"  # reshapes that stay views
    for new in ((-1,), (1, -1), (-1, 1)):
        cases.append((d.reshape(new, order=ro), h.reshape(new, order=ro)))
    for got, exp in cases:
        assert got.shape == exp.shape and got.strides == exp.strides
        assert (got.flags.c_contiguous, got.flags.f_contiguous) == (exp.flags.c_contiguous, exp.flags.f_contiguous)


def test_views_of_a_read_only_view_are_read_only():
    h = numpy.zeros((4, 6), numpy.float64)
    ro = fake(h)
    ro._writeable = False  # as broadcast_to and read-only imports make them
    views = {"reshape": ro.reshape(24), "T": ro.T, "transpose": ro.transpose(1, 0), "slice": ro[::2],
             "view": ro.view(), "expand_dims": dims.expand_dims(ro, 0), "squeeze": dims.squeeze(ro[:1]),
             "swapaxes": ro.swapaxes(0, 1)}
    for name, v in views.items():
        assert not v.flags.writeable, name
        assert v.base is ro.base, name  # the owner, as in NumPy 2
    w = fake(h)
    assert w.reshape(24).flags.writeable and w.T.flags.writeable


@pytest.mark.parametrize("stop", [complex(-1e30, float("-inf")), complex(1e-30, float("inf")),
                                  complex(float("inf"), 2.0), 5, 2.5])
def test_linspace_plan_last_sample_is_numpys_stop(stop):
    """The plan's stop is the last sample: NumPy's own stop, not `stop * 1.0` (a complex product
    with an infinite part gives a NaN real part; found by the GPU fuzzer)."""
    plan = ranges.linspace_plan(300, stop, 5)
    with numpy.errstate(all="ignore"):
        want = numpy.linspace(300, stop, 5)[-1]
    got = numpy.asarray(plan[5])
    assert got.dtype == want.dtype
    assert numpy.array_equal(got, want, equal_nan=True) and numpy.signbit(got.real) == numpy.signbit(want.real)
