"""The fusion engine without a GPU: graph building with NumPy's shapes, dtypes and errors, the
planner's grouping, the structure cache, the lazy-mode hooks, `numpy()` evaluation, and that
every generated fused kernel compiles with NVRTC for sm_90."""

import numpy
import pytest

import cuarray as cp
from cuarray._core import ufunc as _ufunc_mod
from cuarray._core.fusion import graph as g
from cuarray._core.fusion import lazy_mode as L
from cuarray._core.fusion import planner
from cuarray.cuda import compiler
from cubin_info import nvrtc_text  # tests/ is on sys.path


class _Host:
    """Stands for a device array: shape/dtype for the graph, `get()` for `numpy()`."""

    def __init__(self, a):
        self.a = a

    def get(self):
        return self.a

    # views of a concrete array are taken when the node is built
    def __getitem__(self, key):
        return _Host(self.a[key])

    def transpose(self, axes=None):
        return _Host(self.a.transpose(axes))

    def reshape(self, shape):
        return _Host(self.a.reshape(shape))

    _shape = property(lambda self: self.a.shape)
    _dtype = property(lambda self: self.a.dtype)


def _lazy(shape, dtype, seed=0):
    rng = numpy.random.default_rng(seed)
    a = (rng.standard_normal(shape) * 3).astype(dtype)
    return L.LazyArray(g.Node("array", (), a.shape, a.dtype, value=_Host(a))), a


@pytest.fixture(autouse=True)
def _host_views(monkeypatch):
    # A view of a concrete array is a new array node: of a _Host here.
    monkeypatch.setattr(g, "array_node", lambda h: g.Node("array", (), h._shape, h._dtype, value=h))


def _tracing():
    return L.lazy(_track=False)  # nothing is computed on exit: there is no device


EXPRS = [
    ("chain", lambda xp, a, b: 1 / (1 + xp.exp(-(2 * a - 1))) * a + 0.5),
    ("broadcast", lambda xp, a, b: a[:, None] * b - 3),
    ("compare-where", lambda xp, a, b: xp.where(a > 0, a, b[0])),
    ("int-scalar", lambda xp, a, b: a * 2 + 1),
    ("astype", lambda xp, a, b: a.astype(numpy.float16) * 2.5),
    ("clip", lambda xp, a, b: xp.clip(a * 2, -1, 1)),
    ("sum-axis", lambda xp, a, b: (a * a).sum(axis=0)),
    ("max-keepdims", lambda xp, a, b: xp.max(xp.abs(a - 1), axis=-1, keepdims=True)),
    ("mean", lambda xp, a, b: xp.mean(a * 3, axis=0)),
    ("any", lambda xp, a, b: xp.any(a > 2)),
    ("dot", lambda xp, a, b: xp.dot(a.T, a * 2)),
    ("matmul", lambda xp, a, b: (a + 1) @ b.T),
    ("tensordot", lambda xp, a, b: xp.tensordot(a * 2, b, axes=([1], [1]))),
    ("tensordot-int", lambda xp, a, b: xp.tensordot(a.T, a - 1, 1)),
    ("view", lambda xp, a, b: (a * 2)[1:, ::2] + 1),
    ("reshape", lambda xp, a, b: (a - 1).reshape(-1).sum()),
]
DTYPES = [numpy.float32, numpy.float64, numpy.int32, numpy.int8, numpy.float16, numpy.complex64, numpy.bool_]


def _np_result(fn, a, b):
    with numpy.errstate(all="ignore"):
        return numpy.asarray(fn(numpy, a, b))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: numpy.dtype(d).name)
