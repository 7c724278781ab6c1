"""Where does the first `x + y` of a fresh process spend its time? (run on the GPU machine)

Prints one line per stage with milliseconds since the previous stage. Run it twice with the same
CUARRAY_CACHE_DIR: the first run compiles (empty cache), the second loads from disk.
"""

import time

t0 = last = time.perf_counter()


def stage(name):
    global last
    now = time.perf_counter()
    print("{:<38s} {:8.1f} ms  (total {:7.1f})".format(name, (now - last) * 1e3, (now - t0) * 1e3))
    last = now


import numpy  # noqa: E402

stage("import numpy")
import cuarray as cp  # noqa: E402

stage("import cuarray")
import cuda.bindings.driver  # noqa: E402,F401

stage("import cuda.bindings.driver")
import cuda.core  # noqa: E402,F401

stage("import cuda.core")
cp.cuda.Device(0).use()
stage("context (Device.use)")
x = cp.asarray(numpy.arange(16, dtype=numpy.float32))
y = cp.asarray(numpy.arange(16, dtype=numpy.float32))
stage("two asarray (alloc + H2D)")
from cuarray._core import dtypes  # noqa: E402

dtypes.ufunc_loop_dtypes(numpy.add, (numpy.dtype("f4"), numpy.dtype("f4")))
stage("type resolution")
z = x + y
stage("first x + y (compile or cache load + launch)")
cp.cuda.Stream.null.synchronize()
stage("sync")
z = x + y
cp.cuda.Stream.null.synchronize()
stage("second x + y + sync")
print(z.get()[:4])
