"""Dask over two GPUs, one worker process per GPU: dask-cuda's LocalCUDACluster (when it
imports: its pins of Dask's version are bypassed by installing it without dependencies) and
distributed's own SpecCluster of one Nanny per GPU (`cuarray.bench.cases.dask_gpus.gpu_cluster`,
what the bench uses). Chunks of cuarray arrays are placed half on each GPU; reductions, an
elementwise chain, a matrix product and `da.linalg.tsqr` are compared with NumPy on the same
data. Skips with fewer than two GPUs."""

from __future__ import annotations

import numpy as np
import pytest

import cuarray
from cuarray.testing import shaped_random

pytestmark = pytest.mark.gpu


@pytest.fixture(scope="module", params=["dask-cuda", "nanny-per-gpu"])
def client(request):
    if cuarray.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("needs two GPUs")
    distributed = pytest.importorskip("distributed")
    pytest.importorskip("dask.array")
    from cuarray.distributed import register_dask

    register_dask()
    if request.param == "dask-cuda":
        dask_cuda = pytest.importorskip("dask_cuda")
        cluster = dask_cuda.LocalCUDACluster(CUDA_VISIBLE_DEVICES="0,1", threads_per_worker=1,
                                             dashboard_address=None)
        c = distributed.Client(cluster)
        c.wait_for_workers(2)
    else:
        from cuarray.bench.cases.dask_gpus import gpu_cluster

        cluster, c = gpu_cluster(2)
    c.run(register_dask)
    yield c
    c.close()
    cluster.close()


def _two_gpu_array(client, host, chunks):
    """`host` as a Dask array of cuarray chunks, the first half of its rows on one GPU's worker and
    the second half on the other's."""
    import dask.array as da

    info = client.scheduler_info()["workers"]
    a, b = [w for w, _ in sorted(info.items(), key=lambda kv: str(kv[1]["name"]))]
    half = host.shape[0] // 2
    top = client.persist(da.from_array(host[:half], chunks=chunks).to_backend("cuarray"), workers=[a])
    bottom = client.persist(da.from_array(host[half:], chunks=chunks).to_backend("cuarray"), workers=[b])
    x = da.concatenate([top, bottom])
    from distributed import wait

    wait(x)  # who_has lists only chunks already in memory
    assert {w for ws in client.who_has(x).values() for w in ws} == {a, b}
    # Each worker's device 0 is its own GPU (dask-cuda lists the others after it; ours hides them).
    buses = client.run(lambda: cuarray.cuda.Device(0).pci_bus_id)
    assert len(set(buses.values())) == 2
    return x


def test_reductions_chain_and_matmul_match_numpy(client):
    host = shaped_random((8000, 96), np, "float64", seed=11)
    x = _two_gpu_array(client, host, (1000, 96))
    for f in (lambda v: v.sum(axis=0), lambda v: v.std(), lambda v: v.max(axis=1),
              lambda v: (np.exp(v / 10) * 2 - v ** 2 + 1).mean(axis=0), lambda v: v.T @ v,
              lambda v: (v[::3] * 2)[:, 5:40]):
        got = client.compute(f(x)).result()
        assert isinstance(got, cuarray.ndarray)
        np.testing.assert_allclose(got.get(), f(host), rtol=1e-10, atol=1e-10)


def test_an_array_larger_than_one_gpu_lives_on_both_and_reduces_like_numpy(client):
    # 1.2x one GPU's memory, persisted as float32 chunks: half on each GPU's worker (neither
    # could hold it alone), then reductions and an elementwise chain over all of it. The values
    # (3 everywhere but one row per chunk) make the exact answers known; NumPy checks the same
    # expressions on a one-chunk copy.
    import dask
    import dask.array as da

    total = cuarray.cuda.Device(0).mem_info[1]
    cols = 4096
    rows_per_chunk = (2 << 30) // (4 * cols)  # 2 GiB chunks
    half_chunks = -(-int(0.6 * total) // (rows_per_chunk * cols * 4))
    info = client.scheduler_info()["workers"]
    a, b = [w for w, _ in sorted(info.items(), key=lambda kv: str(kv[1]["name"]))]

    def part():
        with dask.config.set({"array.backend": "cuarray"}):
            ones = da.ones((half_chunks * rows_per_chunk, cols), dtype="float32", chunks=(rows_per_chunk, cols))
        r = da.arange(ones.shape[0], chunks=rows_per_chunk).to_backend("cuarray")
        return da.where((r % rows_per_chunk == 0)[:, None], -1.0, ones * 3).astype("float32")

    from distributed import wait

    x = da.concatenate([client.persist(part(), workers=[a]), client.persist(part(), workers=[b])])
    wait(x)
    assert x.nbytes > total and {w for ws in client.who_has(x).values() for w in ws} == {a, b}
    n_rows, n_odd = x.shape[0], 2 * half_chunks
    got = client.compute([x.sum(dtype="float64"), (x * 2 - 1).max(), x.min(axis=0), (x == 3).sum()], sync=True)
    assert float(got[0].get()) == 3.0 * (n_rows - n_odd) * cols - n_odd * cols
    assert float(got[1].get()) == 5.0
    np.testing.assert_array_equal(got[2].get(), np.full(cols, -1.0, "float32"))
    assert int(got[3].get()) == (n_rows - n_odd) * cols
    host = np.where((np.arange(rows_per_chunk) % rows_per_chunk == 0)[:, None], -1.0,
                    np.ones((rows_per_chunk, cols), "float32") * 3).astype("float32")
    one = client.compute(x[:rows_per_chunk], sync=True).get()
    np.testing.assert_array_equal(one, host)


def test_tsqr_matches_numpy(client):
    import dask.array as da

    host = shaped_random((6000, 40), np, "float64", seed=12)
    x = _two_gpu_array(client, host, (1000, 40))
    q, r = da.linalg.tsqr(x)
    q, r = (v.get() for v in client.compute([q, r], sync=True))
    np.testing.assert_allclose(q @ r, host, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(q.T @ q, np.eye(40), atol=1e-10)
    np.testing.assert_allclose(np.abs(r), np.abs(np.linalg.qr(host)[1]), rtol=1e-8, atol=1e-10)


def test_synchronize_from_another_thread_waits_for_this_threads_work():
    # A Dask worker runs tasks in a pool thread and `client.run` on its event-loop thread: the
    # bench's device sync there must cover the kernels the task thread queued.
    import threading

    x = cuarray.arange(1 << 26, dtype="float32")
    for _ in range(40):
        x = x * 1.0000001 + 1
    ev = cuarray.cuda.Event()
    ev.record()
    t = threading.Thread(target=lambda: cuarray.cuda.Device().synchronize())
    t.start()
    t.join()
    assert ev.done
