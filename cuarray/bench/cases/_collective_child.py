"""One rank of the `allreduce` bench case (cases/collectives.py): one process, one GPU.

    python -m cuarray.bench.cases._collective_child LIB RANK NRANKS NBYTES ROUNDS ITERS RENDEZVOUS

LIB is "cuarray" (cuarray.distributed.Communicator; RENDEZVOUS is a file path through which rank
0 hands its NCCL unique id to the others), "torch" (torch.distributed, NCCL backend;
RENDEZVOUS is a free TCP port on 127.0.0.1) or "cuarray-group" (this one process drives all
NRANKS GPUs: `Communicator.init_all` and one NCCL group call per allreduce; RANK and
RENDEZVOUS are unused). Each rank checks one out-of-place allreduce against
the expected sum, warms up, then times ROUNDS rounds of ITERS in-place float32 allreduces of
NBYTES bytes (host clock from after a barrier to after the device sync), restoring the buffer
between rounds outside the timed region, and prints {"round_s": [per-allreduce seconds...]}.
Setup (imports, communicator creation, allocation) is outside every timed region.
"""

from __future__ import annotations

import json
import os
import sys
import time
from cuarray.distributed import Communicator, get_unique_id, group
import cuarray


def _cuarray_rank(rank, nranks, n, rendezvous):
    dev = cuarray.cuda.Device(rank)
    dev.use()
    if rank == 0:
        tmp = rendezvous + ".tmp"
        with open(tmp, "wb") as f:
            f.write(get_unique_id())
        os.replace(tmp, rendezvous)  # the others never read a partial id
    deadline = time.monotonic() + 120
    while not os.path.exists(rendezvous):
        if time.monotonic() > deadline:
            raise TimeoutError("no NCCL unique id from rank 0")
        time.sleep(0.01)
    with open(rendezvous, "rb") as f:
        uid = f.read()
    comm = Communicator(nranks, rank, uid)
    base = cuarray.arange(n, dtype=cuarray.float32) % 977
    x0 = base + (rank + 1)
    x = x0.copy()
    small = cuarray.ones(1, dtype=cuarray.float32)

    def check():
        got = comm.allreduce(x0)
        want = base * nranks + nranks * (nranks + 1) / 2
        return float(cuarray.abs(got - want).max())

    return (lambda: comm.allreduce(x, out=x), lambda: comm.allreduce(small, out=small), dev.synchronize,
            lambda: cuarray.copyto(x, x0), check, comm.destroy)


def _cuarray_group(rank, nranks, n, rendezvous):
    comms = Communicator.init_all(list(range(nranks)))
    devs = [c.device for c in comms]
    bases, x0s, xs, smalls = [], [], [], []
    for c, dev in zip(comms, devs):
        with dev:
            bases.append(cuarray.arange(n, dtype=cuarray.float32) % 977)
            x0s.append(bases[-1] + (c.rank + 1))
            xs.append(x0s[-1].copy())
            smalls.append(cuarray.ones(1, dtype=cuarray.float32))

    def each(bufs, outs):
        with group():
            return [c.allreduce(x, out=o) for c, x, o in zip(comms, bufs, outs)]

    def sync():
        for dev in devs:
            dev.synchronize()

    def reset():
        for dev, x, x0 in zip(devs, xs, x0s):
            with dev:
                cuarray.copyto(x, x0)

    def check():
        got = each(x0s, [None] * nranks)
        err = 0.0
        for dev, g, base in zip(devs, got, bases):
            with dev:
                err = max(err, float(cuarray.abs(g - (base * nranks + nranks * (nranks + 1) / 2)).max()))
        return err

    def close():
        for c in comms:
            c.destroy()

    return lambda: each(xs, xs), lambda: each(smalls, smalls), sync, reset, check, close


def _torch_rank(rank, nranks, n, port):
    import torch
    import torch.distributed as dist

    torch.cuda.set_device(rank)
    dev = torch.device("cuda", rank)
    dist.init_process_group("nccl", init_method="tcp://127.0.0.1:{}".format(port), rank=rank,
                            world_size=nranks, device_id=dev)
    base = torch.arange(n, dtype=torch.float32, device=dev) % 977
    x0 = base + (rank + 1)
    x = x0.clone()
    small = torch.ones(1, dtype=torch.float32, device=dev)

    def check():
        got = x0.clone()
        dist.all_reduce(got)
        want = base * nranks + nranks * (nranks + 1) / 2
        return float((got - want).abs().max())

    return (lambda: dist.all_reduce(x), lambda: dist.all_reduce(small), torch.cuda.synchronize,
            lambda: x.copy_(x0), check, dist.destroy_process_group)


def main(argv):
    lib, rank, nranks, nbytes, rounds, iters, rendezvous = argv
    rank, nranks, nbytes, rounds, iters = int(rank), int(nranks), int(nbytes), int(rounds), int(iters)
    make = {"cuarray": _cuarray_rank, "cuarray-group": _cuarray_group, "torch": _torch_rank}[lib]
    allreduce, barrier, sync, reset, check, close = make(rank, nranks, nbytes // 4, rendezvous)
    err = check()
    if err != 0:
        raise AssertionError("allreduce differs from the expected sum by {}".format(err))
    for _ in range(3):  # warm-up: NCCL's first calls set up channels and buffers
        allreduce()
    sync()
    times = []
    for _ in range(rounds):
        reset()
        barrier()
        sync()
        t0 = time.perf_counter()
        for _ in range(iters):
            allreduce()
        sync()
        times.append((time.perf_counter() - t0) / iters)
    close()
    print(json.dumps({"rank": rank, "round_s": times}))


if __name__ == "__main__":
    main(sys.argv[1:])
