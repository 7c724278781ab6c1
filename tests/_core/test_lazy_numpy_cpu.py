"""`lazy(evaluate="numpy")` without a GPU: over every operation lazy mode records, the graph
built on NumPy leaves (1) evaluates by NumPy to NumPy's eager result bit for bit, (2) has the
shapes and dtypes of the graph built on device arrays, and (3) plans to the same kernels: the
generated CUDA equals the device graph's; NVRTC compiles it for sm_90. `@cuarray.lazy` and
`@cuarray.fuse` run NumPy-only calls this way; plain lazy mode keeps the host-input policy."""

import numpy
import pytest

import cuarray as cp
from cuarray._core.fusion import graph as g
from cuarray._core.fusion import lazy_mode as L
from cuarray._core.fusion import planner


class _Dev:
    """Stands for a device array of NumPy's data (shape, dtype, views, `get()`): the device graph
    of the same structure, built without a GPU."""

    def __init__(self, a):
        self.a = a

    def get(self):
        return self.a

    def __getitem__(self, key):
        return _Dev(self.a[key])

    def transpose(self, axes=None):
        return _Dev(self.a.transpose(axes))

    def reshape(self, shape):
        return _Dev(self.a.reshape(shape))

    _shape = property(lambda self: self.a.shape)
    _dtype = property(lambda self: self.a.dtype)


