"""`dask-2gpu`: Dask arrays over two GPUs against the same on one GPU, cuarray chunks against CuPy
chunks in the same run (docs/bench-targets.md: >= 1.8 x speed-up from the second GPU at sizes that fit
one GPU's share).

The cluster is distributed's own: a scheduler in this process and one Nanny-managed worker
process per GPU (one thread each, `CUDA_VISIBLE_DEVICES` set per worker, no memory limit, so
Dask never spills device chunks to disk; work stealing off, so a task runs where its chunk is):
what dask-cuda's LocalCUDACluster builds, without its pins of Dask's version. Each row starts its
own cluster and makes the data before timing: float32 chunks of random numbers made on the
workers, all on the first GPU (the one-GPU array), then the same chunks (same seeds) half on each
GPU (the two-GPU array). A timed call is the whole Dask computation:

- `sum`: ``x.sum(split_every=chunks per GPU)`` to the client (complete when the 0-d result
  arrives): each GPU's chunks reduce to one partial where they lie and one partial crosses to the
  other worker (Dask's default tree, 4 wide, makes 43 tasks of the 32 chunks where this makes 35;
  its two-GPU time is kept as the extra `default_tree_s`);
- `chain`: ``(sin(x) * 2 + x * x - 1) / 3``, persisted on the workers, then every worker's device
  synchronised (an elementwise result stays distributed; the sync makes the time the device's).

The two-GPU array is persisted once more after its halves are concatenated, so the timed graphs
hold no task of the concatenation (32 alias tasks, one a chunk, were in every timed graph: on a
2-core host with NumPy chunks they made the two-GPU sum 66 ms against 49 ms without them).
The cell is the two-GPU time (median of repeats); the one-GPU time and the speed-up are extras,
shown in the note. One more run of each placement, untimed, under distributed's task stream gives
the extras that say where the time goes (`task_profile`): tasks run, the workers' seconds in them,
the seconds moving their inputs. Setup, data creation and teardown are outside the timed region.
GB/s counts the least traffic: reading x (and writing the result, for the chain).
"""

from __future__ import annotations

import importlib
import logging
import statistics
import time

from . import NotAvailable, register
import cuarray.distributed

F32 = 4
# float32 elements: 64 GiB for the sum, 32 GiB for the chain (whose result takes as much again);
# on two GPUs each holds half, one H200 (141 GB) either whole. Chunks of 2 GiB: Dask's cost is per
# task (measured with NumPy chunks on a 2-core box: 47-75 ms a sum of 16-64 chunks on one worker,
# 65-140 ms on two, against ~17 ms of GPU time for 64 GiB), so chunks are as large as still
# index with 32 bits (2^29 elements) in cuarray's kernels.
ELEMENTS, CHUNK = {"sum": 2**34, "chain": 2**33}, 2**29
WARMUP, REPEATS = 2, 5
# distributed's client sends to the scheduler at most once per 10 ms (its BatchedSend interval): a
# computation submitted within 10 ms of the previous one's release message waits out that window
# (a trivial task's round trip: 10.9 ms back to back on two H200s' host, scripts/perf/dask_overhead.py).
# Each timed call starts after this pause, outside the timed region, as a program's computations
# separated by work of their own do.
IDLE_S = 0.025

dask_2gpu = register(
    "dask-2gpu", group="multi-gpu",
    description="Dask array over 2 GPUs (one worker each) vs 1 GPU: x.sum(); an elementwise chain, persisted",
    size=1, quick=1, params=("sum", "chain"), timing="process",
    nbytes=lambda runs, op: ELEMENTS[op] * F32 * (1 if op == "sum" else 2),
    size_label=lambda runs: "sum 64 GiB, chain 32 GiB f32, 2 GiB chunks",
    note=lambda row: _speedup_note(row),
)


def _speedup_note(row) -> str:
    """The note: each library's speed-up from the second GPU (and the sum's time with Dask's
    default tree, where measured)."""
    parts, trees = [], []
    for name, cell in row["libs"].items():
        extras = cell.get("extras") or {}
        if extras.get("speedup"):
            parts.append("{} {:.2f}x".format(name, extras["speedup"]))
        if extras.get("default_tree_s"):
            trees.append("{} {:.1f} ms".format(name, 1e3 * extras["default_tree_s"]))
    note = "2 GPUs vs 1: " + ", ".join(parts) if parts else ""
    if trees:
        note += "; Dask's default tree on 2 GPUs: " + ", ".join(trees)
    return note


