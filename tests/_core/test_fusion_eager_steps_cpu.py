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


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "float16"])
@pytest.mark.parametrize("fa,fb", [(False, False), (True, False), (False, True), (True, True)])
def test_prepared_product_makes_the_eager_gemm_call(recorded_launches, monkeypatch, dtype, fa, fb):
    # A lazy dot/matmul step skips the eager routine's checks: the cuBLAS call must be the one
    # the eager routine makes (layouts of C- and F-ordered operands, transposes, leading dims).
    from cuarray.cuda.libs import cublas
    from cuarray._core.fusion import products

    calls = []
    monkeypatch.setattr(cublas, "gemm", lambda *a: calls.append(a))
    products._blas[:] = []  # (read again: the patched module attribute)
    a = cp.empty((6, 4), dtype=dtype)
    b = cp.empty((4, 3), dtype=dtype)
    a = a.T.copy().T if fa else a   # stubbed copy: an F-ordered array of the same shape
    b = b.T.copy().T if fb else b
    assert a.flags.f_contiguous if fa else a.flags.c_contiguous
    assert b.flags.f_contiguous if fb else b.flags.c_contiguous
    for fn in (cp.dot, cp.matmul):
        eager = fn(a, b)
        lazy = products.prepared(lambda x, y: pytest.fail("not the prepared path"))(a, b)
        assert eager.shape == lazy.shape == (6, 3) and lazy.dtype == eager.dtype
        e, z = calls[-2], calls[-1]
        assert e[:10] == z[:10] and e[11:] == z[11:], (e, z)  # all but the output pointer
        assert e[6] == b.data.ptr and e[8] == a.data.ptr
    products._blas[:] = []


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("fa", [False, True])
def test_prepared_product_makes_the_eager_gemv_call(recorded_launches, monkeypatch, dtype, fa):
    # A lazy matrix @ vector step makes the eager routine's GEMV call (op, dims, leading dim).
    from cuarray.cuda.libs import cublas
    from cuarray._core.fusion import products

    calls, answer = [], [True]
    monkeypatch.setattr(cublas, "gemv", lambda *a: calls.append(a) or answer[0])
    products._blas[:] = []  # (read again: the patched module attribute)
    a = cp.empty((6, 4), dtype=dtype)
    a = a.T.copy().T if fa else a
    v = cp.empty((4,), dtype=dtype)
    for fn in (cp.dot, cp.matmul):
        eager = fn(a, v)
        lazy = products.prepared(lambda x, y: pytest.fail("not the prepared path"))(a, v)
        assert eager.shape == lazy.shape == (6,) and lazy.dtype == eager.dtype
        e, z = calls[-2], calls[-1]
        assert e[:8] == z[:8] and e[9:] == z[9:], (e, z)  # all but the output pointer
        assert z[1] == ("N" if fa else "T") and z[4] == a.data.ptr and z[6] == v.data.ptr
    answer[0] = False  # cuBLAS declines (a float32 compute mode other than 'highest'): the routine
    assert products.prepared(lambda x, y: "eager")(a, v) == "eager"
    products._blas[:] = []


def test_prepared_product_leaves_other_cases_to_the_routine(recorded_launches):
    from cuarray._core.fusion import products

    seen = []
    run = products.prepared(lambda x, y: seen.append((x.shape, y.shape)) or "eager")
    a = cp.empty((6, 4), dtype="float32")
    assert run(a, cp.empty((8,), dtype="float32")[::2]) == "eager"         # matrix @ strided vector
    assert run(a, cp.empty((4, 3), dtype="float64")) == "eager"            # mixed dtypes
    assert run(a, cp.empty((4, 3), dtype="int32")) == "eager"              # no cuBLAS dtype
    assert run(a[:, ::2], cp.empty((2, 3), dtype="float32")) == "eager"    # neither C nor F
    assert len(seen) == 4


def test_positional_out_runs_eagerly_after_the_pending_graphs(ops):
    # `exp(x, y)` (NumPy's positional `out`) inside lazy mode is an in-place write: it runs
    # eagerly into y, after computing the graphs still pending (they may read y).
    calls, sub, mul, exp = ops
    x = cp.empty(100, dtype="float32")
    y = cp.empty(100, dtype="float32")
    with cp.lazy():
        p = mul(y, 2.0)
        assert not p.is_computed and not calls
        r = exp(x, y)
        assert r is y and p.is_computed
        assert len(calls) == 2 and calls[0][2] != calls[1][2]   # p's kernel first, then exp's
        q = sub(x, y, y)
        assert q is y and len(calls) == 3


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128", "int32", "bool"])
def test_scalar_converter_passes_what_the_loop_type_would(dtype):
    # A fused kernel's scalar argument: the loop type's value of a Python or NumPy scalar (float
    # and complex loops take the NumPy type itself, one C call; float16 travels as float32).
    import numpy

    from cuarray._core.fusion.planner import _scalar_converter

    dt = numpy.dtype(dtype)
    conv = _scalar_converter(dt)
    vals = [True, 3, 0.1, 1e-40, -0.0] + ([2.5 - 1j, numpy.complex128(0.3 + 2j)] if dt.kind == "c" else []) + [
        numpy.float64(0.1), numpy.float32(1.5), numpy.int64(7)]
    for v in vals:
        if dt.kind in "ib" and isinstance(v, float):
            continue
        got = conv(v)
        want = v.astype(dt) if isinstance(v, numpy.generic) else dt.type(v)
        if dt.char == "e":
            want = numpy.float32(want)
        assert type(got) is type(want) and (got == want or (got != got and want != want)), (v, got, want)
        if isinstance(got, numpy.floating):
            assert numpy.signbit(got) == numpy.signbit(want), v
