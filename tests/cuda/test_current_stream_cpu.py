"""`stream.current_core_stream` in C (`_poolcore.current_core_stream`, cuda/_native/current_stream.c)
against the Python function it stands for: the same launch object in each thread and state, and
the Python function's own answer where it decides (a context to make current, a stream table or a
stream of another class). No GPU."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest

from cuarray.cuda import device as device_mod
from cuarray.cuda import stream as stream_mod

from pool_core import native_core  # tests/cuda is on sys.path (pytest rootdir mode)

core = native_core()
pytestmark = pytest.mark.skipif(core is None, reason="the C core of the pool is not built here")
A, B = 0x1000, 0x2000  # fake stream handles


@pytest.fixture
def made_current(monkeypatch):
    """This thread's device 0 taken as current (no driver); the Python function's context calls recorded."""
    calls = []
    monkeypatch.setattr(device_mod._tls, "active_context", 0)
    monkeypatch.setattr(device_mod._tls, "device_id", 0)
    monkeypatch.setattr(device_mod, "_core_device", lambda dev: calls.append(dev))
    return calls


def both():
    return core.current_core_stream(), stream_mod._current_core_stream()


def test_the_module_takes_the_c_form():
    assert stream_mod.current_core_stream is core.current_core_stream


def test_the_same_stream_as_the_python_function(made_current, monkeypatch):
    c, py = both()
    assert c is py is stream_mod._default._cs
    ext = stream_mod.ExternalStream(A)
    monkeypatch.setattr(stream_mod._tls, "streams", {0: ext, 1: stream_mod.ExternalStream(B)})
    c, py = both()
    assert c is py is ext._cs
    monkeypatch.setattr(stream_mod._tls, "streams", {1: ext})  # (none for device 0: the default)
    c, py = both()
    assert c is py is stream_mod._default._cs
    assert made_current == []


def test_each_thread_reads_its_own(made_current):
    got = {}

    def run(name, handle):
        device_mod._tls.active_context = 0
        if handle is not None:
            stream_mod._tls.streams = {0: stream_mod.ExternalStream(handle)}
        got[name] = core.current_core_stream().handle

    threads = [threading.Thread(target=run, args=(n, h)) for n, h in (("a", A), ("b", B), ("default", None))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == {"a": A, "b": B, "default": stream_mod._default._cs.handle}
    assert core.current_core_stream() is stream_mod._default._cs


def test_the_python_function_answers_where_it_decides(made_current, monkeypatch):
    monkeypatch.setattr(device_mod._tls, "active_context", None)  # (a context to make current)
    c, py = both()
    assert c is py and made_current == [0, 0]
    monkeypatch.setattr(device_mod._tls, "active_context", 0)

    class Table(dict):
        def get(self, dev, default=None):
            return ext

    ext = stream_mod.ExternalStream(A)
    monkeypatch.setattr(stream_mod._tls, "streams", Table())
    c, py = both()
    assert c is py is ext._cs

    class Other:  # (not a Stream: its `_cs` read by name)
        _cs = object()

    monkeypatch.setattr(stream_mod._tls, "streams", {0: Other()})
    c, py = both()
    assert c is py is Other._cs
    monkeypatch.setattr(device_mod._tls, "device_id", 3)
    monkeypatch.setattr(device_mod._tls, "active_context", 3.0)  # (equal, not an int: the Python test)
    c, py = both()
    assert c is py and made_current == [0, 0]


def test_env_var_keeps_the_python_function():
    code = "import cuarray.cuda.stream as s; assert s.current_core_stream is s._current_core_stream"
    env = dict(os.environ, CUARRAY_PURE_PYTHON_STREAM="1", PYTHONPATH=os.pathsep.join(sys.path))
    subprocess.run([sys.executable, "-c", code], check=True, env=env, timeout=120)
