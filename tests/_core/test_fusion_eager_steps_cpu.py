"""Lazy mode never launches more than eager mode, and a node with nothing to fuse with runs the
eager way (the ufunc's own kernel and prepared launcher): launches recorded, kernels as
placeholders, no device. The ufuncs are fresh copies, so no placeholder reaches the shared
ufuncs' prepared launchers or a cached Program a GPU test could meet."""

from __future__ import annotations

import numpy as np
import pytest

import cuarray as cp
from cuarray._core.fusion import planner
from cuarray._core.ufunc import ufunc


def _fresh(uf):
    return ufunc(uf.__name__, uf.nin, uf.nout, uf._ops, np_name=uf._np.__name__, preamble=uf._preamble)


def _kernels(calls):
    return [c[2] for c in calls]


@pytest.fixture
def ops(recorded_launches):
    return recorded_launches, _fresh(cp.subtract), _fresh(cp.multiply), _fresh(cp.exp)


def test_lone_node_launches_the_eager_kernel(ops):
    calls, sub, mul, exp = ops
    x = cp.empty(1000, dtype="float32")
    z = cp.empty(1000, dtype="float32")
    for _ in range(2):
        e = sub(x, z)
    eager = _kernels(calls[-1:])
    del calls[:]
    for _ in range(2):  # planned, then the cached Program
        with cp.lazy():
            y = sub(x, z)
        assert type(y).__name__ == "LazyArray" and y.shape == e.shape and y.dtype == e.dtype
        assert _kernels(calls) == eager, calls  # no generated kernel: the eager one
        del calls[:]
    prog = next(p for k, p in planner._programs.items() if any(isinstance(s, planner._EagerUfunc)
                                                             and s.uf is sub for s in p.steps))
    assert len(prog.steps) == 1 and "eager subtract" in prog.explain()


def test_lazy_never_launches_more_than_eager(ops):
    calls, sub, mul, exp = ops
    x = cp.empty((64, 32), dtype="float32")
    z = cp.empty((64, 32), dtype="float32")
    s = cp.empty((64, 1), dtype="float32")

    def body():
        a = mul(sub(x, z), 2.0)          # fused: one kernel
        b = exp(s)                       # alone (its only user is computed separately): eager
        return a, b

    for _ in range(2):
        body()
    n_eager = len(calls) // 2
    eager = _kernels(calls[-n_eager:])  # subtract, multiply, exp
    del calls[:]
    with cp.lazy():
        a, b = body()
    lazy = _kernels(calls)
    assert n_eager == 3 and len(lazy) == 2, (eager, lazy)
    assert eager[2] in lazy                                  # exp(s): the eager kernel
    fused = [k for k in lazy if k != eager[2]]
    assert len(fused) == 1 and fused[0][0] not in {k[0] for k in eager}  # a generated kernel
    assert a.shape == (64, 32) and b.shape == (64, 1) and a.dtype == np.float32


def test_fuse_keeps_its_own_kernels(ops):
    # `fuse` with a lone node still generates its named kernel (its one-launch binding).
    calls, sub, mul, exp = ops
    x = cp.empty(100, dtype="float32")
    f = cp.fuse(kernel_name="only_exp")(lambda a: exp(a))
    f(x)
    assert _kernels(calls)[-1][0].startswith("only_exp"), calls
