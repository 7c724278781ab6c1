"""scipy.signal's linear filters without a device: templates/iir.cuh (the scan the kernels run)
built with g++, driven by the public functions with NumPy arrays for cuarray arrays (the
`host_lfilter` fixture of conftest.py), against scipy.signal; and NVRTC compiles of the kernels."""

import math
import re

import numpy as np
import pytest
import scipy.signal as ss

from cuarray.cuda import compiler
from cuarray.scipy.signal import _lfilter as lf

real_lf = lf  # (tests through the host copies run a private copy of it: host_lfilter_copies[real_lf])
from cubin_info import nvrtc_text, ptxas_verbose  # tests/ is on sys.path

RNG = np.random.default_rng(9)
FILTERS = [ss.butter(4, 0.2), ss.cheby1(3, 1, [0.2, 0.5], "bandpass"), (RNG.normal(size=7), [1.0]),
           ([0.5, 0.2], [2.0, -0.3, 0.1]), ([1.0], [1.0, -0.5])]


@pytest.fixture(params=["planned", "chunks of 7"])
def chunking(request, monkeypatch, host_lfilter_copies):
    """The scan as planned (a single chunk at these lengths) and forced into many short chunks (in
    the test's private copy of _lfilter)."""
    if request.param != "planned":
        monkeypatch.setattr(host_lfilter_copies[lf], "plan_chunks", lambda n, lines, aa, K: 7 if 0 < K <= lf.SCAN_KMAX else n)


@pytest.mark.parametrize("fi", range(len(FILTERS)))
@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128", "int32"])
def test_lfilter(host_lfilter, chunking, fi, dtype):
    b, a = FILTERS[fi]
    x = RNG.normal(size=(4, 50, 3))
    x = (x + 1j * RNG.normal(size=x.shape) if dtype == "complex128" else x * 10).astype(dtype)
    for axis in (1, 0, -1):
        try:
            ref = ss.lfilter(b, a, x, axis)
        except NotImplementedError:
            with pytest.raises(NotImplementedError):
                host_lfilter.lfilter(b, a, x, axis)
            continue
        got = host_lfilter.lfilter(b, a, x, axis)
        assert got.dtype == ref.dtype
        np.testing.assert_allclose(got, ref, rtol=1e-5 if dtype == "float32" else 1e-10, atol=1e-9)
        K = max(len(a), len(b)) - 1
        zshape = list(x.shape)
        zshape[axis] = K
        zi = RNG.normal(size=zshape)
        ref_y, ref_z = ss.lfilter(b, a, x, axis, zi)
        got_y, got_z = host_lfilter.lfilter(b, a, x, axis, zi)
        assert got_y.dtype == ref_y.dtype and got_z.dtype == ref_z.dtype and got_z.shape == ref_z.shape
        np.testing.assert_allclose(got_y, ref_y, rtol=1e-5 if dtype == "float32" else 1e-10, atol=1e-8)
        np.testing.assert_allclose(got_z, ref_z, rtol=1e-5 if dtype == "float32" else 1e-10, atol=1e-8)


def test_long_fir_and_broadcast_zi(host_lfilter):
    b = RNG.normal(size=600)
    x = RNG.normal(size=(2, 900))
    np.testing.assert_allclose(host_lfilter.lfilter(b, [1.0], x), ss.lfilter(b, [1.0], x), atol=1e-9)
    zi = RNG.normal(size=(2, 599))
    for got, ref in zip(host_lfilter.lfilter(b, [1.0], x, zi=zi), ss.lfilter(b, [1.0], x, zi=zi)):
        np.testing.assert_allclose(got, ref, atol=1e-9)
    b, a = ss.butter(3, 0.3)
    x = RNG.normal(size=(5, 40))
    zi = RNG.normal(size=(1, 3))
    for got, ref in zip(host_lfilter.lfilter(b, a, x, zi=zi), ss.lfilter(b, a, x, zi=zi)):
        np.testing.assert_allclose(got, ref, atol=1e-10)


def test_zi_functions(host_lfilter):
    for b, a in FILTERS:
        np.testing.assert_allclose(host_lfilter.lfilter_zi(b, a), ss.lfilter_zi(b, a), atol=1e-12)
    sos = ss.butter(6, [0.1, 0.4], "bandpass", output="sos")
    np.testing.assert_allclose(host_lfilter.sosfilt_zi(sos), ss.sosfilt_zi(sos), atol=1e-12)


