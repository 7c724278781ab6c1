"""Issue 32's remaining losses in one process: the old and new variants of what changed (cholesky's
triangle, the small-system solve kernel) and diagnostics for what did not (concatenate's host vs
device time, convolve's direct vs FFT at k=255, poisson's lambda sweep, SpGEMM), each against CuPy
and PyTorch when installed. `poisson_switch` runs two child processes (NumPy's inversion/PTRS
switch at lambda 10, and CUARRAY_POISSON_INV_MAX=40; the second compiles the distributions
module once, ~10-20 s). Prints one table; runs in ~2 minutes on an H100/H200.

    PYTHONPATH=. python scripts/perf/linperf_losses.py [--libs cuarray,cupy,torch] [--only NAME,...]

Columns: median us of CUDA-event pairs (each call synchronised: `ev`), or of back-to-back event
pairs read after one sync as the bench does (`bb`: host time hides only while the GPU is ahead),
and the host time per call when enqueued without a sync (`host`). Variants of cuarray carry a
suffix: `old` is the code before issue 32's change, reproduced from the same internals.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import cuarray

ROWS = []


def _events(lib):
    if lib == "torch":
        import torch

        return (lambda: torch.cuda.Event(enable_timing=True), lambda e: e.record(),
                lambda s, e: s.elapsed_time(e), torch.cuda.synchronize)
    mod = cuarray if lib == "cuarray" else __import__("cupy")
    return (lambda: mod.cuda.Event(), lambda e: e.record(),
            lambda s, e: mod.cuda.get_elapsed_time(s, e),
            lambda: mod.cuda.Device().synchronize())


def time_us(lib, fn, reps=20, warmup=3, back_to_back=False):
    make, record, elapsed, sync = _events(lib)
    for _ in range(warmup):
        fn()
    sync()
    pairs = [(make(), make()) for _ in range(reps)]
    for s, e in pairs:
        record(s)
        fn()
        record(e)
        if not back_to_back:
            sync()
    sync()
    return statistics.median(elapsed(s, e) * 1e3 for s, e in pairs)


def host_us(lib, fn, reps=50):
    sync = _events(lib)[3]
    fn()
    sync()
    t0 = time.perf_counter()
    for _ in range(reps):
        fn()
    dt = (time.perf_counter() - t0) / reps
    sync()
    return dt * 1e6


def row(case, variant, lib, fn, reps=20, bb=False, host=False):
    try:
        ev = time_us(lib, fn, reps)
        b = time_us(lib, fn, reps, back_to_back=True) if bb else None
        h = host_us(lib, fn) if host else None
        ROWS.append((case, variant, lib, ev, b, h, ""))
    except Exception as exc:  # noqa: BLE001 -- a missing peer or routine is a row, not a crash
        ROWS.append((case, variant, lib, None, None, None, "{}: {}".format(type(exc).__name__, exc)[:60]))


def libs_present(wanted):
    out = {"cuarray": cuarray}
    for name in wanted:
        if name == "cuarray":
            continue
        try:
            out[name] = __import__(name)
        except Exception:  # noqa: BLE001
            pass
    return out


def to(libs, name, h):
    if name == "torch":
        return libs["torch"].from_numpy(np.ascontiguousarray(h)).cuda()
    return libs[name].asarray(h)


# -- cholesky 4096 float64 ---------------------------------------------------------------------
def cholesky_case(libs):
    from cuarray.cuda.libs import cusolver as cs
    from cuarray.linalg import _util

    n = 4096
    rng = np.random.default_rng(21)
    h = rng.standard_normal((n, n))
    h = (h + h.T) / 2 + n * np.eye(n)

    def old(a):  # before: plain copy, potrf on the UPPER triangle of the column-major block, tril
        c = _util.stacked_copy(a, "d", "C")
        infos = _util.info_array(1)
        cs.potrf("d", cs.UPPER, n, c.data.ptr, n, infos.data.ptr)
        _util.raise_on_info(infos, "not positive definite")
        return cuarray.tril(c)

    a = cuarray.asarray(h)
    diff = float(abs(old(a) - cuarray.linalg.cholesky(a)).max().get())
    row("cholesky 4096 f64", "old (UPPER)", "cuarray", lambda: old(a), reps=10)
    row("cholesky 4096 f64", "new (LOWER)", "cuarray", lambda: cuarray.linalg.cholesky(a), reps=10)
    row("cholesky 4096 f64", "upper=True", "cuarray", lambda: cuarray.linalg.cholesky(a, upper=True), reps=10)
    for name in ("cupy", "torch"):
        if name in libs:
            x = to(libs, name, h)
            row("cholesky 4096 f64", "", name, lambda: libs[name].linalg.cholesky(x), reps=10)
    ROWS.append(("cholesky 4096 f64", "max |old - new|", "cuarray", None, None, None, "{:.2e}".format(diff)))


# -- stacked small solves ----------------------------------------------------------------------
def solve_case(libs):
    from cuarray._manipulation.dims import broadcast_to
    from cuarray.linalg import _solve, _util

    def old(a, b):  # before: cuBLAS getrfBatched + getrsBatched (pointer tables, F-order copies)
        batch = a.shape[:-2]
        n, k = a.shape[-1], b.shape[-1]
        x = _util.stacked_copy(broadcast_to(b, batch + (n, k)), "d", "F")
        f, trans = _solve._factor(a, "d", batch)
        _solve._lu_solve(f, trans, x)
        _solve._raise_if_singular(f)
        return x

    rng = np.random.default_rng(22)
    for batch, n in ((10000, 8), (10000, 3), (10000, 16), (100, 8), (1000000, 4)):
        case = "solve {} x {}x{} f64".format(batch, n, n)
        ha = rng.standard_normal((batch, n, n)) + n * np.eye(n)
        hb = rng.standard_normal((batch, n, 1))
        a, b = cuarray.asarray(ha), cuarray.asarray(hb)
        diff = float(abs(old(a, b) - cuarray.linalg.solve(a, b)).max().get())
        row(case, "old (cuBLAS batched)", "cuarray", lambda: old(a, b), bb=True)
        row(case, "new (kernel)", "cuarray", lambda: cuarray.linalg.solve(a, b), bb=True)
        for name in ("cupy", "torch"):
            if name in libs:
                xa, xb = to(libs, name, ha), to(libs, name, hb)
                row(case, "", name, lambda: libs[name].linalg.solve(xa, xb), bb=True)
        ROWS.append((case, "max |old - new|", "cuarray", None, None, None, "{:.2e}".format(diff)))
    ha = rng.standard_normal((10000, 8, 8)) + 8 * np.eye(8)
    a = cuarray.asarray(ha)
    row("inv 10000 x 8x8 f64", "new (kernel)", "cuarray", lambda: cuarray.linalg.inv(a), bb=True)
    for name in ("cupy", "torch"):
        if name in libs:
            xa = to(libs, name, ha)
            row("inv 10000 x 8x8 f64", "", name, lambda: libs[name].linalg.inv(xa), bb=True)


# -- concatenate 100 x 4 MiB -------------------------------------------------------------------
def concat_case(libs):
    from cuarray._core import batched_copy as bc

    case = "concat 100 x 4 MiB f32"
    parts = [cuarray.ones(2**20, dtype="float32") for _ in range(100)]
    row(case, "concatenate", "cuarray", lambda: cuarray.concatenate(parts), bb=True, host=True)
    out = cuarray.empty(100 * 2**20, dtype="float32")
    rows, pitch, pieces = bc.concat_geometry(out.shape, 0, 4, [(p.data.ptr, 2**20, i * 2**20)
                                                               for i, p in enumerate(parts)])
    row(case, "copy_pieces only", "cuarray", lambda: bc.copy_pieces(out.data.ptr, pitch, rows, pieces),
        bb=True, host=True)
    # The kernel alone: the piece table uploaded once, outside the timed call.
    w, wide, table, chunks = bc.plan(pieces, rows, out.data.ptr, pitch)
    dev_table = cuarray.asarray(table)
    kern = bc._kernel(w, wide)
    index_t = np.uint64 if wide else np.uint32
    args = (dev_table.data.ptr, dev_table.data.ptr + 32 * len(pieces), np.int32(len(pieces)), out.data.ptr,
            index_t(pitch // w))
    from cuarray.cuda import launch as _launch

    row(case, "kernel, table kept", "cuarray", lambda: _launch.launch(kern, chunks, bc._BLOCK, args), bb=True,
        host=True)
    row(case, "device copy 400 MiB", "cuarray", lambda: out.copy())
    if "torch" in libs:
        tp = [libs["torch"].ones(2**20, dtype=libs["torch"].float32, device="cuda") for _ in range(100)]
        row(case, "", "torch", lambda: libs["torch"].cat(tp), bb=True, host=True)
    if "cupy" in libs:
        cp_ = [libs["cupy"].ones(2**20, dtype="float32") for _ in range(100)]
        row(case, "", "cupy", lambda: libs["cupy"].concatenate(cp_), bb=True, host=True)


# -- convolve 16 Mi float32 --------------------------------------------------------------------
def convolve_case(libs):
    from cuarray._math import convolution as conv

    n = 2**24
    rng = np.random.default_rng(21)
    hx = rng.random(n, dtype=np.float32)
    x = cuarray.asarray(hx)
    def per_output(wr, start, length):  # before: one output per thread (signal.cuh's correlate_at)
        out = cuarray.empty(length, dtype=x.dtype)
        conv._definition(x.dtype, x.dtype).run((out,), (np.int64(n), np.int64(wr.shape[0]),
                                                        np.int64(wr.shape[0] - 1 - start)), (length,), raw=(x, wr))
        return out

    for k in (15, 127, 255, 256, 511, 1023, 2047):
        case = "convolve 16Mi f32 k={}".format(k)
        hw = rng.random(k, dtype=np.float32)
        w = cuarray.asarray(hw)
        start, length = conv.correlate_plan(n, k, "same")
        wr = w[::-1].copy()
        if k <= 511:
            row(case, "direct per-output (old)", "cuarray", lambda: per_output(wr, start, length), reps=10)
        row(case, "direct tiled", "cuarray", lambda: conv._direct(x, wr, start, length, x.dtype), reps=10)
        row(case, "fft", "cuarray", lambda: conv._fft_full(x, wr, start, length, x.dtype), reps=10)
        row(case, "auto", "cuarray", lambda: cuarray.convolve(x, w, "same"), reps=10)
        d = float(abs(conv._direct(x, wr, start, length, x.dtype) - per_output(wr, start, length)).max().get()) \
            if k <= 511 else None
        if d is not None:
            ROWS.append((case, "max |tiled - old|", "cuarray", None, None, None, "{:.2e}".format(d)))
        if "cupy" in libs:
            cx, cw = libs["cupy"].asarray(hx), libs["cupy"].asarray(hw)
            row(case, "", "cupy", lambda: libs["cupy"].convolve(cx, cw, "same"), reps=10)


# -- poisson 1e8 -------------------------------------------------------------------------------
def poisson_case(libs):
    n = 10**8
    g = cuarray.random.default_rng(1)
    for lam in (3.0, 10.0, 20.0, 30.0, 100.0):
        case = "poisson({:g}) 1e8".format(lam)
        row(case, "", "cuarray", lambda: g.poisson(lam, size=n), reps=10)
        if "torch" in libs:
            rate = libs["torch"].full((n,), lam, device="cuda", dtype=libs["torch"].float64)
            row(case, "", "torch", lambda: libs["torch"].poisson(rate), reps=10)
            del rate
        if "cupy" in libs:
            cg = libs["cupy"].random.default_rng(1)
            if hasattr(cg, "poisson"):
                row(case, "", "cupy", lambda: cg.poisson(lam, size=n), reps=10)


_POISSON_CHILD = """
import json, statistics, sys
import cuarray
g = cuarray.random.default_rng(1)
out = {}
for lam in (3.0, 10.0, 20.0, 30.0):
    f = lambda: g.poisson(lam, size=10**8)
    for _ in range(3):
        f()
    ts = []
    for _ in range(10):
        s, e = cuarray.cuda.Event(), cuarray.cuda.Event()
        s.record(); f(); e.record(); e.synchronize()
        ts.append(cuarray.cuda.get_elapsed_time(s, e) * 1e3)
    out[lam] = statistics.median(ts)
