"""distributed's serializers for cuarray arrays without a GPU (cuarray/distributed/serialization.py).

Host-backed arrays (cuarray.testing.fake_device: a cuarray array whose data pointer is host memory)
stand in for device arrays. The "cuda" family of a dense array copies nothing, so it runs for real
through distributed's `serialize`/`deserialize`: the frame must be the array's own memory and the
rebuilt array must view it. Packing a view that is not dense and the host copies of the "dask"
family run on a private copy of the module whose `copy`/`to_host`/`from_host` are NumPy stand-ins.
Every dtype cuarray holds, C and F order, 0-d, empty, and views that are neither C nor F."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import cuarray
from cuarray.distributed import serialization
from cuarray.testing.fake_device import from_np, host_module, to_np

protocol = pytest.importorskip("distributed.protocol")
serialization.register()  # (cuarray was imported first here: no worker-style registration)

STRUCT = np.dtype([("a", "<i4"), ("b", "<f8")], align=True)
DTYPES = ["bool", "int8", "uint16", "int32", "int64", "float16", "float32", "float64", "complex64",
          "complex128", "datetime64[ns]", "timedelta64[s]", STRUCT]
RNG = np.random.default_rng(17)


def _host(shape, dtype, order="C"):
    dt = np.dtype(dtype)
    n = int(np.prod(shape))
    if dt.names:
        h = np.zeros(n, dt)
        h["a"], h["b"] = RNG.integers(-9, 9, n), RNG.random(n)
    elif dt.kind in "Mm":
        h = RNG.integers(-(10**12), 10**12, n).astype(dt)
    elif dt.kind == "b":
        h = RNG.random(n) < 0.5
    elif dt.kind == "c":
        h = (RNG.random(n) + 1j * RNG.random(n)).astype(dt)
    else:
        h = (RNG.random(n) * 100 - 50).astype(dt)
    return np.asarray(h.reshape(shape), order=order)


def _same(got: cuarray.ndarray, want: np.ndarray, strides=None):
    assert isinstance(got, cuarray.ndarray), type(got)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype, got.shape, want.shape)
    if want.size:  # (an empty array's strides are arbitrary: NumPy's own copies give zeros)
        assert got.strides == (want.strides if strides is None else strides)
    np.testing.assert_array_equal(to_np(got), want)


# -- "cuda": device frames, no copy -------------------------------------------------------------------
LAYOUTS = [((5, 7), "C"), ((5, 7), "F"), ((), "C"), ((0, 3), "C"), ((2, 1, 3), "F")]
LAYOUT_IDS = ["C", "F", "0d", "empty", "3d-F"]


@pytest.mark.parametrize("shape,order", LAYOUTS, ids=LAYOUT_IDS)
def test_cuda_family_sends_the_array_memory_and_rebuilds_a_view(shape, order):
    for dtype in DTYPES:
        h = _host(shape, dtype, order)
        x = from_np(h)
        header, frames = protocol.serialize(x, serializers=("cuda",), on_error="raise")
        assert header["serializer"] == "cuda"
        sub = header["sub-header"]
        assert sub == {"shape": list(shape), "strides": list(h.strides), "device": 0,
                       "dtype": serialization.header_of((), (), h.dtype, 0)["dtype"]}, dtype
        (frame,) = frames
        assert isinstance(frame, cuarray.ndarray) and frame.dtype == np.uint8 and frame.shape == (h.nbytes,)
        assert frame.data.ptr == x.data.ptr, dtype  # the array's own memory, not a copy
        y = protocol.deserialize(header, frames)
        _same(y, h)
        assert y.data.ptr == x.data.ptr, dtype


def test_cuda_family_header_keeps_structured_fields():
    sub = serialization.header_of((2,), (16,), STRUCT, 1)
    assert isinstance(sub["dtype"], bytes) and sub["device"] == 1
    assert serialization._dtype_from_header(sub["dtype"]) == STRUCT
    assert serialization.header_of((2,), (8,), "<M8[us]", 0)["dtype"] == "<M8[us]"


def test_cuda_family_refuses_a_frame_too_small_for_its_header():
    x = from_np(_host((4, 4), "float64"))
    header, frames = serialization.cuda_serialize(x)
    header["shape"] = [5, 4]
    with pytest.raises(ValueError, match="need 160 bytes; the frame has 128"):
        serialization.cuda_deserialize(header, frames)


# -- packing and host copies: the module over NumPy stand-ins -----------------------------------------
@pytest.fixture(scope="module")
def host():
    return host_module(serialization, {
        "copy": lambda a, order="C": from_np(np.array(to_np(a), order=order)),
        # (the engine's to_host: C order unless the array is F-contiguous only)
        "to_host": lambda a: np.array(to_np(a), order="F" if a.flags.f_contiguous and not a.flags.c_contiguous else "C"),
        "from_host": lambda h: from_np(h),
    })


def _views(h):
    x = from_np(h)
    return [(x[:, ::2], h[:, ::2]), (x.T[::-1], h.T[::-1]), (x[1:, 2:5], h[1:, 2:5]), (x[::3, 1], h[::3, 1])]


def test_views_neither_c_nor_f_are_packed_in_c_order(host):
    for x, want in (v for dtype in DTYPES for v in _views(_host((6, 8), dtype))):
        assert not (x.flags.c_contiguous or x.flags.f_contiguous)
        for dumps, loads in ((host.cuda_serialize, host.cuda_deserialize),
                             (host.dask_serialize, host.dask_deserialize)):
            header, frames = dumps(x)
            c_strides = np.ascontiguousarray(want).strides
            assert header["strides"] == list(c_strides) and header["shape"] == list(want.shape)
            _same(loads(header, frames), want, c_strides)


@pytest.mark.parametrize("shape,order", LAYOUTS, ids=LAYOUT_IDS)
def test_dask_family_sends_one_host_frame_in_the_arrays_order(host, shape, order):
    for dtype in DTYPES:
        h = _host(shape, dtype, order)
        header, frames = host.dask_serialize(from_np(h))
        (frame,) = frames
        assert isinstance(frame, memoryview) and frame.nbytes == h.nbytes and frame.format == "B", dtype
        assert header["shape"] == list(shape) and header["device"] == 0, dtype
        assert header["strides"] == list(h.strides) or not h.size, dtype
        _same(host.dask_deserialize(header, frames), h)
        if h.nbytes > 1:  # a transport may hand the frame back in pieces
            cut = h.nbytes // 2
            _same(host.dask_deserialize(header, [bytes(frame[:cut]), bytes(frame[cut:])]), h)


def test_host_frame_of_the_cuda_family_is_uploaded(host):
    h = _host((3, 4), "complex64", "F")
    header, _ = host.cuda_serialize(from_np(h))
    _same(host.cuda_deserialize(header, [memoryview(np.ravel(h, order="K").view(np.uint8))]), h)


# -- registration -------------------------------------------------------------------------------------
def test_register_points_both_families_and_sizeof_at_this_module():
    from dask.sizeof import sizeof

    serialization.register()
    serialization.register()  # idempotent
    assert protocol.cuda_serialize.dispatch(cuarray.ndarray) is serialization.cuda_serialize
    assert protocol.cuda_deserialize.dispatch(cuarray.ndarray) is serialization.cuda_deserialize
    assert protocol.dask_serialize.dispatch(cuarray.ndarray) is serialization.dask_serialize
    assert protocol.dask_deserialize.dispatch(cuarray.ndarray) is serialization.dask_deserialize
    assert sizeof(from_np(np.zeros((4, 5)))) == 160 and sizeof(cuarray.empty((0, 3))) == 0


def test_a_worker_importing_cuarray_after_distributed_registers_by_itself():
    # A Dask worker imports distributed first and meets cuarray in its first task: nothing else
    # runs register_dask() there. The registration must not load dask.array (a worker of plain
    # tasks never needs it).
    code = ("import sys, distributed, cuarray\n"
            "from distributed.protocol import cuda_serialize, dask_serialize\n"
            "from dask.sizeof import sizeof\n"
            "print(cuda_serialize.dispatch(cuarray.ndarray).__module__, dask_serialize.dispatch(cuarray.ndarray).__module__,"
            " sizeof(cuarray.empty((0, 2))), 'dask.array' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["cuarray.distributed.serialization"] * 2 + ["0", "False"]
