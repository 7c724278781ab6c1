"""The cold-start-libs child (cuarray/bench/cases/first_use.py) starts every library's clock before
its first device call: nothing between the import and the clock may touch the GPU. CuPy's
`cupy.cuda.Device()` calls cudaGetDevice, which initialises the CUDA runtime and the driver (cuInit,
~100 ms on one H100, more on a 2-GPU host); made in the prelude it put CuPy's cuInit outside the
timed `upload` while cuarray's (whose `Device()` touches no driver) was inside (issue 51)."""

from __future__ import annotations

import sys

import pytest

from cuarray.bench.cases import first_use


class _Recorder:
    """A stand-in module: any attribute is another stand-in; any call is recorded by its path."""

    def __init__(self, path: str, calls: list):
        self._path = path
        self._calls = calls

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Recorder(self._path + "." + name, self._calls)

    def __call__(self, *args, **kwargs):
        self._calls.append(self._path + "()")
        return _Recorder(self._path + "()", self._calls)


@pytest.mark.parametrize("lib", ["cupy", "torch"])
@pytest.mark.parametrize("family", ["first-fft", "first-random"])
def test_no_device_call_before_the_clock(monkeypatch, lib, family):
    calls: list = []
    for name in ("cupy", "cupyx", "cupyx.scipy", "cupyx.scipy.sparse", "torch"):
        monkeypatch.setitem(sys.modules, name, _Recorder(name, calls))
    src = first_use.child_source(lib, family)
    before_clock = src[:src.index("t1 = time.perf_counter()")]
    exec(compile(before_clock, "<bench child>", "exec"), {"__name__": "child"})
    assert calls == [], "device calls before the clock starts: {}".format(calls)
