"""The profiler without a GPU: rows, sorting, table text, JSON and Chrome-trace export from
records, and the Recorder's seams over a fake driver (swapped in while recording, plain after)."""

from __future__ import annotations

import json

import pytest

from cuarray.cuda import _backend, _observe, compiler, launch, memory, profiling, _sync_hooks
from cuarray._core import device_errors
from cuarray.cuda._memory_base import MemoryPointer
from cuarray.cuda.module import kernel_names
from cuarray.profiler import Profile, _report
from cuarray.testing.fake_device import FakeBacking


def rec(kind, name, h0, h1, gpu=None, g0=0.0, stream=7, nbytes=None):
    r = {"kind": kind, "name": name, "host_start_us": h0, "host_end_us": h1}
    if gpu is not None:
        r.update(stream=stream, gpu_start_us=g0, gpu_us=gpu)
    if nbytes is not None:
        r["bytes"] = nbytes
    return r


RECORDS = [
    rec("compile", "compile cuarray_add [nvrtc]", 0, 900),
    rec("kernel", "cuarray_add_f4", 900, 910, gpu=5.0, g0=900),
    rec("kernel", "cuarray_mul_f4", 910, 915, gpu=30.0, g0=906),
    rec("kernel", "cuarray_add_f4", 915, 920, gpu=7.0, g0=936),
    rec("transfer", "memcpy DtoH (pageable)", 920, 960, gpu=20.0, g0=945, nbytes=40_000),
    rec("sync", "synchronize (get)", 960, 1000),
]


def test_rows_aggregate_calls_gpu_host_and_bytes():
    rows = {r["name"]: r for r in _report.aggregate(RECORDS)}
    add = rows["cuarray_add_f4"]
    assert (add["calls"], add["gpu_us"], add["gpu_mean_us"], add["gpu_min_us"], add["gpu_max_us"]) == (2, 12.0, 6.0, 5.0, 7.0)
    assert add["host_us"] == 15.0  # 900->910 and 915->920: host time since the previous record
    assert add["gpu_share"] == pytest.approx(12 / 62)
    dtoh = rows["memcpy DtoH (pageable)"]
    assert dtoh["bytes"] == 40_000 and dtoh["gbps"] == pytest.approx(40_000 / 20e3)
    assert rows["synchronize (get)"]["gpu_us"] is None and rows["synchronize (get)"]["host_us"] == 40
    assert sum(r["host_us"] for r in rows.values()) == 1000  # the host column adds up to the wall time


@pytest.mark.parametrize("sort,first", [("gpu_time", "cuarray_mul_f4"), ("calls", "cuarray_add_f4"),
                                        ("host_time", "compile cuarray_add [nvrtc]"),
                                        ("gpu_mean", "cuarray_mul_f4"), ("bytes", "memcpy DtoH (pageable)"),
                                        ("name", "compile cuarray_add [nvrtc]")])
def test_sorting(sort, first):
    rows = _report.sort_rows(_report.aggregate(RECORDS), sort)
    assert rows[0]["name"] == first
    if sort == "gpu_time":  # rows without GPU time last
        assert [r["gpu_us"] is None for r in rows] == [False, False, False, True, True]


def test_unknown_sort_key():
    with pytest.raises(ValueError, match="gpu_time"):
        _report.sort_rows([], "fastest")


def test_table_text_and_limit():
    summary = _report.summarize(RECORDS, 1000.0)
    text = _report.format_table(_report.aggregate(RECORDS), summary, limit=2)
    lines = text.splitlines()
    assert lines[0].startswith("cuarray profile: wall 1.00 ms, GPU busy 62.0 us (3 launches, 0 library calls, "
                               "1 transfers, 1 syncs)")
    assert lines[1].split()[:4] == ["op", "calls", "GPU", "total"]
    assert set(lines[2]) == {"-"}
    assert lines[3].split()[0] == "cuarray_mul_f4" and "48.4" in lines[3]  # 30 of 62 us
    assert lines[4].startswith("memcpy DtoH (pageable) ") and lines[4].split()[3] == "1"
    assert lines[5] == "... 3 more rows (limit=2)"
    widths = {len(ln) for ln in lines[1:5]}
    assert len(widths) == 1  # columns line up


def test_fmt_time_units():
    assert [_report.fmt_time(t) for t in (None, 3.25, 1234.0, 2.5e6)] == ["-", "3.2 us", "1.23 ms", "2.50 s"]


