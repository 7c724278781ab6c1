"""`cold-start`: what a fresh process pays (docs/bench-targets.md: import <= 0.3 s; first op with a warm
kernel cache <= CuPy).

Rows: `import` (the import alone); `first-add-cold` (the first ``x + y`` of two small float32
arrays with an EMPTY kernel cache: ``CUARRAY_CACHE_DIR`` / ``CUPY_CACHE_DIR`` point at a fresh
directory); `first-add-warm` (the same cache directory populated by one earlier process). The time
is measured inside the child, from just before the arrays are made to after the sync following the
add; it includes context creation, which every first operation pays. The child's whole wall time
(interpreter start included) is kept as ``process_wall_s``. `size` is the number of runs (median).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

from . import NotAvailable, register
import cuarray

_CHILD = r"""
import json, time
t0 = time.perf_counter()
import {lib} as xp
out = {{"import_s": time.perf_counter() - t0}}
if {add}:
    import numpy
    rng = numpy.random.default_rng(0)
    hx, hy = rng.random(16, dtype=numpy.float32), rng.random(16, dtype=numpy.float32)
    t1 = time.perf_counter()
    {add_code}
    out["first_op_s"] = time.perf_counter() - t1
    assert numpy.allclose({to_host}, hx + hy), "wrong result of the first add"
print(json.dumps(out))
"""

# Per library: make the arrays, add, sync (all inside the timed region); copy the result back.
_ADD = {
    "cuarray": ("z = xp.asarray(hx) + xp.asarray(hy); xp.cuda.Device().synchronize()", "xp.asnumpy(z)"),
    "cupy": ("z = xp.asarray(hx) + xp.asarray(hy); xp.cuda.Device().synchronize()", "xp.asnumpy(z)"),
    "torch": ("z = xp.from_numpy(hx).cuda() + xp.from_numpy(hy).cuda(); xp.cuda.synchronize()",
              "z.cpu().numpy()"),
    "numpy": ("z = hx + hy", "z"),
}
_CACHE_ENV = {"cuarray": "CUARRAY_CACHE_DIR", "cupy": "CUPY_CACHE_DIR"}

cold_start = register(
    "cold-start",
    group="cold-start",
    description="fresh process: import; first x + y with an empty / a warm kernel cache",
    size=5,
    quick=1,
    params=("import", "first-add-cold", "first-add-warm"),
    timing="process",
    size_label="median of {} runs".format,
    note=lambda row: _wall_note(row),
)


def _wall_note(row) -> str:
    walls = ["{} {:.2f} s".format(n, c["extras"]["process_wall_s"])
             for n, c in row["libs"].items() if (c.get("extras") or {}).get("process_wall_s")]
    return "process wall: " + ", ".join(walls) if walls else ""


def _child_env(cache_dir: str | None, lib: str) -> dict:
    env = dict(os.environ)
    # The child must import the same cuarray as this process, installed or not.

    root = os.path.dirname(os.path.abspath(list(cuarray.__path__)[0]))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    if cache_dir is not None and lib in _CACHE_ENV:
        env[_CACHE_ENV[lib]] = cache_dir
    return env


def _run_child(lib: str, add: bool, cache_dir: str | None) -> dict:
    import time

    code, to_host = _ADD[lib]
    src = _CHILD.format(lib=lib, add=add, add_code=code, to_host=to_host)
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", src], capture_output=True, text=True,
                          env=_child_env(cache_dir, lib), timeout=600)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        lines = proc.stderr.strip().splitlines() or ["exit status {}".format(proc.returncode)]
        last = lines[-1]
        if last.startswith(("NotImplementedError", "AttributeError")):
            raise NotAvailable("not implemented in the child ({})".format(last))
        raise RuntimeError("child process failed: " + last)
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    out["time_s"] = out["first_op_s"] if add else out["import_s"]
    out["process_wall_s"] = wall
    return out


@cold_start.setup("cuarray", "cupy", "torch", "numpy")
def _(xp, runs, param):
    lib = xp.__name__
    if param == "import":
        yield lambda: _run_child(lib, False, None)
    elif param == "first-add-cold":

        def cold():
            with tempfile.TemporaryDirectory(prefix="cuarray-bench-cache-") as d:
                return _run_child(lib, True, d)

        yield cold
    else:
        with tempfile.TemporaryDirectory(prefix="cuarray-bench-cache-") as d:
            _run_child(lib, True, d)  # populate the cache
            yield lambda: _run_child(lib, True, d)
