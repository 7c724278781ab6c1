"""airy and airye (templates/airy.cuh: Cephes' airy within [-10, 10] and AMOS beyond, for real x;
AMOS for airye and complex z) and the complex loops of the spherical Bessel functions
(templates/csph_bessel.cuh: xsf's formulas over AMOS), compiled for the host with g++ (no GPU),
against scipy.special: real, complex, float32/complex64, the edges (0, +-0, +-inf, NaN, the
method boundaries), large |z| and the negative real axis."""

from __future__ import annotations

import ctypes
import zlib

import numpy as np
import pytest

special = pytest.importorskip("scipy.special")

import special_host_lib  # noqa: E402  (tests/scipy, beside this file)

SUFFIX = {np.float64: "d", np.float32: "f", np.complex128: "D", np.complex64: "F"}
SPHERICAL = ["jn", "yn", "in", "kn"]


@pytest.fixture(scope="module")
def lib():
    return special_host_lib.build()


def _airy(lib, name, x):
    """csf_<name>_<d|f|D|F>: the four outputs (Ai, Ai', Bi, Bi') of the loop of x's dtype."""
    x = np.ascontiguousarray(x)
    out = np.empty((x.size, 4), x.dtype)
    getattr(lib, "csf_{}_{}".format(name, SUFFIX[x.dtype.type]))(
        x.ctypes.data_as(ctypes.c_void_p), out.ctypes.data_as(ctypes.c_void_p), ctypes.c_long(x.size))
    return tuple(out.T)


def _sph(lib, name, n, z):
    """csf_spherical_<name>[_d]_<double|float>: the 'lD->D' / 'lF->F' loop."""
    z = np.ascontiguousarray(z)
    n = np.ascontiguousarray(np.broadcast_to(n, z.shape), dtype=np.int64)
    out = np.empty_like(z)
    getattr(lib, "csf_{}_{}".format(name, "double" if z.dtype == np.complex128 else "float"))(
        n.ctypes.data_as(ctypes.c_void_p), z.ctypes.data_as(ctypes.c_void_p), out.ctypes.data_as(ctypes.c_void_p),
        ctypes.c_long(z.size))
    return out


def _isnan(a):
    return np.isnan(a.real) | np.isnan(a.imag)


def close(got, want, rtol, atol):
    """Within rtol |want| + atol (atol may be an array); a value with a NaN part matches one with a
    NaN part; non-finite parts are equal otherwise."""
    with np.errstate(all="ignore"):
        nan = _isnan(got) & _isnan(want)
        fin = np.isfinite(want)
        near = np.abs(got - want) <= rtol * np.abs(np.where(fin, want, 0)) + atol
        same = (got.real == want.real) & (got.imag == want.imag)
    return nan | np.where(fin & ~_isnan(got), near, same)


def airy_atol(x, dtype):
    """The absolute part of the tolerance: where Ai and Bi oscillate (left of the origin, and
    about the negative real axis for complex z) the rounding of the phase 2/3 |x|^(3/2) (its ulp
    times the amplitude |x|^(+-1/4)) bounds how far two evaluations differ near a zero."""
    eps = 1e-14 if dtype in (np.float64, np.complex128) else 3e-7
    r = np.abs(x)
    left = np.real(x) < 0
    return np.where(left, eps * (1 + r) ** 1.75, 1e-300 if eps < 1e-10 else 1e-37)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.complex64],
                         ids=["float64", "float32", "complex128", "complex64"])