def test_json_and_chrome_trace(tmp_path):
    p = Profile()
    p.records = RECORDS
    p.summary = _report.summarize(RECORDS, 1000.0)
    p.device_id = 0
    data = json.loads(p.to_json())
    assert data["summary"]["kernels"] == 3 and len(data["rows"]) == 5 and len(data["records"]) == 6
    path = tmp_path / "trace.json"
    p.export_chrome_trace(str(path))
    trace = json.loads(path.read_text())["traceEvents"]
    spans = [e for e in trace if e["ph"] == "X"]
    assert len([e for e in spans if e["pid"] == 0]) == 6  # every record on the host track
    gpu = [e for e in spans if e["pid"] == 1]
    assert [e["name"] for e in gpu] == ["cuarray_add_f4", "cuarray_mul_f4", "cuarray_add_f4", "memcpy DtoH (pageable)"]
    assert gpu[1]["ts"] == 906 and gpu[1]["dur"] == 30.0
    names = [e["args"]["name"] for e in trace if e["ph"] == "M" and e["name"] == "thread_name" and e["pid"] == 1]
    assert names == ["stream 0x7"]
    assert "pageable" in str(p) and "cuarray_mul_f4" in str(p)


# -- the Recorder over a fake driver ---------------------------------------------------------
class FakeDriver:
    """Events whose 'time' is the order they were recorded in, 1 ms apart."""

    def __init__(self):
        self.n = 0
        self.clock = 0
        self.when = {}

    def cuEventCreate(self, flags):
        self.n += 1
        return (0, "ev{}".format(self.n))

    def cuEventRecord(self, ev, stream):
        self.clock += 1
        self.when[ev] = self.clock
        return (0,)

    def cuEventElapsedTime(self, a, b):
        return (0, float(self.when[b] - self.when[a]))


class FakeStream:
    handle = 0x5


class FakeConfig:
    grid, block = (4, 1, 1), (256, 1, 1)


@pytest.fixture
def fake_runtime(monkeypatch):
    drv = FakeDriver()
    monkeypatch.setattr(_backend, "driver", lambda: drv)
    monkeypatch.setattr(_backend, "check", lambda r: r[1] if len(r) == 2 else None)
    monkeypatch.setattr(profiling._device, "synchronize", lambda: None)
    monkeypatch.setattr(profiling._device, "_core_device", lambda *a: None)
    monkeypatch.setattr(profiling, "_events", profiling._Events())
    monkeypatch.setattr(device_errors, "_pending", set())  # no earlier test's record to read
    launched = []
    monkeypatch.setattr(launch, "_raw", lambda *a: launched.append(a))
    monkeypatch.setattr(launch, "_hook", None)
    launch._install()
    yield drv, launched
    launch._hook = None
    launch._raw = None
    launch.reset()


def test_recorder_times_launches_and_restores_the_seams(fake_runtime):
    drv, launched = fake_runtime
    from cuarray.cuda.libs import cublas

    plain = (launch.enqueue, memory._segment_malloc, compiler.compile_module,
             MemoryPointer.copy_to_host_async, list(_sync_hooks._hooks), cublas.gemm, cublas.gemv)
    kernel_names["K"] = "cuarray_test_kernel"
    try:
        with Profile() as prof:
            # the launch hook and the observer are registered; no module or class attribute changes
            assert launch.enqueue is not plain[0] and _observe.get_observer() is not None
            assert (memory._segment_malloc, compiler.compile_module, MemoryPointer.copy_to_host_async,
                    cublas.gemm, cublas.gemv) == plain[1:4] + plain[5:]
            launch.enqueue(FakeStream(), FakeConfig(), "K", 1, 2)
            launch.enqueue(FakeStream(), FakeConfig(), "K", 3)
            _sync_hooks.run()
    finally:
        del kernel_names["K"]
    assert (launch.enqueue, memory._segment_malloc, compiler.compile_module,
            MemoryPointer.copy_to_host_async, list(_sync_hooks._hooks), cublas.gemm, cublas.gemv) == plain
    assert _observe.get_observer() is None
    assert [a[2:] for a in launched] == [("K", 1, 2), ("K", 3)]  # the real launch, with its arguments
    kinds = [r["kind"] for r in prof.records]
    assert kinds == ["kernel", "kernel", "sync"]
    k = prof.records[0]
    # events: ref=1, then (2, 3) and (4, 5): 1 "ms" each, 1 and 3 "ms" after the reference
    assert (k["name"], k["gpu_us"], k["gpu_start_us"], k["stream"]) == ("cuarray_test_kernel", 1000.0, 1000.0, 5)
    assert prof.records[1]["gpu_start_us"] == 3000.0
    assert k["grid"] == (4, 1, 1) and k["block"] == (256, 1, 1)
    assert prof.records[2]["name"].startswith("synchronize (")
    rows = prof.rows()
    assert rows[0]["calls"] == 2 and rows[0]["gpu_us"] == 2000.0
    assert len(profiling._events.free) == 64  # one batch made; every event back for the next profile


def test_host_only_mode_records_no_events(fake_runtime):
    drv, launched = fake_runtime
    kernel_names["K"] = "cuarray_test_kernel"
    try:
        with Profile(gpu_time=False) as prof:
            launch.enqueue(FakeStream(), FakeConfig(), "K", 1)
    finally:
        del kernel_names["K"]
    assert len(launched) == 1 and len(drv.when) == 1  # only the profile's reference event
    (r,) = prof.records
    assert r["name"] == "cuarray_test_kernel" and "gpu_us" not in r
    row = prof.rows()[0]
    assert row["calls"] == 1 and row["gpu_us"] is None and row["host_us"] > 0