@pytest.mark.parametrize("name,fn", EXPRS, ids=[e[0] for e in EXPRS])
def test_shape_and_dtype_follow_numpy(name, fn, dtype):
    la, a = _lazy((5, 4), dtype, 1)
    lb, b = _lazy((3, 4), dtype, 2)
    try:
        want = _np_result(fn, a, b)
    except (TypeError, ValueError) as exc:
        with _tracing(), pytest.raises(type(exc)):
            fn(cp, la, lb)
        return
    with _tracing():
        got = fn(cp, la, lb)
        assert type(got) is L.LazyArray
        assert got.shape == want.shape and got.ndim == want.ndim and got.size == want.size
        assert got.dtype == want.dtype, (got.dtype, want.dtype)
        # The same graph evaluated by NumPy gives NumPy's value.
        with numpy.errstate(all="ignore"):
            host = got.numpy()
    numpy.testing.assert_allclose(host.astype(want.dtype), want, rtol=1e-3 if dtype == numpy.float16 else 1e-6)


def test_errors_are_raised_when_building():
    la, _ = _lazy((5, 4), numpy.float32)
    lb, _ = _lazy((3, 4), numpy.float32)
    with _tracing():
        with pytest.raises(ValueError):
            la + lb  # not broadcastable
        with pytest.raises(numpy.exceptions.AxisError):
            la.sum(axis=2)
        with pytest.raises(ValueError):
            cp.dot(la, lb)
        with pytest.raises(ValueError):
            la @ lb
        with pytest.raises(TypeError):
            cp.bitwise_and(la, 1.5)  # no loop, as in NumPy
        with pytest.raises(ValueError, match="shape-mismatch for sum"):
            cp.tensordot(la, lb, axes=([0], [0]))


def _steps(prog):
    return [type(s).__name__.lstrip("_") for s in prog.steps]


def test_plan_chain_is_one_kernel_and_reduction_takes_its_producer():
    la, _ = _lazy((1000,), numpy.float32)
    with _tracing():
        y = 1 / (1 + cp.exp(-(2 * la - 1))) * la + 0.5
        s = (y * y).sum()
    assert _steps(planner.plan([y._node])) == ["Elementwise"]
    # The chain is computed in the reduction's load: no elementwise kernel, no temporary.
    prog = planner.plan([s._node])
    assert _steps(prog) == ["Reduction"]
    assert prog.steps[0].cluster.inputs == [la._node]
    assert len(prog.steps[0].cluster.nodes) == 9


def test_plan_seed_gradient():
    x, _ = _lazy((64, 10), numpy.float32, 1)
    z, _ = _lazy((64, 10), numpy.float32, 2)
    W, _ = _lazy((10, 30), numpy.float32, 3)
    h, _ = _lazy((64, 30), numpy.float32, 4)
    X, _ = _lazy((64, 20), numpy.float32, 5)
    with _tracing():
        delta_o = -(x - z)
        delta_h = cp.dot(delta_o, W) * h * (1.0 - h)
        grad_W = cp.dot(X.T, delta_h)
        assert (delta_o.shape, delta_h.shape, grad_W.shape) == ((64, 10), (64, 30), (20, 30))
        assert grad_W.dtype == numpy.float32
    prog = planner.plan([grad_W._node])
    assert _steps(prog) == ["Elementwise", "Call", "Elementwise", "Call"]
    # h is read once by the fused `* h * (1.0 - h)` kernel: one parameter, not two.
    assert len(prog.steps[2].cluster.inputs) == 2


def test_shared_node_recomputed_when_cheap_and_kept_when_not():
    # 64 Mi elements (the node's shape; its host stand-in is small): past the launch's cost.
    la = L.LazyArray(g.Node("array", (), (2**26,), numpy.dtype(numpy.float32), value=_Host(numpy.zeros(1))))
    with _tracing():
        cheap = la * 2
        a, b = cheap.sum(), cheap.max()
        expensive = la
        for _ in range(12):
            expensive = cp.sin(expensive)
        c, d = expensive.sum(), expensive.max()
    assert _steps(planner.plan([a._node, b._node])) == ["Reduction", "Reduction"]
    assert _steps(planner.plan([c._node, d._node])) == ["Elementwise", "Reduction", "Reduction"]


