"""Matmul epilogues and the shared-subexpression cost model on the GPU: lazy results against
NumPy and eager cuarray on fresh random data, over dtypes, operand layouts (transposed, strided
rows, column steps), bias shapes and layouts; the fallback when a scalar changes after planning;
`fuse`; shared subtrees computed once give eager's values bit for bit."""

import numpy
import pytest

import cuarray as cp
from cuarray._core.fusion import epilogue, replay

pytestmark = pytest.mark.gpu


@pytest.fixture
def steps_run(monkeypatch):
    """No graph replay: the tests that count which path the epilogue step takes (`FALLBACKS`) need
    the step to run. Blocks of one structure in a row (here across tests and layouts) are otherwise
    replayed as a captured graph, whose moved inputs are copied into the capture's own buffers and
    never reach the step (test_fusion_replay_gpu.py tests those replays)."""
    monkeypatch.setattr(replay, "GRAPH_REPLAY", False)

TOL = {numpy.dtype("e"): 2e-2, numpy.dtype("f"): 1e-4, numpy.dtype("d"): 1e-11}

EXPRS = {
    "relu_bias": lambda xp, x, W, b: xp.maximum(xp.dot(x, W) + b, 0),
    "bias": lambda xp, x, W, b: x @ W + b,
    "relu": lambda xp, x, W, b: xp.maximum(x @ W, 0),
    "alpha": lambda xp, x, W, b: xp.maximum(0.5 * xp.dot(x, W) + b, 0),
    "div-bias": lambda xp, x, W, b: (x @ W) / 4 + b,
    "chain": lambda xp, x, W, b: xp.tanh(xp.maximum(x @ W + b, 0)) * 2 + 1,
}


def _operand(rng, shape, dtype, kind):
    a = rng.standard_normal(shape).astype(dtype)
    if kind == "C":
        return a, cp.asarray(a)
    if kind == "T":  # stored transposed: an F-ordered view
        return a, cp.asarray(numpy.ascontiguousarray(a.T)).T
    if kind == "ld":  # rows of a wider matrix (leading dimension > columns)
        big = cp.zeros((shape[0], shape[1] + 7), dtype)
        big[:, :shape[1]] = cp.asarray(a)
        return a, big[:, :shape[1]]
    if kind == "step":  # no unit stride: the fallback
        big = cp.zeros((shape[0], 2 * shape[1]), dtype)
        big[:, ::2] = cp.asarray(a)
        return a, big[:, ::2]
    raise AssertionError(kind)


def _bias(rng, n, dtype, kind):
    b = rng.standard_normal(n).astype(dtype)
    if kind == "row":
        return b, cp.asarray(b)
    if kind == "row2":
        return b.reshape(1, n), cp.asarray(b.reshape(1, n))
    if kind == "strided":
        big = cp.zeros(2 * n, dtype)
        big[::2] = cp.asarray(b)
        return b, big[::2]
    if kind == "offset":  # a misaligned pointer: copied before the call
        big = cp.zeros(n + 1, dtype)
        big[1:] = cp.asarray(b)
        return b, big[1:]
    raise AssertionError(kind)


def _check(expr, dtype, shapes, lx, lw, lb, seed=None):
    rng = numpy.random.default_rng(seed)
    (m, k), (_, n) = shapes
    hx, dx = _operand(rng, (m, k), dtype, lx)
    hw, dw = _operand(rng, (k, n), dtype, lw)
    hb, db = _bias(rng, n, dtype, lb)
    fn = EXPRS[expr]
    with cp.lazy():
        y = fn(cp, dx, dw, db)
        host = y.numpy()
    eager = fn(cp, dx, dw, db).get()
    want = fn(numpy, hx.astype(numpy.float64), hw.astype(numpy.float64), hb.astype(numpy.float64))
    tol = TOL[numpy.dtype(dtype)]
    scale = max(1.0, float(numpy.abs(want).max()))
    got = y.get()
    assert got.dtype == numpy.dtype(dtype) and got.shape == want.shape
    numpy.testing.assert_allclose(got, want, rtol=tol, atol=10 * tol * scale)
    numpy.testing.assert_allclose(got, eager, rtol=tol, atol=10 * tol * scale)
    numpy.testing.assert_allclose(host, want, rtol=tol, atol=10 * tol * scale)
    return got, eager


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.float16], ids=lambda d: numpy.dtype(d).name)
@pytest.mark.parametrize("expr", list(EXPRS))
@pytest.mark.parametrize("shapes", [((96, 80), (80, 72)), ((33, 129), (129, 65)), ((1, 16), (16, 8))], ids=str)
def test_epilogue_against_numpy_and_eager(dtype, expr, shapes):
    _check(expr, dtype, shapes, "C", "C", "row")