# (name, f(xp, a, b, v, m, i)): a, b (4, 5) float32; v (5,) float32; m (5, 3) float32; i (4, 5) int32
OPS = [
    ("arith-scalars", lambda xp, a, b, v, m, i: (a * 2 - 1.5) / (b + 3) ** 2),
    ("reflected", lambda xp, a, b, v, m, i: 1.0 - a + 2 * b - 3 / (a * a + 1)),
    ("broadcast", lambda xp, a, b, v, m, i: a * v + b[:, :1]),
    ("compare-logic", lambda xp, a, b, v, m, i: (a > b) | (a < 0.5) & ~(b > 0)),
    ("unary", lambda xp, a, b, v, m, i: -a + abs(b) + (+a)),
    ("int-ops", lambda xp, a, b, v, m, i: (i * 3 + 1) // 2 - i % 5 + (i << 1) ^ i),
    ("mixed-int-float", lambda xp, a, b, v, m, i: i * a + i / 3),
    ("ufuncs", lambda xp, a, b, v, m, i: xp.exp(-a) + xp.log1p(abs(b)) + xp.sqrt(abs(a)) + xp.tanh(b)),
    ("binary-ufuncs", lambda xp, a, b, v, m, i: xp.maximum(a, b) - xp.minimum(a, 0.0) + xp.arctan2(a, b)),
    ("where", lambda xp, a, b, v, m, i: xp.where(a > 0, a, b * 0.5)),
    ("where-scalars", lambda xp, a, b, v, m, i: xp.where(a > b, 1.0, 0.0) * a),
    ("clip", lambda xp, a, b, v, m, i: xp.clip(a, -0.5, 0.5) + xp.clip(b, 0.0, None) + xp.clip(a, None, 1.0)),
    ("astype", lambda xp, a, b, v, m, i: (a * 3).astype(numpy.float16) + i.astype(numpy.float64)),
    ("sum", lambda xp, a, b, v, m, i: xp.sum(a * b)),
    ("sum-axis", lambda xp, a, b, v, m, i: xp.sum(a * 2, axis=0) + (b - 1).sum(axis=0)),
    ("sum-keepdims", lambda xp, a, b, v, m, i: a - xp.sum(a, axis=1, keepdims=True)),
    ("prod", lambda xp, a, b, v, m, i: xp.prod(xp.tanh(a) * 0.1 + 1, axis=1)),
    ("max-min", lambda xp, a, b, v, m, i: xp.max(a, axis=0) - xp.min(b) + xp.amax(a * b) - a.min(axis=1).sum()),
    ("any-all", lambda xp, a, b, v, m, i: xp.any(a > 1, axis=1) ^ xp.all(b > -1, axis=1)),
    ("int-sum", lambda xp, a, b, v, m, i: xp.sum(i * 2, axis=0)),
    ("mean", lambda xp, a, b, v, m, i: xp.mean(a * b) + (a - b).mean(axis=0)),
    ("mean-int", lambda xp, a, b, v, m, i: xp.mean(i, axis=1)),
    ("mean-f16", lambda xp, a, b, v, m, i: xp.mean(a.astype(numpy.float16), axis=0)),
    ("dot", lambda xp, a, b, v, m, i: xp.dot(a * 2, m) + 1),
    ("dot-vector", lambda xp, a, b, v, m, i: xp.dot(a, v) * 3),
    ("dot-scalar", lambda xp, a, b, v, m, i: xp.dot(a, 2.0) - b),
    ("matmul", lambda xp, a, b, v, m, i: (a - 1) @ m + xp.matmul(b, m)),
    ("tensordot", lambda xp, a, b, v, m, i: xp.tensordot(a * b, m, axes=1) + 0.5),
    ("views", lambda xp, a, b, v, m, i: (a * 2)[1:, ::2] + a.T[::2, 1:].T * 0.5 + (b + 1).T.T[1:, ::2]),
    ("reshape", lambda xp, a, b, v, m, i: (a + b).reshape(5, 4).T * 2 + a.reshape(20)[:4].reshape(4, 1)),
    ("index-row", lambda xp, a, b, v, m, i: (a * b)[2] + a[0]),
    ("gradient", lambda xp, a, b, v, m, i: xp.dot((a.T @ b) * a.T[:, :1] * (1.0 - a.T[:, :1]), b.T).sum(axis=1)),
]


def _inputs():
    rng = numpy.random.default_rng()
    f = lambda *s: rng.standard_normal(s).astype(numpy.float32)  # noqa: E731
    return f(4, 5), f(4, 5), f(5), f(5, 3), rng.integers(-50, 50, (4, 5)).astype(numpy.int32)


def _host_graph(fn, arrays):
    with cp.lazy(evaluate="numpy") as lz:
        out = fn(cp, *lz.leaf(*arrays))
        assert type(out) is L.LazyArray and not out.is_computed
    return out


def _device_graph(fn, arrays):
    with L.lazy(_track=False):  # (nothing computed on exit: there is no device)
        return fn(cp, *[L.LazyArray(g.array_node(_Dev(a))) for a in arrays])


def _kernels(out):
    """The plan's description and generated CUDA, leaf values aside."""
    return planner.plan([out._node]).explain()


@pytest.mark.parametrize("name,fn", OPS, ids=[o[0] for o in OPS])
def test_host_graph_is_numpy_bit_for_bit_and_the_device_graph(name, fn):
    arrays = _inputs()
    with numpy.errstate(all="ignore"):
        want = numpy.asarray(fn(numpy, *arrays))
        host = _host_graph(fn, arrays)
        got = host.numpy()
    assert host.shape == want.shape and host.dtype == want.dtype, (host.shape, host.dtype, want.shape, want.dtype)
    assert got.dtype == want.dtype and got.shape == want.shape
    numpy.testing.assert_array_equal(got, want)
    dev = _device_graph(fn, arrays)
    assert dev.shape == host.shape and dev.dtype == host.dtype
    assert _kernels(host) == _kernels(dev)


def test_errors_are_raised_when_building():
    a, b, v, m, i = _inputs()
    with cp.lazy(evaluate="numpy") as lz:
        la, lm = lz.leaf(a, m)
        with pytest.raises(ValueError):
            la + lm  # not broadcastable
        with pytest.raises(ValueError):
            cp.dot(lm, la)
        with pytest.raises(ValueError):
            la @ la
        with pytest.raises(numpy.exceptions.AxisError):
            la.sum(axis=2)
        with pytest.raises(TypeError):
            cp.bitwise_and(la, 1.5)  # no loop, as in NumPy
        with pytest.raises(TypeError, match="asarray"):
            cp.sort(la)  # not recorded: a device routine, and no upload is implicit


def test_explain_shows_and_compiles_the_cuda_a_device_would_run():
    a, b, v, m, i = _inputs()
    with cp.lazy(evaluate="numpy") as lz:
        x, y = lz.leaf(a, b)
        r = (cp.exp(-x) * y + 1.0).sum(axis=0) + cp.dot(x, m).mean()
    text = r.explain(compile=True)
    assert "graph:" in text and "plan:" in text and "__global__" in text
    assert text.count("compiled for sm_90 by NVRTC") >= 2


def test_decorated_functions_take_numpy_and_return_numpy():
    a, b, v, m, i = _inputs()
    seen = []

    @cp.lazy
    def step(x, w, lr=0.1):
        seen.append((type(x).__name__, x.shape))  # lazy leaves, shapes known
        grad = cp.dot(x.T, cp.tanh(cp.dot(x, w)))
        return w - lr * grad, (grad * grad).sum()

    w2, n2 = step(a, m)
    assert seen == [("LazyArray", (4, 5))]
    assert type(w2) is numpy.ndarray and type(n2) is numpy.ndarray
    grad = numpy.dot(a.T, numpy.tanh(numpy.dot(a, m)))
    numpy.testing.assert_array_equal(w2, m - 0.1 * grad)
    numpy.testing.assert_array_equal(n2, (grad * grad).sum())

    @cp.fuse(kernel_name="mix")
    def f(x, y, s):
        return cp.sum(x * y + s, axis=0), cp.exp(-x)

    got = f(a, b, 0.5)
    assert type(got) is tuple and all(type(t) is numpy.ndarray for t in got)
    numpy.testing.assert_array_equal(got[0], numpy.sum(a * b + 0.5, axis=0))
    numpy.testing.assert_array_equal(got[1], numpy.exp(-a))


def test_fuse_of_scalars_only_runs_the_plain_function():
    # CuPy's fuse runs the function itself when no device array is passed: code written with
    # get_array_module gives NumPy's scalars, with no device (this machine has none).
    @cp.fuse()
    def f(x, y):
        xp = cp.get_array_module(x)
        return xp.sin(x) * y + 1

    x, y = numpy.random.default_rng().random(2)
    for args in ((float(x), float(y)), (numpy.float32(x), 2), (numpy.float64(x), numpy.int8(3))):
        got = f(*args)
        want = numpy.sin(args[0]) * args[1] + 1
        assert type(got) is type(want) and got == want


def test_plain_lazy_mode_keeps_the_host_input_policy():
    a, b, v, m, i = _inputs()
    with pytest.raises(TypeError, match="cuarray.asarray"):
        with cp.lazy():
            cp.dot(a, m)
    with pytest.raises(TypeError, match="cuarray.asarray"):
        with cp.lazy():
            cp.exp(a)
    with pytest.raises(TypeError, match="cuarray.asarray"):
        with cp.lazy() as lz:
            lz.leaf(a)
    with pytest.raises(ValueError):
        cp.lazy(evaluate="cupy")


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "float16", "float32", "complex64", "complex128"])
def test_power_operator_is_numpys(dtype):
    """`a ** s` in lazy mode as NumPy's ndarray operator (and cuarray's eager one): square for the
    Python int 2, reciprocal for -1 and sqrt for 0.5 where NumPy takes them, so a bool ** 2 is
    int8 (power's int64) and complex special values are square's, reciprocal's and sqrt's."""
    x = numpy.array([0, 1, -0.0, -4, numpy.inf, -numpy.inf, numpy.nan, 1e30], numpy.complex128)
    x = (x + 1j * x[::-1]) if dtype.startswith("complex") else x.real
    with numpy.errstate(all="ignore"):
        x = x.astype(dtype)
    for e in (2, -1, 0.5, 3, 2.0, 0.25):

        @cp.lazy
        def f(a):
            return a ** e

        with numpy.errstate(all="ignore"):
            try:
                want = x ** e
            except (ValueError, OverflowError) as err:  # an integer to a negative power; -1 as uint16
                with pytest.raises(type(err)):
                    f(x)
                continue
            got = numpy.asarray(f(x))
        assert got.dtype == want.dtype, (e, got.dtype, want.dtype)
        numpy.testing.assert_array_equal(got, want, err_msg=str(e))