@pytest.mark.parametrize("padtype", ["odd", "even", "constant", None])
def test_filtfilt_sos(host_lfilter, padtype):
    x = RNG.normal(size=(3, 120))
    b, a = ss.butter(4, 0.15)
    np.testing.assert_allclose(host_lfilter.filtfilt(b, a, x, padtype=padtype),
                               ss.filtfilt(b, a, x, padtype=padtype), atol=1e-10)
    np.testing.assert_allclose(host_lfilter.filtfilt(b, a, x.T, axis=0, padtype=padtype, padlen=20),
                               ss.filtfilt(b, a, x.T, axis=0, padtype=padtype, padlen=20), atol=1e-10)
    sos = ss.butter(6, 0.2, output="sos")
    np.testing.assert_allclose(host_lfilter.sosfilt(sos, x), ss.sosfilt(sos, x), atol=1e-10)
    zi = RNG.normal(size=(3, 3, 2))
    for got, ref in zip(host_lfilter.sosfilt(sos, x, zi=zi), ss.sosfilt(sos, x, zi=zi)):
        np.testing.assert_allclose(got, ref, atol=1e-10)
    np.testing.assert_allclose(host_lfilter.sosfiltfilt(sos, x, padtype=padtype),
                               ss.sosfiltfilt(sos, x, padtype=padtype), atol=1e-10)


def test_errors(host_lfilter):
    x = RNG.normal(size=20)
    for call in [lambda s: s.lfilter([], [1.0], x), lambda s: s.lfilter([1.0], [[1.0]], x),
                 lambda s: s.lfilter([1, 2], [1], np.arange(5)),
                 lambda s: s.lfilter([1.0, 2.0], [1.0, 0.5], x, zi=np.ones(3)),
                 lambda s: s.filtfilt([1.0], [1.0, 0.5], x, padlen=30),
                 lambda s: s.filtfilt([1.0], [1.0, 0.5], x, padtype="bogus"),
                 lambda s: s.sosfilt(np.ones((2, 5)), x)]:
        with pytest.raises(Exception) as ref:
            call(ss)
        with pytest.raises(ref.type):
            call(host_lfilter)


def test_kernels_compile_for_sm90():
    names = sorted({lf.chunk_kernel_name(np.dtype(i), np.dtype(o), k) for i, o, k in
                    [("f", "f", 2), ("d", "d", 8), ("f", "d", 30), ("d", "f", 100), ("d", "d", 500)]}
                   | {lf.carry_kernel_name(k) for k in (1, 8, 32)})
    cubin, mapping = compiler.compile_cubin(lf.source(), arch="sm_90", name_expressions=names)
    assert cubin and set(mapping) == set(names)


def test_exact_order_kernels_keep_their_state_in_registers():
    # the reason for the exact-order kernels: the runtime-order sweep keeps its state in local
    # memory (a load and a store per delay and sample); these must not
    names = [lf.rows_kernel_name(np.dtype("d"), np.dtype("d"), 8), lf.fixed_chunk_kernel_name(np.dtype("d"),
                                                                                             np.dtype("d"), 16),
             lf.fixed_carry_kernel_name(16)]
    from cuda.bindings import nvrtc

    prog = nvrtc.nvrtcCreateProgram(lf.source().encode(), b"iir.cu", 0, [], [])[1]
    for n in names:
        nvrtc.nvrtcAddNameExpression(prog, n.encode())
    flags = [b"-arch=compute_90", b"-std=c++17"]
    assert nvrtc.nvrtcCompileProgram(prog, len(flags), flags)[0] == nvrtc.nvrtcResult.NVRTC_SUCCESS
    text = nvrtc_text(prog)
    assert text.count(".entry") == 3 and "ld.local" not in text and "st.local" not in text