@pytest.mark.parametrize("name", ["airy", "airye"])
def test_airy_against_scipy(lib, name, dtype):
    """Each output of each loop: float64 within 1e-13 of SciPy's (most bit-equal: the same Cephes
    and AMOS operations; the rounding of the phase where they oscillate), complex128 within 1e-12,
    float32 and complex64 (computed in double, rounded once, as SciPy's) within 2e-6."""
    rng = np.random.default_rng(zlib.crc32((name + SUFFIX[dtype]).encode()))
    x = special_host_lib.airy_points(rng, np.dtype(dtype).kind == "c")
    if np.dtype(dtype).kind == "c" and dtype == np.complex64:
        with np.errstate(all="ignore"):
            x = np.where(np.abs(x) > 1e30, x / 1e290, x)
    x = x.astype(dtype)
    got = _airy(lib, name, x)
    with np.errstate(all="ignore"):
        want = getattr(special, name)(x)
    double = dtype in (np.float64, np.complex128)
    rtol = (1e-13 if dtype == np.float64 else 1e-12) if double else 2e-6
    atol = airy_atol(x.astype(np.complex128), dtype)
    for k, label in enumerate(("Ai", "Ai'", "Bi", "Bi'")):
        assert got[k].dtype == want[k].dtype
        ok = close(got[k].astype(np.complex128), want[k].astype(np.complex128), rtol, atol)
        bad = np.nonzero(~ok)[0]
        detail = "; ".join("{}({!r}) = {!r}, SciPy {!r}".format(name, complex(x[i]), complex(got[k][i]),
                                                               complex(want[k][i])) for i in bad[:6])
        assert len(bad) == 0, "{} {}: {} of {} differ: {}".format(name, label, len(bad), len(x), detail)


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64], ids=["complex128", "complex64"])
@pytest.mark.parametrize("derivative", [False, True], ids=["f", "derivative"])
@pytest.mark.parametrize("kind", SPHERICAL)
def test_complex_spherical_against_scipy(lib, kind, derivative, dtype):
    """Each complex loop over sph_points: within 1e-12 (complex128) or 2e-6 (complex64) of SciPy's
    value; where k_n overflows on the negative real axis ours is +-inf (the real loop's, and the
    current xsf's) where SciPy 1.18's is NaN (AMOS's overflow): excluded, docs/scipy.md says so."""
    rng = np.random.default_rng(zlib.crc32((kind + str(derivative)).encode()))
    n, z = special_host_lib.sph_points(rng)
    z = z.astype(dtype)
    name = "spherical_" + kind + ("_d" if derivative else "")
    got = _sph(lib, name, n, z)
    want, axis = special_host_lib.sph_want(kind, derivative, n, z, dtype)
    assert got.dtype == want.dtype
    c128 = dtype == np.complex128
    # (on the negative axis SciPy's real loop is another algorithm: near a zero of j_n or y_n, the
    # difference is the rounding of values of the amplitude 1/|x|)
    floor = 1e-300 if c128 else 1e-37
    atol = np.where(axis, (1e-14 if c128 else 1e-7) / np.maximum(np.abs(z.real), 1), floor)
    ok = close(got.astype(np.complex128), want.astype(np.complex128), 1e-12 if c128 else 2e-6, atol)
    if kind == "kn":
        ok |= axis & ~np.isfinite(got.real)
    bad = np.nonzero(~ok)[0]
    detail = "; ".join("{}({}, {!r}) = {!r}, SciPy {!r}".format(name, int(n[i]), complex(z[i]), complex(got[i]),
                                                              complex(want[i])) for i in bad[:6])
    assert len(bad) == 0, "{} of {} differ: {}".format(len(bad), len(z), detail)


@pytest.mark.parametrize("kind", SPHERICAL)
def test_complex_spherical_on_the_real_axis_is_the_real_loop(lib, kind):
    """On both real half-axes the complex loops agree with the real ones (SciPy 1.18's point: the
    negative axis reflects, as the entire functions j_n, y_n, i_n do; k_n continues analytically)."""
    rng = np.random.default_rng(7)
    n = rng.integers(0, 25, 2000)
    x = rng.uniform(-40, 40, 2000)
    for d in ("", "_d"):
        got = _sph(lib, "spherical_" + kind + d, n, x + 0j)
        real = special_host_lib.call(lib, "_spherical_" + kind + d, np.float64, n.astype(np.float64), x)
        assert np.all(got.imag == 0)
        # (two algorithms: near a zero, the rounding of values of the amplitude 1/|x|)
        assert np.all(np.isclose(got.real, real, rtol=1e-11, atol=1e-14 / np.maximum(np.abs(x), 1))), kind + d
