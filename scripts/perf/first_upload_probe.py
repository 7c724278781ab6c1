"""The first host->device upload of a fresh process, phase by phase: cuarray against CuPy, on one
visible GPU (CUDA_VISIBLE_DEVICES=0) and on all of them (the variable unset). Issue 51: the bench's
`upload` (scripts/perf/first_call_phases.py, first-fft) was 492 ms for cuarray and 137 ms for CuPy
on a 2-GPU H100 host.

What the bench child times (cuarray/bench/cases/first_use.py) differs by library before any phase
is timed: CuPy's prelude `xp.cuda.Device()` calls cudaGetDevice, which initialises the CUDA runtime
and with it the driver (cuInit), *before* the clock starts; cuarray's `Device()` touches no driver,
so cuarray's clock includes importing cuda.bindings' driver module, loading libcuda and cuInit. The
rows here time every step on both sides, so that each library's whole first use is visible:

  cuarray      the library's own functions, one phase each: `import cuarray`; cuda.bindings' driver
               module import (`_backend.driver()`); loading libcuda (cuDriverGetVersion); cuInit and
               the device count (`_backend.ensure_initialized`); the primary context
               (`device._core_device`: cuDevicePrimaryCtxRetain + cuCtxSetCurrent); the pool's first
               allocation (cuMemAlloc of a 2 MiB segment); the pinned staging block (cuMemHostAlloc
               of the array's bytes, portable: transfer.py's small-upload path); the host copy into
               it; the copy (cuMemcpyAsync); the sync (cuCtxSynchronize).
  driver       the same driver calls made directly through cuda.bindings (no cuarray), plus a second
               pinned allocation (is the first one dearer?), a non-portable one, and a 32 KiB cuMemAlloc.
  overlap      what cuInit through ctypes in a thread, while the main thread imports cuda.bindings'
               driver module, would save (an option, not what cuarray does): import + cuInit + context.
  cupy         `import cupy` (+ cupyx.scipy.sparse, as the bench); cudaGetDevice (the runtime's and
               the driver's initialisation, unless the import did it); the pool's first allocation
               (the primary context + cudaMalloc); the pinned block; the host copy; the copy; the sync.
  bench rows   each library's bench child region exactly: `upload` = asarray + sync after the
               bench's prelude; `fair` = the same with no device call before the clock (CuPy's sync
               taken as runtime.deviceSynchronize); `sync only` = first-random's `upload` (no array).
               cuarray's also with an empty kernel cache (its first use then imports cuda.core in a
               thread beside cuInit).

Each row is the median of --runs fresh processes (ms). cuarray's children get a kernel cache
directory that is not empty (as the bench's warm cache), unless the row says otherwise.

    python scripts/perf/first_upload_probe.py [--runs 5] [--rows cuarray,driver,overlap,cupy,bench]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Every child: the same 32 KiB complex64 host array as the bench's first-fft, made before any clock.
_HEAD = r"""
import json, time, ctypes
import numpy
hc = (numpy.random.default_rng(0).random(4096) + 1j).astype(numpy.complex64)
NB = hc.nbytes
T = {}
_t = [time.perf_counter()]
def lap(name):
    now = time.perf_counter()
    T[name] = now - _t[0]
    _t[0] = now
