"""CPU tests of the Dask registration: graphs over cuarray meta build with no GPU (zero-size
arrays and their views touch no device), the backend makes cuarray chunks, dispatch tables point
at cuarray's functions, sizeof and tokens copy nothing to the host."""

from __future__ import annotations

import numpy as np
import pytest

import cuarray

da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")

import cuarray.distributed  # noqa: E402

cuarray.distributed.register_dask()


def _cuarray_meta(x):
    return isinstance(x._meta, cuarray.ndarray)


def test_backend_creation_has_cuarray_meta():
    with dask.config.set({"array.backend": "cuarray"}):
        for x in (da.ones((100, 100), chunks=50, dtype="float32"), da.zeros((7,), chunks=3),
                  da.empty((4, 4), chunks=2), da.full((4, 4), 2.0, chunks=2), da.arange(10, chunks=5),
                  da.random.default_rng(0).random((10, 10), chunks=5)):
            assert _cuarray_meta(x), type(x._meta)


def test_graphs_over_cuarray_meta():
    with dask.config.set({"array.backend": "cuarray"}):
        y = da.ones((100, 60), chunks=(50, 30), dtype="float32")
    for expr, shape, dtype in [
        (lambda: np.exp(y) * 2 + 1, (100, 60), "float32"),
        (lambda: (y * 2).sum(axis=0), (60,), "float32"),
        (lambda: y.mean(axis=1), (100,), "float32"),
        (lambda: y @ y.T, (100, 100), "float32"),
        (lambda: da.concatenate([y, y], axis=1), (100, 120), "float32"),
        (lambda: y[[1, 5, 70]], (3, 60), "float32"),
        (lambda: y.T[::2], (30, 100), "float32"),
        (lambda: y.astype("float64") - 1, (100, 60), "float64"),
    ]:
        z = expr()
        assert _cuarray_meta(z), type(z._meta)
        assert z.shape == shape and z.dtype == np.dtype(dtype)


def test_to_backend_converts_numpy_collections():
    x = da.from_array(np.ones((4, 4)), chunks=2)
    y = x.to_backend("cuarray")
    assert _cuarray_meta(y) and y.dtype == x.dtype and y.chunks == x.chunks
    assert y.to_backend("cuarray") is y


def test_dispatch_tables_point_at_cuarray():
    from dask.array import dispatch

    from cuarray.linalg import tensordot

    assert dispatch.concatenate_lookup.dispatch(cuarray.ndarray) is cuarray.concatenate
    assert dispatch.take_lookup.dispatch(cuarray.ndarray) is cuarray.take
    assert dispatch.tensordot_lookup.dispatch(cuarray.ndarray) is tensordot
    assert dispatch.empty_lookup.dispatch(cuarray.ndarray) is cuarray.empty


def test_sizeof_and_token_copy_nothing():
    from dask.base import tokenize
    from dask.sizeof import sizeof

    meta = cuarray.empty((0, 3), dtype="float32")
    assert sizeof(meta) == 0
    assert tokenize(meta) != tokenize(meta)  # fresh per call: never stale after an in-place write


def test_registration_is_idempotent():
    cuarray.distributed.register_dask()
    cuarray.distributed.register_dask()
    from dask.array.backends import array_creation_dispatch

    assert "cuarray" in array_creation_dispatch._lookup
