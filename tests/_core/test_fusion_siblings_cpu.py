"""Lazy mode moves the bytes `fuse` moves: launches recorded (kernels as placeholders, no device).

- fuse-chain (cuarray/bench/cases/fusion.py): the lazy evaluation launches exactly what the fused
  function launches (one kernel, its layout, grid, index type and arguments but the output).
- fuse-shared (cuarray/bench/cases/fusion_epilogue.py): sibling results of one shape that share
  nodes or inputs are one kernel with several outputs (x read once, t computed once), where two
  kernels each recomputing t read x twice; its generated source compiles with NVRTC for sm_90.
- Where siblings must not be one kernel (another shape, a value read outside the group, a step
  between them), they are planned as before.
"""

from __future__ import annotations

import numpy as np
import pytest

import cuarray as cp
from cuarray._core.fusion import planner
from cuarray.bench.cases.fusion import _chain

N = 1 << 16


def _launch(call):
    """A recorded launch without its stream: (config, kernel placeholder, arguments)."""
    return call[1], call[2], call[3:]


def _pointers(call):
    return [a for a in call[3:] if type(a) is int]


def test_lazy_fuse_chain_launches_what_fuse_launches(recorded_launches):
    calls = recorded_launches
    x = cp.empty(N, dtype="float32")

    def chain(x):
        return _chain(cp, x)

    f = cp.fuse()(chain)
    for _ in range(2):
        f(x)
    del calls[:]
    f(x)
    fused = [_launch(c) for c in calls]
    del calls[:]
    for _ in range(2):  # planned, then the cached Program
        with cp.lazy():
            y = _chain(cp, x)
        assert y.is_computed and y.shape == x.shape and y.dtype == x.dtype
        lazy = [_launch(c) for c in calls]
        del calls[:]
        assert len(lazy) == len(fused) == 1
        (cfg, kern, args), (fcfg, fkern, fargs) = lazy[0], fused[0]
        assert kern == fkern and kern[1] == "vec" and cfg == fcfg, (lazy, fused)
        # The same arguments but the output pointer (a new array each call): x, the five
        # scalars, the output, n; one array read and one written.
        assert len(args) == len(fargs) and args[0] == fargs[0] == x.data.ptr
        assert [type(a) for a in args] == [type(a) for a in fargs]
        assert [a for a in args[1:] if type(a) is not int] == [a for a in fargs[1:] if type(a) is not int]


def _shared(xp, x):
    t = xp.log(xp.exp(xp.sin(x)) + 1)
    return t * 2 + x, t * t - 1


def test_lazy_fuse_shared_is_one_kernel_reading_x_once(recorded_launches):
    calls = recorded_launches
    x = cp.empty(N, dtype="float32")
    for _ in range(2):
        del calls[:]
        with cp.lazy():
            a, b = _shared(cp, x)
        assert a.is_computed and b.is_computed and a.shape == b.shape == x.shape
        assert len(calls) == 1, calls  # (before: two kernels, each reading x and recomputing t)
        ptrs = _pointers(calls[0])
        assert ptrs == [x.data.ptr, a._node.value.data.ptr, b._node.value.data.ptr]
        assert calls[0][2][1] == "vec"
    prog = next(p for p in planner._programs.values()
                if any(isinstance(s, planner._ElementwiseMulti) for s in p.steps) and len(p.outputs) == 2
                and "sin_exp_add_log" in p.steps[0].defn.name)
    assert len(prog.steps) == 1 and prog.outputs == [len(prog.inputs), len(prog.inputs) + 1]


def test_multi_output_source_computes_shared_nodes_once_and_compiles():
    x = np.linspace(-1, 1, 10, dtype=np.float32)
    with cp.lazy(evaluate="numpy") as lz:
        a = lz.leaf(x)
        r1, r2 = _shared(cp, a)
        r3 = r1 > 0.5  # reads a sibling: computed from it in the same kernel
        prog = planner.plan([r1._node, r2._node, r3._node])
        text = prog.explain(compile=True)
        for r, want in zip((r1, r2, r3), _shared(np, x) + (_shared(np, x)[0] > 0.5,)):
            np.testing.assert_array_equal(r.numpy(), want)
    assert [type(s).__name__ for s in prog.steps] == ["_ElementwiseMulti"]
    assert "3 outputs float32/float32/bool" in text and "compiled for sm_90 by NVRTC" in text
    src = prog.steps[0].source()
    assert src.count("sin(") == 1 and src.count("log(") == 1 and src.count("exp(") == 1
    assert "float& r0, float& r1, bool& r2" in src


def _kinds(*lazies):
    return [type(s).__name__ for s in planner.plan([z._node for z in lazies]).steps]


