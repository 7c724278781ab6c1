"""`cold-start-libs`: the first call of each library family in a fresh process
with a warm kernel cache, against CuPy and PyTorch in the same run (target: each <= CuPy).

Rows: `first-matmul` (64 x 64 float32 ``a @ a``), `first-solve` (``linalg.solve`` of a 64 x 64
float64 system), `first-fft` (a 4096-point complex64 FFT), `first-random` (``default_rng(0).random``
of 4096 float32; PyTorch: a CUDA Generator and ``rand``), `first-sort` (4096 float32), `first-spmv`
(a 4096 x 4096 tridiagonal CSR matrix times a vector). The time runs from just before the first
upload to the sync after the call (driver initialisation and context creation included, as in
`cold-start`'s add rows), in the child; its extras split it into ``upload_s`` (context + upload,
synced) and ``call_s`` (the call alone). The kernel cache directory is populated by one earlier
child per library and row.
`scripts/perf/first_use_libs.py` prints the same children as a table, with cuarray's breakdown.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time

from . import NotAvailable, register
import cuarray

FAMILIES = ("first-matmul", "first-solve", "first-fft", "first-random", "first-sort", "first-spmv")

# Host data, made before the clock starts (the same for every library).
_HOST = r"""
import json, time
import numpy
rng = numpy.random.default_rng(0)
h64 = rng.random((64, 64), dtype=numpy.float32) + 0.5
hA = rng.random((64, 64)) + 64 * numpy.eye(64)
hb = rng.random(64)
hc = (rng.random(4096) + 1j * rng.random(4096)).astype(numpy.complex64)
hs = rng.random(4096, dtype=numpy.float32)
n = 4096
indptr = numpy.concatenate([[0], numpy.cumsum([2] + [3] * (n - 2) + [2])]).astype(numpy.int32)
cols = numpy.concatenate([[0, 1]] + [[i - 1, i, i + 1] for i in range(1, n - 1)] + [[n - 2, n - 1]]).astype(numpy.int32)
vals = rng.random(cols.size) + 0.5
hx = rng.random(n)
"""

# No device call before the clock (tests/bench/test_first_use_child_cpu.py): CuPy's `Device()` runs
# cudaGetDevice, which initialises the driver (cuInit); in the prelude it kept CuPy's cuInit out of
# `upload` while cuarray's (its `Device()` touches no driver) was in. cudaDeviceSynchronize
# is what CuPy's `Device().synchronize()` runs on the current device.
_PRE = {
    "cuarray": "import cuarray as xp\nsync = xp.cuda.Device().synchronize\n",
    "cupy": "import cupy as xp\nimport cupyx.scipy.sparse\nsync = xp.cuda.runtime.deviceSynchronize\n",
    "torch": "import torch\nsync = torch.cuda.synchronize\n",
}
_UP = {"cuarray": "xp.asarray({})", "cupy": "xp.asarray({})", "torch": "torch.from_numpy({}).cuda()"}

# family -> (host names uploaded, the call per library, the host result to check against)
_CALLS = {
    "first-matmul": (("h64",), {"cuarray": "z = d[0] @ d[0]", "cupy": "z = d[0] @ d[0]", "torch": "z = d[0] @ d[0]"},
                     "h64 @ h64"),
    "first-solve": (("hA", "hb"), {"cuarray": "z = xp.linalg.solve(d[0], d[1])", "cupy": "z = xp.linalg.solve(d[0], d[1])",
                                   "torch": "z = torch.linalg.solve(d[0], d[1])"}, "numpy.linalg.solve(hA, hb)"),
    "first-fft": (("hc",), {"cuarray": "z = xp.fft.fft(d[0])", "cupy": "z = xp.fft.fft(d[0])",
                            "torch": "z = torch.fft.fft(d[0])"}, "numpy.fft.fft(hc)"),
    "first-random": ((), {"cuarray": "z = xp.random.default_rng(0).random(4096, dtype=numpy.float32)",
                          "cupy": "z = xp.random.default_rng(0).random(4096, dtype=numpy.float32)",
                          "torch": "z = torch.rand(4096, generator=torch.Generator(device='cuda').manual_seed(0), "
                                   "device='cuda')"}, None),
    # Not a bench row (cold-start has first-add-warm): scripts/perf/first_use_libs.py uses it.
    "first-add": (("hs",), {"cuarray": "z = d[0] + d[0]", "cupy": "z = d[0] + d[0]", "torch": "z = d[0] + d[0]"},
                  "hs + hs"),
    "first-sort": (("hs",), {"cuarray": "z = xp.sort(d[0])", "cupy": "z = xp.sort(d[0])",
                             "torch": "z = torch.sort(d[0]).values"}, "numpy.sort(hs)"),
    "first-spmv": (("vals", "cols", "indptr", "hx"),
                   {"cuarray": "z = xp.sparse.csr_matrix((d[0], d[1], d[2]), shape=(n, n)) @ d[3]",
                    "cupy": "z = cupyx.scipy.sparse.csr_matrix((d[0], d[1], d[2]), shape=(n, n)) @ d[3]",
                    "torch": "z = torch.mv(torch.sparse_csr_tensor(d[2], d[1], d[0], size=(n, n)), d[3])"},
                   "_spmv_host(vals, cols, indptr, hx)"),
}
_TO_HOST = {"cuarray": "xp.asnumpy(z)", "cupy": "xp.asnumpy(z)", "torch": "z.cpu().numpy()"}
_CACHE_ENV = {"cuarray": "CUARRAY_CACHE_DIR", "cupy": "CUPY_CACHE_DIR"}


def child_source(lib: str, family: str, prelude: str = "") -> str:
    """The child program: host data, import (not timed), then upload and call timed; prints JSON
    {"import_s", "upload_s", "call_s", "first_call_s"}. `prelude` runs right after the import
    (scripts/perf/first_use_libs.py uses it to try variants)."""
    names, calls, expect = _CALLS[family]
    up = ", ".join(_UP[lib].format(h) for h in names)
    lines = [_HOST,
             "def _spmv_host(v, c, p, x):\n    y = numpy.zeros(len(p) - 1)\n"
             "    for r in range(len(p) - 1):\n        y[r] = v[p[r]:p[r + 1]] @ x[c[p[r]:p[r + 1]]]\n    return y\n",
             "t0 = time.perf_counter()", _PRE[lib], "t_import = time.perf_counter() - t0", prelude,
             "t1 = time.perf_counter()", "d = [{}]".format(up) if names else "d = []", "sync()",
             "t2 = time.perf_counter()", calls[lib], "sync()", "t3 = time.perf_counter()",
             "got = {}".format(_TO_HOST[lib])]
    if expect is not None:
        lines.append("assert numpy.allclose(got, {}, rtol=1e-4, atol=1e-4), 'wrong first result'".format(expect))
    else:
        lines.append("assert got.shape == (4096,) and 0 <= got.min() and got.max() < 1, 'wrong first result'")
    lines.append('print(json.dumps({"import_s": t_import, "upload_s": t2 - t1, "call_s": t3 - t2, '
                 '"first_call_s": t3 - t1}))')
    return "\n".join(lines)


def child_env(lib: str, cache_dir: str | None) -> dict:
    env = dict(os.environ)

    root = os.path.dirname(os.path.abspath(list(cuarray.__path__)[0]))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    if cache_dir is not None and lib in _CACHE_ENV:
        env[_CACHE_ENV[lib]] = cache_dir
    return env


def run_child(lib: str, family: str, cache_dir: str | None, prelude: str = "") -> dict:
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", child_source(lib, family, prelude)], capture_output=True,
                          text=True, env=child_env(lib, cache_dir), timeout=600)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["exit status {}".format(proc.returncode)])[-1]
        if last.startswith(("NotImplementedError", "AttributeError", "ModuleNotFoundError")):
            raise NotAvailable("not available in the child ({})".format(last))
        raise RuntimeError("child process failed: " + last)
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    out["time_s"] = out["first_call_s"]
    out["process_wall_s"] = wall
    return out


cold_start_libs = register(
    "cold-start-libs",
    # Its own group: `--cases cold-start` keeps meaning the import/first-add case alone
    # (tests/bench/test_bench_cpu.py); `--cases cold-start,cold-start-libs` runs both.
    group="cold-start-libs",
    description="fresh process, warm kernel cache: upload + the first call of each library family",
    size=5,
    quick=1,
    params=FAMILIES,
    timing="process",
    size_label="median of {} runs".format,
    note=lambda row: ", ".join("{} call {:.0f} ms".format(n, 1e3 * c["extras"]["call_s"])
                               for n, c in row["libs"].items() if (c.get("extras") or {}).get("call_s")),
)


@cold_start_libs.setup("cuarray", "cupy", "torch")
def _(xp, runs, param):
    lib = xp.__name__
    with tempfile.TemporaryDirectory(prefix="cuarray-bench-cache-") as d:
        run_child(lib, param, d)  # populate the kernel cache
        yield lambda: run_child(lib, param, d)
