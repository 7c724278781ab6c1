"""convolve/correlate/interp without a GPU: NumPy's mode arithmetic (`correlate_plan`) checked
against numpy.correlate/convolve through a host emulation of the kernel, and the kernels compiled
with NVRTC for sm_90."""

import numpy
import pytest

from cuarray._math import convolution, interpolation
from cuarray.cuda import compiler


def _emulate(a, w, start, length):
    """The direct kernel's arithmetic on the host: out[k] = full[start + k]."""
    na, nw = len(a), len(w)
    off = nw - 1 - start
    out = []
    for k in range(length):
        lo, hi = max(off - k, 0), min(na + off - k, nw)
        out.append(sum(a[k + j - off] * w[j] for j in range(lo, hi)))
    return numpy.array(out, dtype=numpy.result_type(a, w))


@pytest.mark.parametrize("mode", ["valid", "same", "full", 0, 1, 2])
@pytest.mark.parametrize("na,nv", [(1, 1), (5, 3), (3, 5), (6, 6), (7, 2), (2, 7), (8, 5), (5, 8), (1, 4)])
def test_correlate_plan_matches_numpy(mode, na, nv):
    rng = numpy.random.default_rng(na * 10 + nv)
    a = rng.standard_normal(na) + 1j * rng.standard_normal(na)
    v = rng.standard_normal(nv) + 1j * rng.standard_normal(nv)
    start, length = convolution.correlate_plan(na, nv, mode)
    numpy.testing.assert_allclose(_emulate(a, v.conj(), start, length), numpy.correlate(a, v, mode), rtol=1e-12)
    # convolve: the longer operand first, the other reversed
    big, small = (a, v) if na >= nv else (v, a)
    start, length = convolution.correlate_plan(len(big), len(small), mode)
    numpy.testing.assert_allclose(_emulate(big, small[::-1], start, length), numpy.convolve(a, v, mode),
                                  rtol=1e-12)


def test_mode_errors_are_numpys():
    for bad, exc in (("bad", ValueError), ("VALID", ValueError), (3, ValueError), (None, TypeError)):
        with pytest.raises(exc):
            numpy.correlate([1.0, 2.0], [1.0], bad)
        with pytest.raises(exc):
            convolution.correlate_plan(2, 1, bad)


def test_fast_len_is_7_smooth_and_minimal():
    from cuarray._math import fft_convolve

    for n in range(1, 3000):
        m = fft_convolve.fast_len(n)
        assert m >= n and _smooth(m)
        assert all(not _smooth(j) for j in range(n, m))


def test_fast_len_past_one_kernel_keeps_a_small_odd_part():
    """Issue 52: fftconvolve of 1e6 by 1e4 transformed at 1012500 = 2^2 3^4 5^5 (several cuFFT passes
    more than 2^20, 3.6% longer): past 2^14 points the length is the smallest 2^a m >= n with m in
    (1, 3, 5, 7, 9). Fails on the old minimal 7-smooth choice."""
    from cuarray._math import fft_convolve

    assert fft_convolve.fast_len(10**6 + 10**4 - 1) == 1 << 20
    rng = numpy.random.default_rng(52)
    for n in list(range(16385, 17000)) + [int(v) for v in rng.integers(17000, 1 << 26, 400)]:
        m = fft_convolve.fast_len(n)
        odd = m >> ((m & -m).bit_length() - 1)
        assert m >= n and odd in (1, 3, 5, 7, 9), (n, m)
        assert all(j < n for j in (o << k for o in (1, 3, 5, 7, 9) for k in range(40)) if j < m), (n, m)
        assert m <= 1.2 * n + 1


def _smooth(j):
    for p in (2, 3, 5, 7):
        while j % p == 0:
            j //= p
    return j == 1