def test_plan_is_cached_by_structure_not_values():
    la, _ = _lazy((100,), numpy.float32, 1)
    lb, _ = _lazy((100,), numpy.float32, 2)
    with _tracing():
        y1 = la * 2.0 + 1
        y2 = lb * 7.0 + 3
        y3 = la * 2 + 1  # an int scalar: another loop resolution, another structure
    p1, v1 = planner.plan_cached([y1._node])
    p2, v2 = planner.plan_cached([y2._node])
    p3, _ = planner.plan_cached([y3._node])
    assert p1 is p2 and p1 is not p3
    assert v2[0] is lb._node.value and 7.0 in v2


def test_generated_sources_compile_for_sm_90():
    progs = []
    for dtype in (numpy.float32, numpy.float16, numpy.complex128, numpy.int16, numpy.bool_):
        la, _ = _lazy((50, 8), dtype, 1)
        lb, _ = _lazy((8,), dtype, 2)
        with _tracing():
            y = cp.where(la != 0, la * lb, lb).astype(numpy.float64) - 1
            outs = [y, (la * lb).sum(axis=0), cp.negative(la.astype(numpy.float32)).max(axis=1)]
        progs.append(planner.plan([o._node for o in outs]))
    defs = [s.defn for p in progs for s in p.steps if hasattr(s, "defn")]
    for layout, ndim, it in (("flat", 1, numpy.int32), ("vec", 1, numpy.int32), ("nd", 2, numpy.int64)):
        for d in defs:
            cubin, _ = compiler.compile_cubin(d.source(layout, ndim, it)[1], arch="sm_90")
            assert cubin[:4] == b"\x7fELF"
    for p in progs:
        for s in p.steps:
            if hasattr(s, "rdef"):
                cubin, _ = compiler.compile_cubin(s.source(), arch="sm_90")
                assert cubin[:4] == b"\x7fELF"


def _ptx(src, options):
    """NVRTC's PTX of `src` for sm_90 under `options`, with the library's include path (no GPU)."""
    from cuda.bindings import nvrtc

    from cuarray.cuda import compiler

    inc = ["-I" + d for d in compiler._include_path()]
    opts = [o.encode() for o in ("-arch=compute_90", "-std=c++17", *inc, *options)]
    _, prog = nvrtc.nvrtcCreateProgram(src.encode(), b"fma_check.cu", 0, [], [])
    (err,) = nvrtc.nvrtcCompileProgram(prog, len(opts), opts)
    assert err == nvrtc.nvrtcResult.NVRTC_SUCCESS, err
    return nvrtc_text(prog)


def test_eager_and_fused_kernels_compile_without_fma_contraction():
    # ptxas contracts `mul.f32` feeding `add.f32` into fma whatever NVVM was told: the x + x * x
    # that a GPU run caught. Both the eager ufunc and the fused kernel must carry -fmad=false.
    la, _ = _lazy((10,), numpy.float32)
    with _tracing():
        y = la + la * la
    step = planner.plan([y._node]).steps[0]
    ptx = _ptx(step.source(), step.defn.options)
    assert "mul.rn.f32" in ptx and "add.rn.f32" in ptx and "fma" not in ptx
    assert "fma" in _ptx(step.source(), ())  # the check can fail: without the option NVVM contracts
    f32 = numpy.dtype(numpy.float32)
    eager = cp.add._definition(cp.add._resolve((f32, f32), None, "same_kind"), (f32, f32), (f32,), False)
    assert "-fmad=false" in eager.options


def test_source_reads_like_the_ufunc_table_and_blocks_fma():
    la, _ = _lazy((10,), numpy.float32)
    with _tracing():
        y = la * 2 + 1
    prog = planner.plan([y._node])
    src = prog.steps[0].source()
    assert "out0 = in0 * in1;" in src and "out0 = in0 + in1;" in src
    assert prog.steps[0].defn.name == "cuarray_fused_multiply_add_float32"
    assert "-fmad=false" in prog.steps[0].defn.options  # the product is rounded before the add
    assert "fma" not in _ptx(src, prog.steps[0].defn.options)
    text = y.explain()
    assert "multiply" in text and "elementwise kernel" in text and "__global__" in text


