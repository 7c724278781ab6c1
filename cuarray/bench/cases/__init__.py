"""The table of benchmark cases for `python -m cuarray.bench`.

The cases live inside the package, not in a top-level ``benchmarks/`` folder, so that an installed
cuarray can run them (``pip install cuarray`` ships no top-level folders).

A case is one `register(...)` call plus one setup function per library::

    x2 = register("ew-x2", group="ew-large", description="x * 2, float32 contiguous",
                  size=2**28, quick=2**26, nbytes=lambda n, p: 8 * n)

    @x2.setup("cuarray", "cupy", "numpy")
    def _(xp, n, param):
        x = random_array(xp, n, "float32")
        return lambda: x * 2

A setup receives the imported library module (``torch`` for "torch"), the size (``quick`` in
``--quick``) and the row's parameter, and returns a zero-argument callable that enqueues the work.
It may instead be a generator that yields that callable and cleans up after the ``yield``. Raising
`NotAvailable` (or NotImplementedError/AttributeError, for cuarray features not written yet) makes
the cell "n/a" with the reason; the run goes on.
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import sys
import time
from typing import Any, Callable

__all__ = ["Case", "NotAvailable", "register", "all_cases", "select", "random_array", "LIBRARIES"]

# Column order of the table: cuarray first, then its peers. torch-autotune and jax are the
# `compilers` group's columns: PyTorch compiled with mode="max-autotune-no-cudagraphs", and JAX.
LIBRARIES = ("cuarray", "numpy", "cupy", "torch", "torch-autotune", "jax")

# Every module under cases/ registers its cases on import (found by listing the package, so a new
# file needs no edit here). These come first, in this order; the rest follow by name.
_FIRST = ("copy",)


class NotAvailable(Exception):
    """Raised by a setup when this library cannot run this case; the message is the reason."""


@dataclasses.dataclass
class Case:
    """One benchmark case: one row per entry of `params`.

    timing: "events" (CUDA events around each call; host perf_counter for NumPy), "host"
    (perf_counter around call + device sync; a returned dict is kept as extra numbers) or "process"
    (the callable measures itself and returns ``{"time_s": ..., **extras}``; `size` is then the
    number of runs). `ops` divides the time (host-overhead cases run `ops` operations per call).
    `nbytes`/`flops` are ``f(size, param)`` or numbers; they give GB/s or TFLOP/s and the fraction
    of the device's copy rate. `row_extras(size, param)` adds numbers that belong to the row, not
    to a library; `note(row)` writes the table's note. With `peers_once`, peers run only for the first param and their
    numbers are reused in the other rows (for cases whose params only change cuarray's setup).
    `rounds` > 1: the GPU libraries are set up together and timed in that many alternating rounds
    (`harness._run_alternating`), for rows bound by the host's time, which drifts with the host
    CPU's speed. An `explicit` case runs only when its id or group is named (`--group`, `--cases`),
    never in a run of everything: the compilers' first runs take minutes.
    """

    id: str
    group: str
    description: str
    size: Any = None
    quick: Any = None
    params: tuple = (None,)
    timing: str = "events"
    ops: int = 1
    nbytes: Any = None
    flops: Any = None
    peers_once: bool = False
    rounds: int = 1
    explicit: bool = False
    size_label: Callable[[Any], str] | None = None
    param_label: Callable[[Any], str] | None = None
    note: Callable[[dict], str] | None = None
    row_extras: Callable[[Any, Any], dict] | None = None
    setups: dict = dataclasses.field(default_factory=dict)

    def setup(self, *libraries: str):
        """Decorator: register `fn(xp, size, param)` as the setup for each named library."""
        for lib in libraries:
            if lib not in LIBRARIES:
                raise ValueError("unknown library {!r}; expected one of {}".format(lib, LIBRARIES))

        def deco(fn):
            for lib in libraries:
                self.setups[lib] = fn
            return fn

        return deco

    def size_for(self, quick: bool):
        return self.quick if quick and self.quick is not None else self.size

    def label(self, param) -> str:
        if param is None:
            return self.id
        text = self.param_label(param) if self.param_label else str(param)
        return "{}[{}]".format(self.id, text)

    def describe_size(self, size) -> str:
        if self.size_label is not None:
            return self.size_label(size)
        if size is None:  # the row's parameter carries the size (shown in the label)
            return ""
        return _human_count(size) if isinstance(size, int) else str(size)

    def amount(self, which: str, size, param) -> float | None:
        """Bytes moved or flops of one call (None when the case gives none)."""
        value = getattr(self, which)
        if value is None:
            return None
        return float(value(size, param) if callable(value) else value)


_CASES: dict[str, Case] = {}
_BROKEN: set[str] = set()


def register(id: str, group: str, description: str, **fields) -> Case:
    """Create a case and add it to the table; returns it so setups can be attached."""
    if id in _CASES:
        raise ValueError("benchmark case {!r} registered twice".format(id))
    case = Case(id=id, group=group, description=description, **fields)
    _CASES[id] = case
    return case


def _case_modules() -> list[str]:
    found = sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))
    return [m for m in _FIRST if m in found] + [m for m in found if m not in _FIRST]


def all_cases() -> list[Case]:
    """Every registered case, in registration order (importing the case modules once).

    A module that fails to import is reported on stderr and skipped, so one broken case file
    does not stop the others from running.
    """
    for name in _case_modules():
        try:
            importlib.import_module("{}.{}".format(__name__, name))
        except Exception as exc:
            if name not in _BROKEN:
                _BROKEN.add(name)
                print("cuarray.bench: cases/{}.py not loaded ({}: {})".format(name, type(exc).__name__, exc),
                      file=sys.stderr)
    return list(_CASES.values())


def select(ids: list[str] | None = None, groups: list[str] | None = None) -> list[Case]:
    """Cases whose id is in `ids` or whose group is in `groups` (all but the explicit ones when
    both are empty)."""
    cases = all_cases()
    if not ids and not groups:
        return [c for c in cases if not c.explicit]
    known = {c.id for c in cases} | {c.group for c in cases}
    unknown = [name for name in (ids or []) + (groups or []) if name not in known]
    if unknown:
        raise KeyError("unknown case or group: {}".format(", ".join(unknown)))
    ids, groups = set(ids or ()), set(groups or ())
    return [c for c in cases if c.id in ids or c.group in groups or c.group in ids]


def sampled_host(run_one, batch: int, sample: int):
    """A host column's timed call for a batch of independent problems SciPy solves one at a time:
    `run_one(i)` for the first `sample` of the `batch`, the time scaled to all of them."""
    n = min(sample, batch)

    def host():
        start = time.perf_counter()
        for i in range(n):
            run_one(i)
        return {"time_s": (time.perf_counter() - start) * batch / n, "sample": n}

    return host


def scipy_module(xp, sub: str):
    """`sub` ("signal", "ndimage", ...) of the library's SciPy namespace: cuarray.scipy's for
    cuarray, cupyx.scipy's for CuPy, SciPy's own for NumPy (the host column); NotAvailable for
    another library or where the module does not import."""
    name = getattr(xp, "__name__", "")
    prefix = {"cuarray": "cuarray.scipy.", "cupy": "cupyx.scipy.", "numpy": "scipy."}.get(name)
    if prefix is None:
        raise NotAvailable("no scipy.{} for {}".format(sub, name))
    try:
        return importlib.import_module(prefix + sub)
    except ImportError as exc:
        raise NotAvailable("{}{}: {}".format(prefix, sub, exc)) from None


def random_array(xp, shape, dtype="float32", seed: int = 0):
    """A random array on `xp`'s device (never zeros: they hide wrong indexing and arithmetic), made
    on the host with NumPy.

    Works for numpy, cuarray and cupy (``xp.asarray``) and torch (``from_numpy(...).cuda()``).
    """
    import numpy

    rng = numpy.random.default_rng(seed)
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    dt = numpy.dtype(dtype)
    if dt.kind in "iu":
        host = rng.integers(1, 100, size=shape, dtype=dt)
    elif dt.kind == "b":
        host = rng.random(shape, dtype=numpy.float32) < 0.5
    elif dt.kind == "c":
        host = (rng.random(shape) + 1j * rng.random(shape)).astype(dt)
    else:
        host = (rng.random(shape, dtype=numpy.float32) + 0.5).astype(dt)
    if getattr(xp, "__name__", "") == "torch":
        return xp.from_numpy(host).cuda()
    return xp.asarray(host)


def _human_count(n: int) -> str:
    for unit, scale in (("Gi", 2**30), ("Mi", 2**20), ("Ki", 2**10)):
        if n >= scale and n % scale == 0:
            return "{} {}".format(n // scale, unit)
    return "{:,}".format(n)
