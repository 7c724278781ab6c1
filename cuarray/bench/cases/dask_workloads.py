"""`dask-cuda`: the workloads a dask-cuda user runs, on dask-cuda's `LocalCUDACluster` (one worker
process a GPU, one thread each), cuarray chunks against CuPy chunks in the same run, on one GPU and
on two (docs/bench-targets.md: >= 1.8 x from the second GPU; docs/distributed.md says how to run it):

- `chain-reduce`: ``da.random`` float32 (4M x 1024, 16 GiB, row chunks of 2 GiB), an elementwise
  chain ``(sin(x) * 2 + x * x - 1) / 3``, then reductions along both axes (``sum(axis=0)``,
  ``mean(axis=1)``);
- `tsqr`: ``da.linalg.tsqr`` of a tall-skinny float64 matrix (8M x 64, 4 GiB, row chunks of 1M);
- `svd`: ``da.linalg.svd`` of the same matrix;
- `map-overlap`: ``map_overlap`` of the library's ``scipy.ndimage.gaussian_filter`` (sigma 2,
  radius 8 = the depth, boundary 'reflect') over a 32768^2 float32 image in row blocks of 8192.

Each row starts its own cluster. Before timing, the workload runs on a small copy of the data
(from NumPy, chunked the same way) and its results are checked against NumPy and SciPy on the host.
The data are made on the workers from one random graph: for the one-GPU time all of it on the first
GPU's worker, for the two-GPU time half of the row blocks on each (persisted again after the
halves are concatenated, so no task of the placement is timed). A timed call builds the workload's
graph with fresh keys, persists its results on the workers (the one-GPU run restricted to the first
worker), waits for them and synchronises the devices. The cell is the two-GPU time; the one-GPU time
and the speed-up are extras, shown in the note, with `dask_gpus.task_profile`'s (tasks, the
workers' seconds in them and moving their inputs) from one more untimed run of each placement. Needs two GPUs and dask-cuda (``pip install --no-deps
dask-cuda nvidia-ml-py``: its pins of Dask's version are bypassed); the cell says which is missing.
"""

from __future__ import annotations

import logging
import statistics
import time

import numpy

from . import NotAvailable, register, scipy_module
from .dask_gpus import IDLE_S, REPEATS, WARMUP, _register, _speedup_note, _sync, task_profile, worker_addresses

# name -> (shape, chunks, dtype) of the timed data, and of the small copy checked against NumPy
WORKLOADS = {
    "chain-reduce": ((2**22, 2**10), (2**19, 2**10), "float32"),
    "tsqr": ((2**23, 64), (2**20, 64), "float64"),
    "svd": ((2**23, 64), (2**20, 64), "float64"),
    "map-overlap": ((2**15, 2**15), (2**13, 2**15), "float32"),
}
SMALL = {
    "chain-reduce": ((4096, 48), (512, 48), "float32"),
    "tsqr": ((4096, 12), (512, 12), "float64"),
    "svd": ((4096, 12), (512, 12), "float64"),
    "map-overlap": ((256, 96), (64, 96), "float32"),
}
SIGMA, DEPTH = 2.0, 8  # gaussian_filter's radius: int(truncate 4.0 * sigma + 0.5)

dask_cuda_case = register(
    "dask-cuda", group="multi-gpu",
    description="dask-cuda LocalCUDACluster workloads, 2 GPUs vs 1: random -> chain -> reductions; tsqr; svd; "
                "map_overlap(gaussian_filter)",
    size=1, quick=1, params=tuple(WORKLOADS), timing="process",
    nbytes=lambda runs, w: _nbytes(w),
    size_label=lambda runs: "chain 16 GiB f32, tsqr/svd 4 GiB f64, image 4 GiB f32",
    note=lambda row: _speedup_note(row),
)


def _nbytes(workload: str) -> float:
    shape, _, dtype = WORKLOADS[workload]
    return float(numpy.prod(shape)) * numpy.dtype(dtype).itemsize  # the least traffic: one read of the data


def results(workload: str, x, ndimage, name=None):
    """The workload's result arrays (Dask arrays) over the Dask array `x`; `ndimage` is the
    library's scipy.ndimage; `name` names map_overlap's result (see `timed`)."""
    import dask.array as da

    if workload == "chain-reduce":
        y = (da.sin(x) * 2 + x * x - 1) / 3
        return [y.sum(axis=0), y.mean(axis=1)]
    if workload == "tsqr":
        return list(da.linalg.tsqr(x))
    if workload == "svd":
        return list(da.linalg.svd(x))
    if workload == "map-overlap":
        return [x.map_overlap(ndimage.gaussian_filter, depth=DEPTH, boundary="reflect", sigma=SIGMA, name=name)]
    raise ValueError("unknown workload {!r}".format(workload))


def check(workload: str, host: numpy.ndarray, got: list) -> None:
    """Raise AssertionError unless `got` (the results on the small copy, on the host) match NumPy's
    and SciPy's computations on `host`."""
    tol = {"float32": 2e-5, "float64": 1e-10}[host.dtype.name]

    def close(a, b, what):
        scale = max(1.0, float(numpy.abs(b).max(initial=0)))
        err = float(numpy.abs(numpy.asarray(a, numpy.float64) - b).max(initial=0)) / scale
        if not err <= 20 * tol:
            raise AssertionError("dask-cuda[{}]: {} differs from NumPy's by {:.3g} (relative to {:.3g})".format(
                workload, what, err, scale))

    h = host.astype(numpy.float64)
    if workload == "chain-reduce":
        y = (numpy.sin(h) * 2 + h * h - 1) / 3
        close(got[0], y.sum(axis=0), "sum(axis=0)")
        close(got[1], y.mean(axis=1), "mean(axis=1)")
    elif workload == "tsqr":
        q, r = got
        close(q @ r, h, "Q @ R")
        close(q.T @ q, numpy.eye(h.shape[1]), "Q^T Q")
        close(numpy.abs(r), numpy.abs(numpy.linalg.qr(h)[1]), "|R|")
    elif workload == "svd":
        u, s, v = got
        close(s, numpy.linalg.svd(h, compute_uv=False), "singular values")
        close((u * s) @ v, h, "U S V")
    else:
        from scipy import ndimage  # the host oracle (a test and bench dependency)

        close(got[0], ndimage.gaussian_filter(h, SIGMA, mode="reflect"), "gaussian_filter")


