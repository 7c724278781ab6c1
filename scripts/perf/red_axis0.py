"""`sum(axis=0)` of 16384^2 float32 (bench red-axis, issue 32): GPU time of cuarray's plan under the
planner's knobs beside PyTorch and CuPy, and the plan's kernels one by one (CUPTI, via
torch.profiler when PyTorch imports). µs of GPU time (scripts/perf/_timing.py gpu_us), and the
fraction of a 1 GiB copy's time (read + write) that reading 1 GiB takes.

    python scripts/perf/red_axis0.py [--set "NAME=v1,v2;NAME2=..."] [--n 16384]

About 20 s on an H100.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _peers import gpu_peers  # noqa: E402
from _timing import gpu_us  # noqa: E402

import cuarray  # noqa: E402
from cuarray._core import reduction, reduction_ops, reduction_plan  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--set", default="_BLOCKS_PER_SM=4,8,16,32;_FUSE_STEPS=4,100000;_UNROLL_COLS=4,8,16")
    ap.add_argument("--n", type=int, default=16384)
    ap.add_argument("--reps", type=int, default=30)
    args = ap.parse_args()
    n = args.n
    x = cuarray.random.default_rng(0).random((n, n), dtype=cuarray.float32)
    y = cuarray.empty_like(x)
    copy = gpu_us(lambda: cuarray.copyto(y, x), args.reps)
    print("copy of {} MiB: {:.1f} µs".format(x.nbytes >> 20, copy))
    want = x.get().astype("float64").sum(axis=0)

    def row(label):
        got = x.sum(axis=0)
        err = float(abs(got.get() - want).max() / abs(want).max())
        t = gpu_us(lambda: x.sum(axis=0), args.reps)
        p = reduction.plan((n, n), [(4 * n, 4)], [4], (4,), (0,), aligned=[True], acc_size=4,
                           sm_count=cuarray.cuda.Device().multiprocessor_count)
        print("{:32s} {:8.1f} µs  x copy {:.3f}  split {} chunk {} grid_x {} fused {} unroll {}  err {:.1e}".format(
            label, t, copy / t, p.split, p.chunk, p.grid_x, p.fused, p.unroll, err), flush=True)

    row("default")
    for part in [s for s in args.set.split(";") if s]:
        name, values = part.split("=")
        saved = getattr(reduction_plan, name)
        for v in values.split(","):
            setattr(reduction_plan, name, int(v))
            reduction_ops.clear_fast_path()
            row("{}={}".format(name, v))
        setattr(reduction_plan, name, saved)
        reduction_ops.clear_fast_path()
    for lib, (mod, cuda) in gpu_peers().items():
        t = mod.asarray(x.get()) if lib == "cupy" else mod.as_tensor(x.get(), device="cuda")
        us = gpu_us(lambda: t.sum(axis=0) if lib == "cupy" else t.sum(0), args.reps, cuda=cuda)
        print("{:32s} {:8.1f} µs  x copy {:.3f}".format(lib, us, copy / us), flush=True)
    try:
        from torch.profiler import ProfilerActivity, profile

        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(10):
                x.sum(axis=0)
            cuarray.cuda.Device().synchronize()
        for e in prof.key_averages():
            if e.device_type.name == "CUDA":
                print("  kernel {:70s} {:8.1f} µs avg x {}".format(e.key[:70], e.device_time, e.count))
    except Exception as exc:  # noqa: BLE001
        print("kernels: not profiled ({})".format(exc))


if __name__ == "__main__":
    main()
