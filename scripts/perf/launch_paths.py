"""Per-op host cost of a 16-element `a + b` and of its launch alone, by path, in one process (GPU).

Each row: 1000 calls then one sync (as the ew-small bench), best of `--reps` rounds, us per call.
The launch rows replay the exact launch the ufunc fast path makes (captured through a launch hook):
cuda.core's `launch`, the C path (`_launchcore.enqueue`, what `launch.enqueue` is when built),
and the whole `a + b` with each of the two as the raw launch; `cuLaunchKernel` through cuda.bindings with a
pre-packed `void**` (constant, and with the three pointers and n written per call, as a real path
must), and `cuLaunchKernel` called through ctypes (CDLL: releases the GIL; PyDLL: keeps it). The
`a + b` rows: the whole operator; with the launch replaced by a no-op (cuarray's Python, pool
included, on this host); an allocation + free alone; CuPy's and PyTorch's `a + b`.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import sys
import time

import numpy as np


def timeit(fn, reps, sync, n=1000):
    for _ in range(200):
        fn()
    sync()
    best = 1e9
    for _ in range(reps):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        sync()
        best = min(best, (time.perf_counter() - t) / n)
    return best * 1e6


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--reps", type=int, default=20)
    args = ap.parse_args()
    sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
    import cuarray as cp
    from cuarray._core.ndarray import _new_c
    from cuarray.cuda import _backend, launch

    a = cp.asarray(np.arange(16, dtype=np.float32))
    b = cp.asarray(np.arange(16, dtype=np.float32))
    a + b
    cap = []
    prev = launch.set_launch_hook(lambda raw, s, cfg, k, xs: (cap.append((raw, s, cfg, k, xs)), raw(s, cfg, k, *xs)))
    a + b
    launch.set_launch_hook(prev)
    raw, s, cfg, k, xs = cap[-1]
    dev = cp.cuda.Device()
    sync = dev.synchronize
    rows = []

    def row(name, fn):
        rows.append((name, timeit(fn, args.reps, sync)))
        print("{:58s} {:6.2f} us".format(*rows[-1]), flush=True)

    print("active launch path:", launch.implementation(), flush=True)
    core_launch = _backend.core().launch
    native = launch._native
    row("a + b (cuarray, whole operator)", lambda: a + b)
    row("cuda.core launch(stream, cfg, kernel, pa, pb, po, n32)", lambda: core_launch(s, cfg, k, *xs))
    if native is not None:
        # The C path (cuda/_native/launch.c) on the same launch, interleaved with cuda.core's, and
        # the whole operator with each as the raw launch (no hook: `enqueue` is the function itself).
        for rnd in range(2):
            row("C _launchcore.enqueue(stream, cfg, kernel, ...) [{}]".format(rnd), lambda: native(s, cfg, k, *xs))
            row("cuda.core launch, again [{}]".format(rnd), lambda: core_launch(s, cfg, k, *xs))
            for label, fn in (("C path", native), ("cuda.core launch", core_launch)):
                launch._raw = fn
                launch._install()
                row("a + b, raw launch = {} [{}]".format(label, rnd), lambda: a + b)
        launch._raw = native
        launch._install()

    drv = _backend.driver()
    pa, pb, po, n32 = xs
    grid = cfg.grid[0] if isinstance(cfg.grid, tuple) else cfg.grid
    slots = (ctypes.c_uint64 * 4)(pa, pb, po, int(n32))
    params = (ctypes.c_void_p * 4)(*[ctypes.addressof(slots) + 8 * i for i in range(4)])
    paddr = ctypes.addressof(params)
    handle = k.handle
    hint = int(handle)
    stream_ptr = int(s.handle)
    row("cuda.bindings cuLaunchKernel, pre-packed void** (constant)",
        lambda: drv.cuLaunchKernel(handle, grid, 1, 1, 256, 1, 1, 0, stream_ptr, paddr, 0))

    # Which handle and which stream the driver is given (informative: cuda.core launches a CUkernel
    # on CU_STREAM_LEGACY; CuPy and PyTorch launch CUfunctions).
    err, func = drv.cuKernelGetFunction(handle)
    err_s, made = drv.cuStreamCreate(drv.CUstream_flags.CU_STREAM_NON_BLOCKING)
    for label, h, st in (("CUfunction, CU_STREAM_LEGACY", func, stream_ptr), ("CUkernel, stream 0", handle, 0),
                         ("CUfunction, stream 0", func, 0), ("CUkernel, a non-blocking stream", handle, int(made)),
                         ("CUfunction, a non-blocking stream", func, int(made)),
                         ("CUkernel, per-thread default stream", handle, 2)):
        row("cuda.bindings cuLaunchKernel, constant void**, " + label,
            lambda h=h, st=st: drv.cuLaunchKernel(h, grid, 1, 1, 256, 1, 1, 0, st, paddr, 0))
    cstream = _backend.core().Device().create_stream()
    row("cuda.core launch on a created (blocking) cuda.core Stream", lambda: raw(cstream, cfg, k, *xs))

    def packed():
        slots[0] = pa
        slots[1] = pb
        slots[2] = po
        slots[3] = 16
        drv.cuLaunchKernel(handle, grid, 1, 1, 256, 1, 1, 0, stream_ptr, paddr, 0)

    row("cuda.bindings cuLaunchKernel, 4 slots written per call", packed)

    for loader, label in ((ctypes.CDLL, "CDLL"), (ctypes.PyDLL, "PyDLL")):
        lib = loader("libcuda.so.1", mode=os.RTLD_NOW | os.RTLD_GLOBAL)
        f = lib.cuLaunchKernel
        f.restype = ctypes.c_int
        f.argtypes = [ctypes.c_void_p] + [ctypes.c_uint] * 7 + [ctypes.c_void_p] * 3

        def via_ctypes(f=f):
            slots[0] = pa
            slots[1] = pb
            slots[2] = po
            slots[3] = 16
            f(hint, grid, 1, 1, 256, 1, 1, 0, stream_ptr, paddr, None)

        row("ctypes {} cuLaunchKernel, 4 slots written per call".format(label), via_ctypes)

    saved = launch.enqueue
    launch._set_enqueue(lambda *a: None)  # (the engine skeletons hold it too)
    try:
        row("a + b with the launch a no-op (cuarray's Python + pool)", lambda: a + b)
    finally:
        launch._set_enqueue(saved)
    f32 = np.dtype(np.float32)
    row("_new_c((16,), float32) + free (pool + ndarray)", lambda: _new_c((16,), f32))
    row("a + b (cuarray, again)", lambda: a + b)
    try:
        import cupy

        ca = cupy.arange(16, dtype=cupy.float32)
        cb = cupy.arange(16, dtype=cupy.float32)
        row("CuPy a + b", lambda: ca + cb)
    except Exception as exc:
        print("CuPy:", exc)
    try:
        import torch

        ta = torch.arange(16, dtype=torch.float32, device="cuda")
        tb = torch.arange(16, dtype=torch.float32, device="cuda")
        ts = torch.cuda.synchronize
        rows.append(("PyTorch a + b", timeit(lambda: ta + tb, args.reps, ts)))
        print("{:58s} {:6.2f} us".format(*rows[-1]))
    except Exception as exc:
        print("torch:", exc)


if __name__ == "__main__":
    main()
