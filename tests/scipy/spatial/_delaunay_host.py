"""The GPU 2-D Delaunay (cuarray/scipy/spatial/_delaunay_gpu.py) run on the CPU: templates/delaunay.cu
built for the host with g++ (each kernel one function whose loop covers every index) and driven by
the module's own `triangulate` over NumPy arrays. Used by the core's CPU tests and, as the host
shim's `delaunay_2d`, by the CPU tests of `Delaunay` itself (tests/scipy/spatial/_host_shim.py)."""

from __future__ import annotations

import ctypes
import functools
import pathlib
import shutil

import numpy as np

from cuarray.scipy.spatial import _delaunay_gpu as dg
from cuarray.scipy.spatial import _delaunay_plan as dp
import host_build  # tests/ is on sys.path

PKG = pathlib.Path(__file__).resolve().parents[3] / "cuarray"
TEMPLATES = PKG / "scipy" / "spatial" / "templates"
_CTYPES = {"int": ctypes.c_int, "long long": ctypes.c_longlong, "double": ctypes.c_double,
           "unsigned long long": ctypes.c_ulonglong}


@functools.cache
def host_library():
    """The host build of delaunay.cu (ctypes), made once a process; None without g++."""
    if shutil.which("g++") is None:
        return None
    # (tests/host_build.py: its directory goes once the library is loaded; one was left in /tmp by
    # every test process before, 43 of them on one machine by a day's runs)
    return host_build.library(["-O2", "-std=c++17", "-ffp-contract=off", "-shared", "-fPIC", "-x", "c++",
                               "-I", TEMPLATES, "-I", PKG / "_core" / "templates", TEMPLATES / "delaunay.cu"])


class HostRunner:
    """`triangulate`'s runner over NumPy arrays and the host build: a launch calls the kernel's
    function once (its loop covers every index), arguments converted by the family's declaration."""

    def __init__(self, lib, n, order=0):
        self.lib, self.plan = lib, dp.plan_delaunay(n, sm_count=1)
        lib.cuarray_delaunay_host_set_order(order)

    def array(self, buf):
        return np.empty(buf.count, buf.dtype) if buf.fill is None else np.full(buf.count, buf.fill, buf.dtype)

    def scan(self, a, count):
        return np.cumsum(a[:count], dtype=np.int32)

    def read(self, a, start=0, stop=None):
        return np.array(a[start:stop])

    def argmin(self, v):
        return int(np.argmin(v))

    def argmax(self, v):
        return int(np.argmax(v))

    def launch(self, name, count, *args):
        params = dg.DELAUNAY.decls[name][1]
        assert len(params) == len(args), name
        # what DeviceRunner hands Kernel.launch (arrays as addresses) packs by the declaration
        dg.DELAUNAY.packer(name).pack(tuple(a.ctypes.data if isinstance(a, np.ndarray) else a for a in args))
        conv = []
        for p, a in zip(params, args):
            if p.pointer:
                assert a.flags.c_contiguous and a.dtype.itemsize == (8 if "double" in p.base or "long" in p.base
                                                                     else 4), (name, p.name)
                conv.append(ctypes.c_void_p(a.ctypes.data))
            else:
                conv.append(_CTYPES[p.base](a))
        getattr(self.lib, name)(*conv)


def run(lib, pts, order=0):
    """(simplices, neighbors) of `pts` by the host build, or None where Qhull must answer."""
    xy = np.ascontiguousarray(pts, dtype=np.float64)
    return dg.triangulate(xy, HostRunner(lib, len(xy), order))


def delaunay_2d(points):
    """`_delaunay_gpu.delaunay_2d` on the host shim: the same eligibility, the host build's answer
    (None without g++: every set then goes to Qhull, as before the GPU path)."""
    lib = host_library()
    if lib is None or points.ndim != 2 or points.shape[1] != 2 or not 3 <= points.shape[0] <= dp.MAX_POINTS:
        return None
    return run(lib, np.asarray(points))
