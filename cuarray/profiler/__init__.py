"""`cuarray.profile()`: where the GPU time (and the host time) of a region of code went.

    with cuarray.profile() as prof:
        train_step()
    print(prof)                                   # one row per kernel, transfer, sync, ...
    print(prof.table(sort="host_time", limit=10))
    prof.export_chrome_trace("step.json")         # chrome://tracing or ui.perfetto.dev

Each kernel launch gets two CUDA events (GPU time), transfers their bytes and rate, and host
synchronisations the cuarray call that caused them; pool misses and kernel compiles get rows
too, and so do cuBLAS calls (matmul, dot). Leaving the block waits for the device. See
docs/profiling.md. cuFFT and cuSOLVER calls are not recorded. No cost when no profile is active:
the runtime's plain entry points are swapped back.
"""

from __future__ import annotations

from ..cuda import device as _device
from ..cuda import nvtx as _nvtx
from ..cuda.profiling import Recorder
from . import _report
from ._benchmark import PerfCaseResult as PerfCaseResult
from ._benchmark import benchmark as benchmark

__all__ = ["profile", "Profile", "time_range", "benchmark", "PerfCaseResult"]


class Profile:
    """The result of ``with cuarray.profile() as prof:``; `print(prof)` shows its table.

    `records`: one dict per event, in host order; `rows()`: one aggregated dict per op;
    `summary`: totals (wall and GPU time in us, counts).
    """

    def __init__(self, nvtx: bool = False, gpu_time: bool = True):
        self.nvtx = nvtx
        self.gpu_time = gpu_time
        self.records: list = []
        self.summary: dict = {}
        self._recorder = None

    def __enter__(self) -> "Profile":
        if self.nvtx:
            _nvtx._nvtx()  # a missing `nvtx` package fails here, not at the first launch
        self._recorder = Recorder(nvtx=self.nvtx, gpu_time=self.gpu_time).start()
        return self

    def __exit__(self, *exc) -> None:
        rec, self._recorder = self._recorder, None
        self.records = rec.stop()
        self.device_id = _device.get_device_id()
        self.summary = _report.summarize(self.records, (rec.t_stop - rec.t_start) / 1e3)

    def rows(self) -> list:
        return _report.aggregate(self.records)

    def table(self, sort: str = "gpu_time", limit: int | None = None) -> str:
        """The table as text; `sort`: gpu_time, gpu_mean, host_time, calls, bytes, name."""
        return _report.format_table(self.rows(), self.summary, sort=sort, limit=limit)

    def __str__(self) -> str:
        return self.table()

    def __repr__(self) -> str:
        return "<cuarray.profiler.Profile: {} records>".format(len(self.records))

    def to_dict(self) -> dict:
        return {"summary": self.summary, "rows": self.rows(), "records": self.records}

    def to_json(self) -> str:
        """`to_dict()` as JSON text: summary, rows and records."""
        return _report.dumps(self.to_dict())

    def export_chrome_trace(self, path: str) -> None:
        """Write a Chrome trace (chrome://tracing, ui.perfetto.dev): host spans on one track,
        GPU work on one track per stream."""
        with open(path, "w") as f:
            f.write(_report.dumps(_report.chrome_trace(self.records, getattr(self, "device_id", 0))))


def profile(nvtx: bool = False, gpu_time: bool = True) -> Profile:
    """A context manager that records GPU work and prints as a per-op table (see the module).

    `nvtx=True` also opens an NVTX range named after each kernel around its launch, for Nsight
    Systems (needs the `nvtx` package; ImportError otherwise). `gpu_time=False` records no CUDA
    events (calls, host time and bytes only): for host-bound code of tiny ops, where two events
    per launch would add several microseconds of host time to each op.
    """
    return Profile(nvtx=nvtx, gpu_time=gpu_time)


class time_range:
    """An NVTX range around a block or function, for Nsight Systems. See `cupyx.profiler.time_range`.

    Needs the `nvtx` package (ImportError on entry otherwise).
    """

    def __init__(self, message: str):
        self.message = message

    def __enter__(self):
        _nvtx.range_push(self.message)
        return self

    def __exit__(self, *exc):
        _nvtx.range_pop()

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def wrapped(*a, **kw):
            with self:
                return fn(*a, **kw)

        return wrapped
