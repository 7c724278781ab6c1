"""Record classes (`_native/records.c`, `nodecore.record_base`): the plan, graph-entry and log
classes lazy mode's steady end reads by index from C. Their fields behave as `__slots__` do in both
builds; steady.c takes only classes built on a record base."""

from __future__ import annotations

import gc
import weakref

import pytest

from cuarray._core import nodecore
from cuarray._core.fusion import graph_replay, planner, plans, replay

native = pytest.mark.skipif(nodecore.native is None, reason="the _nodecore extension is not built")


def _slots_like(base):
    class Rec(base):
        __slots__ = ()

    r = Rec()
    with pytest.raises(AttributeError):
        r.a  # (unset: as a slot)
    r.a, r.b = 1, "x"
    assert (r.a, r.b) == (1, "x")
    del r.a
    with pytest.raises(AttributeError):
        r.a
    with pytest.raises(AttributeError):
        r.c = 1  # (no __dict__: a misspelt field is an error)
    r.a = r  # a cycle through a field is collected
    # (a weak reference needs a slot of its own: these classes take none)
    with pytest.raises(TypeError):
        weakref.ref(r)
    probe = Rec()
    probe.a = r
    del r
    gc.collect()
    return probe.a.b


@pytest.mark.parametrize("build", ["native", "python"])
def test_record_fields_behave_as_slots(build, monkeypatch):
    if build == "native" and nodecore.native is None:
        pytest.skip("the _nodecore extension is not built")
    if build == "python":
        monkeypatch.setattr(nodecore, "native", None)  # (record_base reads it at each call)
    base = nodecore.record_base("Probe", ("a", "b"))
    assert base._fields == ("a", "b")
    assert _slots_like(base) == "x"


def test_lazy_modes_records_are_record_classes():
    expect = {plans.LastPlan: ("ops", "pos", "prog", "table", "gen", "next"),
              plans.Plans: ("last", "predicted", "expect", "by_prog"),
              replay._Log: ("prog", "repeats", "replayed", "sig", "why", "outs", "log"),
              planner.Program: ("inputs", "steps", "outputs", "eager", "multi", "one", "replay_facts")}
    for cls, fields in expect.items():
        assert cls._fields == fields
    assert len(graph_replay._Entry._fields) == 15
    lg = replay._Log()
    assert (lg.prog, lg.repeats, lg.replayed, lg.sig, lg.why, lg.outs, lg.log) == (None, 0, False, None, None, None, None)


@native
def test_steady_takes_only_record_classes():
    class Plain:
        _fields = ("ops",)

    cfg = nodecore.native.configure_steady_records
    with pytest.raises(TypeError):
        cfg(Plain, plans.Plans, graph_replay._Entry, replay._Log, planner.Program)
    with pytest.raises(TypeError):
        cfg(plans.LastPlan, plans.Plans)
    with pytest.raises(ValueError):
        nodecore.native.record_class("TooMany", tuple("f%d" % i for i in range(17)))
    cfg(plans.LastPlan, plans.Plans, graph_replay._Entry, replay._Log, planner.Program)  # (evaluation.py's call)
