"""Out of memory at each allocation of an operation, on the fake device (no values, real pool
bookkeeping): once the OutOfMemoryError is handled, no memory of the failed operation stays in
use. The GPU test (test_durability_gpu.py) checks the same with values and library workspaces."""

from __future__ import annotations

import types

import numpy as np
import pytest

import cuarray as cp
from cuarray.cuda import compiler, memory
from oom_injection import RefuseAt, refuse_each_allocation


@pytest.fixture
def fake_pool(host_path, monkeypatch):
    """The host path's pool; modules compiled by NVRTC (sort, scan) are placeholders too."""
    fake = types.SimpleNamespace(get_function=lambda name: types.SimpleNamespace(kernel=("kernel", name)))
    monkeypatch.setattr(compiler, "compile_module", lambda *a, **k: fake)
    return memory.get_allocator().__self__


def _lazy_chain(a):
    with cp.lazy():
        c = cp.sin(a) * 2 + cp.exp(-a) / (1 + a * a)
    return cp.asarray(c)


OPS = {
    "elementwise temporaries": lambda a: cp.sin(a) * 2 + cp.exp(-a) / (1 + a * a),
    "lazy chain": _lazy_chain,
    "fuse": cp.fuse(lambda x: cp.sin(x) * 2 + cp.exp(-x) / (1 + x * x)),
    "sort": lambda a: cp.sort(a),
    "argsort-2d": lambda a: cp.argsort(a.reshape(512, 512), axis=0),
    "cumsum": lambda a: cp.cumsum(a),
}


@pytest.mark.parametrize("name", list(OPS))
def test_no_memory_of_a_refused_operation_stays_in_use(fake_pool, name):
    op = OPS[name]
    a = cp.empty(1 << 18)
    op(a)  # warm, as the GPU test: what a first call keeps (compiled kernels) exists before the count
    base = fake_pool.used_bytes()

    def after_refusal(k):
        assert fake_pool.used_bytes() == base, "allocation {}: memory of the failed operation still in use".format(k)

    assert refuse_each_allocation(fake_pool, lambda: op(a), after_refusal) >= 1  # fused: the output only
    assert fake_pool.used_bytes() == base


def test_inside_the_except_block_the_traceback_still_holds_the_temporaries(fake_pool):
    """Why the checks wait for the except block to end: its traceback keeps the failed call's
    frames, and their locals: here `sin(a) * 2`, the operand of the addition whose output was refused."""
    a = cp.empty(1 << 18)
    cp.sin(a) * 2 + 1  # warm
    base = fake_pool.used_bytes()
    with memory.using_allocator(RefuseAt(fake_pool, 3)):  # sin(a), sin(a) * 2, then the sum refused
        try:
            cp.sin(a) * 2 + 1
        except memory.OutOfMemoryError:
            inside = fake_pool.used_bytes()
    assert inside == base + a.nbytes
    assert fake_pool.used_bytes() == base


def test_the_refusal_is_the_pools_own_and_leaves_it_consistent(fake_pool):
    a = cp.empty(1000)
    limit = fake_pool.get_limit()
    used, total = fake_pool.used_bytes(), fake_pool.total_bytes()
    with memory.using_allocator(RefuseAt(fake_pool, 1)):
        with pytest.raises(memory.OutOfMemoryError, match="Out of memory allocating"):
            cp.empty(10)
    assert fake_pool.get_limit() == limit and fake_pool.used_bytes() == used
    assert fake_pool.total_bytes() <= total  # it may have given fully free segments back
    b = cp.empty(10)  # and serves again
    assert fake_pool.used_bytes() == used + 512
    del a, b
    np.testing.assert_equal(fake_pool.used_bytes(), 0)


def test_a_real_leak_is_caught(fake_pool):
    """The check can fail: an operation that keeps a temporary when a later allocation fails."""
    kept = []

    def leaky(a):
        kept.append(cp.sin(a))  # a cache filled before the operation completes
        return cp.cos(a)

    a = cp.empty(1 << 18)
    base = fake_pool.used_bytes()

    def after_refusal(k):
        assert fake_pool.used_bytes() == base, "leak"

    with pytest.raises(AssertionError, match="leak"):
        refuse_each_allocation(fake_pool, lambda: leaky(a), after_refusal)


def test_a_lazy_plan_keeps_no_array_alive_until_the_collector_runs(fake_pool):
    """The planner's closures called each other (a reference cycle) and held the graph's nodes:
    a first-seen chain's result stayed allocated after its last reference until gc ran (the
    'lazy chain' row above failed when a collection fell inside its count)."""
    import gc

    a = cp.empty(1 << 18)
    gc.collect()
    gc.disable()
    try:
        base = fake_pool.used_bytes()
        with cp.lazy():  # a structure no other test builds: planned here, not taken from the cache
            c = cp.arctan(cp.cosh(a) - 3) * cp.log1p(a * a) + cp.tanh(a) / 7
        c = cp.asarray(c)
        assert fake_pool.used_bytes() == base + c.nbytes
        del c
        assert fake_pool.used_bytes() == base
    finally:
        gc.enable()