def test_nvtx_missing_is_a_clear_import_error(monkeypatch):
    from cuarray.cuda import nvtx

    monkeypatch.setattr(nvtx, "_mod", None)
    monkeypatch.setattr(nvtx, "_missing", None)
    import builtins

    real_import = builtins.__import__

    def no_nvtx(name, *a, **kw):
        if name == "nvtx":
            raise ImportError("No module named 'nvtx'")
        return real_import(name, *a, **kw)

    monkeypatch.setattr(builtins, "__import__", no_nvtx)
    assert nvtx.available() is False
    with pytest.raises(ImportError, match="pip install nvtx"):
        Profile(nvtx=True).__enter__()


class FakeNvtx:
    def __init__(self):
        self.log = []

    def push_range(self, message=None, domain=None, **kw):
        self.log.append(("push", message, domain))

    def pop_range(self, domain=None):
        self.log.append(("pop", domain))


def test_nvtx_launch_hook_and_time_range(monkeypatch, fake_runtime):
    from cuarray.cuda import nvtx
    from cuarray.profiler import time_range

    drv, launched = fake_runtime
    fake = FakeNvtx()
    monkeypatch.setattr(nvtx, "_mod", fake)
    kernel_names["K"] = "cuarray_test_kernel"
    try:
        prev = launch.set_launch_hook(nvtx.launch_hook())
        launch.enqueue(FakeStream(), FakeConfig(), "K", 1)
        launch.set_launch_hook(prev)
    finally:
        del kernel_names["K"]
    assert fake.log == [("push", "cuarray_test_kernel", "cuarray"), ("pop", "cuarray")]
    assert [a[2:] for a in launched] == [("K", 1)]

    @time_range("step")
    def step():
        fake.log.append("body")

    fake.log.clear()
    step()
    assert fake.log == [("push", "step", "cuarray"), "body", ("pop", "cuarray")]


def test_cuarray_nvtx_env_installs_the_hook_at_the_first_launch(monkeypatch, fake_runtime):
    from cuarray.cuda import nvtx

    drv, launched = fake_runtime
    fake = FakeNvtx()
    monkeypatch.setattr(nvtx, "_mod", fake)
    monkeypatch.setenv("CUARRAY_NVTX", "1")
    monkeypatch.setattr(launch, "_environ", __import__("os").environ)
    launch.reset()
    launch.enqueue(FakeStream(), FakeConfig(), "K2", 5)
    assert launch.get_launch_hook() is not None
    assert fake.log == [("push", "cuarray kernel", "cuarray"), ("pop", "cuarray")]
    assert [a[2:] for a in launched] == [("K2", 5)]


class _Ptr:
    ptr = 0x77


def test_observer_records_copies_libraries_misses_and_compiles(fake_runtime):
    """The seams report to the recorder's observer, which makes the plain call itself: a pool miss
    (through memory._segment_malloc), a copy, a cuBLAS call (gemv declining is not recorded), a
    compile (its module from the process cache)."""
    calls = []
    with Profile() as prof:
        assert memory._segment_malloc(FakeBacking(start=0x1000), 4096, 0) == 0x1000
        obs = _observe.get_observer()
        obs.copy("DtoD", lambda *a: calls.append(("copy",) + a[2:3]), _Ptr(), _Ptr(), 64, _Ptr())
        assert obs.library("gemm", "f", lambda *a, **kw: calls.append(("gemm", a, kw)), (1, 2), {"_observed": True}) is None
        assert obs.library("gemv", "e", lambda *a, **kw: False, (), {}) is False
        assert obs.compile(lambda src, **kw: ("module", src, kw["name"]), "src", {"name": "k"}) == ("module", "src", "k")
        obs.copy("HtoD", lambda *a: calls.append("empty"), _Ptr(), 0, 0, None)  # nothing to time
    assert calls == [("copy", 64), ("gemm", (1, 2), {"_observed": True}), "empty"]
    names = [(r["kind"], r["name"]) for r in prof.records]
    assert names == [("alloc", "cuMemAlloc (pool miss)"), ("transfer", "memcpy DtoD"),
                     ("library", "cublas gemm (float32)"), ("compile", "compile k [cached]")]
    assert prof.records[1]["bytes"] == 64 and prof.records[1]["gpu_us"] > 0


def test_observers_nest():
    """An observer set over another passes its calls through the one it replaced."""
    seen = []

    class Outer:
        def segment(self, call, backing, size, device_id):
            seen.append("outer")
            return call(backing, size, device_id)

    prev = _observe.set_observer(Outer())
    try:
        inner = profiling._Observer(None, False, lambda r: seen.append(r[1]), None, None)
        inner.prev = _observe.set_observer(inner)
        assert memory._segment_malloc(FakeBacking(start=0x1000), 10, 0) == 0x1000
        _observe.set_observer(inner.prev)
    finally:
        _observe.set_observer(prev)
    assert seen == ["outer", "cuMemAlloc (pool miss)"]
