"""Planning without a GPU: which matmul consumer chains become a cublasLt epilogue (and which do
not), and the shared-subexpression cost model's decisions."""

import numpy
import pytest

import cuarray as cp
from cuarray._core.fusion import cost
from cuarray._core.fusion import epilogue
from cuarray._core.fusion import graph as g
from cuarray._core.fusion import lazy_mode as L
from cuarray._core.fusion import planner


class _Host:
    def __init__(self, a):
        self.a = a

    def get(self):
        return self.a


def _arr(shape, dtype=numpy.float32):
    """A lazy array node of `shape` (its host stand-in is one element: only planning here)."""
    return L.LazyArray(g.Node("array", (), tuple(shape), numpy.dtype(dtype), value=_Host(numpy.zeros(1, dtype))))


def _tracing():
    return L.lazy(_track=False)


def _steps(prog):
    return [type(s).__name__.lstrip("_") for s in prog.steps]


def _plan(*outs):
    return planner.plan([o._node for o in outs])


M, K, N = 64, 32, 48


def _layer(dtype=numpy.float32, bshape=(N,)):
    return _arr((M, K), dtype), _arr((K, N), dtype), _arr(bshape, dtype)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.float16])
@pytest.mark.parametrize("bshape", [(N,), (1, N)])
def test_relu_bias_is_one_epilogue(dtype, bshape):
    x, W, b = _layer(dtype, bshape)
    with _tracing():
        y = cp.maximum(cp.dot(x, W) + b, 0)
        y2 = cp.maximum(0.0, b + x @ W)  # operands in the other order, `@`
    for out in (y, y2):
        prog = _plan(out)
        assert _steps(prog) == ["Epilogue"]
        st = prog.steps[0]
        assert st.kind == "relu_bias" and st.ibias >= 0 and st.ialpha < 0 and st.shape == (M, N)
        assert "epilogue relu_bias" in prog.explain()


def test_bias_only_relu_only_and_alpha():
    x, W, b = _layer()
    with _tracing():
        outs = {"bias": x @ W + b, "relu": cp.maximum(x @ W, 0), "default": (x @ W) * 2,
                "bias-a": 0.5 * (x @ W) + b, "relu_bias-d": cp.maximum((x @ W) / 4 + b, 0)}
    for want, out in outs.items():
        prog = _plan(out)
        assert _steps(prog) == ["Epilogue"], want
        st = prog.steps[0]
        assert st.kind == want.split("-")[0]
        assert (st.ialpha >= 0) == ("-" in want or want == "default")
    assert _plan(outs["relu_bias-d"]).steps[0].div


def test_stack_of_matrices_times_a_matrix():
    x3, W, b = _arr((3, M, K)), _arr((K, N)), _arr((N,))
    b3 = _arr((1, 1, N))
    with _tracing():
        y = cp.maximum(x3 @ W + b, 0)
        y2 = cp.dot(x3, W) + b3
    for out, kind in ((y, "relu_bias"), (y2, "bias")):
        prog = _plan(out)
        assert _steps(prog) == ["Epilogue"] and prog.steps[0].kind == kind
        assert prog.steps[0].shape == (3, M, N)


def test_rest_of_the_chain_fuses_into_one_kernel_after_the_gemm():
    x, W, b = _layer()
    with _tracing():
        h = cp.maximum(x @ W + b, 0)
        y = cp.tanh(h) * 3 + h  # the epilogue's output read twice by the following kernel
        s = (h * h).sum(axis=1)
    prog = _plan(y, s)
    assert _steps(prog) == ["Epilogue", "Elementwise", "Reduction"]
    assert prog.steps[1].ins == (len(prog.inputs),) and prog.steps[2].ins == (len(prog.inputs),)


def _not_epilogue(out):
    assert "Epilogue" not in _steps(_plan(out))


def test_no_epilogue_where_not_allowed():
    x, W, b = _layer()
    col = _arr((M, 1))
    full = _arr((M, N))
    b64 = _arr((N,), numpy.float64)
    with _tracing():
        _not_epilogue(x @ W + col)                      # bias along the columns
        _not_epilogue(x @ W + full)                     # not a broadcast row
        _not_epilogue(x @ W + b64)                      # float64 bias: the add is a float64 loop
        _not_epilogue(cp.maximum(x @ W, 1.0))           # not ReLU
        _not_epilogue((x @ W) * 0.3)                    # alpha not a power of two: not exact
        _not_epilogue(4 / (x @ W))                      # not a multiple
        _not_epilogue((x @ W) - b)                      # subtraction
        _not_epilogue(cp.exp(x @ W))
        mm = x @ W
        twice = mm + b
        other = mm * 3
    prog = _plan(twice, other)                          # the product used twice
    assert _steps(prog).count("Epilogue") == 0
    with _tracing():
        mm = x @ W
        z = mm + b
    assert "Epilogue" not in _steps(_plan(mm, z))        # the product itself requested
    xi, Wi, bi = _layer(numpy.int32)
    xc, Wc, bc = _layer(numpy.complex64)
    x3, W3 = _arr((2, M, K)), _arr((2, K, N))
    xv = _arr((K,))
    with _tracing():
        _not_epilogue(cp.maximum(xi @ Wi + bi, 0))      # int dtypes
        _not_epilogue(xc @ Wc + bc)                     # complex
        _not_epilogue(x3 @ W3 + b)                      # batched over both operands
        _not_epilogue(x @ W + _arr((2, 1, N)))          # a bias that adds a dimension
        _not_epilogue(xv @ W + b)                       # vector @ matrix
        _not_epilogue(cp.tensordot(x, W, 1) + b)        # tensordot runs its eager routine


