"""The C launch path (cuda/_native/launch.c, module `_launchcore`): cuLaunchKernel from C with
cuda.core's launch as the fallback.

CPU part: the argument packing against cuda.core's own ParamHolder (same bytes per argument), and
the whole `enqueue` against a fake cuLaunchKernel (a ctypes callback): the handles it is given, the
identity caches, the fallbacks, the error path, the switch. GPU part: kernels with every argument kind
give NumPy's values through the C path, a failing launch raises cuda.core's error and leaves the
context usable, graph capture, the launch hook.
"""

from __future__ import annotations

import ctypes
import gc
import os
import subprocess
import sys
import weakref

import numpy as np
import pytest

from cuarray.cuda import _backend
from cuarray.cuda import _driver_objects
from cuarray.cuda import launch

lc = pytest.importorskip("cuarray.cuda._launchcore", reason="the C launch core is not built (no compiler)")

SCALARS = (np.generic, ctypes._SimpleCData)


def _engine_args(rng):
    """Every argument kind the engines and RawKernel pass, random values."""
    i64 = np.iinfo(np.int64)
    return [
        int(rng.integers(0, 2**48)) * 256,            # a device pointer (Python int)
        -int(rng.integers(1, 2**40)),                 # a negative Python int (intptr_t too)
        True, False,                                  # a C bool (1 byte), as cuda.core 1.2
        np.int32(rng.integers(-2**31, 2**31)),
        np.int64(rng.integers(i64.min, i64.max)),
        np.uint32(rng.integers(0, 2**32)),
        np.uint64(rng.integers(0, 2**63)),
        np.int8(rng.integers(-128, 128)), np.uint8(rng.integers(0, 256)),
        np.int16(rng.integers(-2**15, 2**15)), np.uint16(rng.integers(0, 2**16)),
        np.float16(rng.standard_normal()),
        np.float32(rng.standard_normal()),
        np.float64(rng.standard_normal()),            # a float subclass: the double path
        float(rng.standard_normal()),
        np.complex64(complex(*rng.standard_normal(2))),
        np.complex128(complex(*rng.standard_normal(2))),
        complex(*rng.standard_normal(2)),
        np.bool_(rng.integers(0, 2)),
        ctypes.c_int32(int(rng.integers(-2**31, 2**31))), ctypes.c_double(float(rng.standard_normal())),
        ctypes.c_bool(True), ctypes.c_uint16(7),
    ]


def test_packing_matches_cuda_core_param_holder():
    from cuda.core._kernel_arg_handler import ParamHolder

    lc.set_scalar_types(SCALARS)
    rng = np.random.default_rng()
    args = _engine_args(rng)
    rng.shuffle(args)  # alignment after every kind
    packed, offs, sizes = lc.pack(*args)
    holder = ParamHolder(tuple(args))
    addrs = (ctypes.c_void_p * len(args)).from_address(holder.ptr)
    for a, off, size, addr in zip(args, offs, sizes, addrs):
        assert packed[off:off + size] == ctypes.string_at(addr, size), (type(a), a)
        align = size // 2 if isinstance(a, (complex, np.complexfloating)) else size
        assert off % align == 0, (type(a), off)
    # sizes are the C types' own
    want = {np.int32: 4, np.int8: 1, np.float16: 2, np.complex64: 8, np.complex128: 16, int: 8, bool: 1}
    for a, size in zip(args, sizes):
        if type(a) in want:
            assert size == want[type(a)], type(a)


@pytest.mark.parametrize("bad", [
    "text", b"bytes", np.array([1, 2]), np.array(3, np.int32), np.longdouble(1), np.datetime64(1, "s"),
    2**64, ctypes.c_char(b"a"), ctypes.c_void_p(3), object(),
])
def test_packing_leaves_the_rest_to_cuda_core(bad):
    """What cuda.core rejects (TypeError, OverflowError) or treats otherwise is not packed: the call
    goes to cuda.core, which raises its own error."""
    lc.set_scalar_types(SCALARS)
    assert lc.pack(1, np.int32(2)) is not None
    assert lc.pack(1, bad) is None
    assert lc.pack(*range(65)) is None  # more arguments than the stack buffer is for
    assert lc.pack(*range(64)) is not None


