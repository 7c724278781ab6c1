"""Fixtures of the memory-pool tests: `pool_impl` runs a test once per bookkeeping implementation."""

from __future__ import annotations

import importlib

import pytest

from cuarray.cuda import memory


def native_core():
    """The C core (`cuarray.cuda._poolcore`) when it is built here, else None."""
    try:
        return importlib.import_module("cuarray.cuda._poolcore")
    except ImportError:
        return None


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
