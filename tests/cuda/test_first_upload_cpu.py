"""A process's first upload on a host with several GPUs touches only the current device (issue 51:
the first-fft upload was 492 ms on a 2-GPU H100 host against ~216 ms for a whole first fft on one
GPU, so per-device work on the first use was suspected; scripts/perf/first_upload_probe.py times it).

Checked without a GPU, in a fresh process: the driver module reports two devices and records every
call with its arguments; `cuarray.asarray` of a 32 KiB array (the bench's first-fft input) and the
sync must make exactly the driver calls CuPy's first upload makes too (driver init, device 0's
primary context, one device allocation, one pinned staging block, one copy, one sync), and none
names device 1. A per-device loop (contexts, pools, peer access, attribute reads for every GPU)
added to the first use fails here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

_CHILD = textwrap.dedent(r"""
    import ctypes, json
    import numpy
    import cuarray
    from cuarray.cuda import _backend
    from cuda.bindings import driver as real  # the enums are the real module's

    calls = []
    keep = []

    class Driver:
        def __getattr__(self, name):
            value = getattr(real, name)
            if name.startswith("cu") and callable(value) and not isinstance(value, type):
                raise AssertionError("unexpected driver call " + name)
            return value

        def _rec(self, name, args, *out):
            calls.append([name] + [int(a) if isinstance(a, int) else repr(a) for a in args])
            return (0, *out)

        def cuDriverGetVersion(self): return self._rec("cuDriverGetVersion", (), 13000)
        def cuInit(self, flags): return self._rec("cuInit", (flags,))
        def cuDeviceGetCount(self): return self._rec("cuDeviceGetCount", (), 2)
        def cuDeviceGet(self, i): return self._rec("cuDeviceGet", (i,), i)
        def cuDevicePrimaryCtxRetain(self, dev): return self._rec("cuDevicePrimaryCtxRetain", (dev,), 0xC0 + dev)
        def cuCtxSetCurrent(self, ctx): return self._rec("cuCtxSetCurrent", (ctx,))
        def cuMemAlloc(self, size): return self._rec("cuMemAlloc", (size,), 0x7F0000000000)
        def cuMemHostAlloc(self, size, flags):
            buf = ctypes.create_string_buffer(size)
            keep.append(buf)
            return self._rec("cuMemHostAlloc", (size, flags), ctypes.addressof(buf))
        def cuMemcpyAsync(self, dst, src, size, stream):
            return self._rec("cuMemcpyAsync", (size, stream))
        def cuCtxSynchronize(self): return self._rec("cuCtxSynchronize", ())

    _backend.driver = lambda: Driver()  # test only: this process is thrown away
    host = (numpy.arange(4096) + 1j).astype(numpy.complex64)
    d = cuarray.asarray(host)
    cuarray.cuda.Device().synchronize()
    print(json.dumps(calls))
""")


def test_first_upload_touches_only_the_current_device(tmp_path):
    (tmp_path / "a-cached-kernel.cukernel").write_bytes(b"x")  # a warm kernel cache: no cuda.core thread
    env = dict(os.environ, CUARRAY_CACHE_DIR=str(tmp_path))
    env.pop("CUARRAY_PREFETCH_LIBS", None)
    proc = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr
    calls = json.loads(proc.stdout.strip().splitlines()[-1])
    names = [c[0] for c in calls if c[0] != "cuDeviceGetCount"]  # (device-count reads are cheap)
    assert names == ["cuInit", "cuDeviceGet", "cuDevicePrimaryCtxRetain", "cuCtxSetCurrent", "cuMemAlloc",
                     "cuMemHostAlloc", "cuMemcpyAsync", "cuCtxSynchronize"], calls
    assert ["cuDeviceGet", 0] in calls and not any(c[0] == "cuDeviceGet" and c[1] != 0 for c in calls)
    assert ["cuMemHostAlloc", 32768, 1] in calls  # the array's bytes, portable: not a large staging buffer
    assert ["cuMemcpyAsync", 32768, 0] in calls  # one copy, on the legacy default stream
