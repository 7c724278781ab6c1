"""distributed's serializers for cuarray arrays on a GPU: the "cuda", "dask" and "pickle" families
round trip every dtype cuarray holds in C and F order, 0-d, empty and views that are neither,
against the NumPy copy; an array of device 1 (two GPUs); and arrays moving between two worker
processes of one GPU (distributed.LocalCluster), where each worker registered the serializers by
itself when it imported cuarray."""

from __future__ import annotations

import numpy as np
import pytest

import cuarray

pytestmark = pytest.mark.gpu

protocol = pytest.importorskip("distributed.protocol")

from cuarray.distributed import serialization  # noqa: E402

serialization.register()

STRUCT = np.dtype([("a", "<i4"), ("b", "<f8")], align=True)
DTYPES = ["bool", "int8", "uint16", "int32", "int64", "float16", "float32", "float64", "complex64",
          "complex128", "datetime64[ns]", "timedelta64[s]", STRUCT]


def _host(shape, dtype, order="C", seed=0):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    n = int(np.prod(shape))
    if dt.names:
        h = np.zeros(n, dt)
        h["a"], h["b"] = rng.integers(-9, 9, n), rng.random(n)
    elif dt.kind in "Mm":
        h = rng.integers(-(10**12), 10**12, n).astype(dt)
    elif dt.kind == "b":
        h = rng.random(n) < 0.5
    elif dt.kind == "c":
        h = (rng.random(n) + 1j * rng.random(n)).astype(dt)
    else:
        h = (rng.random(n) * 100 - 50).astype(dt)
    return np.asarray(h.reshape(shape), order=order)


def _cases(dtype):
    """(device array, its NumPy copy): C, F, 0-d, empty, and three views neither C nor F."""
    out = []
    for shape, order in (((5, 7), "C"), ((5, 7), "F"), ((), "C"), ((0, 3), "C")):
        h = _host(shape, dtype, order)
        out.append((cuarray.asarray(h), h))
    h = _host((6, 8), dtype)
    x = cuarray.asarray(h)
    out += [(x[:, ::2], h[:, ::2]), (x.T[::-1], h.T[::-1]), (x[1:, 2:5], h[1:, 2:5])]
    return out


def _check(y, want, dtype, family, layout_kept):
    assert isinstance(y, cuarray.ndarray), (dtype, family, type(y))
    assert y.dtype == want.dtype and y.shape == want.shape, (dtype, family, y.dtype, y.shape)
    if layout_kept and want.size:
        assert y.strides == want.strides, (dtype, family, y.strides, want.strides)
    assert np.array_equal(y.get(), want), (dtype, family)


@pytest.mark.parametrize("family", ["cuda", "dask", "pickle"])
def test_round_trip_every_dtype_and_layout(family):
    for dtype in DTYPES:
        for x, want in _cases(dtype):
            header, frames = protocol.serialize(x, serializers=(family,), on_error="raise")
            assert header["serializer"] == family
            if family == "cuda":
                assert all(isinstance(f, cuarray.ndarray) for f in frames)  # stays on the device
            y = protocol.deserialize(header, frames)
            dense = want.flags.c_contiguous or want.flags.f_contiguous
            _check(y, want, dtype, family, layout_kept=dense)


def test_cuda_frame_is_the_array_memory():
    x = cuarray.asarray(_host((64, 33), "float32", "F"))
    header, (frame,) = serialization.cuda_serialize(x)
    assert frame.data.ptr == x.data.ptr and frame.nbytes == x.nbytes
    y = serialization.cuda_deserialize(header, [frame])
    assert y.data.ptr == x.data.ptr and y.flags.f_contiguous


def test_an_array_of_device_1_round_trips_from_device_0():
    if cuarray.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("needs two GPUs")
    h = _host((40, 30), "complex128", "F")
    with cuarray.cuda.Device(1):
        x = cuarray.asarray(h)
        view = x[::2, 1:]
    for family in ("cuda", "dask", "pickle"):
        for a, want in ((x, h), (view, h[::2, 1:])):
            header, frames = protocol.serialize(a, serializers=(family,), on_error="raise")
            if family != "pickle":
                assert header["sub-header"]["device"] == 1
            y = protocol.deserialize(header, frames)
            assert np.array_equal(y.get(), want), family
            # the device frames stay on device 1; a host copy is uploaded to the current device
            assert y.data.device_id == (1 if family == "cuda" else 0), family


@pytest.fixture(scope="module")
def two_workers():
    distributed = pytest.importorskip("distributed")
    import sys

    import cloudpickle

    # The tasks below are this module's functions: sent by value (the workers cannot import tests/).
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                       memory_limit=0)
    client = distributed.Client(cluster)
    client.wait_for_workers(2)
    yield client
    client.close()
    cluster.close()
    cloudpickle.unregister_pickle_by_value(sys.modules[__name__])


def _make(dtype, shape, order, seed):
    import cuarray as cp  # on the worker

    return cp.asarray(_host(shape, dtype, order, seed))


def _twice(x):
    return x if x.dtype.names or x.dtype.kind in "Mmb" else x * 2  # (an array that crossed, returned as it came)


def test_arrays_move_between_two_worker_processes(two_workers):
    client = two_workers
    a, b = sorted(client.scheduler_info()["workers"])
    for i, (dtype, shape, order) in enumerate([("float32", (300, 200), "F"), ("complex64", (7, 5), "C"),
                                               ("bool", (33,), "C"), ("datetime64[ns]", (4, 6), "F"),
                                               (STRUCT, (9,), "C"), ("float64", (), "C"), ("int16", (0, 4), "C")]):
        made = client.submit(_make, dtype, shape, order, i, workers=[a], pure=False)
        moved = client.submit(_twice, made, workers=[b], pure=False)  # made's array crosses to b
        got = moved.result()  # and b's result crosses to this process
        want = _host(shape, dtype, order, i)
        want = want if want.dtype.names or want.dtype.kind in "Mmb" else want * 2
        assert isinstance(got, cuarray.ndarray) and got.dtype == want.dtype and got.shape == want.shape, dtype
        assert np.array_equal(got.get(), want), dtype
        if want.size and want.flags.f_contiguous and not want.flags.c_contiguous:
            assert got.flags.f_contiguous, dtype  # the layout crossed too
    view = client.submit(lambda x: x[:, ::3], client.submit(_make, "float64", (20, 30), "C", 9, workers=[a]),
                         workers=[a])
    got = client.submit(lambda v: v + 0, view, workers=[b]).result()
    assert np.array_equal(got.get(), _host((20, 30), "float64", "C", 9)[:, ::3])


def test_workers_registered_the_serializers_themselves(two_workers):
    # Nothing ran register_dask() on these workers: cuarray's import did it (distributed was loaded).
    def families():
        import sys

        import cuarray as cp
        from distributed.protocol import cuda_serialize, dask_serialize

        return (cuda_serialize.dispatch(cp.ndarray).__module__, dask_serialize.dispatch(cp.ndarray).__module__,
                "dask.array" in sys.modules)

    client = two_workers
    client.submit(_make, "float32", (3,), "C", 0).result()  # cuarray imported there
    for mods in client.run(families).values():
        assert mods[:2] == ("cuarray.distributed.serialization",) * 2
