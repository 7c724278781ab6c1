"""Timeline of the first `x + y` in a fresh process with a warm kernel cache (run on the GPU machine).

Each run is a fresh child process; the timed region is the bench's (cuarray/bench/cases/startup.py):
from before the two `asarray` calls to after the sync. Variants, interleaved, `--reps` of each:

  tree      the tree's code, with marks around its functions (imports, driver init, cache look-up,
            module load, allocations, pinned staging, H2D, launch, sync)
  old       the tree's `_init_overlapped` (cuda.bindings imported first, then cuda.core imported
            in a thread while this thread runs cuInit + the primary context), marked step by step
  new       the alternative tried in session 5 and rejected (docs/perf-notes.md): ctypes cuInit +
            context in a thread from the start, the imports in this thread
  switch    `new` with a 0.1 ms GIL switch interval during the overlap
  serial    no overlap: imports, cuInit and the context one after the other
  floor     the driver's part alone: ctypes cuInit, cuDeviceGet, primary context (no imports)
  cupy      CuPy's first add (same timed region)

By default the parent holds no CUDA context, so each child initialises the GPU from scratch: the
driver's part is longer than in the bench, whose parent keeps contexts open while it runs the
children (docs/perf-notes.md). `--hold-context` makes the parent hold one too (the bench's case).
`--importtime` adds one `tree` child under `python -X importtime` and prints the heaviest imports
that happen inside the first op. Prints per variant the median [min-max] of the first op and, for
the median run, the marks (thread, start and end in ms from the timed region's start).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))

# ----------------------------------------------------------------------------------------------
# child


def _child(variant: str) -> None:
    import threading
    import time

    pc = time.perf_counter
    marks = []
    T0 = [0.0]

    def mark(label, t, t2=None):
        marks.append((label, threading.current_thread().name[:14], t, pc() if t2 is None else t2))

    import numpy

    rng = numpy.random.default_rng(0)
    hx, hy = rng.random(16, dtype=numpy.float32), rng.random(16, dtype=numpy.float32)
    out = {"variant": variant}

    if variant == "floor":
        import ctypes

        t0 = T0[0] = pc()
        lib = ctypes.CDLL("libcuda.so.1", mode=os.RTLD_NOW | os.RTLD_GLOBAL)
        mark("dlopen libcuda", t0)
        t = pc(); lib.cuInit(0); mark("cuInit", t)
        dev = ctypes.c_int(); t = pc(); lib.cuDeviceGet(ctypes.byref(dev), 0); mark("cuDeviceGet", t)
        ctx = ctypes.c_void_p(); t = pc(); lib.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev); mark("ctx retain", t)
        t = pc(); lib.cuCtxSetCurrent(ctx); mark("cuCtxSetCurrent", t)
        out["first_op_s"] = pc() - t0
    elif variant == "cupy":
        import cupy as xp

        t0 = T0[0] = pc()
        z = xp.asarray(hx) + xp.asarray(hy)
        xp.cuda.Device().synchronize()
        out["first_op_s"] = pc() - t0
        assert numpy.allclose(xp.asnumpy(z), hx + hy)
    else:
        import cuarray as cp

        _instrument(variant, mark, pc)
        before = set(sys.modules)
        t0 = T0[0] = pc()
        z = cp.asarray(hx) + cp.asarray(hy)
        cp.cuda.Device().synchronize()
        out["first_op_s"] = pc() - t0
        new = sorted(set(sys.modules) - before)
        out["modules_imported"] = len(new)
        out["ours_imported"] = [m for m in new if m.startswith("cuarray")]
        out["new_modules"] = new
        assert numpy.allclose(cp.asnumpy(z), hx + hy)
        # the second op, for reference
        t = pc()
        z = cp.asarray(hx) + cp.asarray(hy)
        cp.cuda.Device().synchronize()
        out["second_op_s"] = pc() - t
    out["marks"] = [(lab, th, (a - T0[0]) * 1e3, (b - T0[0]) * 1e3) for lab, th, a, b in marks]
    print(json.dumps(out))


def _instrument(variant, mark, pc):
    import threading

    from cuarray._core import elementwise, transfer
    from cuarray.cuda import _backend, _kernel_cache, compiler, device, launch, memory, module, pinned_memory

    def wrap(obj, name, label, min_ms=0.05):
        f = getattr(obj, name)

        def w(*a, **k):
            t = pc()
            try:
                return f(*a, **k)
            finally:
                t2 = pc()
                if (t2 - t) * 1e3 >= min_ms:
                    mark(label, t, t2)

        setattr(obj, name, w)

    wrap(_backend, "driver", "import cuda.bindings.driver (or cached)")
    wrap(_backend, "core", "import cuda.core (or cached)")
    wrap(_backend, "ensure_initialized", "ensure_initialized")
    wrap(device, "_check_ordinal", "_check_ordinal")
    wrap(device, "_core_device", "_core_device")
    wrap(compiler, "_cache_key", "cache key")
    wrap(_kernel_cache, "load", "kernel cache file read+check")
    wrap(compiler, "Module", "Module (ObjectCode.from_cubin)")
    wrap(module.Module, "get_function", "get_function (module load)")
    wrap(elementwise.Definition, "_kernel", "Definition._kernel (whole)")
    wrap(memory, "_allocator", "device alloc", 0.02)
    wrap(pinned_memory, "alloc_pinned_memory", "pinned alloc", 0.02)
    wrap(transfer, "_h2d", "h2d", 0.02)
    wrap(launch, "enqueue", "first enqueue (launch)", 0.0)
    launch._set_enqueue(launch.enqueue)  # (the engine skeletons hold it too)
    wrap(device.Device, "synchronize", "sync", 0.0)
    if variant == "old":
        device._init_overlapped = _old_init(device, _backend, mark, pc, threading)
    elif variant in ("new", "switch"):
        device._init_overlapped = _new_init(device, _backend, mark, pc, threading, variant == "switch")
    elif variant == "serial":
        device._first_use[0] = False
    else:
        wrap(device, "_init_overlapped", "_init_overlapped (whole)")


def _old_init(device, _backend, mark, pc, threading):
    def init(device_id):
        device._first_use[0] = False
        t = pc(); drv = _backend.driver(); mark("old: import cuda.bindings.driver", t)
        t = pc(); drv.cuDriverGetVersion(); mark("old: cuDriverGetVersion (load libcuda)", t)

        def import_core():
            t = pc(); _backend.core(); mark("old: import cuda.core (thread)", t)

        th = threading.Thread(target=import_core, name="import-core", daemon=True)
        th.start()
        t = pc(); _backend.ensure_initialized(); mark("old: cuInit (ensure_initialized)", t)
        t = pc(); err, cu_dev = drv.cuDeviceGet(device_id); mark("old: cuDeviceGet", t)
        t = pc(); drv.cuDevicePrimaryCtxRetain(cu_dev); mark("old: ctx retain", t)
        t = pc(); th.join(); mark("old: join wait", t)

    return init


def _new_init(device, _backend, mark, pc, threading, switch):
    def warm(device_id):
        import ctypes

        t = pc(); lib = ctypes.CDLL("libcuda.so.1", mode=os.RTLD_NOW | os.RTLD_GLOBAL); mark("new: dlopen libcuda", t)
        t = pc(); lib.cuInit(0); mark("new: cuInit", t)
        dev = ctypes.c_int()
        t = pc(); lib.cuDeviceGet(ctypes.byref(dev), device_id); mark("new: cuDeviceGet", t)
        ctx = ctypes.c_void_p()
        t = pc(); lib.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev); mark("new: ctx retain", t)

    def init(device_id):
        device._first_use[0] = False
        old = sys.getswitchinterval()
        if switch:
            sys.setswitchinterval(1e-4)
        th = threading.Thread(target=warm, args=(device_id,), name="cuInit", daemon=True)
        th.start()
        t = pc(); _backend.driver(); mark("new: import cuda.bindings.driver", t)
        t = pc(); _backend.core(); mark("new: import cuda.core", t)
        t = pc(); th.join(); mark("new: join wait", t)
        sys.setswitchinterval(old)

    return init


# ----------------------------------------------------------------------------------------------
# parent


def _run(variant, cache, importtime=False):
    env = dict(os.environ, CUARRAY_CACHE_DIR=cache, CUPY_CACHE_DIR=cache + "-cupy")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (ROOT, env.get("PYTHONPATH")) if p)
    cmd = [sys.executable] + (["-X", "importtime"] if importtime else []) + [__file__, "--child", variant]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    if p.returncode != 0:
        return {"variant": variant, "error": p.stderr.strip().splitlines()[-3:]}, p.stderr
    return json.loads(p.stdout.strip().splitlines()[-1]), p.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--child")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--variants", default="tree,old,new,switch,serial,floor,cupy")
    ap.add_argument("--importtime", action="store_true")
    ap.add_argument("--json")
    ap.add_argument("--hold-context", action="store_true",
                    help="keep a CUDA context open in this process while the children run")
    args = ap.parse_args()
    if args.child:
        return _child(args.child)
    if args.hold_context:
        sys.path.insert(0, ROOT)
        import cuarray

        held = cuarray.zeros(1)  # noqa: F841  (initialises the driver and retains the primary context)
        cuarray.cuda.Device().synchronize()
        print("parent holds a context")
    variants = args.variants.split(",")
    with tempfile.TemporaryDirectory(prefix="cuarray-first-op-") as cache:
        pop, _ = _run("tree", cache)  # populate the kernel cache (and CuPy's below)
        print("populate run: {:.1f} ms".format(pop.get("first_op_s", float("nan")) * 1e3))
        if "cupy" in variants:
            _run("cupy", cache)
        results = {v: [] for v in variants}
        for _ in range(args.reps):
            for v in variants:
                r, _ = _run(v, cache)
                results[v].append(r)
        print("\nfirst op, warm cache, {} fresh processes each: median [min-max] ms".format(args.reps))
        for v in variants:
            ok = [r for r in results[v] if "first_op_s" in r]
            if not ok:
                print("  {:9s} failed: {}".format(v, results[v][0].get("error")))
                continue
            ts = sorted(r["first_op_s"] * 1e3 for r in ok)
            extra = ""
            if "second_op_s" in ok[0]:
                extra = "  second op {:.2f} ms, modules imported in the first op {}".format(
                    statistics.median(r["second_op_s"] * 1e3 for r in ok), ok[0]["modules_imported"])
            print("  {:9s} {:7.1f} [{:.1f}-{:.1f}]{}".format(v, statistics.median(ts), ts[0], ts[-1], extra))
        for v in variants:
            ok = sorted((r for r in results[v] if "first_op_s" in r), key=lambda r: r["first_op_s"])
            if not ok:
                continue
            med = ok[len(ok) // 2]
            print("\n-- {} (median run, {:.1f} ms): label | thread | start | end | dur (ms)".format(
                v, med["first_op_s"] * 1e3))
            for lab, th, a, b in sorted(med["marks"], key=lambda m: m[2]):
                print("   {:46s} {:14s} {:7.1f} {:7.1f} {:7.1f}".format(lab, th, a, b, b - a))
            if med.get("ours_imported"):
                print("   our modules imported in the first op:", ", ".join(med["ours_imported"]))
        if args.importtime:
            r, err = _run("tree", cache, importtime=True)
            new = set(r.get("new_modules", ()))
            rows = []
            for line in err.splitlines():
                if not line.startswith("import time:") or "|" not in line:
                    continue
                parts = line.split("|")
                try:
                    self_us, cum_us = int(parts[0].split(":")[1]), int(parts[1])
                except ValueError:
                    continue
                name = parts[2].strip()
                if name in new:
                    rows.append((cum_us, self_us, parts[2].rstrip()))
            print("\n-X importtime, imports inside the first op ({} modules; first op {:.1f} ms under importtime):"
                  .format(len(new), r.get("first_op_s", float("nan")) * 1e3))
            print("   top by self time:")
            for cum, slf, name in sorted(rows, key=lambda x: -x[1])[:25]:
                print("   self {:6.1f} cum {:6.1f} ms {}".format(slf / 1e3, cum / 1e3, name))
            print("   top-level (cumulative):")
            for cum, slf, name in sorted(rows, key=lambda x: -x[0])[:25]:
                if len(name) - len(name.lstrip()) <= 2:
                    print("   cum {:6.1f} ms {}".format(cum / 1e3, name))
        if args.json:
            with open(args.json, "w") as f:
                json.dump(results, f)


if __name__ == "__main__":
    main()
