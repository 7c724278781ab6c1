"""airy, airye (templates/airy.cuh) and the complex loops of the spherical Bessel functions
(templates/csph_bessel.cuh) on the GPU against scipy.special with fresh random points: real and
complex, float32/complex64, the method boundaries, the edges (0, +-inf, NaN), large |z| and the
negative real axis; four outputs with out= tuples, SciPy's dtypes and its dispatch to them.

NVRTC compiles each of these kernels in 10-20 s at its first call (each holds AMOS): 14 kernels."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

special = pytest.importorskip("scipy.special")

import cuarray  # noqa: E402
from cuarray.scipy import special as cs  # noqa: E402
from special_host_lib import airy_points, sph_points, sph_want  # noqa: E402  (tests/scipy, beside this file)


def _rng(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def _size(f, z, want):
    """|value|, or near a zero the size of the function's values at z (1 -+ 3e-3): the GPU's libm
    (exp, sin, cos, sqrt within an ulp or two of glibc's) and its fused multiply-adds move a value
    by an ulp of the terms that cancel to it, not of the value."""
    s = np.abs(want)
    with np.errstate(all="ignore"):
        for fac in (1 - 3e-3, 1 + 3e-3):
            n = np.abs(f(z * fac))
            s = np.fmax(s, np.where(np.isfinite(n), n, 0))
    return s


def _finite(a):
    return np.where(np.isfinite(a), a, 0.0)


def _ok(got, want, size, rtol, floor):
    """Each part within rtol size + floor; non-finite parts equal (a NaN part matches a NaN part)."""
    got, want = got.astype(np.complex128), want.astype(np.complex128)
    with np.errstate(all="ignore"):
        nan = (np.isnan(got.real) | np.isnan(got.imag)) & (np.isnan(want.real) | np.isnan(want.imag))
        ok = np.ones(got.shape, bool)
        for g, w in ((got.real, want.real), (got.imag, want.imag)):
            near = np.abs(g - w) <= rtol * np.where(np.isfinite(size), size, 0) + floor
            ok &= np.where(np.isfinite(w), near, g == w)
    return ok | nan


AIRY_CASES = [("airy", np.float64), ("airy", np.float32), ("airy", np.complex128), ("airy", np.complex64),
              ("airye", np.float64), ("airye", np.complex128)]


@pytest.mark.parametrize("name,dtype", AIRY_CASES, ids=["{}-{}".format(n, np.dtype(d).name) for n, d in AIRY_CASES])
def test_airy_against_scipy(name, dtype):
    """Each of the four outputs: double within 1e-12 of the size of SciPy's values (Cephes within
    [-10, 10], AMOS beyond: the same operations, the GPU's libm), plus the rounding of the phase
    2/3 |z|^(3/2) where they oscillate (4e-16 of it, relative to their size); float32/complex64
    (computed in double, rounded once, as SciPy's) within 2e-6."""
    cplx = np.dtype(dtype).kind == "c"
    z = airy_points(_rng("airy gpu", name, dtype), cplx)
    if dtype == np.complex64:
        with np.errstate(all="ignore"):
            z = np.where(np.abs(z) > 1e30, z / 1e290, z)
    z = z.astype(dtype)
    with np.errstate(all="ignore"):
        want = getattr(special, name)(z)
    got = getattr(cs, name)(cuarray.asarray(z))
    assert isinstance(got, tuple) and len(got) == 4
    double = dtype in (np.float64, np.complex128)
    rtol, floor = (1e-12, 1e-300) if double else (2e-6, 1e-37)
    zw = z.astype(np.complex128 if cplx else np.float64)
    with np.errstate(all="ignore"):
        phase = 4e-16 * _finite(np.abs(zw)) ** 1.5 if double else 0.0
    for k, label in enumerate(("Ai", "Ai'", "Bi", "Bi'")):
        assert got[k].dtype == want[k].dtype
        g = got[k].get()

        def f(w, k=k):
            return getattr(special, name)(w.astype(dtype))[k]

        size = _size(f, zw, want[k])
        ok = _ok(g, want[k], size, rtol + phase, floor)
        bad = np.nonzero(~ok)[0]
        detail = "; ".join("{}({!r}) = {!r}, SciPy {!r}".format(name, complex(z[i]), complex(g[i]), complex(want[k][i]))
                           for i in bad[:6])
        assert len(bad) == 0, "{} {}: {} of {} differ: {}".format(name, label, len(bad), len(z), detail)


def test_airy_out_tuple_dtypes_and_dispatch():
    """out= a tuple of four arrays (written in place, returned) with a strided 2-D operand;
    scipy.special.airye of a device array reaching cuarray's (SciPy's dtypes: test_special_dtypes_cpu)."""
    rng = _rng("airy out")
    x = rng.uniform(-15, 15, (40, 64))
    gx = cuarray.asarray(x)
    outs = tuple(cuarray.empty((40, 32)) for _ in range(4))
    res = cs.airy(gx[:, ::2], out=outs)
    assert all(r is o for r, o in zip(res, outs))
    want = special.airy(x[:, ::2])
    for o, w in zip(outs, want):
        np.testing.assert_allclose(o.get(), w, rtol=1e-12, atol=1e-13)
    got = special.airye(gx)  # dispatch through __array_ufunc__
    assert all(isinstance(g, cuarray.ndarray) for g in got)
    for g, w in zip(got, special.airye(x)):
        np.testing.assert_allclose(g.get(), w, rtol=1e-12, atol=1e-14, equal_nan=True)


SPH_CASES = [(k, False, np.complex128) for k in ("jn", "yn", "in", "kn")] + \
    [("jn", True, np.complex128), ("kn", True, np.complex128), ("yn", False, np.complex64)]


@pytest.mark.parametrize("kind,derivative,dtype", SPH_CASES,
                         ids=["{}{}-{}".format(k, "-d" if d else "", np.dtype(t).name) for k, d, t in SPH_CASES])
def test_complex_spherical_against_scipy(kind, derivative, dtype):
    """The public function with complex z (SciPy 1.18's complex loops: xsf's formulas over AMOS, the
    reflection on the negative real axis, where the reference is SciPy's real loop, the same in
    1.17 and 1.18): within 1e-12 (complex128) or 2e-6 (complex64: computed in complex128, rounded
    once; the reference is SciPy's complex128 value rounded) of the size of the values about z,
    plus the rounding of the phase z (4e-16 |z|). k_n's overflow on the negative axis: ours +-inf,
    SciPy 1.18's NaN (docs/scipy.md)."""
    n, z = sph_points(_rng("sph gpu", kind, derivative, dtype))
    z = z.astype(dtype)
    want, axis = sph_want(kind, derivative, n, z, dtype)
    fn = getattr(cs, "spherical_" + kind)
    got = fn(cuarray.asarray(n), cuarray.asarray(z), derivative=derivative)
    assert got.dtype == want.dtype == dtype
    got = got.get()
    c128 = dtype == np.complex128
    z128 = z.astype(np.complex128)

    def f(w):
        return sph_want(kind, derivative, n, w, np.complex128)[0]

    size = _size(f, z128, want)
    rtol = (1e-12 + 4e-16 * _finite(np.abs(z128))) if c128 else 2e-6
    ok = _ok(got, want, size, rtol, 1e-300 if c128 else 1e-37)
    if kind == "kn":
        ok |= axis & ~np.isfinite(got.real)
    bad = np.nonzero(~ok)[0]
    detail = "; ".join("spherical_{}({}, {!r}) = {!r}, SciPy {!r}".format(
        kind, int(n[i]), complex(z[i]), complex(got[i]), complex(want[i])) for i in bad[:6])
    assert len(bad) == 0, "{} of {} differ: {}".format(len(bad), len(z), detail)


def test_complex_spherical_negative_real_axis_reflects():
    """j_n(-x + 0i) = (-1)^n j_n(x), exactly real, at both signs of the zero (SciPy 1.17's complex64
    loop had the opposite sign at -x - 0i), for a 2-D z."""
    rng = _rng("sph axis")
    x = rng.uniform(0.5, 30, (8, 50))
    z = np.where(rng.random(x.shape) < 0.5, -x + 0j, np.array([complex(0, -0.0)]) - x)
    n = np.full(x.shape, 5, dtype=np.int64)
    got = cs.spherical_jn(cuarray.asarray(n), cuarray.asarray(z)).get()
    assert np.all(got.imag == 0)
    np.testing.assert_allclose(got.real, -special.spherical_jn(5, x), rtol=1e-11, atol=1e-15)
