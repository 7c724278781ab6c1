"""Durability under faults on the GPU: out of memory at every allocation of an operation, a
KeyboardInterrupt in a long host loop and around a long synchronisation, arrays past 2**31
elements on every kernel family, and a soak of 10**6 mixed operations (slow)."""

from __future__ import annotations

import os
import signal
import time

import numpy as np
import pytest

import cuarray as cp
from oom_injection import refuse_each_allocation

pytestmark = pytest.mark.gpu
rng = np.random.default_rng(35)


def _pool():
    return cp.get_default_memory_pool()


def _sin_exp_sum(xp):
    return lambda x: (xp.sin(x) * 2 + xp.exp(-x)).sum(axis=0)


_FUSED_SUM = cp.fuse(_sin_exp_sum(cp))


def _lazy_chain(xp, a):
    if xp is np:
        return np.sin(a) * 2 + np.exp(-a) / (1 + a * a)
    with cp.lazy():
        c = cp.sin(a) * 2 + cp.exp(-a) / (1 + a * a)
    return cp.asarray(c)  # materialised here: the fused kernel's output and any buffers it needs


OOM_OPS = {
    "fuse (elementwise into a reduction)": (lambda xp, a: (_FUSED_SUM if xp is cp else _sin_exp_sum(np))(a), (512, 512)),
    "lazy chain": (_lazy_chain, (1 << 20,)),
    "fused-temporaries": (lambda xp, a: xp.sin(a) * 2 + xp.exp(-a) / (1 + a * a), (1 << 20,)),
    "sort": (lambda xp, a: xp.sort(a), (1 << 20,)),
    "argsort-2d": (lambda xp, a: xp.argsort(a, axis=0), (512, 512)),
    "unique": (lambda xp, a: xp.unique(xp.round(a * 10)), (1 << 19,)),
    "cumsum": (lambda xp, a: xp.cumsum(a), (1 << 20,)),
    "solve (cuSOLVER workspace)": (lambda xp, a: xp.linalg.solve(a + 600 * xp.eye(600), a[:, :3]), (600, 600)),
    "svd (cuSOLVER workspace)": (lambda xp, a: xp.linalg.svd(a, compute_uv=False), (300, 200)),
    "matmul": (lambda xp, a: a @ a.T, (700, 700)),
}


@pytest.mark.parametrize("name", list(OOM_OPS))
def test_out_of_memory_at_every_allocation_leaves_inputs_and_pool_intact(name):
    """The operation's 1st, 2nd, ... allocation is refused by the pool (tests/fuzz/oom_injection.py
    says why not a pool limit, and why the checks come after the except block), until it runs
    through. After each refusal the input is unchanged and, with the pool's cache and the
    libraries' kept workspaces given back, the pool's used bytes are what they were before; a
    retry after free_all_blocks works."""
    fn, shape = OOM_OPS[name]
    host = rng.standard_normal(shape)
    a = cp.asarray(host)
    expected = fn(np, host)
    pool = _pool()
    fn(cp, a)  # warm: kernels compiled, per-stream buffers that live for good (reduction counters) made

    def settled():
        cp.cuda.Stream.null.synchronize()
        pool.free_all_blocks()
        return pool.used_bytes()

    base = settled()

    def after_refusal(k):
        assert settled() == base, "allocation {}: memory of the failed operation still in use".format(k)
        np.testing.assert_array_equal(a.get(), host)

    assert refuse_each_allocation(pool, lambda: fn(cp, a), after_refusal) >= 1
    pool.free_all_blocks()
    got = fn(cp, a)  # the retry after free_all_blocks
    np.testing.assert_allclose(got.get(), expected, rtol=1e-9, atol=1e-9)


