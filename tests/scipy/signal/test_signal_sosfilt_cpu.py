"""sosfilt's one-pass cascade (cuarray/scipy/signal/_sosfilt.py, `sos_rows` of templates/iir.cu)
without a device: the kernels compile for sm_90 without spilling, and the kernel's own source, built
with g++ under a small CUDA shim (one std::thread per CUDA thread, a std::barrier for
__syncthreads), runs the module's plans (overlap chunks, one sweep a line, groups of sections,
zi/zf layouts, axes) against scipy.signal.sosfilt."""

import ctypes
import re
import shutil

import host_build  # tests/ is on sys.path
import numpy as np
import pytest
import scipy.signal as ss

from cubin_info import ptxas_verbose  # tests/ is on sys.path
from cuarray.scipy.signal import _lfilter as lf
from cuarray.scipy.signal import _sosfilt as so

RNG = np.random.default_rng(2052)


def _ptxas_kernels(log: str, lowered: dict) -> dict:
    """{name expression: (registers, stack frame, spill store, spill load bytes)} of each entry
    function in ptxas -v's log."""
    info, fn = {}, None
    for line in log.splitlines():
        m = re.search(r"(?:Compiling entry function|Function properties for) '?([\w$]+)'?", line)
        if m:
            fn = lowered.get(m.group(1))
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m and fn:
            info.setdefault(fn, {}).update(frame=int(m.group(1)), stores=int(m.group(2)), loads=int(m.group(3)))
        m = re.search(r"Used (\d+) registers", line)
        if m and fn:
            info.setdefault(fn, {}).update(regs=int(m.group(1)))
    return {n: (v["regs"], v["frame"], v["stores"], v["loads"]) for n, v in info.items()}


# Spills ptxas makes in the cascade's kernels by NVRTC version (name expression: (spill store,
# spill load bytes) at most). NVRTC 13.5 (CI's): none, every kernel without a frame, the most
# registers 226 (<double, double, 4, 64>, under the launch bound's 255). NVRTC 13.0.88 (the H200
# machine's) gives sos_rows<double, float|double, 1> 96 registers, a 24-byte frame and 48 bytes of
# spill (13.5: 106 registers, none): the prologue's and epilogue's scalars and one 4-byte reload
# per 32-sample tile (its SASS), none in the unrolled sample steps. (__launch_bounds__(ROWS, 1)
# removes it but raises every other kernel's registers, float ones from 80 to 128-168: a loss of
# occupancy for a spill outside the sample loop.) A version not listed is held to 13.5's answer.
_SOS_SPILLS_BY_NVRTC = {
    (13, 0): {"cuarray_signal::sos_rows<double, float, 1>": (48, 48),
              "cuarray_signal::sos_rows<double, double, 1>": (48, 48)},
}


def test_sos_kernels_compile_for_sm90_and_do_not_spill():
    """The one-pass cascade keeps its sections' states and its window in registers: no kernel
    spills (stores or loads to local memory, what costs speed in the sample loop) beyond what the
    NVRTC version is known to spill (_SOS_SPILLS_BY_NVRTC). The stack frame is not asserted: ptxas
    versions differ in what else they put there (ABI frames of calls left out of line); a spill
    always shows as spill bytes."""
    from cuda.bindings import nvrtc  # (the version: spills depend on the toolchain)

    names = [so.sos_kernel_name(np.dtype(i), np.dtype(o), ns, win) for i, o in (("d", "d"), ("f", "f"), ("f", "d"),
                                                                                  ("d", "f"))
             for ns in (1, 4, so.MAX_SECTIONS) for win in (32, 64)]
    log, lowered = ptxas_verbose(lf.source(), names, "iir.cu")
    info = _ptxas_kernels(log, lowered)
    assert set(info) == set(names), sorted(set(names) - set(info))
    version = tuple(nvrtc.nvrtcVersion()[1:])
    known = _SOS_SPILLS_BY_NVRTC.get(version, {})
    beyond = {n: v for n, v in info.items() if (v[2] or v[3]) and not (n in known and v[2] <= known[n][0]
                                                                          and v[3] <= known[n][1])}
    assert not beyond, "(registers, frame, spill stores, spill loads) with NVRTC {}: {}".format(version, beyond)


