"""Graph replay of lazy loop bodies on the GPU (`replay.GRAPH_REPLAY`, on by default, and the
launches-saved bound lowered so that small bodies are replayed too): every iteration's values
against NumPy and eager cuarray, results of earlier iterations that the user holds (or a view of
one) intact after later replays, inputs carried, reassigned, views and shared, structure and scalar changes
mid-loop, products (GEMM, GEMV) and reductions captured; and that replays did happen (a test
that never replays would check nothing)."""

import numpy
import pytest

import cuarray as cp
from cuarray._core.fusion import graph_replay, replay

pytestmark = pytest.mark.gpu


@pytest.fixture
def replaying(monkeypatch):
    monkeypatch.setattr(replay, "GRAPH_REPLAY", True)
    monkeypatch.setattr(replay, "MIN_SAVED", -9)
    yield
    graph_replay._st.entries = None  # (the graphs and their buffers go)
    graph_replay._st.declined = None


def _replays(n):
    return sum(1 for e in replay.evaluations()[-n:] if e["replay"] and e["reason"].startswith("replayed"))


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_carried_value_and_stable_input(replaying, dtype):
    rng = numpy.random.default_rng(10)
    hX = rng.standard_normal(257).astype(dtype)
    hw = rng.standard_normal(257).astype(dtype)
    X, w = cp.asarray(hX), cp.asarray(hw)
    for i in range(10):
        with cp.lazy():
            w = cp.tanh(w * 0.5 + X) - w * 0.25
        hw = numpy.tanh(hw * 0.5 + hX) - hw * 0.25
        numpy.testing.assert_allclose(w.get(), hw, rtol=1e-5, atol=1e-5)
    # graph 0, then 1 reading 0's output, and so on: every step from the fourth
    assert _replays(10) >= 6, replay.describe()


@pytest.mark.parametrize("keep", ["every", "alternate", "view"])
def test_held_outputs_are_never_overwritten(replaying, keep):
    # The user's w is a graph's own output: a graph may write it again only once nothing holds it.
    rng = numpy.random.default_rng(17)
    hX = rng.standard_normal(300).astype(numpy.float32)
    hw = rng.standard_normal(300).astype(numpy.float32)
    X, w = cp.asarray(hX), cp.asarray(hw)
    kept, hkept = [], []
    for i in range(12):
        with cp.lazy():
            w = cp.sin(w * 0.75 + X) + w * 0.5
        hw = numpy.sin(hw * 0.75 + hX) + hw * 0.5
        if keep == "every" or (keep == "alternate" and i % 2) or (keep == "view" and i == 6):
            kept.append(w if keep != "view" else w[3:200:2])
            hkept.append(hw if keep != "view" else hw[3:200:2])
        numpy.testing.assert_allclose(w.get(), hw, rtol=1e-5, atol=1e-5)
    for a, h in zip(kept, hkept):  # earlier results are intact after the later steps
        numpy.testing.assert_allclose(a.get(), h, rtol=1e-5, atol=1e-5)
    reasons = [e["reason"] for e in replay.evaluations()[-12:]]
    assert any(r.startswith("an output of an earlier replay is still held") for r in reasons), reasons
    if keep != "every":
        assert _replays(12) >= 4, replay.describe()


def test_views_shared_and_reassigned_inputs(replaying):
    rng = numpy.random.default_rng(11)
    hbig = rng.standard_normal((6, 50)).astype(numpy.float32)
    big = cp.asarray(hbig)
    hw = numpy.zeros(50, numpy.float32)
    w = cp.asarray(hw)
    for i in range(10):
        row = big[i % 6]  # another address each iteration
        col = big.T[:, i % 6][:6]  # a strided view (6 elements)
        with cp.lazy():
            w = (w - row) * 0.5 + w * w * 0.01 - (w * 0.0 + col.sum())
        hw = (hw - hbig[i % 6]) * 0.5 + hw * hw * 0.01 - (hw * 0.0 + hbig.T[:, i % 6][:6].sum())
        numpy.testing.assert_allclose(w.get(), hw, rtol=1e-4, atol=1e-4)
    assert _replays(10) >= 3, replay.describe()