def test_siblings_that_must_stay_apart():
    x = np.ones((8, 4), dtype=np.float32)
    with cp.lazy(evaluate="numpy") as lz:
        a = lz.leaf(x)
        t = cp.exp(a)
        # another shape: two kernels (t recomputed by each: cheap)
        assert _kinds(t + 1.0, (t * 2.0).sum(axis=0) + 1.0) == ["_Elementwise", "_Reduction", "_EagerUfunc"]
        # a value read between the two (y2 needs sum(y1), which needs y1): no merge, no cycle
        y1 = t * 2.0
        y2 = y1 * y1.sum()
        assert "_ElementwiseMulti" not in _kinds(y1, y2)
        # a node of the group also read by a reduction: apart (it may be computed into memory)
        u, v = t + 1.0, t - 1.0
        assert "_ElementwiseMulti" not in _kinds(u, v, t.sum())
        # one output twice: one kernel, one output
        assert _kinds(u, u) == ["_Elementwise"]
        # no shared node and no shared input: apart
        b = lz.leaf(np.ones((8, 4), dtype=np.float32))
        assert _kinds(cp.exp(a), cp.exp(b)) == ["_Elementwise", "_Elementwise"] or \
            _kinds(cp.exp(a), cp.exp(b)) == ["_EagerUfunc", "_EagerUfunc"]
        # a shared input only: one kernel reading it once
        assert _kinds(a + 1.0, a * 3.0) == ["_ElementwiseMulti"]


@pytest.mark.parametrize("dtypes", [("float32", "float32"), ("float64", "bool"), ("float16", "float32")])
def test_mixed_output_dtypes_compile(dtypes):
    x = np.linspace(-1, 1, 10, dtype=np.float32)
    with cp.lazy(evaluate="numpy") as lz:
        a = lz.leaf(x)
        t = cp.sqrt(cp.abs(a)) + 1.0
        outs = [t.astype(dtypes[0]), (t * 3.0).astype(dtypes[1])]
        prog = planner.plan([o._node for o in outs])
        text = prog.explain(compile=True)
    assert [type(s).__name__ for s in prog.steps] == ["_ElementwiseMulti"]
    assert "compiled for sm_90 by NVRTC" in text


def test_multi_output_kernel_compiles_in_every_layout():
    """Broadcast inputs and strided operands take the engine's general path: the flat, vector
    and strided ("nd") kernels of a three-output definition (float64, bool, float16) compile."""
    from cuarray.cuda import compiler

    with cp.lazy(evaluate="numpy") as lz:
        a = lz.leaf(np.ones((8, 4), dtype=np.float32))
        y = lz.leaf(np.ones((1, 4), dtype=np.float64))
        t = cp.exp(a) * y
        prog = planner.plan([(t + 1.0)._node, (t > 2.0)._node, (t * a).astype(np.float16)._node])
    (st,) = prog.steps
    assert type(st) is planner._ElementwiseMulti and st.nout == 3
    assert [d.name for d in st.dtypes] == ["float64", "bool", "float16"]
    for layout, nd, index_t in (("flat", 1, np.int32), ("vec", 1, np.int32), ("nd", 2, np.int32), ("nd", 3, np.int64)):
        name, src = st.defn.source(layout, nd, index_t)
        cubin, _ = compiler.compile_cubin(src, arch="sm_90", options=st.defn.options, name=name)
        assert cubin[:4] == b"\x7fELF", (layout, nd)


def test_fuse_tuple_result_is_one_kernel(recorded_launches):
    calls = recorded_launches
    x = cp.empty(N, dtype="float32")

    @cp.fuse()
    def two(x):
        return _shared(cp, x)

    for _ in range(2):
        del calls[:]
        a, b = two(x)
        assert type(a) is cp.ndarray and type(b) is cp.ndarray and a.shape == b.shape == x.shape
        assert len(calls) == 1 and _pointers(calls[0]) == [x.data.ptr, a.data.ptr, b.data.ptr], calls


def test_sibling_group_bounds_and_many_outputs():
    """At most MAX_SIBLING_OUTPUTS results in one kernel (its parameters stay far under the 4 KiB
    limit); a larger group is planned as before (one kernel each), as are thousands of unrelated
    outputs."""
    with cp.lazy(evaluate="numpy") as lz:
        x = lz.leaf(np.ones(4, dtype=np.float32))
        k = planner.MAX_SIBLING_OUTPUTS
        assert _kinds(*[x * float(i) for i in range(k)]) == ["_ElementwiseMulti"]
        assert "_ElementwiseMulti" not in _kinds(*[x * float(i) for i in range(k + 1)])
        xs = [lz.leaf(np.ones(4, dtype=np.float32)) for _ in range(3000)]
        outs = [cp.exp(a) for a in xs]
        prog = planner.plan([o._node for o in outs])
        assert len(prog.steps) == 3000 and prog.outputs == list(range(3000, 6000))