def test_keyboard_interrupt_in_a_long_host_loop_leaves_the_library_usable():
    """A KeyboardInterrupt landing anywhere in a loop of eager operations (inside a launch, an
    allocation, a scatter's bookkeeping): afterwards the same operations give NumPy's answers."""
    def interrupt(signum, frame):
        raise KeyboardInterrupt

    h = rng.standard_normal(1000)
    x = cp.asarray(h)
    idx = cp.asarray(np.array([3, 7]))

    def body():
        (x * 2 + 1).sum()
        cp.sort(x)[::-1].copy()
        x[idx] = x[:2]

    body()  # compiled before the timer starts: the interrupts land in the loop, not in NVRTC
    passes = []
    old = signal.signal(signal.SIGALRM, interrupt)
    try:
        for delay in (0.013, 0.021, 0.034, 0.055):  # land in different places of the loop
            n = 0
            signal.setitimer(signal.ITIMER_REAL, delay)
            with pytest.raises(KeyboardInterrupt):
                while True:
                    body()
                    n += 1
            passes.append(n)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert max(passes) > 0, "every interrupt landed in the first pass: {}".format(passes)
    cp.cuda.Stream.null.synchronize()
    h2 = rng.standard_normal(5000)
    d = cp.asarray(h2)
    assert float((d * 2 + 1).sum().get()) == pytest.approx(float((h2 * 2 + 1).sum()))
    np.testing.assert_array_equal(cp.sort(d).get(), np.sort(h2))
    h[[3, 7]] = h[:2]  # the scatter of the loop is idempotent: x is h with it applied
    np.testing.assert_array_equal(x.get(), h)


def test_keyboard_interrupt_during_a_kernel_compile_leaves_the_caches_usable():
    """What the loop test above did by accident on the H100 run (its interrupts all landed in
    the first pass's compile): interrupts during the compile of a new kernel (NVRTC, loading, the
    memory and disk caches), then the same kernel compiles and runs right."""
    salt = time.time_ns() % 1_000_003  # a kernel no cache holds
    ek = cp.ElementwiseKernel("float64 x", "float64 y", "y = x * 2 + {}".format(salt), "ki_compile_{}".format(salt))
    h = rng.standard_normal(1000)
    x = cp.asarray(h)

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGALRM, interrupt)
    try:
        for delay in (0.002, 0.008, 0.03, 0.1):
            signal.setitimer(signal.ITIMER_REAL, delay)
            try:
                ek(x)
                signal.setitimer(signal.ITIMER_REAL, 0)
                break
            except KeyboardInterrupt:
                pass
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    np.testing.assert_allclose(ek(x).get(), h * 2 + salt)


def test_keyboard_interrupt_around_a_long_synchronisation():
    """A signal during a blocking synchronisation is handled when it returns: the interrupt comes
    out of synchronize(), and the stream, pool and later operations are fine."""
    spin = cp.RawKernel(r'''extern "C" __global__ void spin(long long cycles) {
        long long t0 = clock64(); while (clock64() - t0 < cycles) {} }''', "spin")

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGALRM, interrupt)
    try:
        spin((1,), (1,), (np.int64(2_000_000_000),))  # about a second
        signal.setitimer(signal.ITIMER_REAL, 0.1)
        with pytest.raises(KeyboardInterrupt):
            cp.cuda.Stream.null.synchronize()
            cp.ones(1).get()
            while True:  # if synchronize returned first, the signal still lands here
                pass
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    cp.cuda.Stream.null.synchronize()
    h = rng.standard_normal(100)
    np.testing.assert_allclose(cp.cumsum(cp.asarray(h)).get(), np.cumsum(h))


# -- past 2**31 elements ------------------------------------------------------------------------

N_BIG = (1 << 31) + 37


def _need(nbytes):
    free, total = cp.cuda.Device().mem_info
    if free < nbytes * 1.2:
        pytest.skip("needs {:.1f} GiB free on the device".format(nbytes / 2**30))