@pytest.mark.parametrize("lx", ["C", "T", "ld", "step"])
@pytest.mark.parametrize("lw", ["C", "T", "ld"])
@pytest.mark.parametrize("lb", ["row", "row2", "strided", "offset"])
def test_epilogue_layouts(lx, lw, lb):
    _check("relu_bias", numpy.float32, ((64, 48), (48, 40)), lx, lw, lb)


def test_float32_takes_the_epilogue_path(steps_run):
    before = epilogue.FALLBACKS[0]
    for expr in ("relu_bias", "bias", "relu", "alpha", "chain"):
        for lx, lw in (("C", "C"), ("T", "C"), ("C", "T")):
            _check(expr, numpy.float32, ((128, 64), (64, 96)), lx, lw, "row")
    assert epilogue.FALLBACKS[0] == before


@pytest.mark.parametrize("kind", ["C", "batch-T", "rows-T"])
def test_stack_of_matrices(steps_run, kind):
    rng = numpy.random.default_rng()
    x = rng.standard_normal((3, 40, 24)).astype(numpy.float32)
    W = rng.standard_normal((24, 16)).astype(numpy.float32)
    b = rng.standard_normal(16).astype(numpy.float32)
    if kind == "C":
        dx = cp.asarray(x)
    elif kind == "batch-T":  # batches not adjacent: the rows do not collapse (fallback)
        dx = cp.asarray(numpy.ascontiguousarray(x.transpose(1, 0, 2))).transpose(1, 0, 2)
    else:  # each matrix stored transposed (fallback)
        dx = cp.asarray(numpy.ascontiguousarray(x.transpose(0, 2, 1))).transpose(0, 2, 1)
    dW, db = cp.asarray(W), cp.asarray(b)
    before = epilogue.FALLBACKS[0]
    with cp.lazy():
        y = cp.maximum(dx @ dW + db, 0)
        z = cp.dot(dx, dW) + db
    assert y.shape == (3, 40, 16)
    want = x.astype(numpy.float64) @ W + b
    numpy.testing.assert_allclose(y.get(), numpy.maximum(want, 0), rtol=1e-4, atol=1e-4)
    numpy.testing.assert_allclose(z.get(), want, rtol=1e-4, atol=1e-4)
    assert (epilogue.FALLBACKS[0] == before) == (kind == "C")


def test_scalar_changed_after_planning_falls_back(steps_run):
    rng = numpy.random.default_rng()
    x = rng.standard_normal((32, 16)).astype(numpy.float32)
    W = rng.standard_normal((16, 24)).astype(numpy.float32)
    b = rng.standard_normal(24).astype(numpy.float32)
    dx, dW, db = cp.asarray(x), cp.asarray(W), cp.asarray(b)
    before = epilogue.FALLBACKS[0]
    for s, lo in ((2.0, 0.0), (0.3, 0.0), (2.0, 0.5)):  # one structure: the plan of the first is reused
        with cp.lazy():
            y = cp.maximum(s * cp.dot(dx, dW) + db, lo)
        want = numpy.maximum(s * (x.astype(numpy.float64) @ W) + b, lo)
        numpy.testing.assert_allclose(y.get(), want, rtol=1e-4, atol=1e-3)
    assert epilogue.FALLBACKS[0] == before + 2


def test_fuse_with_epilogue():
    rng = numpy.random.default_rng()
    x = rng.standard_normal((50, 30)).astype(numpy.float32)
    W = rng.standard_normal((30, 20)).astype(numpy.float32)
    b = rng.standard_normal(20).astype(numpy.float32)

    @cp.fuse()
    def layer(x, W, b):
        return cp.tanh(cp.maximum(cp.dot(x, W) + b, 0))

    got = layer(cp.asarray(x), cp.asarray(W), cp.asarray(b))
    assert "epilogue relu_bias" in layer.explain(cp.asarray(x), cp.asarray(W), cp.asarray(b))
    numpy.testing.assert_allclose(got.get(), numpy.tanh(numpy.maximum(x.astype(numpy.float64) @ W + b, 0)),
                                  rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("fan_out", [2, 16])
def test_shared_subtree_materialised_or_not_is_eager_bit_for_bit(fan_out):
    rng = numpy.random.default_rng()
    x = cp.asarray(rng.uniform(0.5, 1.5, 2**22).astype(numpy.float32))

    def heavy(x):
        t = x
        for _ in range(12):
            t = cp.power(t, 1.01) + cp.sin(t)
        return t

    def body(x):
        t = heavy(x)
        return [t * float(i + 2) for i in range(fan_out)]

    with cp.lazy():
        lz = body(x)
    eg = body(x)
    for a, e in zip(lz, eg):
        numpy.testing.assert_array_equal(a.get(), e.get())