def gpu_cluster(n_gpus: int):
    """(cluster, client): a scheduler here and one single-threaded worker process per GPU, each
    seeing only its GPU. `client.close(); cluster.close()` tears it down."""
    import dask
    from distributed import Client, Nanny, Scheduler, SpecCluster

    workers = {
        "gpu{}".format(i): {"cls": Nanny, "options": {
            "nthreads": 1, "memory_limit": 0, "silence_logs": logging.ERROR,
            "env": {"CUDA_VISIBLE_DEVICES": str(i)}}}
        for i in range(n_gpus)
    }
    # distributed's NVML probe maps the visible-devices list to NVML indices and raises
    # NVMLError for an ordinal the host lacks (a 2-worker cluster on a one-GPU host); the workers
    # need no NVML diagnostics. An `env` entry comes too late for it: the worker process reads
    # the config its nanny hands over, taken from this process's config when the nanny is made.
    with dask.config.set({"distributed.scheduler.work-stealing": False,
                          "distributed.diagnostics.nvml": False}):
        cluster = SpecCluster(workers=workers, scheduler={"cls": Scheduler, "options": {"dashboard": False}},
                              silence_logs=logging.ERROR)
    client = Client(cluster)
    client.wait_for_workers(n_gpus)
    return cluster, client


def worker_addresses(client) -> list:
    """Worker addresses ordered by GPU (worker names gpu0, gpu1, ...)."""
    info = client.scheduler_info()["workers"]
    return [a for a, _ in sorted(info.items(), key=lambda kv: str(kv[1]["name"]))]


def _make_block(lib: str, n: int, seed: int):
    xp = importlib.import_module(lib)
    return xp.random.default_rng(seed).random(n, dtype=xp.float32)


def _sync(lib: str) -> None:
    cuda = getattr(importlib.import_module(lib), "cuda", None)  # numpy (CPU tests): nothing queued
    if cuda is not None:
        cuda.Device().synchronize()


def _register(lib: str) -> None:
    if lib == "cuarray":
        cuarray.distributed.register_dask()


def _blocks(lib, xp, seeds, chunk):
    import dask
    import dask.array as da

    meta = xp.empty((0,), dtype=xp.float32)
    parts = [da.from_delayed(dask.delayed(_make_block)(lib, chunk, s), (chunk,), dtype="float32", meta=meta)
             for s in seeds]
    return da.concatenate(parts)