@pytest.mark.slow
def test_every_kernel_family_past_2_31_elements():
    """uint8 arrays of 2**31 + 37 elements (2 GiB each); the values at the tail (past any 32-bit
    index) are checked against what they must be."""
    _need(22 * N_BIG)  # the int64 arange it starts from: 16 GiB
    a = cp.arange(N_BIG, dtype=cp.int64).astype(cp.uint8)  # a[i] = i mod 256
    tail = np.arange(N_BIG - 5, N_BIG) % 256

    def check_tail(x, f=lambda t: t):
        np.testing.assert_array_equal(x[-5:].get(), f(tail).astype(x.dtype))

    b = a + np.uint8(1)  # elementwise
    check_tail(b, lambda t: (t + 1) % 256)
    del b
    expected_sum = (N_BIG // 256) * sum(range(256)) + sum(range(N_BIG % 256))
    assert int(a.sum(dtype=cp.int64).get()) == expected_sum  # reduction
    f = cp.fuse(lambda x: x * np.uint8(3) + np.uint8(1))
    b = f(a)  # fused
    check_tail(b, lambda t: (t * 3 + 1) % 256)
    del b
    with cp.lazy():
        c = (a ^ np.uint8(0x5A)) + np.uint8(2)
    check_tail(cp.asarray(c), lambda t: ((t ^ 0x5A) + 2) % 256)
    del c
    ek = cp.ElementwiseKernel("uint8 x", "uint8 y", "y = x + 7", "ek_big")
    b = ek(a)
    check_tail(b, lambda t: (t + 7) % 256)
    del b
    rk = cp.ReductionKernel("uint8 x", "int64 y", "x == 255 ? 1 : 0", "a + b", "y = a", "0", "rk_big")
    assert int(rk(a).get()) == N_BIG // 256  # the 255s: one per full 256-block (37 < 256 left over)
    idx = cp.asarray(np.array([N_BIG - 1, N_BIG - 2, (1 << 31) + 1], np.int64))
    np.testing.assert_array_equal(a[idx].get(), np.array([N_BIG - 1, N_BIG - 2, (1 << 31) + 1]) % 256)
    assert int(cp.count_nonzero(a == 255).get()) == N_BIG // 256
    # Masks and nonzero over all 2**31 + 37 elements (64-bit counts and offsets): the 36s sit at
    # 36, 292, ..., and the last one is the last element, past 2**31. (Not a slice past 2**31:
    # its 37 elements hold 0 .. 36, and such a short mask needs no 64-bit index anyway.)
    m = cp.flatnonzero(a == 36)
    assert m.shape == (N_BIG // 256 + 1,)
    np.testing.assert_array_equal(m[-3:].get(), [N_BIG - 1 - 512, N_BIG - 1 - 256, N_BIG - 1])
    sel = a[a < 3]  # x[mask] past 2**31: 0, 1, 2 from every 256-block, the tail's included
    assert sel.shape == (3 * (N_BIG // 256) + 3,)
    np.testing.assert_array_equal(sel[-6:].get(), [0, 1, 2, 0, 1, 2])
    del m, sel
    h = cp.bincount(a, minlength=256)  # histogram of every element: 37 values have one more
    np.testing.assert_array_equal(h.get(), N_BIG // 256 + (np.arange(256) < N_BIG % 256))
    c = cp.concatenate([a[-40:], a[:-40]])  # a rotation: copies past 2**31 on both sides
    np.testing.assert_array_equal(c[[0, 39, 40, N_BIG - 1]].get(),
                                  np.array([N_BIG - 40, N_BIG - 1, 0, N_BIG - 41]) % 256)
    del c


# -- soak ---------------------------------------------------------------------------------------

def _rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.slow
def test_soak_one_million_mixed_operations():
    """10**6 operations of every family on random sizes: after warm-up the pool's reserved bytes
    stay flat and the process's resident memory does not grow (beyond 64 MiB of noise)."""
    r = np.random.default_rng(0)
    sizes = [1, 7, 100, 1000, 4096, 65536]
    xs = {n: cp.asarray(r.standard_normal(n)) for n in sizes}
    ms = cp.asarray(r.standard_normal((64, 64)))
    ops = [
        lambda x: x * 2 + 1, lambda x: x.sum(), lambda x: cp.sort(x), lambda x: cp.cumsum(x),
        lambda x: x[::-1].copy(), lambda x: x[cp.asarray(np.array([0]))], lambda x: cp.maximum(x, 0.5),
        lambda x: (x > 0).sum(), lambda x: cp.argmax(x), lambda x: ms @ ms, lambda x: cp.exp(x).mean(),
    ]
    pool = _pool()
    total_ops = 1_000_000
    warm = total_ops // 10
    k = 0
    for i in range(total_ops):
        n = sizes[int(r.integers(0, len(sizes)))]
        ops[k](xs[n])
        k = (k + 1) % len(ops)
        if i == warm:
            cp.cuda.Stream.null.synchronize()
            reserved, rss = pool.total_bytes(), _rss()
        if i % 50_000 == 0:
            cp.cuda.Stream.null.synchronize()
    cp.cuda.Stream.null.synchronize()
    assert pool.total_bytes() == reserved
    assert _rss() - rss < 64 << 20