def test_structure_and_scalar_change_mid_loop(replaying):
    rng = numpy.random.default_rng(12)
    hx = rng.standard_normal(300).astype(numpy.float32)
    x = cp.asarray(hx)
    y, hy = x, hx
    for i in range(15):
        s = 0.5 if i < 9 else 0.75  # a scalar changes at 9
        with cp.lazy():
            if i < 5 or i >= 9:
                y = cp.sin(y) * s + x
            else:  # another graph at 5..8
                y = cp.cos(y) * s - x
        hy = (numpy.sin(hy) * s + hx) if (i < 5 or i >= 9) else (numpy.cos(hy) * s - hx)
        numpy.testing.assert_allclose(y.get(), hy, rtol=1e-5, atol=1e-5)
    assert _replays(15) >= 5, replay.describe()


def test_logistic_regression_steps_with_gemv_and_reductions(replaying):
    rng = numpy.random.default_rng(13)
    N, F = 40, 24
    hx = rng.random((N, F), dtype=numpy.float32)
    hy = (rng.random(N) > 0.5).astype(numpy.float32)
    x, y = cp.asarray(hx), cp.asarray(hy)
    w, b = cp.zeros(F, numpy.float32), cp.zeros((), numpy.float32)
    hw, hb = numpy.zeros(F, numpy.float32), numpy.float32(0)
    for _ in range(8):
        with cp.lazy():
            p = 1 / (1 + cp.exp(-cp.dot(x, w) - b))
            gw = cp.dot(x.T, p - y) / N + 0.02 * w
            gb = (p - y).mean()
            w, b = w - 0.1 * gw, b - 0.1 * gb
        hp = 1 / (1 + numpy.exp(-hx @ hw - hb))
        hw, hb = hw - 0.1 * (hx.T @ (hp - hy) / N + 0.02 * hw), hb - 0.1 * (hp - hy).mean()
        numpy.testing.assert_allclose(w.get(), hw, rtol=1e-4, atol=1e-5)
        numpy.testing.assert_allclose(b.get(), hb, rtol=1e-4, atol=1e-5)
    assert _replays(8) >= 3, replay.describe()


def test_gemm_body_matches_eager(replaying):
    rng = numpy.random.default_rng(14)
    hA = rng.standard_normal((32, 16)).astype(numpy.float32)
    hB = rng.standard_normal((16, 8)).astype(numpy.float32)
    A, B = cp.asarray(hA), cp.asarray(hB)
    C = cp.zeros((32, 8), numpy.float32)
    hC = numpy.zeros((32, 8), numpy.float32)
    for i in range(7):
        with cp.lazy():
            C = cp.maximum(cp.dot(A, B) * 0.3 + C * 0.9, 0.0) - 0.125
        e = cp.maximum(cp.dot(A, B) * 0.3 + cp.asarray(hC) * 0.9, 0.0) - 0.125
        hC = numpy.maximum(hA @ hB * 0.3 + hC * 0.9, 0.0) - 0.125
        numpy.testing.assert_allclose(C.get(), hC, rtol=1e-4, atol=1e-4)
        numpy.testing.assert_allclose(C.get(), e.get(), rtol=1e-5, atol=1e-5)
    assert _replays(7) >= 3, replay.describe()