# ---- the whole enqueue against a fake cuLaunchKernel ------------------------------------------

LAUNCH_T = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, *[ctypes.c_uint] * 7, ctypes.c_void_p,
                            ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p)


class FakeStream:
    reads = 0

    def __init__(self, h):
        self._h = h

    @property
    def handle(self):
        FakeStream.reads += 1
        return self._h


class FakeConfig:
    reads = 0

    def __init__(self, grid, block, shmem_size=0, cluster=None, is_cooperative=False):
        self._grid, self.block, self.shmem_size = grid, block, shmem_size
        self.cluster, self.is_cooperative, self.programmatic_stream_serialization = cluster, is_cooperative, False

    @property
    def grid(self):
        FakeConfig.reads += 1
        return self._grid


class FakeKernel:
    def __init__(self, h):
        self.handle = h


@pytest.fixture
def fake_driver():
    """_launchcore configured with a recording cuLaunchKernel and the fake types; afterwards the
    launch module re-picks (and re-configures the real driver) on its next launch."""
    rec = {"calls": [], "rc": 0, "sizes": None, "fallback": [], "errors": []}

    def fake(f, gx, gy, gz, bx, by, bz, shmem, stream, params, extra):
        raw = [ctypes.string_at(params[i], n) for i, n in enumerate(rec["sizes"] or ())]
        rec["calls"].append((f, (gx, gy, gz), (bx, by, bz), shmem, stream, raw, extra))
        return rec["rc"]

    def error(status):
        rec["errors"].append(status)
        raise ValueError("CUDA_ERROR_{}".format(status))

    cb = LAUNCH_T(fake)
    lc.clear()
    lc.set_scalar_types(SCALARS)
    lc.configure(ctypes.cast(cb, ctypes.c_void_p).value, lambda *a: rec["fallback"].append(a), error,
                 FakeStream, FakeConfig, FakeKernel)
    yield rec
    lc.clear()
    launch._raw = None
    launch._native = None
    launch.reset()


def test_enqueue_calls_cuLaunchKernel_with_the_handles_and_values(fake_driver):
    s, cfg, k = FakeStream(0x1), FakeConfig((5, 2, 1), (128, 1, 1), 64), FakeKernel(0xBEEF0)
    fake_driver["sizes"] = (8, 4, 8)
    assert lc.enqueue(s, cfg, k, 0x7000, np.int32(-3), 2.5) is None
    ((f, grid, block, shmem, stream, raw, extra),) = fake_driver["calls"]
    assert (f, grid, block, shmem, stream, extra) == (0xBEEF0, (5, 2, 1), (128, 1, 1), 64, 0x1, None)
    assert raw == [(0x7000).to_bytes(8, "little"), np.int32(-3).tobytes(), np.float64(2.5).tobytes()]
    assert fake_driver["fallback"] == []
    # an int grid/block (older cuda.core kept them as given)
    lc.enqueue(s, FakeConfig(3, 256), k, 1, 2, 3)
    assert fake_driver["calls"][-1][1:3] == ((3, 1, 1), (256, 1, 1))


def test_steady_state_reads_no_attributes_and_cache_keeps_objects_alive(fake_driver):
    s, cfg, k = FakeStream(0x10), FakeConfig((1, 1, 1), (32, 1, 1)), FakeKernel(0x20)
    FakeStream.reads = FakeConfig.reads = 0
    for _ in range(5):
        lc.enqueue(s, cfg, k, 1)
    assert FakeStream.reads == 1 and FakeConfig.reads == 1 and len(fake_driver["calls"]) == 5
    # Entries hold references: an object cannot die (and its address be reused) while cached.
    ws = weakref.ref(s)
    del s
    gc.collect()
    assert ws() is not None
    lc.clear()
    gc.collect()
    assert ws() is None
    # Many distinct objects (slot collisions, evictions) still get their own handles.
    objs = [(FakeStream(i + 1), FakeKernel(1000 + i)) for i in range(300)]
    fake_driver["calls"].clear()
    for st, ke in objs:
        lc.enqueue(st, cfg, ke)
    assert [(c[0], c[4]) for c in fake_driver["calls"]] == [(1000 + i, i + 1) for i in range(300)]


