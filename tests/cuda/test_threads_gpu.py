"""Any thread may use the GPU, whichever thread initialised it (issue #26; docs/runtime.md,
"Threads and processes"). Every test first uses the device in the main thread, then runs work in
threads started afterwards, each checked against NumPy on fresh random data."""

from __future__ import annotations

import gc
import multiprocessing
import os
import subprocess
import sys
import textwrap
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import cuarray as cp

pytestmark = pytest.mark.gpu

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _main_thread_uses_the_gpu():
    assert threading.current_thread() is threading.main_thread()
    assert float((cp.ones(10) * 2).sum()) == 20.0


def test_the_issue_example_runs_in_a_thread_pool():
    _main_thread_uses_the_gpu()
    with ThreadPoolExecutor(4) as ex:
        got = list(ex.map(lambda k: float((cp.arange(1000.0) * k).sum()), range(8)))
    assert got == [float((np.arange(1000.0) * k).sum()) for k in range(8)]


RAW = r'''
extern "C" __global__ void axpb(const float* x, float a, float b, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + b;
}
'''


def _mixed_work(seed: int, use_stream: bool) -> None:
    """One thread's share: every family of operation, each compared with NumPy."""
    rng = np.random.default_rng(seed)
    stream = cp.cuda.Stream(non_blocking=True) if use_stream else None
    ctx = stream if stream is not None else _Null()
    with ctx:
        a = rng.standard_normal((64, 48)).astype(np.float32)
        b = rng.standard_normal((48, 32)).astype(np.float32)
        x, y = cp.asarray(a), cp.asarray(b)
        np.testing.assert_allclose((cp.exp(x / 4) * 2 - 1).get(), np.exp(a / 4) * 2 - 1, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(x.sum(axis=0).get(), a.sum(axis=0), rtol=1e-4, atol=1e-4)
        assert int(x.argmax()) == int(a.argmax())
        np.testing.assert_array_equal(cp.sort(x.ravel()).get(), np.sort(a.ravel()))
        np.testing.assert_allclose((x @ y).get(), a @ b, rtol=1e-4, atol=1e-4)
        f = rng.standard_normal(256) + 1j * rng.standard_normal(256)
        np.testing.assert_allclose(cp.fft.fft(cp.asarray(f)).get(), np.fft.fft(f), rtol=1e-10, atol=1e-10)
        r = cp.random.default_rng(seed).random(10000)
        assert 0.45 < float(r.mean()) < 0.55 and r.dtype == np.float64
        dense = np.where(rng.random((50, 40)) < 0.1, rng.standard_normal((50, 40)), 0.0)
        v = rng.standard_normal(40)
        np.testing.assert_allclose((cp.sparse.csr_matrix(cp.asarray(dense)) @ cp.asarray(v)).get(), dense @ v,
                                   rtol=1e-10, atol=1e-12)
        with cp.lazy():
            h = cp.maximum(x @ y + 1.0, 0.0) * 0.5
        np.testing.assert_allclose(cp.asarray(h).get(), np.maximum(a @ b + 1.0, 0.0) * 0.5, rtol=1e-4, atol=1e-5)
        kern = cp.RawKernel(RAW, "axpb")
        out = cp.empty(a.size, np.float32)
        n = a.size
        kern(((n + 127) // 128,), (128,), (x.ravel(), np.float32(3.0), np.float32(-1.0), out, np.int32(n)))
        np.testing.assert_allclose(out.get(), 3 * a.ravel() - 1, rtol=1e-5, atol=1e-6)  # FMA contraction
    if stream is not None:
        stream.synchronize()


class _Null:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@pytest.mark.parametrize("n_threads", [2, 8, 32])
@pytest.mark.parametrize("use_stream", [False, True], ids=["default-stream", "own-stream"])
def test_mixed_work_in_threads_started_after_the_main_thread_used_the_gpu(n_threads, use_stream):
    _main_thread_uses_the_gpu()
    with ThreadPoolExecutor(n_threads) as ex:
        list(ex.map(lambda s: _mixed_work(s, use_stream), range(n_threads)))  # re-raises a thread's failure


def test_current_stream_and_device_are_per_thread():
    _main_thread_uses_the_gpu()
    s = cp.cuda.Stream()
    seen = {}
    started = threading.Event()
    release = threading.Event()

    def other():
        started.wait(10)
        seen["stream"] = cp.cuda.get_current_stream()
        seen["device"] = cp.cuda.Device().id
        release.set()

    t = threading.Thread(target=other)
    t.start()
    with s:
        started.set()
        release.wait(10)
        assert cp.cuda.get_current_stream() is s
    t.join()
    assert seen["stream"] is cp.cuda.stream.default_stream() and seen["device"] == 0


def test_pool_survives_concurrent_allocation_from_16_threads():
    _main_thread_uses_the_gpu()
    pool = cp.get_default_memory_pool()
    # The first split reduction on a stream makes that stream's workspace (a counter and 4 KiB of
    # partials), kept for the life of the process by design: made here, not counted as the threads'.
    assert int(cp.full(200_000, 3, dtype=np.int32).min()) == 3
    cp.cuda.Device().synchronize()
    gc.collect()  # earlier tests' cyclic garbage is not this test's
    before = pool.used_bytes()  # what earlier tests keep alive (library workspaces, caches)

    def churn(seed):
        rng = np.random.default_rng(seed)
        keep = []
        for i in range(400):
            n = int(rng.integers(1, 200_000))
            a = cp.full(n, seed, dtype=np.int32)
            if i % 3 == 0:
                keep.append(a)
            if len(keep) > 8:
                b = keep.pop(0)
                assert int(b.min()) == seed == int(b.max())  # nobody else wrote into this block
        return sum(int((k == seed).all()) for k in keep) == len(keep)

    with ThreadPoolExecutor(16) as ex:
        assert all(ex.map(churn, range(16)))
    cp.cuda.Device().synchronize()
    pool.free_all_blocks()
    used = pool.used_bytes()
    gc.collect()
    # every block of the 16 threads came back (and not only through the cycle collector)
    assert used <= before, (used, before, pool.used_bytes(), cp.cuda.Device().id,
                            [pool.total_bytes()], pool.n_free_blocks())


def test_per_thread_default_stream_process():
    """CUARRAY_PER_THREAD_DEFAULT_STREAM=1: threads start on Stream.ptds and compute correctly."""
    code = textwrap.dedent("""
        import threading, numpy as np, cuarray as cp
        from concurrent.futures import ThreadPoolExecutor
        assert cp.cuda.get_current_stream() is cp.cuda.Stream.ptds
        x = cp.arange(1000.0)
        def work(k):
            assert cp.cuda.get_current_stream() is cp.cuda.Stream.ptds
            return float((cp.arange(1000.0) * k + x).sum())
        with ThreadPoolExecutor(8) as ex:
            got = list(ex.map(work, range(16)))
        want = [float((np.arange(1000.0) * k + np.arange(1000.0)).sum()) for k in range(16)]
        assert got == want, (got, want)
        print("ok")
    """)
    env = dict(os.environ, CUARRAY_PER_THREAD_DEFAULT_STREAM="1")
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=240)
    assert res.returncode == 0 and res.stdout.strip() == "ok", res.stdout + res.stderr


def _child_sum(n):
    import cuarray as cpc

    return float(cpc.arange(n, dtype="float64").sum())


@pytest.mark.parametrize("method", ["spawn", "forkserver"])
def test_spawn_and_forkserver_children_use_the_gpu(method):
    _main_thread_uses_the_gpu()
    ctx = multiprocessing.get_context(method)
    with ctx.Pool(2) as p:
        assert p.map(_child_sum, [10, 1000]) == [45.0, 499500.0]


def test_arrays_travel_to_spawned_children_by_pickle():
    _main_thread_uses_the_gpu()
    ctx = multiprocessing.get_context("spawn")
    x = cp.asarray(np.random.default_rng(3).standard_normal(100))
    with ctx.Pool(1) as p:
        got = p.apply(_pickled_sum, (x,))
    assert got == pytest.approx(float(x.sum()))


def _pickled_sum(a):
    import cuarray as cpc

    assert isinstance(a, cpc.ndarray)
    return float(a.sum())


def test_fork_after_the_gpu_was_used_raises_in_the_child():
    _main_thread_uses_the_gpu()
    code = textwrap.dedent("""
        import os, cuarray as cp
        cp.ones(4).sum().get()
        pid = os.fork()
        if pid == 0:
            try:
                (cp.arange(10) * 2).get()
                os._exit(3)
            except cp.cuda.ForkedProcessError as e:
                os._exit(0 if "spawn" in str(e) else 4)
            except BaseException:
                os._exit(5)
        _, status = os.waitpid(pid, 0)
        print("child", os.waitstatus_to_exitcode(status))
        print("parent", float((cp.arange(10) * 2).sum()))
    """)
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.split() == ["child", "0", "parent", "90.0"], res.stdout + res.stderr


def _dask_case(scheduler):
    da = pytest.importorskip("dask.array")
    import dask
    import cuarray.distributed

    cuarray.distributed.register_dask()
    host = np.random.default_rng(11).standard_normal((800, 600))
    x = da.from_array(cp.asarray(host), chunks=(100, 150))
    with dask.config.set(scheduler=scheduler):
        got = ((np.exp(x / 10) * 2 - 1).sum(axis=0)).compute()  # NEP 13: dask dispatches to the chunks
        m = (x @ x.T).mean().compute()
    assert isinstance(got, cp.ndarray)
    np.testing.assert_allclose(got.get(), (np.exp(host / 10) * 2 - 1).sum(axis=0), rtol=1e-10)
    assert float(m) == pytest.approx(float((host @ host.T).mean()), rel=1e-9)


@pytest.mark.parametrize("scheduler", ["threads", "sync"])
def test_dask_from_array_of_a_device_array(scheduler):
    _main_thread_uses_the_gpu()
    _dask_case(scheduler)


def test_dask_distributed_with_several_threads_per_worker():
    pytest.importorskip("distributed")
    from distributed import Client, LocalCluster

    _main_thread_uses_the_gpu()
    with LocalCluster(n_workers=1, threads_per_worker=4, processes=False, dashboard_address=None) as cluster:
        with Client(cluster):
            _dask_case(None)


needs_two = pytest.mark.skipif(cp.cuda.runtime.getDeviceCount() < 2 if cp.is_available() else True,
                               reason="needs two GPUs")


@needs_two
def test_threads_pinned_to_different_devices():
    _main_thread_uses_the_gpu()

    def on(dev, seed):
        with cp.cuda.Device(dev):
            _mixed_work(seed, use_stream=dev == 1)
            x = cp.arange(100.0)
            assert x.device.id == dev
        return dev

    with ThreadPoolExecutor(8) as ex:
        assert sorted(ex.map(on, [0, 1] * 4, range(8))) == [0] * 4 + [1] * 4


@needs_two
def test_threads_switching_devices():
    _main_thread_uses_the_gpu()

    def hop(seed):
        rng = np.random.default_rng(seed)
        a = rng.standard_normal(1000)
        for i in range(6):
            with cp.cuda.Device(i % 2):
                x = cp.asarray(a)
                np.testing.assert_allclose((x * i).sum().get(), (a * i).sum(), rtol=1e-12)
            y = cp.asarray(a) + 1  # back on device 0
            assert y.device.id == 0
        return True

    with ThreadPoolExecutor(6) as ex:
        assert all(ex.map(hop, range(12)))


def test_profiler_records_the_launches_of_every_thread():
    """One profile while 8 threads launch: every kernel is recorded once, with its own events."""
    _main_thread_uses_the_gpu()
    xs = [cp.full(1 << 16, float(k), dtype=np.float32) for k in range(8)]

    def work(x):
        for _ in range(50):
            x * 2
        return True

    with cp.profile() as prof:
        with ThreadPoolExecutor(8) as ex:
            assert all(ex.map(work, xs))
        cp.cuda.Device().synchronize()
    kernels = [r for r in prof.records if r.get("kind") == "kernel"]
    assert len(kernels) == 400
    assert all(r["gpu_us"] is not None and r["gpu_us"] >= 0 for r in kernels)


def test_graph_capture_in_one_thread_while_another_computes():
    """The capture's private pool serves the capturing thread only, and the other thread may
    synchronise meanwhile (relaxed capture)."""
    _main_thread_uses_the_gpu()
    rng = np.random.default_rng()
    a = rng.standard_normal(4096).astype(np.float32)
    dx = cp.asarray(a)
    out = cp.empty_like(dx)
    step = lambda: cp.multiply(cp.add(dx, 1.0), 2.0, out=out)  # noqa: E731
    step()
    g = cp.cuda.CUDAGraph()
    started, stop = threading.Event(), threading.Event()
    seen = []

    def other():
        b = rng.standard_normal(1000)
        started.set()
        while not stop.is_set() or not seen:
            y = cp.asarray(b) * 3
            seen.append(float(y.sum()) == pytest.approx(float((b * 3).sum())))

    t = threading.Thread(target=other)
    t.start()
    started.wait(10)
    with cp.cuda.graph(g):
        step()
    stop.set()
    t.join()
    assert seen and all(seen)
    out.fill(0)
    g.replay()
    np.testing.assert_allclose(out.get(), (a + 1) * 2, rtol=1e-6)
