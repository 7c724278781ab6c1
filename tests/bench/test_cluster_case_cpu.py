"""The `cluster` bench group on the CPU: the case is registered in its group, and the host (SciPy)
setup runs kmeans2 on its share of the rows and scales its time by that share."""

from __future__ import annotations

import numpy as np

from cuarray.bench import cases
from cuarray.bench.cases import cluster as C


def test_case_is_in_its_group():
    assert [c.id for c in cases.select(groups=["cluster"])] == ["cluster-kmeans2", "cluster-linkage"]
    assert C.kmeans2.timing == "process" and set(C.kmeans2.setups) == {"cuarray", "numpy"}


def test_host_setup_runs_scaled(monkeypatch):
    monkeypatch.setattr(C, "N", 2000)
    monkeypatch.setattr(C, "K", 8)
    monkeypatch.setattr(C, "HOST_SHARE", 10)
    ticks = iter([0.0, 0.5])
    monkeypatch.setattr(C.time, "perf_counter", lambda: next(ticks))
    out = C.kmeans2.setups["numpy"](np, 1, None)()
    assert out == {"time_s": 5.0}


def test_host_linkage_setup_runs():
    z = C.linkage.setups["numpy"](np, 50, "ward")()
    assert z.shape == (49, 4) and z[-1, 3] == 50