"""

_TAIL = r"""
T["total after import"] = sum(v for k, v in T.items() if k not in ("import", "devices"))
print(json.dumps(T))
"""

CUARRAY = _HEAD + r"""
import cuarray
lap("import")
from cuarray.cuda import _backend, device, memory, pinned_memory, stream as _stream
drv = _backend.driver()
lap("import cuda.bindings.driver")
drv.cuDriverGetVersion()
lap("load libcuda")
_backend.ensure_initialized()
lap("cuInit + device count")
T["devices"] = _backend.check(drv.cuDeviceGetCount()) / 1e3  # (shown as a count, not ms)
device._core_device(0)
lap("primary context")
dmem = memory.alloc(NB)
lap("first device alloc")
blk = pinned_memory.alloc_pinned_memory(NB)
lap("pinned staging alloc")
ctypes.memmove(blk.ptr, hc.ctypes.data, NB)
lap("host copy to pinned")
dmem.copy_from_host_async(blk, NB, _stream.get_current_stream())
lap("copy queued")
cuarray.cuda.Device().synchronize()
lap("synchronize")
""" + _TAIL

DRIVER = _HEAD + r"""
from cuda.bindings import driver as d
lap("import cuda.bindings.driver")
d.cuDriverGetVersion()
lap("load libcuda")
d.cuInit(0)
lap("cuInit")
err, n = d.cuDeviceGetCount()
T["devices"] = n / 1e3
lap("cuDeviceGetCount")
err, dev = d.cuDeviceGet(0)
err, ctx = d.cuDevicePrimaryCtxRetain(dev)
lap("cuDevicePrimaryCtxRetain")
d.cuCtxSetCurrent(ctx)
lap("cuCtxSetCurrent")
err, dptr = d.cuMemAlloc(2 << 20)
lap("cuMemAlloc 2 MiB (first)")
err, dsmall = d.cuMemAlloc(NB)
lap("cuMemAlloc 32 KiB (second)")
err, hptr = d.cuMemHostAlloc(NB, d.CU_MEMHOSTALLOC_PORTABLE)
lap("cuMemHostAlloc portable (first)")
err, h2 = d.cuMemHostAlloc(NB, d.CU_MEMHOSTALLOC_PORTABLE)
lap("cuMemHostAlloc portable (second)")
err, h3 = d.cuMemHostAlloc(NB, 0)
lap("cuMemHostAlloc flags=0")
ctypes.memmove(hptr, hc.ctypes.data, NB)
lap("host copy to pinned")
d.cuMemcpyAsync(dptr, hptr, NB, 0)
lap("cuMemcpyAsync")
d.cuCtxSynchronize()
lap("cuCtxSynchronize")
d.cuMemcpyHtoD(dsmall, hc.ctypes.data, NB)
lap("pageable cuMemcpyHtoD (after)")
""" + _TAIL

# cuInit (and the context) through ctypes in a thread, while the main thread imports cuda.bindings'
# driver module (Python, holding the GIL); ctypes calls release the GIL.
OVERLAP = _HEAD + r"""
import threading
def _init():
    lib = ctypes.CDLL("libcuda.so.1")
    lib.cuInit(0)
    dev, ctx = ctypes.c_int(), ctypes.c_void_p()
    lib.cuDeviceGet(ctypes.byref(dev), 0)
    lib.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev)