def test_what_cuLaunchKernel_cannot_express_goes_to_cuda_core(fake_driver):
    s, k = FakeStream(1), FakeKernel(2)
    plain = FakeConfig((1, 1, 1), (32, 1, 1))

    class SubStream(FakeStream):  # not the exact type: could be anything
        pass

    cases = [
        (s, FakeConfig((1, 1, 1), (32, 1, 1), is_cooperative=True), k, 1),
        (s, FakeConfig((1, 1, 1), (32, 1, 1), cluster=(2, 1, 1)), k, 1),
        (SubStream(1), plain, k, 1),
        ("a GraphBuilder", plain, k, 1),
        (s, {"grid": 1, "block": 32}, k, 1),
        (s, plain, "not a kernel", 1),
        (s, plain, k, "an unsupported argument"),
        (s, plain, k, np.array([1.0])),
    ]
    for c in cases:
        lc.enqueue(*c)
    assert fake_driver["calls"] == []
    assert fake_driver["fallback"] == [c for c in cases]
    lc.enqueue(s, FakeConfig((1, 1, 1), (32, 1, 1), is_cooperative=True), k)  # cached: still falls back
    assert len(fake_driver["fallback"]) == len(cases) + 1 and fake_driver["calls"] == []


def test_a_failed_launch_raises_the_error_functions_exception(fake_driver):
    fake_driver["rc"] = 1  # CUDA_ERROR_INVALID_VALUE
    with pytest.raises(ValueError, match="CUDA_ERROR_1"):
        lc.enqueue(FakeStream(1), FakeConfig((1, 1, 1), (4096, 1, 1)), FakeKernel(2), 5)
    assert fake_driver["errors"] == [1]
    fake_driver["rc"] = 0
    lc.enqueue(FakeStream(1), FakeConfig((1, 1, 1), (32, 1, 1)), FakeKernel(2), 5)
    assert len(fake_driver["calls"]) == 2


def test_graph_launch_calls_cuGraphLaunch_with_the_handles_and_returns_its_status():
    calls, rc = [], [0]

    @ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)
    def fake(exec_, stream):
        calls.append((exec_, stream))
        return rc[0]

    lc.configure_graph_launch(ctypes.cast(fake, ctypes.c_void_p).value)
    try:
        assert lc.graph_launch(0x1000, 0x2000) == 0
        rc[0] = 400  # CUDA_ERROR_INVALID_HANDLE: returned, not raised (graph.py raises it)
        assert lc.graph_launch(0x1001, 2) == 400
        assert calls == [(0x1000, 0x2000), (0x1001, 2)]
        with pytest.raises(TypeError):
            lc.graph_launch(1)
    finally:
        lc.configure_graph_launch(0)
        launch._graph_launch = None  # (configured again from the driver where there is one)
        launch.graph_launcher()
    if not launch.graph_launcher():
        with pytest.raises(TypeError, match="configure_graph_launch"):
            lc.graph_launch(1, 2)


# ---- the choice in launch.py ----------------------------------------------------------------

class _FakeCore:
    launch = staticmethod(lambda *a: None)
    Stream, LaunchConfig, Kernel = FakeStream, FakeConfig, FakeKernel


def _fake_drv(ptr):
    class Flags:
        CU_GET_PROC_ADDRESS_DEFAULT = 0

    class Drv:
        CUdriverProcAddress_flags = Flags

        @staticmethod
        def cuGetProcAddress(name, version, flags):
            assert name == b"cuLaunchKernel" and version >= 12000
            return 0, ptr, 0

    return Drv


