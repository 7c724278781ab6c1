"""Fixtures of the reduction planner's GPU tests (row tiles, folded output vectors, short rows):
`setting` changes a planner constant of cuarray/_core/reduction.py for one test, `few_sms` plans as
for a GPU of 2 SMs. Each drops every prepared launch when it changes the plan and after the test
(they hold plans made under the old setting)."""

from __future__ import annotations

import gc

import pytest

from cuarray._core import reduction as _red
from cuarray._core import reduction_plan as _plan
from cuarray._core import reduction_ops as _rops
from cuarray.cuda import device as _device


def _clear_launchers():
    for d in [o for o in gc.get_objects() if isinstance(o, _red.ReductionDef)]:
        d._launchers.clear()
    _rops.clear_fast_path()


@pytest.fixture
def setting():
    """set(name, value): a planner constant for the test, restored (and launchers dropped) after."""
    saved = {}

    def set_(name, value):
        saved.setdefault(name, getattr(_plan, name))
        setattr(_plan, name, value)
        _clear_launchers()

    yield set_
    for name, value in saved.items():
        setattr(_plan, name, value)
    _clear_launchers()


@pytest.fixture
def few_sms(monkeypatch):
    """Plan as for a GPU of 2 SMs: row tiles keep their full rows a thread on small arrays (with
    132 SMs they drop to 1 under ~67 000 rows), so the clamped tails run at test sizes."""
    monkeypatch.setitem(_device._SM_COUNT, _device.get_device_id(), 2)
    _clear_launchers()
    yield
    monkeypatch.undo()
    _clear_launchers()