th = threading.Thread(target=_init)
th.start()
from cuda.bindings import driver as d
lap("import cuda.bindings.driver (beside cuInit)")
d.cuInit(0)
lap("cuInit (waits for the thread)")
err, dev = d.cuDeviceGet(0)
err, ctx = d.cuDevicePrimaryCtxRetain(dev)
d.cuCtxSetCurrent(ctx)
th.join()
lap("primary context")
T["devices"] = d.cuDeviceGetCount()[1] / 1e3
""" + _TAIL

CUPY = _HEAD + r"""
import cupy
import cupyx.scipy.sparse
lap("import")
from cupy.cuda import runtime
runtime.getDevice()
lap("cudaGetDevice (runtime + driver init)")
T["devices"] = runtime.getDeviceCount() / 1e3
dmem = cupy.cuda.alloc(NB)
lap("first device alloc (context + cudaMalloc)")
blk = cupy.cuda.alloc_pinned_memory(NB)
lap("pinned staging alloc")
numpy.frombuffer(blk, hc.dtype, hc.size)[:] = hc
lap("host copy to pinned")
dmem.copy_from_host_async(blk.ptr, NB, cupy.cuda.get_current_stream())
lap("copy queued")
runtime.deviceSynchronize()
lap("synchronize")
""" + _TAIL

# The bench child's timed region (cuarray/bench/cases/first_use.py), and variants of its prelude.
_BENCH = r"""
{pre}
lap("import")
{up}
{sync}()
lap("{row}")
print(json.dumps(T))
"""
_CA = "import cuarray as xp\nsync = xp.cuda.Device().synchronize"
_CP = "import cupy as xp\nimport cupyx.scipy.sparse\nsync = xp.cuda."
_UP = "d = [xp.asarray(hc)]"
_BENCH_ROWS = {
    # name: (library, prelude after the import, upload, sync)
    "cuarray upload": ("cuarray", _CA, _UP, "sync"),
    "cuarray sync only": ("cuarray", _CA, "", "sync"),
    "cuarray upload, empty cache": ("cuarray", _CA, _UP, "sync"),
    "cupy upload (bench)": ("cupy", _CP + "Device().synchronize", _UP, "sync"),
    "cupy upload (fair)": ("cupy", _CP + "runtime.deviceSynchronize", _UP, "sync"),
    "cupy sync only (bench)": ("cupy", _CP + "Device().synchronize", "", "sync"),
    "cupy sync only (fair)": ("cupy", _CP + "runtime.deviceSynchronize", "", "sync"),
    "torch upload": ("torch", "import torch\nsync = torch.cuda.synchronize", "d = [torch.from_numpy(hc).cuda()]",
                     "sync"),
}


def _env(cache_dir: str | None, devices: str) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (ROOT, env.get("PYTHONPATH")) if p)
    env.pop("CUARRAY_PREFETCH_LIBS", None)
    if devices == "all":
        env.pop("CUDA_VISIBLE_DEVICES", None)
    else:
        env["CUDA_VISIBLE_DEVICES"] = devices
    if cache_dir is not None:
        env["CUARRAY_CACHE_DIR"] = cache_dir
    return env


def _median_of(src: str, env: dict, runs: int) -> dict | str:
    rows = []
    for _ in range(runs):
        p = subprocess.run([sys.executable, "-c", src], capture_output=True, text=True, env=env, timeout=600)
        if p.returncode:
            return "failed: " + (p.stderr.strip().splitlines() or ["exit {}".format(p.returncode)])[-1][:90]
        rows.append(json.loads(p.stdout.strip().splitlines()[-1]))
    return {k: statistics.median(r[k] for r in rows) for k in rows[0]}


def _print(title: str, by_devices: dict) -> None:
    """One table: a line per phase, a column per device set (ms; `devices` as a count)."""
    sets = list(by_devices)
    print("\n" + title)
    bad = {s: v for s, v in by_devices.items() if isinstance(v, str)}
    for s, why in bad.items():
        print("  [{}] {}".format(s, why))
    good = [s for s in sets if s not in bad]
    if not good:
        return
    print("  {:<44}".format("phase") + "".join("{:>12}".format("GPUs=" + s) for s in good))
    for k in by_devices[good[0]]:
        cells = []
        for s in good:
            v = by_devices[s].get(k)
            cells.append("{:>12}".format("-" if v is None else
                                         "{:.0f}".format(v * 1e3) if k == "devices" else "{:.1f}".format(v * 1e3)))
        print("  {:<44}".format(k) + "".join(cells))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--rows", default="cuarray,driver,overlap,cupy,bench")
    ap.add_argument("--devices", default="0,all", help="CUDA_VISIBLE_DEVICES values; 'all' unsets it")
    args = ap.parse_args()
    rows = args.rows.split(",")
    dev_sets = args.devices.split(",")
    with tempfile.TemporaryDirectory(prefix="upload-probe-warm-") as warm, \
            tempfile.TemporaryDirectory(prefix="upload-probe-empty-") as empty:
        # Not empty, as the bench's warm cache: cuarray's first use then imports no cuda.core.
        with open(os.path.join(warm, "placeholder"), "w") as f:
            f.write("not a kernel")
        print("median of {} fresh processes, ms".format(args.runs))
        for name, src in (("cuarray", CUARRAY), ("driver", DRIVER), ("overlap", OVERLAP), ("cupy", CUPY)):
            if name in rows:
                _print(name, {s: _median_of(src, _env(warm, s), args.runs) for s in dev_sets})
        if "bench" in rows:
            print("\nbench child regions (cuarray/bench/cases/first_use.py; `fair`: no device call before the clock)")
            print("  {:<44}".format("row") + "".join("{:>12}".format("GPUs=" + s) for s in dev_sets))
            for row, (lib, pre, up, sync) in _BENCH_ROWS.items():
                src = _HEAD + _BENCH.format(pre=pre, up=up, sync=sync, row=row)
                cells, why = [], ""
                for s in dev_sets:
                    # (an upload compiles nothing, so the empty directory stays empty)
                    res = _median_of(src, _env(empty if "empty cache" in row else warm, s), args.runs)
                    why = res if isinstance(res, str) else why
                    cells.append("{:>12}".format("n/a" if isinstance(res, str) else "{:.1f}".format(res[row] * 1e3)))
                print("  {:<44}".format(row) + "".join(cells) + ("  ({})".format(why[:70]) if why else ""))


if __name__ == "__main__":
    main()