def test_pick_prefers_the_c_path_and_the_switch_forces_cuda_core(fake_driver, monkeypatch):
    monkeypatch.setattr(_backend, "core", lambda: _FakeCore)
    monkeypatch.setattr(_backend, "ensure_initialized", lambda: None)
    monkeypatch.setattr(_backend, "driver", lambda: _fake_drv(0x1234))
    monkeypatch.delenv("CUARRAY_PURE_PYTHON_LAUNCH", raising=False)
    assert launch._pick() is lc.enqueue
    monkeypatch.setenv("CUARRAY_PURE_PYTHON_LAUNCH", "1")
    assert launch._pick().__wrapped__ is _driver_objects.core_launch  # cuda.core's launch, given its own objects
    monkeypatch.setenv("CUARRAY_PURE_PYTHON_LAUNCH", "0")
    assert launch._pick() is lc.enqueue
    # no driver pointer (cuGetProcAddress failed, no driver): cuda.core's launch
    monkeypatch.setattr(_backend, "driver", lambda: _fake_drv(0))
    assert launch._pick().__wrapped__ is _driver_objects.core_launch


def test_hook_receives_the_c_launch(fake_driver, monkeypatch):
    monkeypatch.setattr(launch, "_raw", lc.enqueue)
    monkeypatch.setattr(launch, "_native", lc.enqueue)
    seen = []
    prev = launch.set_launch_hook(lambda real, *a: (seen.append(real), real(a[0], a[1], a[2], *a[3])))
    try:
        fake_driver["sizes"] = (8,)
        launch.enqueue(FakeStream(1), FakeConfig((1, 1, 1), (32, 1, 1)), FakeKernel(2), 9)
    finally:
        launch.set_launch_hook(prev)
    assert seen == [lc.enqueue] and len(fake_driver["calls"]) == 1
    assert launch.implementation() == "native"


def test_import_cuarray_imports_no_cuda_core():
    code = ("import sys, cuarray; bad = [m for m in sys.modules if m.startswith(('cuda.core', 'cuda.bindings'))"
            " or m.endswith('_launchcore')]; assert not bad, bad")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    subprocess.run([sys.executable, "-c", code], check=True, env=env, timeout=120)


# ---- GPU ------------------------------------------------------------------------------------

MIX = r"""
struct cf { float re, im; };
struct cd { double re, im; };
extern "C" __global__ void mix(double* out, const float* x, int a32, long long a64, float f, double d,
                               cf c8, cd c16, bool b, unsigned short h, signed char i8, unsigned long long u64,
                               long long py) {
    if (threadIdx.x != 0) return;
    out[0] = a32; out[1] = (double)a64; out[2] = f; out[3] = d; out[4] = c8.re; out[5] = c8.im;
    out[6] = c16.re; out[7] = c16.im; out[8] = b; out[9] = h; out[10] = i8; out[11] = (double)u64;
    out[12] = x[0]; out[13] = (double)py;
}
"""


@pytest.mark.gpu
@pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason()))
def test_gpu_every_argument_kind_through_the_c_path():
    import cuarray
    from cuarray.cuda.raw import RawKernel

    assert launch.implementation() == "native", "the C launch path is not active"
    rng = np.random.default_rng()
    x = rng.standard_normal(4).astype(np.float32)
    vals = [np.int32(rng.integers(-2**31, 2**31)), np.int64(rng.integers(-2**53, 2**53)),
            np.float32(rng.standard_normal()), np.float64(rng.standard_normal()),
            np.complex64(complex(*rng.standard_normal(2))), np.complex128(complex(*rng.standard_normal(2))),
            np.bool_(True), np.float16(rng.standard_normal()), np.int8(rng.integers(-128, 128)),
            np.uint64(rng.integers(0, 2**53)), int(rng.integers(-2**53, 2**53))]
    out, dx = cuarray.zeros(14, np.float64), cuarray.asarray(x)
    # f16 goes as its bits to an unsigned short parameter (same 2 bytes as __half). A spy fallback
    # proves the launch did not go to cuda.core; the next launch re-picks the real configuration.
    spy = []
    lc.configure(launch._cu_launch_kernel_ptr(), lambda *a: (spy.append(a), _driver_objects.core_launch(*a)),
                 launch._launch_error, _driver_objects.Stream, _driver_objects.LaunchConfig, _driver_objects.Kernel)
    try:
        RawKernel(MIX, "mix")((1,), (32,), (out, dx, *vals))
        got = out.get()
    finally:
        launch._raw = None
        launch.reset()
    assert spy == [], "the launch went to cuda.core"
    want = [float(vals[0]), float(vals[1]), float(vals[2]), float(vals[3]), vals[4].real, vals[4].imag,
            vals[5].real, vals[5].imag, 1.0, float(vals[7].view(np.uint16)), float(vals[8]), float(vals[9]),
            float(x[0]), float(vals[10])]
    np.testing.assert_array_equal(got, np.array(want, np.float64))


