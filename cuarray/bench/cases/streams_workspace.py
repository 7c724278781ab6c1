"""`streams-workspace`: memory that the math libraries keep per stream.

In a fresh process: one small matmul (64 x 64 float32), FFT (1024 complex64) and solve (32 x 32
float64) on each of 16 streams, then the results dropped and `free_all_blocks(stream=s)` for each
stream (CuPy's per-stream release), then `free_all_blocks()`. Reported: the pool's reserved bytes
during (after the work, results alive), after the per-stream releases and after the full release,
and the live bytes then (target: after <= live + 1 MiB; during <= CuPy's); also the device's used
memory growth during (cuMemGetInfo), which counts what a library allocates outside the pool (CuPy's
and PyTorch's cuBLAS workspaces). PyTorch has no per-stream release: `empty_cache()` for both.
The time is the child's wall time of the whole sequence (not a speed target).
"""

from __future__ import annotations

import json
import subprocess
import sys

from . import NotAvailable, register
from ..report import fmt_bytes
from .first_use import child_env

STREAMS = 16

_CHILD = r"""
import json, time
import numpy
rng = numpy.random.default_rng(0)
h = rng.random((64, 64), dtype=numpy.float32) + 0.5
hc = (rng.random(1024) + 1j * rng.random(1024)).astype(numpy.complex64)
hA = rng.random((32, 32)) + 32 * numpy.eye(32)
hb = rng.random(32)
{setup}
up(h); sync()  # context and libraries' first use out of the way: this row is about memory
{warm}
release_all()
before, used0 = reserved(), device_used()
t0 = time.perf_counter()
streams = [new_stream() for _ in range({streams})]
outs = []
for s in streams:
    with on(s):
        a = up(h)
        outs.append((a @ a, fft(up(hc)), solve(up(hA), up(hb))))
sync()
during, live_during, dev_during = reserved(), live(), device_used() - used0
for mm, f, x in outs[:2]:
    assert numpy.allclose(host(mm), h @ h, rtol=1e-4) and numpy.allclose(host(f), numpy.fft.fft(hc), rtol=1e-3, atol=1e-3)
    assert numpy.allclose(host(x), numpy.linalg.solve(hA, hb))
del outs, a, mm, f, x
for s in streams:
    release_stream(s)
after_streams = reserved()
release_all()
after, live_after = reserved(), live()
print(json.dumps({{"time_s": time.perf_counter() - t0, "before": before, "during": during, "live_during": live_during,
                  "after_streams": after_streams, "after": after, "live_after": live_after,
                  "device_during": dev_during}}))
"""

_SETUP = {
    "cuarray": """import cuarray as xp
pool = xp.get_default_memory_pool()
up, host, sync = xp.asarray, xp.asnumpy, xp.cuda.Device().synchronize
fft, solve = xp.fft.fft, xp.linalg.solve
new_stream, on = (lambda: xp.cuda.Stream(non_blocking=True)), (lambda s: s)
reserved, live = pool.total_bytes, pool.used_bytes
release_stream, release_all = (lambda s: pool.free_all_blocks(stream=s)), pool.free_all_blocks
device_used = lambda: (lambda f, t: t - f)(*xp.cuda.runtime.memGetInfo())""",
    "cupy": """import cupy as xp
pool = xp.get_default_memory_pool()
up, host, sync = xp.asarray, xp.asnumpy, xp.cuda.Device().synchronize
fft, solve = xp.fft.fft, xp.linalg.solve
new_stream, on = (lambda: xp.cuda.Stream(non_blocking=True)), (lambda s: s)
reserved, live = pool.total_bytes, pool.used_bytes
release_stream, release_all = (lambda s: pool.free_all_blocks(stream=s)), pool.free_all_blocks
device_used = lambda: (lambda f, t: t - f)(*xp.cuda.runtime.memGetInfo())""",
    "torch": """import torch
up, host, sync = (lambda a: torch.from_numpy(a).cuda()), (lambda t: t.cpu().numpy()), torch.cuda.synchronize
fft, solve = torch.fft.fft, torch.linalg.solve
new_stream, on = torch.cuda.Stream, torch.cuda.stream
reserved, live = torch.cuda.memory_reserved, torch.cuda.memory_allocated
release_stream, release_all = (lambda s: torch.cuda.empty_cache()), torch.cuda.empty_cache
device_used = lambda: (lambda f, t: t - f)(*torch.cuda.mem_get_info())""",
}
# The libraries' own first use (handles, plans, first kernels) on the default stream, before the
# measured part: what is left afterwards is per-stream memory.
_WARM = "a = up(h); a @ a; fft(up(hc)); solve(up(hA), up(hb)); sync(); del a"


def _run(lib: str) -> dict:
    src = _CHILD.format(setup=_SETUP[lib], warm=_WARM, streams=STREAMS)
    proc = subprocess.run([sys.executable, "-c", src], capture_output=True, text=True,
                          env=child_env(lib, None), timeout=600)
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["exit status {}".format(proc.returncode)])[-1]
        if last.startswith(("NotImplementedError", "AttributeError", "ModuleNotFoundError")):
            raise NotAvailable("not available in the child ({})".format(last))
        raise RuntimeError("child process failed: " + last)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _note(row) -> str:
    parts = []
    for name, cell in row["libs"].items():
        e = cell.get("extras") or {}
        if "during" in e:
            parts.append("{}: during {} (device +{}), after {} (live {})".format(
                name, fmt_bytes(e["during"]), fmt_bytes(e["device_during"]), fmt_bytes(e["after"]),
                fmt_bytes(e["live_after"])))
    return "; ".join(parts)


streams_workspace = register(
    "streams-workspace",
    group="memory",
    description="small matmul + fft + solve on each of 16 streams; pool reserved during / after free_all_blocks",
    size=1,
    quick=1,
    timing="process",
    size_label="{} run".format,
    note=_note,
)


@streams_workspace.setup("cuarray", "cupy", "torch")
def _(xp, runs, param):
    lib = xp.__name__
    return lambda: _run(lib)
