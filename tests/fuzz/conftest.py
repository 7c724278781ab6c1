"""Fixtures of the fuzz tests: `host_path` runs cuarray's host path with no device (launches
recorded, memory from a fake backing, memsets dropped, a fixed SM count), so that everything
decided before a kernel's result is read (argument checks, dtypes, shapes) is comparable on CPU."""

from __future__ import annotations

import pytest

from cuarray.cuda import _memory_base, device


@pytest.fixture
def host_path(recorded_launches, monkeypatch):
    monkeypatch.setattr(_memory_base.MemoryPointer, "memset_async", lambda self, value, size, stream=None: None)
    monkeypatch.setitem(device._SM_COUNT, 0, 132)
    return recorded_launches
