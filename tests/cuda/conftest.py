"""Fixtures of the memory-pool tests: `pool_impl` runs a test once per bookkeeping implementation."""

from __future__ import annotations

import pytest

from cuarray.cuda import memory

from pool_core import native_core  # tests/cuda is on sys.path (pytest rootdir mode)


@pytest.fixture(params=["python", "native"])
def pool_impl(request, monkeypatch):
    """Pools made during the test use the pure-Python bookkeeping or the C core (skipped, saying
    why, where the C core was not built: no compiler at install)."""
    if request.param == "native":
        core = native_core()
        if core is None:
            pytest.skip("the C core of the pool is not built (python setup.py build_ext --inplace)")
        monkeypatch.setattr(memory, "_native", core)
    else:
        monkeypatch.setattr(memory, "_native", None)
    return request.param