@pytest.mark.gpu
@pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason()))
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.int32, np.int64, np.bool_])
def test_gpu_elementwise_through_the_c_path(dtype):
    import cuarray

    assert launch.implementation() == "native"
    rng = np.random.default_rng()
    a = (rng.standard_normal(1000) * 100).astype(dtype)
    b = (rng.standard_normal(1000) * 100).astype(dtype)
    da, db = cuarray.asarray(a), cuarray.asarray(b)
    np.testing.assert_array_equal((da + db).get(), a + b)
    np.testing.assert_array_equal((da * 3).get(), a * 3)
    np.testing.assert_allclose(cuarray.sum(da).get(), np.sum(a), rtol=1e-5)


@pytest.mark.gpu
@pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason()))
def test_gpu_failed_launch_raises_cuda_cores_error_and_the_context_lives_on():
    import cuarray
    from cuarray.cuda.raw import RawKernel

    assert launch.implementation() == "native"
    k = RawKernel(r'extern "C" __global__ void nop(int* x) { }', "nop")
    x = cuarray.zeros(4, np.int32)
    errors = []
    for raw in (launch._native, _driver_objects.core_launch):  # ours in C, cuda.core's
        launch._raw = raw
        launch._install()
        try:
            with pytest.raises(Exception) as info:
                k((1,), (4096,), (x,))  # more threads per block than any GPU allows
            errors.append(info.value)
        finally:
            launch._raw = None
            launch.reset()
    assert type(errors[0]) is type(errors[1]) and str(errors[0]) == str(errors[1])
    assert "CUDA_ERROR_INVALID_VALUE" in str(errors[0])
    a = np.random.default_rng().standard_normal(100).astype(np.float32)
    np.testing.assert_array_equal((cuarray.asarray(a) * 2).get(), a * 2)


@pytest.mark.gpu
@pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason()))
def test_gpu_graph_capture_and_replay_through_the_c_path():
    import cuarray as cp

    assert launch.implementation() == "native"
    rng = np.random.default_rng()
    x = rng.standard_normal(256).astype(np.float32)
    dx = cp.asarray(x)
    out = cp.empty_like(dx)

    def step():
        cp.multiply(dx, 2.0, out=out)
        cp.add(out, dx, out=out)

    step()
    g = cp.cuda.CUDAGraph()
    with cp.cuda.graph(g):
        step()
    x2 = rng.standard_normal(256).astype(np.float32)
    dx[...] = cp.asarray(x2)
    g.replay()
    np.testing.assert_allclose(out.get(), x2 * 2 + x2, rtol=1e-6)
    g.reset()


@pytest.mark.gpu
@pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason()))
def test_gpu_hook_sees_the_c_launches():
    import cuarray

    assert launch.implementation() == "native"
    seen = []

    def hook(real, s, c, k, args):
        seen.append(real)
        real(s, c, k, *args)

    a = cuarray.asarray(np.arange(16, dtype=np.float32))
    prev = launch.set_launch_hook(hook)
    try:
        r = a + a
    finally:
        launch.set_launch_hook(prev)
    assert seen == [launch._native]
    np.testing.assert_array_equal(r.get(), np.arange(16, dtype=np.float32) * 2)