def test_ptxas_parser_sees_spills():
    """The check reads each kernel's spill bytes (ptxas -v's format), so a spill fails it."""
    log = ("ptxas info    : Compiling entry function '_Z1kv' for 'sm_90'\n"
           "ptxas info    : Function properties for _Z1kv\n"
           "    48 bytes stack frame, 48 bytes spill stores, 40 bytes spill loads\n"
           "ptxas info    : Used 255 registers, used 1 barriers, 34816 bytes smem\n"
           "ptxas info    : Compiling entry function '_Z1jv' for 'sm_90'\n"
           "ptxas info    : Function properties for _Z1jv\n"
           "    16 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
           "ptxas info    : Used 80 registers, used 1 barriers, 18432 bytes smem\n")
    assert _ptxas_kernels(log, {"_Z1kv": "k", "_Z1jv": "j"}) == {"k": (255, 48, 48, 40), "j": (80, 16, 0, 0)}

SHIM = r"""
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

DRIVER = r"""
template <int NS, int WIN>
void sos_of(const double* ba, const double* x, double* y, long long n, long long L, long long C, long long total,
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
        cuarray_signal::sos_rows<double, double, NS, WIN>(ba, x, y, n, L, C, total, warm, start, end);
      });
    for (auto& t : ts) t.join();
  }
}
#define CASE(ns) if (NS == ns) { if (win == 32) sos_of<ns, 32>(ba, x, y, n, L, C, total, warm, start, end); \
                                 else sos_of<ns, 64>(ba, x, y, n, L, C, total, warm, start, end); }
extern "C" void sos(int NS, int win, const double* ba, const double* x, double* y, long long n, long long L,
                    long long C, long long total, long long warm, const double* start, double* end) {
  CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6)
}
"""


@pytest.fixture(scope="module")
def sos_lib():
    if shutil.which("g++") is None:
        pytest.skip("no g++")
    src = SHIM + lf.source().replace("#define CUARRAY_DEVICE __device__\n", "#define CUARRAY_DEVICE\n") + DRIVER
    return host_build.library_of(src, ["-std=c++20", "-O1", "-w", "-shared", "-fPIC", "-pthread"])


def _astype(x, dt, order="K", copy=True):
    return np.array(x, dtype=dt, order=order, copy=True) if copy else np.asarray(x, dtype=dt, order=order)


@pytest.fixture
def host_parts(sos_lib):
    """A private copy of _sosfilt (`cuarray.testing.fake_device.host_module`) with NumPy arrays and
    the kernel on host threads (float64 in and out there), and the plans it launched."""
    from cuarray.testing.fake_device import host_module

    ll = ctypes.c_longlong
    plans = []

    def ptr(a):
        return None if a is None else a.ctypes.data_as(ctypes.c_void_p)

    def launch(ba, ns, x, y, lines, n, L, C, warm, win, zi, zf):
        plans.append((ns, L, C, warm, win))
        assert x.flags.c_contiguous and y.flags.c_contiguous and x.shape == y.shape
        x64 = np.ascontiguousarray(x, np.float64)
        y64 = np.full(y.shape, np.nan)
        sos_lib.sos(ctypes.c_int(ns), ctypes.c_int(win), ptr(np.ascontiguousarray(ba, np.float64)), ptr(x64),
                    ptr(y64), ll(n), ll(L), ll(C), ll(lines * C), ll(warm), ptr(zi), ptr(zf))
        y[...] = y64

    return host_module(so, {"ndarray": np.ndarray, "astype": _astype, "_from_host": np.asarray,
                            "_moveaxis": np.moveaxis, "_launch": launch}), plans


@pytest.fixture
def host_sos(host_parts):
    """The plans the copy of _sosfilt launched (`host_so`)."""
    return host_parts[1]


@pytest.fixture
def host_so(host_parts):
    """_sosfilt's copy on the host."""
    return host_parts[0]


