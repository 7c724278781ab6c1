"""CUDA graphs: a training-loop step captured once and replayed (elementwise, reductions, a
fused kernel, in-place updates, a GEMM), replays that allocate nothing, and the clear error of a
host synchronisation during capture."""

import numpy
import pytest

import cuarray as cp

pytestmark = pytest.mark.gpu


def _np_step(x, w):
    y = numpy.tanh(x * w + 1.0)
    s = (y * y).sum(axis=0)
    return w - 0.01 * s, s


def _close_w(got, want, rtol):
    # w - 0.01 * s cancels where the terms are close: compare against the terms' size (rtol * |w|
    # alone failed on a fresh draw at 0.0032 = 2.6 - 2.6, off by one float32 ulp of 2.6).
    numpy.testing.assert_allclose(got, want, rtol=rtol, atol=rtol * float(numpy.abs(want).max()))


def test_training_step_capture_and_replay():
    rng = numpy.random.default_rng()
    x = rng.standard_normal((256, 64)).astype(numpy.float32)
    w = rng.standard_normal(64).astype(numpy.float32)
    dx, dw = cp.asarray(x), cp.asarray(w)
    scale = cp.fuse(kernel_name="graph_scale")(lambda s, lr: s * lr)

    def step():
        y = cp.tanh(dx * dw + 1.0)
        s = (y * y).sum(axis=0)
        cp.subtract(dw, scale(s, 0.01), out=dw)  # in place: the graph updates w each replay
        return s

    step()  # warm-up: compiles, creates workspaces
    w, _ = _np_step(x, w)
    g = cp.cuda.CUDAGraph()
    with cp.cuda.graph(g):
        s_static = step()
    _close_w(dw.get(), w, 1e-5)  # capturing ran nothing
    before = cp.cuda.memory_info()["reserved"]
    for _ in range(3):
        g.replay()
        w, s = _np_step(x, w)
    numpy.testing.assert_allclose(s_static.get(), s, rtol=1e-4)
    _close_w(dw.get(), w, 1e-4)
    # New data goes into the captured input; replays never allocate.
    x2 = rng.standard_normal((256, 64)).astype(numpy.float32)
    dx[...] = cp.asarray(x2)
    for _ in range(20):
        g.replay()
        w, s = _np_step(x2, w)
    _close_w(dw.get(), w, 1e-3)
    assert cp.cuda.memory_info()["reserved"] == before
    g.reset()


def test_gemm_in_a_graph():
    rng = numpy.random.default_rng()
    a = rng.standard_normal((128, 96)).astype(numpy.float32)
    b = rng.standard_normal((96, 64)).astype(numpy.float32)
    da, db = cp.asarray(a), cp.asarray(b)
    (da @ db).sum()
    g = cp.cuda.CUDAGraph()
    with cp.cuda.graph(g):
        out = cp.maximum(da @ db, 0.0)
    g.replay()
    numpy.testing.assert_allclose(out.get(), numpy.maximum(a @ b, 0), rtol=1e-4, atol=1e-4)


def test_host_sync_during_capture_raises_clearly():
    x = cp.asarray(numpy.arange(10, dtype=numpy.float32))
    (x * 2).sum()
    g = cp.cuda.CUDAGraph()
    with pytest.raises(cp.cuda.StreamCaptureError, match="host synchronisation during CUDA graph capture"):
        with cp.cuda.graph(g):
            float((x * 2).sum())
    # The failed capture left no state behind: eager work and a new capture still run.
    numpy.testing.assert_array_equal((x + 1).get(), numpy.arange(10) + 1)
    g2 = cp.cuda.CUDAGraph()
    with cp.cuda.graph(g2):
        y = x * 3
    g2.replay()
    numpy.testing.assert_array_equal(y.get(), numpy.arange(10) * 3)


def test_a_destroyed_graph_gives_its_memory_back():
    # Before, a graph's private pool kept every segment for the process's life: 20 graphs of this
    # 64 MiB step kept 2.5 GiB (H200). Measured on the graphs' own pools (the device's free memory
    # moves with the other processes using it: parallel test workers made this test fail).
    x = cp.ones(16 * 2**20, numpy.float32)  # 64 MiB
    pools = []
    for _ in range(10):
        g = cp.cuda.CUDAGraph()
        with cp.cuda.graph(g):
            y = x * 3.0 + 1.0
        g.replay()
        pools.append(g.pool)
        assert g.pool.total_bytes() >= 64 * 2**20  # (its output is in it)
        del y
        g.reset()
    assert [p.total_bytes() for p in pools] == [0] * 10
    # An output the caller keeps outlives its graph (destroyed by the garbage collector here) with
    # its values; its memory goes back once it is dropped, at the next capture.
    g = cp.cuda.CUDAGraph()
    with cp.cuda.graph(g):
        z = x * 5.0 - 1.0
    g.replay()
    pool = g.pool
    del g
    others = [cp.full(16 * 2**20, 7.0, numpy.float32) for _ in range(3)]  # (would reuse freed memory)
    assert bool((z == 4.0).all())
    del others
    assert pool.total_bytes() >= 64 * 2**20
    del z
    g = cp.cuda.CUDAGraph()
    with cp.cuda.graph(g):
        y = x + 1.0
    g.replay()
    del y
    g.reset()
    assert pool.total_bytes() == 0


def test_replays_go_through_cuGraphLaunch_from_c_and_a_refused_launch_raises():
    from cuarray.cuda import _backend
    from cuarray.cuda import launch

    assert launch.graph_launcher() is not None  # (cuda/_native/launch.c's `graph_launch`)
    rng = numpy.random.default_rng()
    dx = cp.asarray(rng.standard_normal(1000).astype(numpy.float32))
    out = cp.empty_like(dx)
    s = cp.cuda.Stream(non_blocking=True)

    def step():
        cp.multiply(dx, 3.0, out=out)
        cp.add(out, dx.sum(), out=out)

    with s:
        step()
        g = cp.cuda.CUDAGraph()
        with cp.cuda.graph(g):
            step()
    for stream in (None, s):  # the current stream, and another one given
        x = rng.standard_normal(1000).astype(numpy.float32)
        dx[...] = cp.asarray(x)
        cp.cuda.get_current_stream().synchronize()  # (the write is on the current stream, `s` is another)
        g.replay(stream)
        (stream or cp.cuda.get_current_stream()).synchronize()
        numpy.testing.assert_allclose(out.get(), x * 3.0 + x.sum(dtype=numpy.float64), rtol=1e-5, atol=1e-3)
    handle, g._exec_handle = g._exec_handle, 0  # (no graph: the driver refuses the launch)
    with pytest.raises(_backend.CUDARuntimeError, match="CUDA_ERROR"):
        g.replay()
    g._exec_handle = handle
    g.replay()  # the context lives on
    cp.cuda.get_current_stream().synchronize()
    g.reset()