def place(client, lib, xp, n: int, chunk: int, gpus: int):
    """`n` random float32 (chunks of `chunk` made on the workers, seeded by position, so every
    placement holds the same numbers), split in `gpus` contiguous parts, part k on the worker of
    GPU k; persisted and the devices synchronised."""
    import dask.array as da
    from distributed import wait

    seeds = list(range(n // chunk))
    step = -(-len(seeds) // gpus)
    parts = [client.persist(_blocks(lib, xp, seeds[k:k + step], chunk), workers=[w])
             for k, w in zip(range(0, len(seeds), step), worker_addresses(client)[:gpus])]
    x = parts[0]
    if len(parts) > 1:
        # Persisted again: the concatenation's tasks (aliases of the chunks, run where each chunk
        # is) run here, once, and not in every timed graph.
        wait(parts)
        x = client.persist(da.concatenate(parts))
    wait(x)
    client.run(_sync, lib)
    return x


def timed(client, lib: str, op: str, split_every=None):
    """`run(x) -> seconds` for one whole computation `op` ("sum" or "chain") on the array `x`
    (the sum's tree `split_every` wide; None: Dask's default). Each call's graph gets fresh keys
    (`dask.graph_manipulation.clone`, `x` itself kept): the same keys again would let Dask hand
    back, or share, a result it still holds instead of computing it (the first GPU run timed a
    chain faster than the memory allows that way)."""
    import dask.array as da
    from dask.graph_manipulation import clone
    from distributed import wait

    def run(x) -> float:
        graph = clone(x.sum(split_every=split_every) if op == "sum" else (da.sin(x) * 2 + x * x - 1) / 3, omit=x)
        time.sleep(IDLE_S)
        t0 = time.perf_counter()
        if op == "sum":
            y = client.compute(graph)
            y.result()
        else:
            y = client.persist(graph)
            wait(y)
            client.run(_sync, lib)
        t = time.perf_counter() - t0
        del y
        return t

    return run


def task_profile(client, run, x, suffix: str) -> dict:
    """One more run of `run(x)`, untimed, under distributed's task stream: how many tasks ran, the
    seconds the workers spent in them (the host's side of each task: a kernel's device time shows
    only where a task waits for it) and moving their inputs, summed over tasks, and the run's wall
    time. What the tasks do not account for is Dask's latency: the scheduler, its messages, the
    client. Keys end in `suffix` ("_1gpu", "_2gpu")."""
    from distributed import get_task_stream

    with get_task_stream(client) as stream:
        wall = run(x)
    spans = [s for d in stream.data for s in d["startstops"]]
    return {"tasks" + suffix: len(stream.data), "profiled_wall" + suffix + "_s": wall,
            "task_compute" + suffix + "_s": sum(s["stop"] - s["start"] for s in spans if s["action"] == "compute"),
            "task_transfer" + suffix + "_s": sum(s["stop"] - s["start"] for s in spans if s["action"] == "transfer")}


def _chain_sum(client, x) -> float:
    import dask.array as da

    from dask.graph_manipulation import clone

    return float(client.compute(clone(((da.sin(x) * 2 + x * x - 1) / 3).sum(), omit=x)).result())


def measure(client, lib, xp, op: str, n: int, chunk: int = CHUNK, warmup: int = WARMUP,
            repeats: int = REPEATS) -> dict:
    """Median seconds of `op` on `n` float32 held by one GPU, then by two (one placement at a
    time, so one GPU's memory holds one copy), after warm-up. The two-GPU time is the cell; the
    one-GPU time and the speed-up are extras, and for the sum the two-GPU time with Dask's
    default tree. Both placements must give the same sum."""
    per_gpu = n // chunk // 2
    run = timed(client, lib, op, split_every=per_gpu)
    times, sums, profile = {}, [], {}
    for gpus in (1, 2):
        x = place(client, lib, xp, n, chunk, gpus)
        sums.append(float(client.compute(x.sum()).result()))
        times[gpus] = statistics.median([run(x) for _ in range(warmup + repeats)][warmup:])
        profile.update(task_profile(client, run, x, "_{}gpu".format(gpus)))
        if op == "sum" and gpus == 2:
            default = timed(client, lib, op)
            times["default"] = statistics.median([default(x) for _ in range(warmup + repeats)][warmup:])
        if op == "chain":
            sums.append(_chain_sum(client, x))  # the chain computes the same numbers on 1 or 2 GPUs
        del x  # frees the chunks before the next placement
    half = len(sums) // 2
    for s1, s2 in zip(sums[:half], sums[half:]):
        if abs(s1 - s2) > 1e-4 * abs(s1):
            raise AssertionError("the one- and two-GPU results disagree: {}".format(sums))
    if abs(sums[0] / n - 0.5) > 0.01:
        raise AssertionError("the data's mean is not near 0.5: {}".format(sums[0] / n))
    out = {"time_s": times[2], "one_gpu_s": times[1], "speedup": times[1] / times[2], **profile}
    if "default" in times:
        out["default_tree_s"] = times["default"]
    return out


@dask_2gpu.setup("cuarray", "cupy")
def _(xp, runs, op):
    lib = xp.__name__
    if xp.cuda.runtime.getDeviceCount() < 2:
        raise NotAvailable("needs two GPUs")
    try:
        import dask.array  # noqa: F401
        import distributed  # noqa: F401
    except ImportError as exc:
        raise NotAvailable("dask and distributed are needed ({})".format(exc)) from None
    _register(lib)
    cluster, client = gpu_cluster(2)
    try:
        client.run(_register, lib)
        yield lambda: measure(client, lib, xp, op, ELEMENTS[op])
    finally:
        client.close()
        cluster.close()