def _filters():
    out = [ss.butter(4, 0.2, output="sos"), ss.cheby1(6, 1, [0.2, 0.4], "bandpass", output="sos"),
           ss.ellip(5, 0.5, 60, 0.3, output="sos"), ss.butter(8, 0.05, output="sos"),
           ss.butter(20, 0.3, output="sos"), ss.cheby2(3, 40, 0.6, "highpass", output="sos"),
           np.array([[0.5, 0.2, 0.0, 1.0, -0.3, 0.0]])]
    return out


def _check(got, ref, tol):
    assert got.shape == ref.shape and got.dtype == ref.dtype, (got.shape, ref.shape, got.dtype, ref.dtype)
    np.testing.assert_allclose(got, ref, rtol=tol, atol=tol * max(1.0, float(np.abs(ref).max(initial=0))))


@pytest.mark.parametrize("fi", range(7))
@pytest.mark.parametrize("shape,axis", [((3, 20000), -1), ((5000,), 0), ((2, 3000, 2), 1), ((200, 40), -1),
                                        ((7, 3), 0)])
def test_one_pass_matches_scipy(host_sos, host_so, fi, shape, axis):
    sos = _filters()[fi]
    x = RNG.normal(size=shape)
    zshape = (sos.shape[0],) + tuple(2 if k == axis % len(shape) else s for k, s in enumerate(shape))
    zi = RNG.normal(size=zshape)
    res = host_so.sosfilt_one_pass(sos, x, axis % len(shape), None, np.dtype(np.float64))
    assert res is not None and res[1] is None
    _check(res[0], ss.sosfilt(sos, x, axis=axis), 1e-10)
    y, zf = host_so.sosfilt_one_pass(sos, x, axis % len(shape), zi, np.dtype(np.float64))
    ry, rzf = ss.sosfilt(sos, x, axis=axis, zi=zi)
    _check(y, ry, 1e-10)
    _check(zf, rzf, 1e-10)
    groups = -(-sos.shape[0] // so.MAX_SECTIONS)
    assert len(host_sos) == 2 * groups


def test_plans_overlap_and_float32(host_sos, host_so):
    sos = ss.butter(6, 0.25, output="sos")
    x = RNG.normal(size=(4, 100000)).astype(np.float32)
    y = host_so.sosfilt_one_pass(sos, x, 1, None, np.dtype(np.float32))[0]
    _check(y, ss.sosfilt(sos, x).astype(np.float32), 2e-5)
    ns, L, C, warm, win = host_sos[-1]
    assert ns == 3 and C > 1 and 0 < warm <= L  # chunked with warm-ups
    xi = (RNG.integers(-5, 5, size=(2, 500))).astype(np.int16)
    _check(host_so.sosfilt_one_pass(sos, xi, 1, None, np.dtype(np.float64))[0], ss.sosfilt(sos, xi), 1e-10)


def test_declines(host_sos, host_so):
    x = RNG.normal(size=(2, 100))
    sos = ss.butter(2, 0.3, output="sos")
    assert host_so.sosfilt_one_pass(sos.astype(complex), x, 1, None, np.dtype(complex)) is None
    assert host_so.sosfilt_one_pass(sos, x + 0j, 1, None, np.dtype(complex)) is None
    assert host_so.sosfilt_one_pass(sos, x[:, :0], 1, None, np.dtype(np.float64)) is None
    unstable = np.array([[1.0, 0.0, 0.0, 1.0, -1.2, 0.0]])
    assert host_so.cascade_decay_length(unstable.tobytes(), 1) is None
    assert host_so.sosfilt_one_pass(unstable, x, 1, None, np.dtype(np.float64)) is None
    assert host_sos == []


def test_cascade_transition_is_the_state_map():
    sos = ss.ellip(6, 0.5, 50, 0.2, output="sos")
    A = so.cascade_transition(sos)
    z = RNG.normal(size=(sos.shape[0], 2))
    _, zf = ss.sosfilt(sos, np.zeros(1), zi=z)  # one zero-input step from the states z
    np.testing.assert_allclose(A @ z.reshape(-1), zf.reshape(-1), rtol=1e-13, atol=1e-13)