def _to_host(a):
    return a.get() if hasattr(a, "get") else numpy.asarray(a)


def check_small(client, lib: str, workload: str) -> None:
    """Run `workload` on the small copy of its data, chunked as the timed data, and check it."""
    import dask.array as da

    shape, chunks, dtype = SMALL[workload]
    host = numpy.random.default_rng(5).random(shape).astype(dtype)
    x = da.from_array(host, chunks=chunks).to_backend(lib)
    got = client.compute(results(workload, x, _ndimage(lib)), sync=True)
    check(workload, host, [_to_host(g) for g in got])


def _ndimage(lib: str):
    import importlib

    return scipy_module(importlib.import_module(lib), "ndimage")


def data(lib: str, shape, chunks, dtype, seed: int = 0):
    """The random Dask array of `lib` chunks (not computed)."""
    import dask
    import dask.array as da

    with dask.config.set({"array.backend": lib}):
        return da.random.default_rng(seed).random(shape, chunks=chunks, dtype=dtype)


def place(client, x, gpus: int):
    """`x` persisted: on the first worker, or its row blocks split in `gpus` contiguous parts, part
    k on worker k (then persisted again, concatenated, so no placement task is timed)."""
    import dask.array as da
    from distributed import wait

    workers = worker_addresses(client)[:gpus]
    blocks = len(x.chunks[0])
    step = -(-blocks // gpus)
    bounds = numpy.cumsum((0,) + x.chunks[0])
    parts = [client.persist(x[int(bounds[k]):int(bounds[min(k + step, blocks)])], workers=[w])
             for k, w in zip(range(0, blocks, step), workers)]
    wait(parts)
    out = parts[0] if len(parts) == 1 else client.persist(da.concatenate(parts))
    wait(out)
    return out


def timed(client, lib: str, workload: str, gpus: int):
    """`run(x) -> seconds`: the workload on the placed array `x`, its results persisted on the first
    `gpus` workers, waited for, the devices synchronised. Each call's results get fresh keys (the
    same keys again would let Dask hand back results it still holds): `dask.graph_manipulation.clone`,
    or for map_overlap, whose overlap layer clone loses (Dask 2026.8: "lost dependencies"), a fresh
    name of its result."""
    import uuid

    from dask.graph_manipulation import clone
    from distributed import wait

    ndimage = _ndimage(lib)
    workers = worker_addresses(client)[:gpus]

    def run(x) -> float:
        if workload == "map-overlap":
            graph = results(workload, x, ndimage, name="gaussian-" + uuid.uuid4().hex)
        else:
            graph = clone(*results(workload, x, ndimage), omit=x)
        time.sleep(IDLE_S)  # an idle client stream at the start (dask_gpus.IDLE_S)
        t0 = time.perf_counter()
        out = client.persist(list(graph), workers=workers, allow_other_workers=False)
        wait(out)
        client.run(_sync, lib, workers=workers)
        t = time.perf_counter() - t0
        del out
        return t

    return run


def measure(client, lib: str, workload: str, sizes=None, warmup: int = WARMUP, repeats: int = REPEATS) -> dict:
    """Check the workload on its small copy, then the median seconds on one GPU and on two after
    warm-up (one placement at a time): the two-GPU time is the cell, the rest extras."""
    check_small(client, lib, workload)
    shape, chunks, dtype = (sizes or WORKLOADS)[workload]
    times, profile = {}, {}
    for gpus in (1, 2):
        x = place(client, data(lib, shape, chunks, dtype), gpus)
        run = timed(client, lib, workload, gpus)
        times[gpus] = statistics.median([run(x) for _ in range(warmup + repeats)][warmup:])
        profile.update(task_profile(client, run, x, "_{}gpu".format(gpus)))
        del x
    return {"time_s": times[2], "one_gpu_s": times[1], "speedup": times[1] / times[2], **profile}


def cuda_cluster():
    """(cluster, client): dask-cuda's LocalCUDACluster on GPUs 0 and 1, one thread a worker, no host
    memory limit, work stealing off (a task runs where its chunks are). NotAvailable without
    dask-cuda."""
    import dask

    try:
        import dask_cuda
        from distributed import Client
    except ImportError as exc:
        raise NotAvailable("dask-cuda is needed (pip install --no-deps dask-cuda nvidia-ml-py): {}".format(exc)) from None
    with dask.config.set({"distributed.scheduler.work-stealing": False}):
        cluster = dask_cuda.LocalCUDACluster(CUDA_VISIBLE_DEVICES="0,1", threads_per_worker=1, memory_limit=0,
                                             dashboard_address=None, silence_logs=logging.ERROR)
    client = Client(cluster)
    client.wait_for_workers(2)
    return cluster, client


@dask_cuda_case.setup("cuarray", "cupy")
def _(xp, runs, workload):
    lib = xp.__name__
    if xp.cuda.runtime.getDeviceCount() < 2:
        raise NotAvailable("needs two GPUs")
    _register(lib)
    cluster, client = cuda_cluster()
    try:
        client.run(_register, lib)
        yield lambda: measure(client, lib, workload)
    finally:
        client.close()
        cluster.close()