def test_lazy_mode_patches_nothing_and_installs_one_tracer_per_thread():
    from cuarray._core import tracing

    call = _ufunc_mod.ufunc.__call__
    ns_sum, ns_dot, method_sum = cp.sum, cp.dot, cp.ndarray.sum
    assert tracing.state.tracer is None and len(tracing.active) == 0
    with _tracing():
        assert tracing.state.tracer is L._threads.st and len(tracing.active) == 1
        with _tracing():  # nested: the same tracer, counted once
            assert len(tracing.active) == 1
        assert L.is_lazy_mode()
        assert _ufunc_mod.ufunc.__call__ is call and cp.sum is ns_sum and cp.dot is ns_dot
    assert not L.is_lazy_mode()
    assert tracing.state.tracer is None and len(tracing.active) == 0
    with pytest.raises(TypeError):
        cp.sum(object())
    assert _ufunc_mod.ufunc.__call__ is call and cp.sum is ns_sum and cp.dot is ns_dot
    assert cp.ndarray.sum is method_sum


def test_lazy_array_outside_lazy_mode_is_not_a_node_builder():
    la, _ = _lazy((4,), numpy.float32)
    assert not L.is_lazy_mode()
    # Metadata needs no value; a len() of a 1-d array is its first dimension.
    assert la.shape == (4,) and len(la) == 4 and la.strides == (4,)


def test_fuse_programs_keep_aliased_arguments_apart():
    # A fused function traced with f(x, x) must not read one array when later called as f(x, y).
    x, _ = _lazy((10,), numpy.float32)
    with _tracing():
        y = x * x
    node = y._node
    b = g.Node("array", (), (10,), numpy.dtype(numpy.float32), value=x._node.value)
    node2 = g.ufunc_node(node.attr[0], [x._node, b])
    assert len(planner.plan([node2]).inputs) == 1
    assert len(planner.plan([node2], dedupe=False).inputs) == 2


def test_chain_cost_counts_uncomputed_elementwise_nodes():
    la, _ = _lazy((10,), numpy.float32)
    with _tracing():
        y = la
        for _ in range(5):
            y = y * 2.0
        s = y.sum()
    assert y._node.cost == 5 and s._node.cost == 0 and la._node.cost == 0


def test_operators_on_python_scalar_arguments_stay_weak():
    # fuse passes scalar arguments as nodes: `s + s` must stay a Python scalar (NEP 50), so
    # `x * (s + s)` keeps x's dtype as `x * (1.5 + 1.5)` does.
    x, _ = _lazy((4,), numpy.float32)
    s = L.LazyArray(g.scalar_node(1.5))
    with _tracing():
        assert (x * (s + s)).dtype == numpy.float32
        assert (x * -s).dtype == numpy.float32
        assert (x * cp.tanh(s)).dtype == numpy.float64  # a ufunc of a scalar is a float64 scalar
        assert cp.where(s > s, x, s * 0.5).dtype == numpy.float32


def test_fused_kernel_with_an_interior_float16_node_compiles():
    # A cast through float16 between float32/float64 nodes: no param of the kernel is float16,
    # yet its body declares __half, so cuda_fp16.h must be included (a GPU run caught NVRTC's
    # 'identifier "__half" is undefined' on `a.astype(float16) * 2.5 + b`).
    la, _ = _lazy((50, 8), numpy.float32, 1)
    lb, _ = _lazy((50, 8), numpy.float64, 2)
    with _tracing():
        outs = [(la * 2).astype(numpy.float16) + lb,
                ((la - 1).astype(numpy.float16).astype(numpy.float32) * 3).sum(axis=0)]
    prog = planner.plan([o._node for o in outs])
    srcs = [s.source() for s in prog.steps if hasattr(s, "defn") or hasattr(s, "rdef")]
    assert len(srcs) == 2 and all("__half" in src for src in srcs)
    for src in srcs:
        cubin, _ = compiler.compile_cubin(src, arch="sm_90")
        assert cubin[:4] == b"\x7fELF"