def test_exact_order_kernels_compile_for_sm90_and_do_not_spill():
    # NVRTC + ptxas for sm_90 (every family, mixed dtypes, orders 0-16): the staged kernel holds a window of loads in flight and the carry 32 end
    # states ahead; neither may spill at the orders' extremes (a 64-state carry did)
    names = [n for i, o in (("d", "d"), ("f", "f")) for k in (1, 8, 16)
             for n in (lf.rows_kernel_name(np.dtype(i), np.dtype(o), k),
                       lf.fixed_chunk_kernel_name(np.dtype(i), np.dtype(o), k))]
    names += [lf.fixed_carry_kernel_name(k) for k in (1, 3, 8, 12, 16)]
    names += [lf.rows_kernel_name(np.dtype(i), np.dtype(o), k) for i, o, k in (("f", "d", 16), ("d", "f", 0))]
    names += [lf.rows_kernel_name(np.dtype(i), np.dtype(o), k, 64) for i, o, k in (("d", "d", 8), ("f", "f", 8),
                                                                                   ("d", "d", 16), ("d", "f", 1))]
    names += [lf.fixed_chunk_kernel_name(np.dtype(i), np.dtype(o), k) for i, o, k in (("f", "d", 0), ("d", "f", 5))]
    log = ptxas_verbose(lf.source(), names, "iir.cu")[0]
    spills = [int(m) for m in re.findall(r"(\d+) bytes spill stores", log)]
    # (ptxas keeps lfilter_rows<float, float, 8> at 80 registers with 16 bytes spilled; a state or
    # window array demoted to memory would be hundreds)
    assert len(spills) == len(names) and max(spills) <= 16, spills


def test_sweep_for():
    assert [lf.sweep_for(p, 8, 1) for p in lf.SWEEPS] == ["overlap", "staged", "fixed", "runtime"]
    assert [lf.sweep_for(p, 8, 5) for p in lf.SWEEPS] == ["fixed", "fixed", "fixed", "runtime"]  # axis not last
    assert [lf.sweep_for(p, lf.FIXED_KMAX + 1, 1) for p in lf.SWEEPS] == ["runtime"] * 4
    assert lf.sweep_for("staged", 0, 1) == "staged"
    with pytest.raises(ValueError):
        lf.sweep_for("tiles", 8, 1)


SWEEP_FILTERS = FILTERS + [([2.5], [1.0]), (RNG.normal(size=21), [1.0]), ss.butter(8, 0.1)]


@pytest.mark.parametrize("fi", range(len(SWEEP_FILTERS)))
def test_sweeps_agree(host_lfilter_copies, chunking, fi):
    # every kernel family on the same data: each against SciPy, and the exact-order ones against the
    # runtime-order one to rounding (the same operations in the same order); orders 0, 1-8 and 20
    # (past FIXED_KMAX: the runtime kernels whatever the plan)
    lf = host_lfilter_copies[real_lf]
    b, a = SWEEP_FILTERS[fi]
    K = max(len(a), len(b)) - 1
    aa = np.zeros(K + 1)
    aa[:len(a)] = np.asarray(a) / a[0]
    # chunks of 7, forced, are shorter than the order-8 low-pass's settling length (~100): its
    # start states' rounding is amplified ~1e4 times, in every family alike
    tol = 1e-10 if lf.plan_chunks(40, 1, aa, K) == 40 or lf.settling(aa.tobytes(), K) <= 7 else 1e-5
    x = RNG.normal(size=(3, 40, 5))
    for axis in (2, 1, 0):
        zshape = list(x.shape)
        zshape[axis] = K
        zi = RNG.normal(size=zshape)
        ref = ss.lfilter(b, a, x, axis, zi)
        outs = {p: lf._lfilter(b, a, x, axis, zi, p) for p in lf.SWEEPS}
        for p, (y, zf) in outs.items():
            for got, want in ((y, ref[0]), (zf, ref[1])):
                np.testing.assert_allclose(got, want, rtol=tol, atol=tol * np.abs(want).max(initial=1.0), err_msg=p)
            np.testing.assert_allclose(y, outs["runtime"][0], rtol=1e-13, atol=1e-13, err_msg=p)


def _ba(b, a):
    """(b, a) / a[0], both padded to K + 1, as _run gets them."""
    k1 = max(len(a), len(b))
    b, a = (np.pad(np.asarray(v, float), (0, k1 - len(v))) for v in (b, a))
    return np.concatenate([b / a[0], a / a[0]])


