"""The first-use path needs cuda.bindings' driver module alone (issue 51): the primary context,
the current device's properties, the default stream, a kernel loaded from a cubin and its launch
through the C launcher, and user-created streams import neither cuda.core nor nvmath's heavy
packages.

Checked without a GPU, in a fresh process: the driver module is the real one with the calls this
path makes recorded and answered (a ctypes function stands in for cuLaunchKernel, as in
test_launch_native.py), and `_backend.core` fails the run if anything asks for cuda.core.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

_CHILD = textwrap.dedent(r"""
    import ctypes, json, sys
    import numpy
    import cuarray
    from cuarray.cuda import _backend, _driver_objects, compiler, device, launch, module, stream

    try:
        from cuarray.cuda import _launchcore  # noqa: F401
    except ImportError:
        print(json.dumps({"skip": "the C launcher (_launchcore) is not built"}))
        sys.exit(0)

    calls = []
    made_streams = {}  # handle -> (flags, priority) as created
    from cuda.bindings import driver as real  # the enums and types are the real module's

    LAUNCH_T = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, *[ctypes.c_uint] * 7, ctypes.c_void_p,
                                ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p)
    launched = []

    def fake_launch(f, gx, gy, gz, bx, by, bz, shmem, s, params, extra):
        launched.append((f, (gx, gy, gz), (bx, by, bz), shmem, s or 0,
                         ctypes.string_at(params[0], 4) if params else b""))
        return 0

    cb = LAUNCH_T(fake_launch)

    class Driver:
        # Each call this path makes, recorded and answered as the driver would.
        def __getattr__(self, name):
            value = getattr(real, name)
            if name.startswith("cu") and callable(value):
                raise AssertionError("unexpected driver call " + name)
            return value

        def _rec(self, name, *out):
            calls.append(name)
            return (0, *out)

        def cuInit(self, flags): return self._rec("cuInit")
        def cuDriverGetVersion(self): return self._rec("cuDriverGetVersion", 13000)
        def cuDeviceGetCount(self): return self._rec("cuDeviceGetCount", 1)
        def cuDeviceGet(self, i): return self._rec("cuDeviceGet", i)
        def cuDevicePrimaryCtxRetain(self, dev): return self._rec("cuDevicePrimaryCtxRetain", 0xC0)
        def cuCtxSetCurrent(self, ctx): return self._rec("cuCtxSetCurrent")
        def cuDeviceGetAttribute(self, attr, dev):
            return self._rec("cuDeviceGetAttribute", {"CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT": 132,
                                                      "CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR": 9,
                                                      "CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR": 0}[attr.name])
        def cuLibraryLoadData(self, code, *opts):
            assert code == CUBIN and opts == ([], [], 0, [], [], 0)
            return self._rec("cuLibraryLoadData", 0x11B)
        def cuLibraryGetKernel(self, lib, name):
            assert (lib, name) == (0x11B, b"_Z3addIfEvPT_"), (lib, name)
            return self._rec("cuLibraryGetKernel", 0xCE4)
        def cuLibraryUnload(self, lib): return self._rec("cuLibraryUnload")
        def cuKernelGetFunction(self, k): return self._rec("cuKernelGetFunction", 0xF0)
        def cuOccupancyMaxActiveBlocksPerMultiprocessor(self, f, threads, shmem):
            return self._rec("cuOccupancyMaxActiveBlocksPerMultiprocessor", 8)
        def cuGetProcAddress(self, name, version, flags):
            assert name == b"cuLaunchKernel"
            return self._rec("cuGetProcAddress", ctypes.cast(cb, ctypes.c_void_p).value, 0)
        def cuCtxSynchronize(self): return self._rec("cuCtxSynchronize")
        def cuCtxGetStreamPriorityRange(self): return self._rec("cuCtxGetStreamPriorityRange", 0, -5)
        def cuStreamCreateWithPriority(self, flags, priority):
            calls.append(["cuStreamCreateWithPriority", flags, priority])
            made_streams[0x5E00 + len(calls)] = (flags, priority)
            return (0, 0x5E00 + len(calls))
        def cuStreamDestroy(self, h): calls.append(["cuStreamDestroy", int(h)]); return (0,)
        def cuStreamGetFlags(self, h): return self._rec("cuStreamGetFlags", made_streams[h][0])
        def cuStreamGetPriority(self, h): return self._rec("cuStreamGetPriority", made_streams[h][1])
        def cuKernelGetParamInfo(self, k, i):  # one 4-byte parameter (`int`)
            calls.append("cuKernelGetParamInfo")
            return (0, 0, 4) if i == 0 else (real.CUresult.CUDA_ERROR_INVALID_VALUE, None, None)

    asked = []

    def no_core():  # (raises in the caller; a thread's import swallows it, so it is counted too)
        asked.append(1)
        raise AssertionError("cuda.core was asked for on the first-use path")

    CUBIN = b"\x7fELF a cubin from the disk cache"
    _backend.driver = lambda: Driver()   # test only: this process is thrown away
    _backend.core = no_core
    out = {}
    ctx = device._core_device()          # cuInit, the primary context, current in this thread
    out["cc"] = cuarray.cuda.Device().compute_capability
    out["arch"] = cuarray.cuda.Device().arch
    out["sms"] = device._sm_count(0)
    key = compiler._cache_key("extern \"C\" __global__ void k() {}", (), (), "sm_90")  # toolchain id
    mod = module.Module(CUBIN, {"add<float>": b"_Z3addIfEvPT_"}, name="add")
    fn = mod.get_function("add<float>")
    out["blocks_per_sm"] = launch.blocks_per_sm(fn.kernel, 256)
    out["param_sizes"] = module._param_sizes(fn.kernel)  # RawKernel's argument check
    cs = stream.current_core_stream()
    out["stream"] = [type(cs).__name__, cs.handle]
    launch.launch(fn.kernel, 4, 128, (numpy.int32(7),))
    launch.launch(fn.kernel, (2, 3), (32, 4), (numpy.int32(9),), 64)
    cuarray.cuda.Device().synchronize()
    # user-created streams (the streams-workspace bench row makes 16): made and destroyed through
    # the driver, a launch on one through the C launcher, no cuda.core (its import was 100-200 ms)
    made = [stream.Stream(non_blocking=True), stream.Stream(), stream.Stream(priority=-2)]
    out["user_streams"] = [[type(s._cs).__name__, s.ptr, s._cs.handle] for s in made]
    out["properties"] = [[s.is_non_blocking, s.priority] for s in made + [stream.Stream.null, stream.Stream.ptds]]
    with made[0]:
        launch.launch(fn.kernel, 1, 32, (numpy.int32(5),))
    try:
        stream.Stream(priority=-6)
    except ValueError as exc:
        out["bad_priority"] = str(exc)
    del made
    _launchcore.clear()  # (the C launcher keeps the streams it launched on in its identity cache)
    import gc
    gc.collect()
    out["implementation"] = launch.implementation()
    out["launched"] = [[f, list(g), list(b), sm, s, list(p)] for f, g, b, sm, s, p in launched]
    out["calls"] = calls
    out["core_asked"] = len(asked)
    # the math libraries' bindings of the first calls (matmul, solve, fft, spmv) through the lite
    # loader, where nvmath-python is installed
    from cuarray.cuda.libs import _handles
    out["nvmath"] = {}
    for name in ("cublasLt", "cublas", "cusolverDn", "cufft", "cusparse"):
        try:
            _handles.nvmath_bindings(name)
            out["nvmath"][name] = "loaded"
        except Exception as exc:
            out["nvmath"][name] = type(exc).__name__
    out["modules"] = sorted(m for m in sys.modules if m == "cuda.core" or m.startswith("cuda.core.")
                            or m in ("nvmath", "nvmath.fft", "nvmath.linalg", "nvmath.sparse", "nvmath.tensor",
                                     "nvmath.memory"))
    print(json.dumps(out))
