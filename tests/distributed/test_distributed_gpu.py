"""GPU tests of cuarray.distributed: NCCL collectives on one rank per device (one process driving
its devices; several processes when the machine has two GPUs), against host computations; Dask
graphs over cuarray chunks computed and compared with NumPy; distributed's serialization."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import cuarray
from cuarray.testing import shaped_random

pytestmark = pytest.mark.gpu


def _comms():
    pytest.importorskip("nccl.bindings.nccl")
    from cuarray.distributed import Communicator

    return Communicator.init_all([0])


@pytest.mark.parametrize("dtype,op", [("float32", "sum"), ("float64", "max"), ("int32", "min"),
                                      ("complex64", "sum"), ("complex128", "avg"), ("bool", "max"),
                                      ("uint8", "prod"), ("float16", "sum")])
def test_single_rank_collectives(dtype, op):
    (comm,) = _comms()
    with comm:
        x = shaped_random((5, 6), cuarray, dtype, seed=3)
        host = x.get()
        assert np.array_equal(comm.allreduce(x, op=op).get(), host)
        out = cuarray.empty_like(x)
        assert comm.reduce(x, out, op=op, root=0) is out and np.array_equal(out.get(), host)
        g = comm.allgather(x)
        assert g.shape == (1, 5, 6) and np.array_equal(g.get()[0], host)
        assert np.array_equal(comm.broadcast(x, root=0).get(), host)
        y = x.reshape(1, 30)
        assert np.array_equal(comm.reduce_scatter(y, op=op).get(), host.reshape(30))
        assert np.array_equal(comm.alltoall(y).get(), host.reshape(1, 30))
        cuarray.cuda.Device().synchronize()


def test_send_recv_to_self_in_a_group():
    from cuarray.distributed import group

    (comm,) = _comms()
    with comm:
        x = shaped_random((1000,), cuarray, "int16", seed=4)  # int16: sent as bytes
        out = cuarray.zeros_like(x)
        with group():
            comm.send(x, 0)
            comm.recv(out, 0)
        assert np.array_equal(out.get(), x.get())


def test_bad_input_leaves_the_communicator_usable():
    (comm,) = _comms()
    with comm:
        x = shaped_random((4, 4), cuarray, "float32", seed=5)
        with pytest.raises(ValueError, match="C-contiguous"):
            comm.allreduce(x.T[::2])
        with pytest.raises(TypeError, match="complex"):
            comm.allreduce(x.astype("complex64"), op="max")
        with pytest.raises(TypeError, match="cuarray.ndarray"):
            comm.allreduce(x.get())
        with pytest.raises(ValueError, match="shape"):
            comm.allreduce(x, out=cuarray.empty((4, 5), "float32"))
        assert np.array_equal(comm.allreduce(x).get(), x.get())
    with pytest.raises(RuntimeError, match="destroyed"):
        comm.allreduce(x)


_RANK_SCRIPT = textwrap.dedent("""
    import sys, numpy as np, cuarray
    from cuarray.distributed import Communicator
    rank, uid = int(sys.argv[1]), bytes.fromhex(sys.argv[2])
    with cuarray.cuda.Device(rank):
        with Communicator(2, rank, uid) as comm:
            x = cuarray.asarray(np.arange(1 << 20, dtype=np.float32) * (rank + 1))
            s = comm.allreduce(x).get()
            assert np.array_equal(s, np.arange(1 << 20, dtype=np.float32) * 3), "allreduce"
            g = comm.allgather(cuarray.asarray(np.full(3, rank, np.int64))).get()
            assert np.array_equal(g, [[0, 0, 0], [1, 1, 1]]), "allgather"
            cuarray.cuda.Device().synchronize()
    print("rank", rank, "ok")
""")


def test_two_processes_two_gpus():
    if cuarray.cuda.get_device_count() < 2:
        pytest.skip("needs two GPUs")
    pytest.importorskip("nccl.bindings.nccl")
    from cuarray.distributed import get_unique_id

    uid = get_unique_id().hex()
    env = dict(os.environ, NCCL_NVLS_ENABLE="0")
    procs = [subprocess.Popen([sys.executable, "-c", _RANK_SCRIPT, str(r), uid], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) for r in (0, 1)]
    outs = [p.communicate(timeout=120)[0] for p in procs]
    assert all(p.returncode == 0 for p in procs), outs


def test_one_process_all_gpus():
    if cuarray.cuda.get_device_count() < 2:
        pytest.skip("needs two GPUs")
    pytest.importorskip("nccl.bindings.nccl")
    from cuarray.distributed import Communicator, group

    comms = Communicator.init_all()
    xs, outs = [], []
    for c in comms:
        with cuarray.cuda.Device(c.device.id):
            xs.append(cuarray.asarray(np.full(1000, c.rank + 1.0)))
    with group():
        for c, x in zip(comms, xs):
            outs.append(c.allreduce(x))
    total = sum(range(1, len(comms) + 1))
    for c, o in zip(comms, outs):
        with cuarray.cuda.Device(c.device.id):
            assert np.array_equal(o.get(), np.full(1000, float(total)))
        c.destroy()


# -- Dask --------------------------------------------------------------------------------------
def test_dask_graphs_compute_on_cuarray_chunks():
    da = pytest.importorskip("dask.array")
    dask = pytest.importorskip("dask")
    import cuarray.distributed

    cuarray.distributed.register_dask()
    host = shaped_random((400, 300), np, "float64", seed=6)
    x = da.from_array(host, chunks=(100, 150)).to_backend("cuarray")
    with dask.config.set(scheduler="threads"):
        for f in (lambda a: (np.exp(a / 10) * 2 - 1).sum(axis=0), lambda a: a.mean(), lambda a: a @ a.T,
                  lambda a: np.concatenate([a, a], axis=1)[::3], lambda a: a.max(axis=1),
                  lambda a: da.percentile(a.ravel(), [10, 50, 90]), lambda a: a[[3, 1, 250]]):
            got = f(x).compute()
            assert isinstance(got, cuarray.ndarray)
            want = f(da.from_array(host, chunks=(100, 150))).compute()
            np.testing.assert_allclose(got.get(), want, rtol=1e-10)
    with dask.config.set({"array.backend": "cuarray"}):
        r = da.random.default_rng(1).random((1000,), chunks=250)
        v = r.compute()
    assert isinstance(v, cuarray.ndarray) and v.shape == (1000,) and 0 <= float(v.min()) and float(v.max()) < 1


def test_dask_distributed_serialization_round_trip():
    pytest.importorskip("distributed")
    import cuarray.distributed
    from distributed.protocol import deserialize, serialize

    cuarray.distributed.register_dask()
    x = shaped_random((7, 5), cuarray, "complex64", seed=7)[:, 1:4]
    header, frames = serialize(x, serializers=("dask",))
    y = deserialize(header, frames)
    assert isinstance(y, cuarray.ndarray) and y.dtype == x.dtype and np.array_equal(y.get(), x.get())


def test_dask_local_cluster_workers():
    distributed = pytest.importorskip("distributed")
    da = pytest.importorskip("dask.array")
    import cuarray.distributed

    cuarray.distributed.register_dask()
    host = shaped_random((1000, 100), np, "float32", seed=8)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster):
        x = da.from_array(host, chunks=(250, 100)).to_backend("cuarray")
        got = (x * 2 + 1).sum(axis=0).compute()
    np.testing.assert_allclose(got.get(), (host * 2 + 1).sum(axis=0, dtype=np.float32), rtol=1e-5)
