"""`allreduce`: NCCL allreduce of 1 GiB float32 over two GPUs, cuarray.distributed against
torch.distributed (NCCL backend) in the same run (docs/bench-targets.md: >= 0.95 x).

The compared row, `2 processes`, runs both sides the same way, the way NCCL programs are deployed:
one process per GPU (two child processes, `_collective_child.py`), in-place sum allreduces on
the device's current stream. The `1 process` row is cuarray alone driving both GPUs from one
process (`Communicator.init_all`, one NCCL group call per allreduce), against the same torch
figure (torch.distributed has no such mode).
Imports, communicator creation and allocation happen before the timed region; each rank times
`rounds` rounds of `iters` allreduces (host clock from after a barrier to after the device sync);
a round's time is the slower rank's, and the cell is the median round per allreduce. The GB/s
column is NCCL's bus bandwidth, busbw = 2 (n - 1) / n * bytes / time (nccl-tests' figure).
"""

from __future__ import annotations

import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile

from . import NotAvailable, register
import cuarray

GIB = 2**30
NRANKS = 2
ROUNDS, ITERS = 5, 20

allreduce = register(
    "allreduce", group="multi-gpu",
    description="NCCL allreduce (sum, in place) of 1 GiB float32 over 2 GPUs; GB/s = bus bandwidth",
    size=1, quick=1, params=("2 processes", "1 process"), timing="process", peers_once=True,
    nbytes=lambda runs, mode: 2 * (NRANKS - 1) / NRANKS * GIB,
    size_label=lambda runs: "1 GiB float32, {} launch(es)".format(runs),
    note=lambda row: _busbw_note(row),
)


def _busbw_note(row) -> str:
    bw = {name: (cell.get("extras") or {}).get("busbw_GBs") for name, cell in row["libs"].items()}
    text = ", ".join("{} {:.0f}".format(k, v) for k, v in bw.items() if v)
    if bw.get("cuarray") and bw.get("torch"):
        text += "; cuarray/torch busbw {:.3f}".format(bw["cuarray"] / bw["torch"])
    return "busbw GB/s: " + text if text else ""


def _child_env() -> dict:
    env = dict(os.environ)

    root = os.path.dirname(os.path.abspath(list(cuarray.__path__)[0]))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    env.setdefault("NCCL_NVLS_ENABLE", "0")
    return env


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_ranks(lib: str, nbytes: int, rounds: int = ROUNDS, iters: int = ITERS, timeout: float = 40) -> dict:
    """Launch the NRANKS ranks of `lib` (one process for "cuarray-group"), wait, and return
    {"time_s": the median round's slower rank, per allreduce; "busbw_GBs": ...}. Raises
    RuntimeError with the failing rank's last line."""
    with tempfile.TemporaryDirectory(prefix="cuarray-bench-nccl-") as tmp:
        rendezvous = os.path.join(tmp, "uid") if lib == "cuarray" else str(_free_port())
        procs, logs = [], []
        for rank in range(1 if lib == "cuarray-group" else NRANKS):
            out = open(os.path.join(tmp, "out{}".format(rank)), "w+")
            err = open(os.path.join(tmp, "err{}".format(rank)), "w+")
            logs.append((out, err))
            cmd = [sys.executable, "-m", "cuarray.bench.cases._collective_child", lib, str(rank), str(NRANKS),
                   str(nbytes), str(rounds), str(iters), rendezvous]
            procs.append(subprocess.Popen(cmd, stdout=out, stderr=err, env=_child_env()))
        try:
            for p in procs:
                p.wait(timeout=timeout)
        finally:
            for p in procs:
                if p.poll() is None:
                    p.kill()
                    p.wait()
        results = []
        for p, (out, err) in zip(procs, logs):
            out.seek(0)
            err.seek(0)
            text, etext = out.read(), err.read()
            out.close()
            err.close()
            if p.returncode != 0:
                lines = etext.strip().splitlines() or ["exit status {}".format(p.returncode)]
                raise RuntimeError("rank failed: " + lines[-1])
            results.append(json.loads(text.strip().splitlines()[-1])["round_s"])
    per_round = [max(ts) for ts in zip(*results)]
    t = statistics.median(per_round)
    return {"time_s": t, "busbw_GBs": 2 * (NRANKS - 1) / NRANKS * nbytes / t / 1e9}


@allreduce.setup("cuarray", "torch")
def _(xp, runs, mode):
    lib = xp.__name__
    count = xp.cuda.runtime.getDeviceCount() if lib == "cuarray" else xp.cuda.device_count()
    if count < NRANKS:
        raise NotAvailable("needs {} GPUs".format(NRANKS))
    if lib == "cuarray":
        import importlib.util

        if importlib.util.find_spec("nccl") is None:
            raise NotAvailable("nccl4py is not installed")
    else:
        import torch.distributed as dist

        if not dist.is_available() or not dist.is_nccl_available():
            raise NotAvailable("torch.distributed has no NCCL")
    if lib == "cuarray" and mode == "1 process":
        lib = "cuarray-group"
    return lambda: run_ranks(lib, GIB)
