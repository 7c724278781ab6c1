"""What a Dask computation over cuarray chunks makes cuarray do, on the fake device (no kernel runs;
every launch, copy, host synchronisation and driver call counted: conftest.py's `fake_runtime`).

The rule (docs/distributed.md, "Where the time goes"): per chunk, a reduction or an elementwise
step launches its kernels and nothing else: no host synchronisation, no copy to or from the host,
no driver call (a stream, an event, a memset), whichever of Dask's local schedulers runs it (the
threaded one runs tasks in several threads: they share the device's stream). The copies between
device buffers that remain are Dask's own: `_concatenate2` of the partial results of a tree
reduction, and the final `finalize` copy."""

from __future__ import annotations

import numpy as np
import pytest

import cuarray

da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")

import cuarray.distributed  # noqa: E402

cuarray.distributed.register_dask()

CHUNKS = 16
REDUCTIONS = {
    "sum": lambda x: x.sum(), "sum-axis0": lambda x: x.sum(axis=0), "sum-axis1": lambda x: x.sum(axis=1),
    "max-axis0": lambda x: x.max(axis=0), "min": lambda x: x.min(), "any": lambda x: (x > 0).any(),
    "prod-axis1": lambda x: x.prod(axis=1), "nansum-axis0": lambda x: da.nansum(x, axis=0),
    "mean": lambda x: x.mean(), "mean-axis1": lambda x: x.mean(axis=1), "var-axis1": lambda x: x.var(axis=1),
    "norm-axis0": lambda x: da.linalg.norm(x, axis=0),
    "chain": lambda x: (np.sin(x) * 2 + x * x - 1) / 3,
}
# One kernel per task besides copies: a chunk's reduction, a combine's or the aggregate's (the
# others run several ufuncs a chunk: Dask's own algorithm).
ONE_KERNEL_A_TASK = ("sum", "sum-axis0", "sum-axis1", "max-axis0", "min", "nansum-axis0")


def _is_copy(kernel) -> bool:
    # (a recorded elementwise kernel is its placeholder (name, layout, ndim, index type):
    # `_concatenate2` copies partial results into strided places with the copy kernel)
    return type(kernel) is tuple and kernel[0].startswith("cuarray_copy")


def _chunks():
    with dask.config.set({"array.backend": "cuarray"}):
        x = da.ones((64, 48), chunks=(16, 12), dtype="float32")
    assert x.npartitions == CHUNKS
    return x.persist(scheduler="sync")


@pytest.mark.parametrize("scheduler", ["sync", "threads"])
def test_no_synchronisation_host_copy_or_driver_call_per_chunk(fake_runtime, scheduler):
    from concurrent.futures import ThreadPoolExecutor

    x = _chunks()
    with ThreadPoolExecutor(4) as pool:  # (threads of this test only: see conftest.py)
        for name, f in REDUCTIONS.items():
            _check_one(fake_runtime, name, f(x), scheduler, pool)


def _check_one(fake_runtime, name, graph, scheduler, pool):
    del fake_runtime.copies[:], fake_runtime.launches[:]
    tasks = len(graph.__dask_graph__()) - CHUNKS  # the persisted chunks are data, not tasks
    with dask.config.set(scheduler=scheduler, pool=pool):
        out = graph.compute()
    assert isinstance(out, cuarray.ndarray), name
    assert fake_runtime.syncs == [] and fake_runtime.driver.calls == [], (name, fake_runtime.driver.calls)
    host = [c for c in fake_runtime.copies if c[0] != "DtoD"]
    assert host == [], (name, host)
    assert len(fake_runtime.launches) >= CHUNKS, name  # (not vacuous: the chunks' kernels ran)
    if name in ONE_KERNEL_A_TASK:
        computed = [launch for launch in fake_runtime.launches if not _is_copy(launch[2])]
        assert len(computed) <= tasks, (name, len(computed), tasks)