def test_fft_convolve_product_kernel_and_plan_key():
    """The product kernel compiles for sm_90 (complex64/complex128), and the C2R plan key made by
    hand is the one cuarray.fft's layout planner makes for a contiguous 1-D C2R."""
    from cubin_info import compile_sm90  # tests/ is on sys.path
    from cuarray._math import fft_convolve
    from cuarray.fft import _layout
    from cuarray.cuda.libs import cufft

    for c in (numpy.dtype("c8"), numpy.dtype("c16")):
        r = numpy.dtype(c.char.lower())
        defs = [fft_convolve.definition("product", c), fft_convolve.definition("frames", r),
                fft_convolve.definition("pack", c), fft_convolve.definition("pack", r),
                fft_convolve.definition("gather", r)]
        for d in defs:
            for layout, nd, it in (("flat", 1, numpy.int32), ("nd", 2, numpy.int64)):
                name, src = d.source(layout, nd, it)
                compile_sm90(src, [])
    for n, batch, dt, typ in ((1050, 1, "f4", cufft.C2R), (4096, 1, "f8", cufft.Z2D), (8192, 37, "f4", cufft.C2R)):
        m, it = n // 2 + 1, numpy.dtype(dt).itemsize
        shape_in, shape_out = ((m,), (n,)) if batch == 1 else ((batch, m), (batch, n))
        st_in = (2 * it,) if batch == 1 else (2 * it * m, 2 * it)
        st_out = (it,) if batch == 1 else (it * n, it)
        p = _layout.plan_pass(shape_in, st_in, 2 * it, shape_out, st_out, it, [len(shape_in) - 1], [n], typ, True)
        assert p is not None and p.offsets == ((0, 0),)
        assert p.key == fft_convolve.c2r_key(n, batch, dt)



@pytest.mark.parametrize("dt", ["f4", "f8", "c8", "c16", "i1", "i4", "i8", "u2"])
def test_direct_kernel_compiles(dt):
    dt = numpy.dtype(dt)
    out = numpy.dtype(bool) if dt == numpy.int32 else dt  # bool results compute in int32
    d = convolution._definition(dt, out)
    _, src = d.source("flat", 1, numpy.int32)
    cubin, _ = compiler.compile_cubin(src, arch="sm_90")
    assert cubin[:4] == b"\x7fELF"


@pytest.mark.parametrize("x_dt,mul", [("f8", False), ("f4", True), ("i8", False), ("f2", False)])
def test_interp_kernel_compiles(x_dt, mul):
    d = interpolation._definition(numpy.dtype(x_dt), numpy.dtype("f8"), mul)
    _, src = d.source("nd", 2, numpy.int64)
    cubin, _ = compiler.compile_cubin(src, arch="sm_90")
    assert cubin[:4] == b"\x7fELF"


@pytest.mark.parametrize("char", ["f", "d"])
def test_tiled_direct_kernel_compiles(char):
    name = convolution.tiled_kernel_name(char)
    cubin, mapping = compiler.compile_cubin(convolution.tiled_source(), arch="sm_90", name_expressions=(name,))
    assert cubin[:4] == b"\x7fELF" and name in mapping