@pytest.fixture
def shipped_policy(monkeypatch):
    monkeypatch.setattr(replay, "GRAPH_REPLAY", True)  # (the default; MIN_SAVED as shipped)
    yield
    graph_replay._st.entries = None
    graph_replay._st.declined = None


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
@pytest.mark.parametrize("hold", [False, True], ids=["dropped", "held"])
@pytest.mark.parametrize("body", ["epilogue", "gemm"])
def test_a_one_gemm_body_is_replayed_as_shipped(shipped_policy, dtype, hold, body):
    # One cuBLAS call a body (matmul + bias + ReLU as one cuBLASLt call with its epilogue, or a plain
    # GEMM): its host time is worth a capture (replay.LAUNCHES, issue 57). x changes in place
    # between steps (read where it lies); held results stay intact.
    rng = numpy.random.default_rng()
    hW, hb = rng.standard_normal((48, 40)).astype(dtype), rng.standard_normal(40).astype(dtype)
    x, W, b = cp.empty((64, 48), dtype), cp.asarray(hW), cp.asarray(hb)
    tol = dict(rtol=1e-4, atol=1e-4) if dtype == numpy.float32 else dict(rtol=1e-10, atol=1e-10)
    kept = []
    for i in range(10):
        hx = rng.standard_normal((64, 48)).astype(dtype)
        x[...] = cp.asarray(hx)
        with cp.lazy():
            y = cp.maximum(cp.dot(x, W) + b, 0) if body == "epilogue" else cp.dot(x, W)
        want = hx.astype(numpy.float64) @ hW
        want = numpy.maximum(want + hb, 0) if body == "epilogue" else want
        numpy.testing.assert_allclose(y.get(), want, **tol)
        if hold:
            kept.append((y, want))
    for y, want in kept:
        numpy.testing.assert_allclose(y.get(), want, **tol)
    ev = replay.evaluations()[-10:]
    if body == "epilogue":
        assert all(any("cublasLt" in s for s in e["steps"]) for e in ev), ev
    if hold:
        assert any(e["reason"].startswith("an output of an earlier replay is still held") for e in ev), ev
    else:
        assert _replays(10) >= 5, replay.describe()


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.complex64, numpy.int32])
@pytest.mark.parametrize("hold", [False, True], ids=["dropped", "held"])
def test_a_one_kernel_body_is_replayed_as_shipped(shipped_policy, dtype, hold):
    # One fused kernel a body (a 10-node chain): its graph launch costs the host about half of its
    # kernel launch (replay.GRAPH_LAUNCH, issue 57), so it is replayed where its inputs stay in place;
    # a and b change value in place between steps; held results stay intact; a moved input (another
    # array each step: a copy in) is not replayed, nor a step whose scalar changed.
    rng = numpy.random.default_rng()
    n = 1000 + int(rng.integers(0, 100))
    a, b = cp.empty(n, dtype), cp.empty(n, dtype)
    kept = []

    def body(xp, a, b, s=2):
        y = a * s + b
        y = y * y - 1
        y = xp.abs(y) * b + a
        return y * 3 - b

    for i in range(10):
        ha = (rng.standard_normal(n) * 3).astype(dtype)
        hb = (rng.standard_normal(n) * 3).astype(dtype)
        a[...], b[...] = cp.asarray(ha), cp.asarray(hb)
        with cp.lazy():
            y = body(cp, a, b)
            want_np = y.numpy()
        want = body(numpy, ha, hb)
        tol = dict(rtol=1e-5, atol=1e-5 * float(numpy.abs(want).max()))  # (cancellation in y * y - 1)
        numpy.testing.assert_allclose(y.get(), want, **tol)
        numpy.testing.assert_allclose(want_np, want, **tol)
        numpy.testing.assert_array_equal(y.get(), body(cp, a, b).get())  # (eager: the same kernel's arithmetic)
        if hold:
            kept.append((y, want, tol))
    for y, want, tol in kept:
        numpy.testing.assert_allclose(y.get(), want, **tol)
    ev = replay.evaluations()[-10:]
    assert all(len(e["steps"]) == 1 and "elementwise kernel" in e["steps"][0] for e in ev), ev
    if hold:
        assert any(e["reason"].startswith("an output of an earlier replay is still held") for e in ev), ev
    else:
        assert _replays(10) >= 5, replay.describe()
    for i in range(6):  # another array each step: a copy in would cost more than the launch saved
        c = cp.asarray(rng.standard_normal(n).astype(dtype))
        with cp.lazy():
            y = body(cp, c, b)
        numpy.testing.assert_array_equal(y.get(), body(cp, c, b).get())
    e = replay.evaluations()[-1]
    assert not e["replay"] and e["reason"].startswith("would not pay: 1 launch(es)"), e
    for i in range(6):  # a scalar that changes each step: baked into a graph
        with cp.lazy():
            y = body(cp, a, b, s=i)
        numpy.testing.assert_array_equal(y.get(), body(cp, a, b, s=i).get())
    e = replay.evaluations()[-1]
    assert not e["replay"] and "scalar argument(s) changed value" in e["reason"], e


@pytest.mark.parametrize("dtype", [numpy.float16, numpy.complex64, numpy.complex128, numpy.int32, numpy.int64])
@pytest.mark.parametrize("form", ["matmul", "batched", "gemv"])
def test_one_product_bodies_of_every_dtype_as_shipped(shipped_policy, dtype, form):
    # The other products a body of one may hold (half and complex GEMMs, integer products, a stack of
    # matrices, a matrix-vector product), each step against NumPy; where it is one cuBLAS call it is
    # replayed. x changes in place between steps.
    rng = numpy.random.default_rng()

    def draw(shape):
        if numpy.dtype(dtype).kind == "i":
            return rng.integers(-9, 10, shape).astype(dtype)
        if numpy.dtype(dtype).kind == "c":
            return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
        return rng.standard_normal(shape).astype(dtype)

    xshape = {"matmul": (32, 24), "batched": (3, 32, 24), "gemv": (32, 24)}[form]
    hW = draw((24,) if form == "gemv" else (24, 16))
    x, W = cp.empty(xshape, dtype), cp.asarray(hW)
    tol = {numpy.float16: 2e-2, numpy.complex64: 1e-4}.get(dtype, 1e-10)
    for i in range(8):
        hx = draw(xshape)
        x[...] = cp.asarray(hx)
        with cp.lazy():
            y = x @ W
        want = hx.astype(numpy.complex128 if numpy.dtype(dtype).kind == "c" else numpy.float64) @ hW
        assert y.dtype == (hx @ hW).dtype
        numpy.testing.assert_allclose(y.get(), want, rtol=tol, atol=tol * 24)
    if dtype in (numpy.float16, numpy.complex64, numpy.complex128) and form == "matmul":
        assert _replays(8) >= 3, replay.describe()


