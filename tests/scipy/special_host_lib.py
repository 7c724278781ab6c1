"""The host build of cuarray/scipy/special/templates (tests/scipy/special_host.cpp, g++) and the
comparison helpers shared by test_special_host_cpu.py and test_special_host_more_cpu.py."""

from __future__ import annotations

import ctypes
import pathlib
import shutil
import subprocess

import numpy as np
import pytest

HERE = pathlib.Path(__file__).parent
TEMPLATES = HERE.parent.parent / "cuarray" / "scipy" / "special" / "templates"
_built = {}


def build(tmp_path_factory):
    """The library, compiled once per process (skips the test without g++)."""
    if "lib" not in _built:
        gxx = shutil.which("g++")
        if gxx is None:
            pytest.skip("no g++ on this machine")
        so = tmp_path_factory.mktemp("csf") / "csf_host.so"
        subprocess.run([gxx, "-O2", "-std=c++17", "-shared", "-fPIC", "-I", str(TEMPLATES),
                        str(HERE / "special_host.cpp"), "-o", str(so)], check=True)
        _built["lib"] = ctypes.CDLL(str(so))
    return _built["lib"]


def call(lib, name, dtype, *args):
    """csf_<name>_d / _f over arrays of `dtype` (one output of the first argument's shape)."""
    fn = getattr(lib, "csf_{}_{}".format(name, "d" if dtype == np.float64 else "f"))
    args = [np.ascontiguousarray(a, dtype=dtype) for a in args]
    out = np.empty_like(args[0])
    ptr = [a.ctypes.data_as(ctypes.c_void_p) for a in args]
    fn(*ptr, out.ctypes.data_as(ctypes.c_void_p), ctypes.c_long(out.size))
    return out


def compare(name, args, got, want, rtol, dtype, mask=None, atol=()):
    """assert_allclose (NaN where SciPy has NaN, infinities of the same sign), naming the
    arguments of the first mismatches."""
    keep = np.ones(got.shape, bool) if mask is None else ~mask
    # Absolute floor: values that underflow to the subnormals, and zeros.
    floor = 1e-300 if dtype == np.float64 else 1e-36
    atol = max(floor, atol[0] if atol else 0.0)
    with np.errstate(all="ignore"):
        bad = keep & ~np.isclose(got, want, rtol=rtol, atol=atol, equal_nan=True)
    where = np.nonzero(bad)[0][:8]
    detail = "; ".join("{}{} = {!r}, SciPy {!r}".format(name, tuple(float(a[i]) for a in args), float(got[i]),
                                                        float(want[i])) for i in where)
    assert not bad.any(), "{} of {} differ: {}".format(int(bad.sum()), int(keep.sum()), detail)


def hyp2f1_want(dtype, a, b, c, x):
    """SciPy's hyp2f1, with SciPy 1.18's value where a = -1 and c != 0 whichever SciPy is installed:
    the polynomial 1 - (b / c) x (xsf#85, scipy gh-4446; |value| < 1e-15 is 0), in double for both
    loops as SciPy's. SciPy 1.17 (Cephes' case structure) returned inf there for c a nonpositive
    integer (hyp2f1(-1, -4.38, -1, -1.0003): inf, the polynomial 5.38) or a wrong value (float32
    hyp2f1(-1, -16.35, -1, 0.331): 0.00139, the polynomial -4.42)."""
    from scipy import special

    with np.errstate(all="ignore"):
        want = special.hyp2f1(a, b, c, x)
        a8, b8, c8, x8 = (np.asarray(v, dtype=np.float64) for v in (a, b, c, x))
        poly = 1 - (b8 / c8) * x8
        poly = np.where(np.abs(poly) < 1e-15, 0.0, poly)
    # x = 0 (1 for any a, b, c) and b = 0 (1 for c != 0) come first in SciPy's cases
    return np.where((a8 == -1) & (c8 != 0) & (x8 != 0) & (b8 != 0), poly.astype(dtype), want)