class _Frames:
    def __call__(self, a, na, B, S, off, y):
        i = numpy.arange(y.size)
        s = off + (i // B) * S + i % B
        inside = (s >= 0) & (s < na)
        y.reshape(-1)[...] = numpy.where(inside, numpy.asarray(a)[numpy.where(inside, s, 0)], 0)


class _Product:
    def __call__(self, a, b, s, dc, nyq, m, y):
        p = numpy.broadcast_to(a * b, y.shape).reshape(-1).copy()
        k = numpy.arange(p.size) % m
        p[(k == dc) | (k == nyq)] = p[(k == dc) | (k == nyq)].real
        y.reshape(-1)[...] = p * s


class _Pack:
    """The pack kernel's C expression over the flat output index, in NumPy (nan-filled output: every
    element must be written)."""

    def __call__(self, a, b, na, nb, n, y):
        i = numpy.arange(y.size)
        r, j = i // n, i % n
        src = numpy.where(r == 0, numpy.where(j < na, a[numpy.minimum(j, na - 1)], 0),
                          numpy.where(j < nb, b[numpy.minimum(j, nb - 1)], 0))
        y.reshape(-1)[...] = src


class _Gather:
    def __call__(self, y, B, S, k1, out):
        i = numpy.arange(out.size)
        out[...] = y.reshape(-1)[(i // S) * B + k1 + i % S]


_ROWS = {"frames": _Frames, "product": _Product, "gather": _Gather, "pack": _Pack}


@pytest.fixture
def host_copies():
    """Private copies of fft_convolve and convolution (`cuarray.testing.fake_device.host_modules`)
    with NumPy for the device: numpy.fft, the kernels' C expressions in NumPy, the unnormalised C2R
    as irfft times n."""
    from cuarray._math import fft_convolve as fc
    from cuarray.testing.fake_device import host_modules

    def c2r(spec, out):
        n = out.shape[-1]
        out[...] = numpy.fft.irfft(spec, n, axis=-1) * n

    return host_modules({fc: {"empty": lambda shape, dt: numpy.full(shape, numpy.nan, dt), "zeros": numpy.zeros,
                              "_fft": numpy.fft, "_c2r": c2r, "_run": lambda name, *args: _ROWS[name]()(*args)},
                         convolution: {}})


@pytest.fixture
def host_fc(host_copies):
    """fft_convolve's copy with NumPy for the device."""
    from cuarray._math import fft_convolve as fc

    return host_copies[fc]


@pytest.mark.parametrize("na,k", [(40000, 3), (30000, 512), (20000, 1025), (4096 * 4, 1), (50000, 700)])
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_overlap_save_blocks_match_numpy(host_fc, monkeypatch, na, k, mode):
    monkeypatch.setattr(host_fc, "BLOCKS_MIN", 0)  # (blocks at these test sizes)
    rng = numpy.random.default_rng(na + k)
    a, w = rng.normal(size=na), rng.normal(size=k)
    ref = numpy.convolve(a, w, mode)
    start, length = convolution.correlate_plan(na, k, mode)
    if host_fc.use_blocks(na, k, True):
        got = host_fc.convolve_blocks(a, w, start, length)
        numpy.testing.assert_allclose(got, ref, rtol=0, atol=1e-10 * numpy.abs(ref).max())
    full = host_fc.convolve_full(a, w)
    numpy.testing.assert_allclose(full[start:start + length], ref, rtol=0, atol=1e-10 * numpy.abs(ref).max())
    assert host_fc.use_blocks(40000, 3, True) and not host_fc.use_blocks(40000, 3, False)
    assert not host_fc.use_blocks(4 * host_fc.block_len(1100) - 1, 1100, True)
    monkeypatch.undo()
    assert not host_fc.use_blocks(40000, 3, True) and host_fc.use_blocks(1 << 21, 3, True)


@pytest.mark.parametrize("fn", ["convolve", "correlate"])
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("na,nv", [(3000, 1100), (1100, 2500), (1031, 1025)])
@pytest.mark.parametrize("dt", ["c16", "f8"])
def test_one_transform_path_matches_numpy(host_fc, host_copies, fn, mode, na, nv, dt):
    """numpy.convolve/correlate's FFT path (`convolution._correlate_full_slice` at lengths that take
    `fft_convolve.convolve_full`) with NumPy for the device, complex and real: a complex product
    keeps its DC term's imaginary part (clearing it, right only for a real transform, shifted every
    output's imaginary part by a constant)."""
    rng = numpy.random.default_rng(na * nv)
    a, v = rng.normal(size=na), rng.normal(size=nv)
    if dt == "c16":
        a, v = a + 1j * rng.normal(size=na), v + 1j * rng.normal(size=nv) + 0.5j  # (a mean: a DC term)
    ref = getattr(numpy, fn)(a, v, mode)
    if fn == "convolve":
        a, v = (v, a) if nv > na else (a, v)
        w = v[::-1]
    else:
        w = v.conj()
    start, length = convolution.correlate_plan(len(a), len(w), mode)
    assert min(na, nv) >= convolution.FFT_MIN_SHORT_TILED and not host_fc.use_blocks(max(na, nv), min(na, nv), True)
    got = host_copies[convolution]._correlate_full_slice(a, w, start, length, ref.dtype)  # calls host_fc
    assert got.dtype == ref.dtype and got.shape == ref.shape
    numpy.testing.assert_allclose(got, ref, rtol=0, atol=1e-10 * numpy.abs(ref).max())


def test_convolve_full_launches_and_transforms(recorded_launches, monkeypatch):
    """Issue 52's fftconvolve of 1e6 by 1e4 float32, one call on the fake device: one pack kernel,
    the batched R2C of both operands and the C2R at 2^20 (was 1012500 = 2^2 3^4 5^5), one product
    kernel; nothing else (the old code zero-filled and copied into the buffer, and transformed at
    1012500: this fails on it). cuFFT is recorded by stand-ins for its plan look-up and execution."""
    import cuarray
    from cuarray._math import fft_convolve as fc
    from cuarray.cuda.libs import cufft
    from cuarray.fft import _transform

    runs = []
    monkeypatch.setattr(cufft, "get_plan", lambda key: key)
    monkeypatch.setattr(cufft, "execute", lambda plan, i, o, d: runs.append((plan[1], plan[-2], plan[-1])))
    monkeypatch.setattr(_transform, "_recipes", {})
    a, b = cuarray.empty((10**6,), numpy.float32), cuarray.empty((10**4,), numpy.float32)
    del recorded_launches[:]
    out = fc.convolve_full(a, b)
    assert out.shape == (10**6 + 10**4 - 1,) and out.dtype == numpy.float32
    assert runs == [((1 << 20,), cufft.R2C, 2), ((1 << 20,), cufft.C2R, 1)]
    names = [call[2][0] for call in recorded_launches]
    assert len(names) == 2 and "pack" in names[0] and "product" in names[1], names


def test_float32_blocks_stay_one_pass_where_cheaper():
    """Issue 52's convolve k=2048 row (1.13x CuPy): its float32 overlap-save blocks were 16384 points
    (8 k), where the batched R2C/C2R take several passes (1.57x a sample against 8192-point blocks at
    the same B / S). `block_cost` picks 8192 (B / S 1.33) for k = 2048; float64 keeps the 8 k rule.
    Fails on the old `block_len` (16384 for every dtype)."""
    from cuarray._math import fft_convolve as fc

    f4, f8 = numpy.dtype(numpy.float32), numpy.dtype(numpy.float64)
    assert fc.block_len(2048, f4) == fc.BLOCK_ONE_PASS == 8192
    assert fc.block_len(2048, f8) == fc.block_len(2048) == 16384
    assert fc.block_len(1024, f4) == fc.block_len(1023, f4) == 8192  # (8 k fits: unchanged)
    for k in (2, 100, 512, 700, 1023, 1024, 1500, 2048, 3000, 4000, 4096, 5000, 9000):
        B = fc.block_len(k, f4)
        assert B >= 4096 and B - k + 1 >= B // 2  # at least half of each block is output
        # the choice is the cheaper of the two candidates under the planner's cost
        base = fc.fast_len(max(8 * k, 4096))
        assert fc.block_cost(B, k, f4) <= fc.block_cost(base, k, f4)
        if 2 * k <= fc.BLOCK_ONE_PASS < base:  # (a longer 8 k block: 8192 where it is cheaper)
            assert fc.block_cost(B, k, f4) <= fc.block_cost(fc.BLOCK_ONE_PASS, k, f4)
    assert fc.block_len(4000, f4) == fc.fast_len(32000)  # (8192 would be half overlap: dearer)
    assert fc.use_blocks(2**22, 2048, True, f4) and fc.use_blocks(2**22, 2048, True, f8)


def test_float32_long_convolve_routes():
    """Issue 52's float32 convolve rows: where blocks apply, float32 takes the FFT from
    FFT_MIN_SHORT_BLOCKS_F4 taps (k = 1023 measured 302 µs tiled against 228 in overlap-save blocks
    of 8192 at 2^22 samples, 974 against 318 at 2^24), the direct kernel below."""
    f4, f8 = numpy.dtype(numpy.float32), numpy.dtype(numpy.float64)
    c8, i4 = numpy.dtype(numpy.complex64), numpy.dtype(numpy.int32)
    n = 2**22
    for k in (640, 767, 1023, 1024, 2048, convolution.FFT_MIN_SHORT_BLOCKS_F4):
        assert convolution.uses_fft(n, k, f4) and convolution.uses_fft(k, n, f4), k
    for k in (15, 127, 255, 639, convolution.FFT_MIN_SHORT_BLOCKS_F4 - 1):
        assert not convolution.uses_fft(n, k, f4), k
    assert not convolution.uses_fft(n, 1023, f8) and convolution.uses_fft(n, 1024, f8)  # (float64 unmeasured)
    assert not convolution.uses_fft(10**5, 1023, f4)  # (below 2^21 samples: one whole-length transform)
    assert convolution.uses_fft(3000, 1100, f4) and not convolution.uses_fft(3000, 1000, f4)
    assert convolution.uses_fft(n, 256, c8) and not convolution.uses_fft(n, 255, c8)
    assert not convolution.uses_fft(n, 4096, i4)


@pytest.mark.parametrize("k", [2048, 3001, 3500])
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_overlap_save_one_pass_blocks_match_numpy(host_fc, monkeypatch, k, mode):
    """float32 blocks of 8192 for k to 3500 (S = 8193 - k outputs a block, as few as 4693): the
    frames, product and gather index arithmetic (NumPy models of the kernels) against numpy.convolve."""
    monkeypatch.setattr(host_fc, "BLOCKS_MIN", 0)
    rng = numpy.random.default_rng(k)
    a, w = rng.normal(size=50000).astype(numpy.float32), rng.normal(size=k).astype(numpy.float32)
    assert host_fc.use_blocks(a.size, k, True, a.dtype) and host_fc.block_len(k, a.dtype) == 8192
    ref = numpy.convolve(a.astype(numpy.float64), w.astype(numpy.float64), mode)
    start, length = convolution.correlate_plan(a.size, k, mode)
    got = host_fc.convolve_blocks(a, w, start, length)
    assert got.dtype == numpy.float32 and got.shape == ref.shape
    numpy.testing.assert_allclose(got, ref, rtol=0, atol=1e-5 * numpy.abs(ref).max())


def _emulate_direct_launch(call, host):
    """The direct kernels' sum (signal.cuh's correlate_at, correlate_tiled.cu) over a recorded
    launch's arguments, with `host` mapping each device allocation's address to its host values:
    out[k] = sum_j a[k + j - off] * w[j * ws] over the j that stay inside a."""
    kernel, args = call[2], call[3:]
    if isinstance(kernel, str):  # the tiled family: (a, w, out, na, nw, ws, length, off)
        a_ptr, w_ptr, _, na, nw, ws, length, off = args
    else:  # the per-output Definition: (a, w, na, nw, off, w0, ws, out, n)
        a_ptr, w_ptr, na, nw, off, w0, ws, _, length = args

    def find(ptr):
        for base, vals in host.items():
            if base <= ptr < base + vals.nbytes:
                assert (ptr - base) % vals.itemsize == 0
                return vals, (ptr - base) // vals.itemsize
        raise AssertionError("no allocation holds {}".format(ptr))

    a, ia = find(a_ptr)
    w, iw = find(w_ptr)
    if not isinstance(kernel, str):
        iw += int(w0)
    out = numpy.zeros(int(length), numpy.result_type(a, w, numpy.float64))
    for k in range(int(length)):
        for j in range(max(0, int(off) - k), min(int(nw), int(na) + int(off) - k)):
            out[k] += a[ia + k + j - off] * w[iw + j * ws]
    return out


@pytest.mark.parametrize("fn,dt", [("convolve", "f4"), ("correlate", "f4"), ("convolve", "f8"),
                                   ("correlate", "i4"), ("convolve", "i4"), ("convolve", "c16")])
@pytest.mark.parametrize("step", [1, -1, 3, -3])
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("swap", [False, True])
def test_direct_route_is_one_launch_reading_the_kernel_in_place(recorded_launches, fn, dt, step, mode, swap):
    """Issue 52's convolve[k=15] row, host-bound: a direct convolve/correlate is one launch, the
    short operand read where it lies through its stride (convolve's reversal too: the kernel's last
    element and a negative step), and a second call replays the memoised plan. The old code reversed
    and copied the short operand first (a copy kernel and an allocation a call, about half its host
    time): two launches, so this fails on it. The launch's arguments, emulated in NumPy, give
    numpy.convolve/correlate's values."""
    import cuarray

    if swap and fn == "correlate" and step != 1:
        pytest.skip("correlate's strided first operand is made contiguous (a copy launch), as before")
    rng = numpy.random.default_rng(abs(step) + len(mode))
    xh = rng.normal(size=300)
    bh = rng.normal(size=40)
    if dt == "c16":
        xh, bh = xh + 1j * rng.normal(size=300), bh + 1j * rng.normal(size=40)
    xh, bh = xh.astype(dt), bh.astype(dt)
    if dt == "i4":
        xh, bh = rng.integers(-9, 9, 300).astype(dt), rng.integers(-9, 9, 40).astype(dt)
    x, b = cuarray.empty(xh.shape, xh.dtype), cuarray.empty(bh.shape, bh.dtype)  # (no data: `host` holds it)
    vh, v = bh[::step], b[::step]
    args, hargs = ((v, x), (vh, xh)) if swap else ((x, v), (xh, vh))
    ref = getattr(numpy, fn)(*hargs, mode)
    for _ in range(2):  # the first call plans, the second replays the plan
        del recorded_launches[:]
        out = getattr(cuarray, fn)(*args, mode)
        assert out.shape == ref.shape and out.dtype == ref.dtype
        assert len(recorded_launches) == 1, [c[2] for c in recorded_launches]
        call = recorded_launches[0]
        assert out.data.ptr in call[3:]
        got = _emulate_direct_launch(call, {x.data.ptr: xh, b.data.ptr: bh})
        numpy.testing.assert_allclose(got, ref, rtol=1e-5 if dt == "f4" else 1e-12, atol=1e-4 if dt == "f4" else 1e-9)


def test_direct_plan_memo_skips_routes_that_ask_fft_convolve():
    """The plan memo holds only operands whose shorter has fewer than FFT_MIN_SHORT samples (direct
    whatever the dtype); longer ones are routed each call, as `fft_convolve.BLOCKS_MIN` (which
    tests change) may move them."""
    f4 = numpy.dtype(numpy.float32)
    assert all(not convolution.uses_fft(2**22, k, dt) for k in (1, 15, convolution.FFT_MIN_SHORT - 1)
               for dt in (f4, numpy.dtype("f8"), numpy.dtype("c8"), numpy.dtype("i8")))
    p = convolution.direct_plan(2**22, 15, 7, 2**22, f4, f4)
    assert p == (7, 2**22, 7, "cuarray_correlate_tiled<float, 8>", 2**22 // 2048)
    assert convolution.direct_plan(100, 15, 0, 86, numpy.dtype("i4"), numpy.dtype("i4")).tiled is None
