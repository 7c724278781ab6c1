"""Where the time of `dask-2gpu` goes, and the most a second GPU can give it.

On the bench's cluster (`dask_gpus.gpu_cluster(2)`: one single-threaded worker process a GPU), for
each library's chunks:

- `trivial`: one task that does nothing, submitted and its result fetched (Dask's round trip),
  back to back and after the bench's pause (`dask_gpus.IDLE_S`: the client's stream idle);
- `empty` sum and chain: the timed graphs of `dask-2gpu` (32 chunks; the sum's tree 16 wide, the
  bench's, and 32 wide, one level; the chain persisted and the devices synchronised) on chunks of
  256 elements, so that the device work is nil: Dask's and the library's host cost of the same
  graph, on one worker and on two;
- `device`: on a worker, the device time of one chunk's work at the bench's size (2^29 float32),
  the sum and the chain, timed with the device synchronised;
- the bound: a placement's time is at least the larger of its graph's empty time and its device
  work (half of it on two GPUs), and at most their sum, so the speed-up from the second GPU is at
  most (empty_1 + work) / max(empty_2, work / 2).

    python scripts/perf/dask_overhead.py [--libs cuarray,cupy] [--json FILE] [--chunk N]
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import time

from cuarray.bench.cases import dask_gpus as dg

CHUNKS = 32
BIG = dg.CHUNK  # elements of a bench chunk


def _median_ms(f, repeats=15, warmup=3) -> float:
    times = []
    for _ in range(warmup + repeats):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return 1e3 * statistics.median(times[warmup:])


def _device_ms(lib: str, op: str, n: int, repeats: int = 10) -> float:
    """On the calling worker: ms of device time of `op` on one chunk of `n` float32 (queued
    `repeats` times, then the device synchronised)."""
    xp = importlib.import_module(lib)
    x = xp.random.default_rng(0).random(n, dtype=xp.float32)
    sync = xp.cuda.Device().synchronize if hasattr(xp, "cuda") else (lambda: None)  # numpy: a dry run

    def once():
        return x.sum() if op == "sum" else (xp.sin(x) * 2 + x * x - 1) / 3

    once()
    sync()
    t0 = time.perf_counter()
    for _ in range(repeats):
        once()
    sync()
    return 1e3 * (time.perf_counter() - t0) / repeats


def _noop():
    return 1


def probe(client, lib: str, big: int = BIG) -> dict:
    xp = importlib.import_module(lib)
    submit = lambda: client.submit(_noop, pure=False).result()  # noqa: E731
    out = {"trivial_back_to_back_ms": _median_ms(submit),
           "trivial_idle_ms": _median_ms(lambda: (time.sleep(dg.IDLE_S), submit()) and None, repeats=10)
           - 1e3 * dg.IDLE_S}
    addr = dg.worker_addresses(client)[0]
    # the sum with the bench's tree (16 wide: a level a GPU) and with one level (32 wide)
    for op, split in (("sum", CHUNKS // 2), ("sum", CHUNKS), ("chain", None)):
        name = op if op == "chain" else "sum{}".format(split)
        run = dg.timed(client, lib, op, split_every=split)  # pauses dg.IDLE_S before each timed call
        for gpus in (1, 2):
            x = dg.place(client, lib, xp, CHUNKS * 256, 256, gpus)
            out["{}_empty_{}gpu_ms".format(name, gpus)] = 1e3 * statistics.median([run(x) for _ in range(13)][3:])
            del x
        per_chunk = client.run(_device_ms, lib, op, big, workers=[addr])[addr]
        work = CHUNKS * per_chunk
        e1, e2 = out["{}_empty_1gpu_ms".format(name)], out["{}_empty_2gpu_ms".format(name)]
        out["{}_device_all_ms".format(name)] = work
        out["{}_speedup_bound".format(name)] = (e1 + work) / max(e2, work / 2)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--libs", default="cuarray,cupy")
    ap.add_argument("--json")
    ap.add_argument("--chunk", type=int, default=BIG, help="elements of the chunk whose device time is taken")
    args = ap.parse_args()
    results = {}
    for lib in args.libs.split(","):
        dg._register(lib)
        cluster, client = dg.gpu_cluster(2)
        try:
            client.run(dg._register, lib)
            results[lib] = probe(client, lib, args.chunk)
        finally:
            client.close()
            cluster.close()
        print(lib, json.dumps({k: round(v, 3) for k, v in results[lib].items()}), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
