"""`DeviceScheduler` on two GPUs of one process, against NumPy: chunks made on both devices stay
there through an elementwise chain, reductions along both axes, a matrix product and tsqr mix them
(peer copies) and match NumPy; `da.from_array` chunks of an array of device 1. Skips with one GPU."""

from __future__ import annotations

import numpy as np
import pytest

import cuarray

pytestmark = pytest.mark.gpu

da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")

import cuarray.distributed  # noqa: E402
from cuarray.distributed import DeviceScheduler  # noqa: E402

cuarray.distributed.register_dask()


@pytest.fixture(scope="module")
def sched():
    if cuarray.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("needs two GPUs")
    with DeviceScheduler([0, 1]) as s:
        yield s


def _on_both(host, rows):
    """`host` as a Dask array of row blocks of `rows`: the first half made on device 0, the second
    on device 1 (`from_array` copies its array on the current device)."""
    half = host.shape[0] // 2
    parts = []
    for dev, part in ((0, host[:half]), (1, host[half:])):
        with cuarray.cuda.Device(dev):
            parts.append(da.from_array(cuarray.asarray(part), chunks=(rows, host.shape[1]), asarray=False))
    return da.concatenate(parts)


def test_chain_stays_on_its_devices_and_reductions_match_numpy(sched):
    host = np.random.default_rng(3).random((4000, 96))
    x = _on_both(host, 500)
    y = (np.sin(x) * 2 + x * x - 1) / 3
    blocks = dask.compute(*y.to_delayed().ravel(), scheduler=sched)
    assert [b.data.device_id for b in blocks] == [0] * 4 + [1] * 4
    want = (np.sin(host) * 2 + host * host - 1) / 3
    # The chain's error is relative to its terms, not to its result, which cancels near
    # x * x + 2 sin(x) = 1: a few ulp of the terms (the device's sin and NumPy's differ by one).
    bound = 8 * np.finfo(np.float64).eps * (2 * np.abs(np.sin(host)) + host * host + 1) / 3
    for b, w, e in zip(blocks, np.split(want, 8), np.split(bound, 8)):
        with cuarray.cuda.Device(b.data.device_id):
            err = np.abs(b.get() - w)
        assert (err <= e).all(), "chain differs from NumPy's by {:.3g} where its terms allow {:.3g}".format(
            err.max(), e[err.argmax() // e.shape[1], err.argmax() % e.shape[1]])
    for f in (lambda v: v.sum(axis=0), lambda v: v.mean(axis=1), lambda v: v.std(), lambda v: v.max(),
              lambda v: v.T @ v):
        (got,) = dask.compute(f(y), scheduler=sched)
        with cuarray.cuda.Device(got.data.device_id):
            np.testing.assert_allclose(got.get(), f(want), rtol=1e-10, atol=1e-10)


def test_tsqr_over_two_devices_matches_numpy(sched):
    host = np.random.default_rng(4).random((6000, 24))
    q, r = dask.compute(*da.linalg.tsqr(_on_both(host, 1000)), scheduler=sched)
    q = cuarray.asnumpy(q)
    r = cuarray.asnumpy(r)
    np.testing.assert_allclose(q @ r, host, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(np.abs(r), np.abs(np.linalg.qr(host)[1]), rtol=1e-8, atol=1e-10)


def test_chunks_of_an_array_on_device_1(sched):
    host = np.arange(60.0).reshape(12, 5)
    with cuarray.cuda.Device(1):
        x = da.from_array(cuarray.asarray(host), chunks=(3, 5), asarray=False)
    (got,) = dask.compute((x * 2).sum(axis=0), scheduler=sched)
    assert got.data.device_id == 1
    with cuarray.cuda.Device(1):
        np.testing.assert_array_equal(got.get(), (host * 2).sum(axis=0))
