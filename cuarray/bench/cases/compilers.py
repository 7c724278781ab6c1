"""Lazy mode against the compilers (group `compilers`; it runs only when named: `--group compilers`).

Ten workloads (`_compiler_workloads.py`): the seed's logistic-regression loop and gradient,
softmax, layer normalisation, a 5-point stencil, GELU after a matmul with a bias, a chain of 10
elementwise operations, the variance by two passes, Black-Scholes and a k-means assignment. Each
is written once as NumPy code, which cuarray runs unchanged under `cuarray.lazy` (the `cuarray`
column) and JAX runs through `jax.numpy` under `jax.jit` (`jax`), and once for PyTorch, compiled by
`torch.compile` in its default mode (`torch`) and with `mode="max-autotune-no-cudagraphs"`
(`torch-autotune`). Every column's result is checked against NumPy's on the host (a wrong one is
the cell's error). float32 throughout, products at full float32 (no TF32, in JAX
`default_matmul_precision("highest")`).

Two rows a workload:
- `cmp-<name>`: the steady state. A timed call enqueues `OPS` calls back to back and then waits
  for the last (the seed's loop: one call of its 100 steps); host clock (JAX has no CUDA events),
  time per call. Back to back, a library whose host work per call exceeds the GPU's shows it.
- `cmp-<name>-first`: the first run, trace and compile included: from before the function is
  made to its result, with every cache that would skip work emptied first, in the process and on
  disk (each adapter's `cold` says what it empties and what it keeps); median of `size` runs.
  The note gives the same run with the disk caches it just wrote kept (cuarray's kernels,
  inductor's FX graphs and Triton kernels; JAX keeps none by default): a second process's wait.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import tempfile
import time

import numpy

from ..report import fmt_time
from . import register
from ._compiler_workloads import WORKLOADS, Reference, check

OPS = 10
FIRST_RUNS, FIRST_RUNS_QUICK = 3, 1
COLUMNS = ("cuarray", "torch", "torch-autotune", "jax")
_TORCH_MODES = {"torch": None, "torch-autotune": "max-autotune-no-cudagraphs"}


class _Cuarray:
    """The NumPy code as written, under `cuarray.lazy` (a decorated function: one lazy block a call,
    or a step of the loop)."""

    def __init__(self, xp, name):
        self.xp = xp

    def put(self, a):
        return self.xp.asarray(a)

    def host(self, r):
        return r.get()

    def wait(self, out):
        self.xp.cuda.Device().synchronize()

    def make(self, w):
        xp, body = self.xp, w.numpy
        step = xp.lazy(lambda *a: body(xp, *a))
        return step if w.steps is None else _python_loop(w, step)

    @contextlib.contextmanager
    def cold(self):
        # Empties every in-process cache (fused plans and their generated code, compiled modules,
        # prepared launches, graph replays) and points the kernel disk cache at an empty folder:
        # the run traces, plans, generates and compiles each kernel with NVRTC. Kept: the CUDA
        # context, the memory pool and the math libraries' handles (created by the steady row).
        saved = os.environ.get("CUARRAY_CACHE_DIR")
        with tempfile.TemporaryDirectory(prefix="cuarray-cold-") as folder:
            os.environ["CUARRAY_CACHE_DIR"] = folder
            try:
                self.xp.cuda.clear_caches()
                yield
            finally:
                if saved is None:
                    os.environ.pop("CUARRAY_CACHE_DIR", None)
                else:
                    os.environ["CUARRAY_CACHE_DIR"] = saved
        self.xp.cuda.clear_caches()  # nothing compiled into the removed folder is used again

    def forget(self) -> bool:
        """Empty the in-process caches, keep the disk cache (a second process's first run)."""
        self.xp.cuda.clear_caches()
        return True


class _Torch:
    """The PyTorch rewrite under `torch.compile(fullgraph=True)`: a graph break raises instead of
    running part of the code eagerly unnoticed; the loop calls the compiled step."""

    def __init__(self, torch, name):
        self.torch, self.mode = torch, _TORCH_MODES[name]
        torch.set_float32_matmul_precision("highest")  # no TF32: the float32 product every column computes
        # One workload's graphs at a time: the compiled lambdas share one code object, whose guards
        # would otherwise pile up to dynamo's recompile limit (past it, dynamo runs them eagerly).
        torch._dynamo.reset()

    def put(self, a):
        return self.torch.from_numpy(a).cuda()

    def host(self, r):
        return r.cpu().numpy()

    def wait(self, out):
        self.torch.cuda.synchronize()

    def make(self, w):
        torch, body = self.torch, w.torch
        step = torch.compile(lambda *a: body(torch, *a), mode=self.mode, fullgraph=True)
        return step if w.steps is None else _python_loop(w, step)

    @contextlib.contextmanager
    def cold(self):
        # dynamo's compiled frames reset, then inductor's fresh cache: its in-memory caches emptied
        # and its FX-graph, autotuning and Triton kernel caches in a new empty folder, so the run
        # traces, lowers, autotunes (max-autotune) and compiles every Triton kernel. Kept: the
        # CUDA context, the caching allocator and cuBLAS's handle.
        utils = importlib.import_module("torch._inductor.utils")
        fresh = getattr(utils, "fresh_cache", None) or utils.fresh_inductor_cache  # (its older name)
        self.torch._dynamo.reset()
        with fresh():
            yield
        self.torch._dynamo.reset()

    def forget(self) -> bool:
        self.torch._dynamo.reset()
        importlib.import_module("torch._inductor.utils").clear_inductor_caches()
        return True


class _Jax:
    """The NumPy code through `jax.numpy` under `jax.jit`; the loop is `lax.fori_loop` (a Python
    loop would be unrolled into the traced program)."""

    def __init__(self, jax, name):
        self.jax = jax

    def put(self, a):
        return self.jax.device_put(a)

    def host(self, r):
        return numpy.asarray(r)

    def wait(self, out):
        self.jax.block_until_ready(out)

    def make(self, w):
        jax, body = self.jax, w.numpy
        jnp = jax.numpy

        if w.steps is None:
            def fn(*a):
                with jax.default_matmul_precision("highest"):
                    return body(jnp, *a)
        else:
            def fn(*a):
                const = a[:w.nconst]
                with jax.default_matmul_precision("highest"):
                    state = jax.lax.fori_loop(0, w.steps, lambda i, s: tuple(body(jnp, *const, *s)), tuple(a[w.nconst:]))
                return state[0]
        return jax.jit(fn)

    @contextlib.contextmanager
    def cold(self):
        # Every traced function and compiled executable dropped (`jax.clear_caches`), and the
        # function jitted anew from a new closure: the run traces, lowers and compiles with XLA.
        # JAX's persistent compilation cache is off unless `jax_compilation_cache_dir` is set.
        # Kept: the CUDA context, XLA's allocator and the GEMM autotuning results of this process.
        self.jax.clear_caches()
        yield

    def forget(self) -> bool:
        return False  # no disk cache to read from (the persistent cache is off)


_ADAPTERS = {"cuarray": _Cuarray, "torch": _Torch, "torch-autotune": _Torch, "jax": _Jax}


def _python_loop(w, step):
    def loop(*args):
        const, state = args[:w.nconst], tuple(args[w.nconst:])
        for _ in range(w.steps):
            state = tuple(step(*const, *state))
        return state[0]
    return loop


def _host(lib, out):
    return tuple(lib.host(r) for r in out) if isinstance(out, tuple) else lib.host(out)


def _steady(name, w, reference):
    def setup(xp, n, param):
        lib = _ADAPTERS[name](xp, name)
        host_args, want = reference(n)
        args = tuple(lib.put(a) for a in host_args)
        call = lib.make(w)
        check(w, _host(lib, call(*args)), want, host_args)  # (the first call compiles)
        ops = 1 if w.steps else OPS

        def run():
            for _ in range(ops):
                out = call(*args)
            lib.wait(out)

        return run
    return setup


def _first(name, w, reference):
    def setup(xp, runs, param):
        return first_run(_ADAPTERS[name](xp, name), w, reference)
    return setup


def first_run(lib, w, reference):
    """The first-run row's callable for the column `lib` (an adapter): {"time_s", "disk_warm_s"}."""
    host_args, want = reference(w.size)
    args = tuple(lib.put(a) for a in host_args)

    def timed():
        start = time.perf_counter()
        out = lib.make(w)(*args)
        lib.wait(out)
        elapsed = time.perf_counter() - start
        check(w, _host(lib, out), want, host_args)
        return elapsed

    def first():
        lib.wait(None)
        with lib.cold():
            result = {"time_s": timed()}
            # Again with the in-process caches emptied and the disk caches just written kept:
            # what a second process running the same code waits for.
            if lib.forget():
                result["disk_warm_s"] = timed()
        return result

    return first


def _disk_warm_note(row) -> str:
    said = ["{} {}".format(name, fmt_time(cell["extras"]["disk_warm_s"])) for name, cell in row["libs"].items()
            if (cell.get("extras") or {}).get("disk_warm_s")]
    return "with the disk caches warm: " + ", ".join(said) if said else ""


def _register(w):
    ops = 1 if w.steps else OPS
    steady = register(
        "cmp-" + w.name, group="compilers", explicit=True,
        description="{}: steady state ({} back to back, then a wait; time per call)".format(
            w.description, "one loop" if w.steps else "{} calls".format(OPS)),
        size=w.size, quick=w.size, timing="host", ops=ops, size_label=w.size_label,
        nbytes=(lambda n, p: w.nbytes(n)) if w.nbytes else None,
        flops=(lambda n, p: w.flops(n)) if w.flops else None,
    )
    first = register(
        "cmp-{}-first".format(w.name), group="compilers", explicit=True,
        description="{}: first run, trace and compile included, caches emptied (median of runs)".format(w.description),
        size=FIRST_RUNS, quick=FIRST_RUNS_QUICK, timing="process",
        size_label=lambda runs: "{}, {} run{}".format(w.size_label(w.size), runs, "s" if runs > 1 else ""),
        note=_disk_warm_note,
    )
    reference = Reference(w)
    for name in COLUMNS:
        steady.setup(name)(_steady(name, w, reference))
        first.setup(name)(_first(name, w, reference))


for _w in WORKLOADS:
    _register(_w)