print(json.dumps(out))
"""


def poisson_switch_case(libs):
    # Inversion (a sequential search from 0 with one uniform) up to lambda 40 instead of NumPy's 10:
    # a child process per setting (the knob changes the compiled source; read once per process).
    import json
    import os
    import subprocess
    import sys

    for knob in ("", "40"):
        env = dict(os.environ)
        env.pop("CUARRAY_POISSON_INV_MAX", None)
        if knob:
            env["CUARRAY_POISSON_INV_MAX"] = knob
        res = subprocess.run([sys.executable, "-c", _POISSON_CHILD], env=env, capture_output=True, text=True,
                             timeout=150)
        variant = "inversion below {}".format(knob or "10 (NumPy's)")
        if res.returncode:
            ROWS.append(("poisson switch", variant, "cuarray", None, None, None, res.stderr.strip()[-60:]))
            continue
        for lam, us in json.loads(res.stdout.strip().splitlines()[-1]).items():
            ROWS.append(("poisson({:g}) 1e8".format(float(lam)), variant, "cuarray", us, None, None, "child"))


# -- SpGEMM 1e6 x 1e6, 1e7 nonzeros each -------------------------------------------------------
def spgemm_case(libs):
    from cuarray.bench.cases import sparse as bs

    case = "spgemm 1e6^2 nnz 1e7"
    a, b = bs._csr(cuarray, bs.ROWS, 10**7, 5), bs._csr(cuarray, bs.ROWS, 10**7, 6)
    from cuarray.sparse import _matmul

    row(case, "row-wise (new)", "cuarray", lambda: _matmul.spgemm(a, b, "rowwise"), reps=5)
    row(case, "expand-sort (old)", "cuarray", lambda: _matmul.spgemm(a, b, "expand-sort"), reps=5)
    if "cupy" in libs:
        ca, cb = bs._csr(libs["cupy"], bs.ROWS, 10**7, 5), bs._csr(libs["cupy"], bs.ROWS, 10**7, 6)
        row(case, "cuSPARSE", "cupy", lambda: ca @ cb, reps=5)
    if "torch" in libs:
        torch = libs["torch"]
        try:
            ta, tb = (torch.sparse_csr_tensor(torch.as_tensor(m.indptr.get().astype(np.int64)).cuda(),
                                              torch.as_tensor(m.indices.get().astype(np.int64)).cuda(),
                                              torch.as_tensor(m.data.get()).cuda(), size=m.shape) for m in (a, b))
        except Exception as exc:  # noqa: BLE001
            ROWS.append((case, "cuSPARSE", "torch", None, None, None, str(exc)[:60]))
            return
        row(case, "cuSPARSE", "torch", lambda: ta @ tb, reps=5)


CASES = {"cholesky": cholesky_case, "solve": solve_case, "concat": concat_case,
         "convolve": convolve_case, "poisson": poisson_case, "poisson_switch": poisson_switch_case,
         "spgemm": spgemm_case}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--libs", default="cuarray,cupy,torch")
    ap.add_argument("--only", default=",".join(CASES))
    args = ap.parse_args()
    libs = libs_present(args.libs.split(","))
    print("libraries:", ", ".join(sorted(libs)), "| device:", cuarray.cuda.Device().name
          if hasattr(cuarray.cuda.Device(), "name") else "")
    t0 = time.perf_counter()
    for name in args.only.split(","):
        c0 = time.perf_counter()
        CASES[name](libs)
        print("  {} done in {:.1f} s".format(name, time.perf_counter() - c0), flush=True)
        cuarray.get_default_memory_pool().free_all_blocks()
    f = lambda v: "{:10.1f}".format(v) if v is not None else "{:>10}".format("-")  # noqa: E731
    print("\n{:28s} {:22s} {:8s} {:>10} {:>10} {:>10}  {}".format("case", "variant", "lib", "ev us", "bb us",
                                                              "host us", "note"))
    for case, variant, lib, ev, b, h, note in ROWS:
        print("{:28s} {:22s} {:8s} {} {} {}  {}".format(case, variant, lib, f(ev), f(b), f(h), note))
    print("\ntotal {:.1f} s".format(time.perf_counter() - t0))


if __name__ == "__main__":
    main()