def test_writes_into_replayed_outputs_and_out_arguments_as_shipped(shipped_policy):
    # A user's in-place write into a replayed GEMM output (the graph's own array), then the next
    # step; and `dot(..., out=c)` in a loop body (the product written into the caller's array).
    rng = numpy.random.default_rng()
    hx = rng.standard_normal((32, 24)).astype(numpy.float32)
    hW = rng.standard_normal((24, 16)).astype(numpy.float32)
    x, W, c = cp.asarray(hx), cp.asarray(hW), cp.zeros((32, 16), numpy.float32)
    for i in range(8):
        x[...] = cp.asarray(hx * (i + 1))
        with cp.lazy():
            y = cp.maximum(cp.dot(x, W) + 1.0, 0)
        want = numpy.maximum((hx * (i + 1)).astype(numpy.float64) @ hW + 1.0, 0)
        numpy.testing.assert_allclose(y.get(), want, rtol=1e-4, atol=1e-4)
        y += 5
        numpy.testing.assert_allclose(y.get(), want + 5, rtol=1e-4, atol=1e-4)
    assert _replays(8) >= 3, replay.describe()
    for i in range(8):
        x[...] = cp.asarray(hx * (i + 1))
        with cp.lazy():
            r = cp.dot(x, W, out=c)
        want = (hx * (i + 1)).astype(numpy.float64) @ hW
        numpy.testing.assert_allclose(c.get(), want, rtol=1e-4, atol=1e-4)
        numpy.testing.assert_allclose(cp.asarray(r).get(), want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("write", ["whole", "view"])
def test_a_write_into_a_carried_output_is_read_by_the_next_step(replaying, write):
    # The carried w is a replayed graph's own output; the user writes into it in place (through
    # `cp.asarray(w)`, the graph's array itself) between steps. Graph 1 had copied it into graph 0's
    # input buffer before that write: the next step must read the written values (it failed before:
    # graph 0 read its stale buffer, a silent wrong answer found by test_fusion_loop_fuzz_gpu.py).
    rng = numpy.random.default_rng(19)
    hX = rng.standard_normal(300).astype(numpy.float32)
    hw = rng.standard_normal(300).astype(numpy.float32)
    X, w = cp.asarray(hX), cp.asarray(hw)
    for i in range(12):
        with cp.lazy():
            w = cp.tanh(w * 0.5 + X) - w * 0.25
        hw = numpy.tanh(hw * 0.5 + hX) - hw * numpy.float32(0.25)
        numpy.testing.assert_allclose(w.get(), hw, rtol=1e-5, atol=1e-5, err_msg="step {}".format(i))
        if i >= 3:
            wv = cp.asarray(w)
            if write == "whole":
                wv += 1.0
                hw = hw + numpy.float32(1.0)
            else:
                wv[::2] *= -2.0
                hw = hw.copy()
                hw[::2] *= numpy.float32(-2.0)
            del wv
    assert _replays(12) >= 4, replay.describe()


def test_views_of_computed_values_in_the_body(replaying):
    # transpose, a reversed slice and a reshape that must copy (a non-contiguous view), captured
    rng = numpy.random.default_rng(15)
    hX = rng.standard_normal((8, 8)).astype(numpy.float32)
    hw = rng.standard_normal((8, 8)).astype(numpy.float32)
    X, w = cp.asarray(hX), cp.asarray(hw)
    for i in range(7):
        with cp.lazy():
            t = (w * 0.5 + X).T
            w = cp.tanh(t[::-1].reshape(64).reshape(8, 8) * 2.0) - X.sum(axis=0) * w
        hw = numpy.tanh((hw * 0.5 + hX).T[::-1].reshape(64).reshape(8, 8) * 2.0) - hX.sum(axis=0) * hw
        numpy.testing.assert_allclose(w.get(), hw, rtol=1e-5, atol=1e-5)
    assert _replays(7) >= 3, replay.describe()


def test_outputs_sharing_memory_are_not_replayed(replaying):
    # v and its transpose u are one memory: a replay would copy them apart
    rng = numpy.random.default_rng(16)
    hX = rng.standard_normal((6, 6)).astype(numpy.float32)
    X = cp.asarray(hX)
    v = X
    for i in range(6):
        with cp.lazy():
            v = cp.sin(v) * 0.5 + X
            u = v.T
        hv = (numpy.sin(hv if i else hX) * 0.5 + hX)
        numpy.testing.assert_allclose(v.get(), hv, rtol=1e-5, atol=1e-5)
        numpy.testing.assert_allclose(u.get(), hv.T, rtol=1e-5, atol=1e-5)
    last = replay.evaluations()[-1]
    assert not last["replay"] and last["reason"].startswith("an output is an input or a view of one"), last
    assert u.data.ptr == v.data.ptr  # (u is a view of v, as in eager mode)


def test_loops_on_threads_replay_their_own_graphs(replaying):
    # Each thread captures and replays its own graphs, on its own stream: the values are each
    # thread's, and every thread replayed. (Another thread's implicit synchronisation, a cuBLAS
    # handle destroyed at its exit or memory given back to the driver, may invalidate a capture
    # in progress: that Program runs as usual and is captured again later, `RETRY_AFTER`; the
    # barriers keep those out of the loops, so that the count of replays is the design's.)
    import threading

    rng = numpy.random.default_rng(18)
    hX = rng.standard_normal((64, 32)).astype(numpy.float32)
    X = cp.asarray(hX)
    results, errors = {}, []
    steps = 2 * graph_replay.RETRY_AFTER + 8
    start, end = threading.Barrier(3, timeout=60), threading.Barrier(3, timeout=60)

    def loop(k):
        try:
            s = cp.cuda.Stream(non_blocking=True)
            with s:
                hw = numpy.full(32, 0.1 * (k + 1), numpy.float32)
                w = cp.asarray(hw)
                start.wait()
                for i in range(steps):
                    with cp.lazy():
                        w = w - 0.05 * (cp.dot(X.T, cp.tanh(cp.dot(X, w))) / 64 + 0.01 * w)
                    hw = hw - numpy.float32(0.05) * (hX.T @ numpy.tanh(hX @ hw) / 64 + numpy.float32(0.01) * hw)
                results[k] = (w.get(), hw, _replays(replay.KEEP))
                end.wait()
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=loop, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert sorted(results) == [0, 1, 2]
    for k, (got, want, n) in results.items():
        numpy.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
        assert n >= replay.KEEP // 2, (k, n)  # (of the last KEEP evaluations)


def test_device_times_of_evaluations_and_replays(replaying, monkeypatch):
    # explain() gives each evaluation's device time when asked (`CUARRAY_LAZY_DEVICE_TIMES=1`):
    # the planned launches' and the replays', a GEMM of 512^3 (~10 us or more) inside each.
    rng = numpy.random.default_rng(19)
    A = cp.asarray(rng.standard_normal((512, 512)).astype(numpy.float32))
    w = cp.asarray(rng.standard_normal((512, 512)).astype(numpy.float32))
    # Warm-up, unlogged: in a worker where nothing ran before, the first evaluation's window held
    # the cuBLAS handle, the GEMM plan and the kernel compile while the device idled (282 ms,
    # past the bound, in a run of 8 workers).
    monkeypatch.setattr(replay, "DEVICE_TIMES", False)
    with cp.lazy():
        warm = cp.tanh(cp.dot(A, w) * 0.01) + w * 0.5
    float(warm[0, 0])
    monkeypatch.setattr(replay, "DEVICE_TIMES", True)
    for i in range(6):
        with cp.lazy():
            w = cp.tanh(cp.dot(A, w) * 0.01) + w * 0.5
    evs = replay.evaluations()[-6:]
    assert [e["replay"] for e in evs][-2:] == [True, True], replay.describe()
    assert all(e["device_us"] is not None and 2.0 < e["device_us"] < 1e5 for e in evs), \
        [(e["device_us"], e["replay"], e["reason"]) for e in evs]
    text = replay.describe()  # (its last lines: this loop's evaluations; earlier tests' may be above)
    header = text.splitlines()[-(len(evs[-1]["steps"]) + 2)]  # (the last evaluation's: header, steps, replay)
    assert "device {:.1f} us".format(evs[-1]["device_us"]) in header, header