def test_chain_stops_at_a_shared_intermediate():
    x, W, b = _layer()
    with _tracing():
        z = x @ W + b
        h = cp.maximum(z, 0)
        w = z * 2  # z read twice: the epilogue stops at the bias
    prog = _plan(h, w)
    assert _steps(prog)[0] == "Epilogue" and prog.steps[0].kind == "bias"
    assert _steps(prog).count("Epilogue") == 1


def test_fallback_kernel_of_the_chain_compiles():
    from cuarray.cuda import compiler

    for dtype in (numpy.float32, numpy.float16, numpy.float64):
        x, W, b = _layer(dtype)
        with _tracing():
            y = cp.maximum(2 * (x @ W) + b, 0)
        fb = _plan(y).steps[0].fallback
        cubin, _ = compiler.compile_cubin(fb.defn.source("flat", 1, numpy.int32)[1], arch="sm_90")
        assert cubin[:4] == b"\x7fELF"


def test_power_of_two_scalars():
    f32 = numpy.dtype(numpy.float32)
    for v in (1, 2, 0.5, -4.0, 2.0**-20, numpy.float32(8)):
        assert epilogue.power_of_two(v, f32), v
    for v in (0, 0.0, 3, 0.1, float("inf"), float("nan"), 2.0**200):
        assert not epilogue.power_of_two(v, f32), v


# -- the cost model -------------------------------------------------------------------------------
BIG = (2**26,)


def _fan_out(k, size, make):
    """The kernels computing `sum(t * c_i)` for i < k, t = make(x): k (t recomputed in each
    reduction's load) or k + 1 (t computed once into memory, then read by each reduction). (Sums:
    elementwise results of one shape would be siblings, one multi-output kernel computing t once.)"""
    x = _arr(size)
    with _tracing():
        t = make(x)
        outs = [(t * float(i + 2)).sum() for i in range(k)]
    steps = _steps(_plan(*outs))
    if len(steps) == k + 1:
        assert steps == ["Elementwise"] + ["Reduction"] * k
    else:
        assert steps == ["Reduction"] * k
    return len(steps)


def test_cheap_shared_subtree_is_recomputed():
    assert _fan_out(2, BIG, lambda x: x * 2 + 1) == 2


def test_expensive_shared_subtree_is_materialised():
    def heavy(x):
        for _ in range(20):
            x = cp.power(x, 1.01)
        return x

    assert _fan_out(2, BIG, heavy) == 3
    # A small array: the launch of a kernel for it costs more than recomputing.
    assert _fan_out(2, (1000,), heavy) == 2


def test_big_fan_out_is_materialised():
    def sins(x):
        for _ in range(4):
            x = cp.sin(x)
        return x

    # (the sweep: 4 sins read by 2 or 4 kernels recomputed faster, by 8 materialised faster)
    assert _fan_out(2, BIG, sins) == 2
    assert _fan_out(4, BIG, sins) == 4
    assert _fan_out(8, BIG, sins) == 9
    assert _fan_out(32, BIG, cp.exp) == 32  # cheap: never worth a temporary


def test_a_huge_shared_subtree_is_materialised_even_when_small():
    def long_chain(x):
        for _ in range(cost.MAX_RECOMPUTE_NODES + 1):
            x = x + 1.0
        return x

    assert _fan_out(2, (1000,), long_chain) == 3
    assert _fan_out(2, (1000,), lambda x: x + 1.0) == 2


def test_consumers_in_one_kernel_do_not_count_twice():
    x = _arr(BIG)
    with _tracing():
        t = x
        for _ in range(20):
            t = cp.power(t, 1.01)
        y = t * t + cp.sin(t)  # three users of t, one kernel: computed once inside it
    assert _steps(_plan(y)) == ["Elementwise"]


def test_operand_of_a_matmul_is_read_not_recomputed():
    x, W = _arr((4096, 4096)), _arr((4096, 64))
    with _tracing():
        t = cp.sin(cp.sin(cp.sin(cp.sin(x))))
        y = t @ W
        s = t.sum()
        c = cp.exp(x)
        y2 = c @ W
        s2 = c.sum()
    prog = _plan(y, s)
    assert _steps(prog) == ["Elementwise", "Call", "Reduction"]
    assert prog.steps[2].ins == (len(prog.inputs),)  # the reduction reads t from memory
    prog = _plan(y2, s2)  # exp(x) costs no more than reading it: recomputed in the load
    assert _steps(prog) == ["EagerUfunc", "Call", "Reduction"]
    assert prog.steps[2].ins != (len(prog.inputs),)


def test_an_input_read_through_several_nodes_counts_once():
    h = _Host(numpy.zeros(1, numpy.float32))
    x1 = g.Node("array", (), BIG, numpy.dtype(numpy.float32), value=h)
    x2 = g.Node("array", (), BIG, numpy.dtype(numpy.float32), value=h)  # the same array, another node
    with _tracing():
        t = cp.tanh(L.LazyArray(x1)) / (1.0 + L.LazyArray(x1) * L.LazyArray(x2))
    assert cost.subtree(t._node, lambda n: False) == (18.0, 4.0)


def test_weights():
    x, x64 = _arr((10,)), _arr((10,), numpy.float64)
    with _tracing():
        nodes = [x + 1, cp.exp(x), x / 3, cp.power(x, 2.5), cp.exp(x64), x64 + 1]
    w = [cost.weight(n._node) for n in nodes]
    assert w[0] == 1 and w[0] < w[2] < w[1] < w[3] and w[4] > w[1] and w[5] > w[0]