def test_decay_length_and_overlap_plan():
    # the bench's filter (8 poles at 0.5): ~120 warm-up samples; chunks of ~1500 on its two rows
    bench = np.array([math.comb(8, k) * (-0.5) ** k for k in range(9)])
    ba = _ba(np.full(9, bench.sum() / 9), bench)
    W = lf.decay_length(ba.tobytes(), 8)
    assert 100 < W < 160
    A = lf.transition(bench, 8)
    norm = np.abs(np.linalg.matrix_power(A, W)).sum(axis=1).max()
    assert norm <= 2.0 ** -60 / np.abs(ba).sum() and np.abs(np.linalg.matrix_power(A, W - 1)).sum(axis=1).max() > norm
    assert 4 * W <= lf.plan_overlap(10**5, 1000, W) <= 16 * W and 1000 * (10**5 // lf.plan_overlap(10**5, 1000, W)) > 50_000
    assert 10**8 // lf.plan_overlap(10**8, 1, W) > 50_000
    assert lf.plan_overlap(1000, 1 << 17, W) == 1000  # the lines fill the GPU: one sweep each
    assert lf.plan_overlap(600, 4, W) == 600  # too short for two chunks of 4 W
    # slow filters warm up longer; unstable ones never decay
    assert lf.decay_length(_ba(*ss.butter(8, 0.05)).tobytes(), 8) > 2000
    assert lf.decay_length(_ba([1.0], [1.0, -1.0001]).tobytes(), 1) is None
    assert lf.decay_length(_ba([1.0], [1.0, -0.5]).tobytes(), 1) == 62  # 0.5^62 <= 2^-60 / 2.5


@pytest.mark.parametrize("b,a", [ss.butter(4, 0.2), ss.butter(1, 0.1), ss.cheby1(3, 1, [0.2, 0.5], "bandpass"),
                                 ([0.5, 0.2], [2.0, -0.3, 0.1]), ([1.5], [1.0]), (RNG.normal(size=6), [1.0])],
                         ids=["butter4", "butter1", "cheby-band", "a0=2", "gain", "fir5"])
@pytest.mark.parametrize("layout", lf.OVERLAP_LAYOUTS)
def test_overlap_plan_against_scipy(host_lfilter_copies, b, a, layout):
    # the overlap plan on lines long enough to cut: each chunk warmed up from zero must give SciPy's
    # sweep to rounding, zi and zf included (zf from the last chunk), in every layout (the aligned
    # ones: longer warm-ups, a shorter last chunk)
    lf = host_lfilter_copies[real_lf]
    K = max(len(a), len(b)) - 1
    n = 30_000 + int(RNG.integers(0, 100))
    x = RNG.normal(size=(3, n))
    zi = RNG.normal(size=(3, K))
    W = 0 if K == 0 else lf.decay_length(_ba(b, a).tobytes(), K)
    assert W is not None and lf.plan_overlap(n, 3, W) < n  # the plan runs here
    ref, rz = ss.lfilter(b, a, x, -1, zi)
    got, gz = lf._lfilter(b, a, x, -1, zi, "overlap", None, layout)
    scale = np.abs(ref).max()
    np.testing.assert_allclose(got, ref, rtol=0, atol=1e-13 * scale)
    np.testing.assert_allclose(gz, rz, rtol=0, atol=1e-13 * np.abs(rz).max(initial=1.0))
    np.testing.assert_allclose(lf._lfilter(b, a, x, -1, None, "overlap", None, layout), ss.lfilter(b, a, x), rtol=0,
                               atol=1e-13 * scale)


def test_overlap_layouts():
    # the bench's rows: "first" as planned (the last chunk longer), the aligned ones rounded up to
    # their window, ceil(n / L) chunks, the last the shorter, the warm-up still within a chunk
    for n, L, W in ((10**5, 1525, 121), (10**8, 1525, 121), (30_017, 484, 121), (5000, 4990, 62), (3000, 2980, 100)):
        assert lf.overlap_layout("first", n, L, W) == (L, n // L, W, 32)
        for layout, win in (("aligned", 32), ("aligned64", 64)):
            La, C, Wa, w = lf.overlap_layout(layout, n, L, W)
            if -(-L // win) * win >= n:  # rounding up leaves one chunk: the first layout
                assert (La, C, Wa, w) == lf.overlap_layout("first", n, L, W)
                continue
            assert w == win and La % win == 0 and Wa % win == 0 and L <= La < L + win and W <= Wa <= La
            assert (C - 1) * La < n <= C * La and C >= 2
    with pytest.raises(ValueError):
        lf.overlap_layout("tiles", 100, 10, 5)
    assert lf.rows_kernel_name(np.dtype("d"), np.dtype("f"), 8) == "cuarray_signal::lfilter_rows<double, float, 8>"
    assert lf.rows_kernel_name(np.dtype("d"), np.dtype("d"), 8, 64) == "cuarray_signal::lfilter_rows<double, double, 8, 64>"


def _a(order, cut):
    a = ss.butter(order, cut)[1]
    return a / a[0]


def test_chunk_plan():
    # the bench case (1000 lines of 1e5; 8 poles at 0.5): a few hundred samples a chunk, over 1e5
    # threads a sweep
    bench = np.array([math.comb(8, k) * (-0.5) ** k for k in range(9)])
    L = lf.plan_chunks(100_000, 1000, bench, 8)
    assert 100 < L < 2000 and 1000 * (100_000 // L) > 50_000
    assert 10**8 // lf.plan_chunks(10**8, 1, bench, 8) > 5000  # one long signal: thousands of chunks
    assert lf.plan_chunks(4000, 1, bench, 8) == 4000  # too short to cut
    assert lf.plan_chunks(10**6, 1, np.ones(1), 0) == 10**6  # FIR without delays: nothing to carry
    assert lf.plan_chunks(10**6, 1, np.ones(101), 100) == 10**6  # past SCAN_KMAX a line is one sweep
    assert lf.plan_chunks(1000, 1 << 20, _a(4, 0.2), 4) == 1000  # enough lines fill the GPU on their own
    # chunks outlast the growth of A's powers: ~520 steps for an order-8 low-pass at 0.05
    assert lf.plan_chunks(10**5, 1, _a(8, 0.05), 8) >= lf.settling(_a(8, 0.05).tobytes(), 8) > 400
    assert lf.plan_chunks(10**6, 1, np.array([1.0, -1.5]), 1) == 10**6  # unstable: one sweep
    assert lf.settling(np.array([1.0, -0.9999]).tobytes(), 1) == 1  # slow but never growing


def test_transition_is_the_zero_input_recursion():
    b, a = ss.butter(5, 0.3)
    A = lf.transition(a / a[0], 5)
    z = RNG.normal(size=5)
    _, zf = ss.lfilter(b, a, np.zeros(9), zi=z)
    np.testing.assert_allclose(np.linalg.matrix_power(A, 9) @ z, zf, rtol=1e-12, atol=1e-14)


def _long_double_lfilter(b, a, x, axis, zi):
    """The transposed direct form II sweep in x87 long double: the reference both SciPy's and our
    float64 answers are measured against."""
    ld = np.longdouble
    b, a = np.asarray(b, ld) / ld(a[0]), np.asarray(a, ld) / ld(a[0])
    K = len(a) - 1
    x, z = np.moveaxis(x, axis, -1).astype(ld), np.moveaxis(zi, axis, -1).astype(ld).copy()
    y = np.empty(x.shape, ld)
    for t in range(x.shape[-1]):
        xt = x[..., t]
        yt = y[..., t] = b[0] * xt + z[..., 0]
        for k in range(K - 1):
            z[..., k] = b[k + 1] * xt + z[..., k + 1] - a[k + 1] * yt
        z[..., K - 1] = b[K] * xt - a[K] * yt
    return np.moveaxis(y, -1, axis), np.moveaxis(z, -1, axis)


@pytest.mark.parametrize("order,cut", [(1, 0.1), (2, 0.05), (3, 0.3), (5, 0.05), (8, 0.05), (8, 0.2)])
@pytest.mark.parametrize("axis", [0, 1])
def test_planned_scan_on_long_lines(host_lfilter, order, cut, axis):
    # long enough that the real plan chunks the lines; low cut-offs put the poles near 1, where the
    # powers of A grow most before they decay
    b, a = ss.butter(order, cut)
    n = 20000
    rng = np.random.default_rng(order * 1000 + axis)  # the test's own data, whatever ran before it
    x = rng.normal(size=(n, 3) if axis == 0 else (2, n))
    assert lf.plan_chunks(n, 3, a / a[0], order) < n
    zshape = list(x.shape)
    zshape[axis] = order
    zi = rng.normal(size=zshape)
    got, gz = host_lfilter.lfilter(b, a, x, axis, zi)
    ref, rz = ss.lfilter(b, a, x, axis, zi)
    exact, ez = _long_double_lfilter(b, a, x, axis, zi)
    # Measured against the long double sweep, SciPy's own float64 error for these filters is up to
    # ~1e-8 of the signal's size (order 8 at 0.05), the final state's a few times that: the scan
    # must stay within that, and within a few times SciPy's error (the GPU machine's SciPy 1.18 once
    # differed from ours by 1e-7 of zf's size: which of the two was off is what this says)
    for mine, theirs, true in ((got, ref, exact), (gz, rz, ez)):
        scale = float(np.abs(true).max())
        err, scipy_err = float(np.abs(mine - true).max()) / scale, float(np.abs(theirs - true).max()) / scale
        assert err <= max(2e-8, 4 * scipy_err), "error {:.2e} of the size, SciPy's {:.2e}".format(err, scipy_err)


def test_unstable_filter_falls_back_to_one_sweep(host_lfilter):
    b, a = [1.0], [1.0, -1.5]  # pole at 1.5: A^L overflows
    x = RNG.normal(size=(2, 3000))
    with np.errstate(over="ignore", invalid="ignore"):
        got, ref = host_lfilter.lfilter(b, a, x), ss.lfilter(b, a, x)
    np.testing.assert_array_equal(got, ref)


@pytest.mark.parametrize("q,n", [(2, None), (4, 6)])
@pytest.mark.parametrize("zero_phase", [True, False])
def test_decimate_iir(host_lfilter, q, n, zero_phase):
    x = RNG.normal(size=(2, 300))
    got = host_lfilter.decimate(x, q, n, zero_phase=zero_phase)
    ref = ss.decimate(x, q, n, zero_phase=zero_phase)
    assert got.dtype == ref.dtype and got.shape == ref.shape
    np.testing.assert_allclose(got, ref, rtol=1e-9, atol=1e-9)


# -- lfilter_rows (iir.cu) itself on host threads -----------------------------------------------------
# The kernel source as NVRTC gets it, built with g++ under a small CUDA shim (as
# tests/scipy/ndimage/test_ndimage_rank_cpu.py's): one std::thread per CUDA thread, a std::barrier
# for __syncthreads, __shared__ a static shared by the block's threads, blocks one after another.
# So the staging (row bases and lengths, windows, the longest chunk of a block, partial blocks) is
# checked against the plain chunk sweep without a device.
ROWS_SHIM = r"""
#include <barrier>
#include <thread>
#include <vector>
struct dim3 { unsigned x = 1, y = 1, z = 1; };
static thread_local dim3 threadIdx, blockIdx;
static dim3 blockDim, gridDim;
static std::barrier<>* cu_barrier;
static void __syncthreads() { cu_barrier->arrive_and_wait(); }
#define __global__
#define __device__
#define __launch_bounds__(n)
#define __shared__ static
"""

ROWS_DRIVER = r"""
template <int K>
void rows_of(const double* ba, const double* x, double* y, long long n, long long L, long long C, long long total,
             long long warm, const double* start, double* end) {
  const int rows = cuarray_signal::ROWS;
  std::barrier<> bar(rows);
  cu_barrier = &bar;
  blockDim = dim3{(unsigned)rows, 1, 1};
  for (long long b = 0; b < (total + rows - 1) / rows; ++b) {
    std::vector<std::thread> ts;
    for (int t = 0; t < rows; ++t)
      ts.emplace_back([=] {
        threadIdx = dim3{(unsigned)t, 0, 0};
        blockIdx = dim3{(unsigned)b, 0, 0};
        cuarray_signal::lfilter_rows<double, double, K>(ba, x, y, n, L, C, total, warm, start, end);
      });
    for (auto& t : ts) t.join();
  }
}
extern "C" void rows(int K, const double* ba, const double* x, double* y, long long n, long long L, long long C,
                     long long total, long long warm, const double* start, double* end) {
  if (K == 3) rows_of<3>(ba, x, y, n, L, C, total, warm, start, end);
  if (K == 8) rows_of<8>(ba, x, y, n, L, C, total, warm, start, end);
}
extern "C" void chunks_ref(int K, const double* ba, const double* x, double* y, long long n, long long L, long long C,
                           long long total, long long warm, const double* start, double* end) {
  for (long long t = 0; t < total; ++t) {
    if (warm > 0) {
      if (K == 3) cuarray_signal::run_chunk_overlap_k<3, double, double>(ba, x, y, n, L, C, warm, t, start, end);
      if (K == 8) cuarray_signal::run_chunk_overlap_k<8, double, double>(ba, x, y, n, L, C, warm, t, start, end);
    } else {
      if (K == 3) cuarray_signal::run_chunk_k<3, double, double>(ba, x, y, n, 1, L, C, t, start, end);
      if (K == 8) cuarray_signal::run_chunk_k<8, double, double>(ba, x, y, n, 1, L, C, t, start, end);
    }
  }
}
"""


@pytest.fixture(scope="module")
def rows_lib():
    import shutil

    if shutil.which("g++") is None:
        pytest.skip("no g++")
    import host_build  # tests/ is on sys.path

    src = ROWS_SHIM + lf.source().replace("#define CUARRAY_DEVICE __device__\n", "") + ROWS_DRIVER
    return host_build.library_of(src, ["-std=c++20", "-O1", "-w", "-shared", "-fPIC", "-pthread"])


@pytest.mark.parametrize("K", [3, 8])
@pytest.mark.parametrize("lines,n,L", [(5, 1000, 37), (1, 5000, 64), (70, 33, 33), (3, 100, 49), (4, 1000, 60)])
def test_rows_kernel_on_host_threads(rows_lib, K, lines, n, L):
    # passes 1 (end states from zero) and 3 (outputs from given start states) of the staged kernel
    # against the plain chunk sweep: bit for bit (same steps in the same order). (70, 33, 33): one
    # sweep per line (C == 1) over two blocks, the second partial; (5, 1000, 37): 27 chunks a line,
    # the last one longer, blocks across lines; (3, 100, 49): a last chunk of 51 samples, two
    # windows for 32 samples of a row; (4, 1000, 60): last chunks of 100 samples, 4 windows against 2
    import ctypes

    def ptr(a):
        return a.ctypes.data_as(ctypes.c_void_p)

    ll = ctypes.c_longlong
    C = n // L
    total = lines * C
    rng = np.random.default_rng(K * 100 + lines)
    ba = np.concatenate([rng.normal(size=K + 1), [1.0], rng.normal(size=K) * 0.1])
    x = rng.normal(size=(lines, n))
    start = rng.normal(size=total * K)
    outs = []
    for run in (rows_lib.rows, rows_lib.chunks_ref):
        end = np.full(total * K, np.nan)
        y = np.full((lines, n), np.nan)
        run(ctypes.c_int(K), ptr(ba), ptr(x), None, ll(n), ll(L), ll(C), ll(total), ll(0), None, ptr(end))
        run(ctypes.c_int(K), ptr(ba), ptr(x), ptr(y), ll(n), ll(L), ll(C), ll(total), ll(0), ptr(start), None)
        outs.append((end, y))
    (end, y), (ref_end, ref_y) = outs
    assert not np.isnan(y).any() and not np.isnan(end).any()
    np.testing.assert_array_equal(end, ref_end)
    np.testing.assert_array_equal(y, ref_y)
    # the overlap plan (warm <= L): one pass, zi and zf laid out (lines, K)
    for warm in {1, L // 2, L}:
        zi = rng.normal(size=lines * K)
        outs = []
        for run in (rows_lib.rows, rows_lib.chunks_ref):
            zf = np.full(lines * K, np.nan)
            y = np.full((lines, n), np.nan)
            run(ctypes.c_int(K), ptr(ba), ptr(x), ptr(y), ll(n), ll(L), ll(C), ll(total), ll(warm), ptr(zi), ptr(zf))
            outs.append((zf, y))
        (zf, y), (ref_zf, ref_y) = outs
        assert not np.isnan(y).any() and not np.isnan(zf).any()
        np.testing.assert_array_equal(zf, ref_zf)
        np.testing.assert_array_equal(y, ref_y)