""")


def _run(cache_dir) -> dict:
    env = dict(os.environ, CUARRAY_CACHE_DIR=str(cache_dir))
    proc = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    if "skip" in out:
        pytest.skip(out["skip"])
    return out


def test_first_use_path_imports_no_cuda_core_and_no_nvmath_packages(tmp_path):
    (tmp_path / "a-cached-kernel.cubin").write_bytes(b"x")  # a warm kernel cache
    out = _run(tmp_path)
    assert out["core_asked"] == 0 and out["modules"] == [], "imported on the first-use path: {}".format(out)
    assert out["cc"] == "90" and out["arch"] == "sm_90" and out["sms"] == 132
    assert out["blocks_per_sm"] == 8 and out["param_sizes"] == [4]
    assert out["stream"] == ["Stream", 1]  # CU_STREAM_LEGACY: the legacy default stream
    assert out["implementation"] == "native"
    # the kernel handle, grid, block, shared memory and stream reached cuLaunchKernel, and the value
    assert out["launched"][:2] == [[0xCE4, [4, 1, 1], [128, 1, 1], 0, 1, list((7).to_bytes(4, "little"))],
                                   [0xCE4, [2, 3, 1], [32, 4, 1], 64, 1, list((9).to_bytes(4, "little"))]]
    calls = out["calls"]
    # user streams: CU_STREAM_NON_BLOCKING (1) or CU_STREAM_DEFAULT (0), the least priority (0) unless
    # given, one range query; each destroyed when dropped; a launch within `with s:` goes to s
    created = [c for c in calls if isinstance(c, list) and c[0] == "cuStreamCreateWithPriority"]
    assert [c[1:] for c in created] == [[1, 0], [0, 0], [0, -2]]
    handles = [h for _, h, _ in out["user_streams"]]
    assert out["user_streams"] == [["Stream", h, h] for h in handles] and len(set(handles)) == 3
    assert sorted(c[1] for c in calls if isinstance(c, list) and c[0] == "cuStreamDestroy") == sorted(handles)
    assert calls.count("cuCtxGetStreamPriorityRange") == 1
    assert out["properties"] == [[True, 0], [False, 0], [False, -2], [False, 0], [False, 0]]
    assert "out of the device's range [-5, 0]" in out["bad_priority"]
    assert out["launched"][2] == [0xCE4, [1, 1, 1], [32, 1, 1], 0, handles[0], list((5).to_bytes(4, "little"))]
    assert calls.count("cuInit") == 1 and calls.count("cuDevicePrimaryCtxRetain") == 1
    assert calls.count("cuLibraryLoadData") == 1 and calls.count("cuLibraryGetKernel") == 1
    assert calls.count("cuCtxSetCurrent") == 1  # once per thread, not per launch


def test_an_empty_kernel_cache_imports_cuda_core_during_the_first_use(tmp_path):
    """Nothing cached: the first kernel will be compiled (NVRTC through cuda.core's Program), so the
    first use imports cuda.core in a thread while the driver makes the context, once; the launch path
    itself still needs none."""
    out = _run(tmp_path / "empty")
    assert out["core_asked"] == 1
    assert out["implementation"] == "native" and len(out["launched"]) == 3
    calls = out["calls"]
    assert calls.count("cuDevicePrimaryCtxRetain") == 1 and calls.count("cuDriverGetVersion") == 1
