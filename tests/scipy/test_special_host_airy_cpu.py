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
def lib(tmp_path_factory):
    return special_host_lib.build(tmp_path_factory)


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


def airy_points(rng, complex_):
    """Cephes' regions (the series within +-2.09, the asymptotic forms beyond, Bi's series up to
    8.32), the switch to AMOS at +-10, Ai's underflow and Bi's overflow near 104, large |x|, the
    edges; for complex z every direction and modulus, and the negative real axis (both zeros)."""
    x = np.concatenate([rng.uniform(-12, 12, 3000), rng.uniform(-2.2, 2.2, 500), rng.uniform(-300, 300, 500),
                        10 ** rng.uniform(2, 6, 200) * rng.choice([-1, 1], 200),
                        [0.0, -0.0, 2.09, -2.09, 2.0899999, -2.0900001, 8.3203353, 8.3203354, 10.0, -10.0, 10.000001,
                         -10.000001, 103.892, 103.9, 104.0, 1e10, -1e10, np.inf, -np.inf, np.nan, 1e-300, -1e-300]])
    if not complex_:
        return x
    r = np.concatenate([rng.uniform(0, 12, 2000), 10 ** rng.uniform(-8, 3, 1500)])
    z = r * np.exp(1j * rng.uniform(-np.pi, np.pi, r.size))
    axis = -rng.uniform(0, 60, 400) + 1j * rng.choice([0.0, -0.0], 400)
    near = -rng.uniform(0, 60, 200) + 1j * rng.choice([1e-12, -1e-12], 200)
    edges = np.array([0j, complex(0, -0.0), complex(np.inf, 0), complex(-np.inf, 0), complex(0, np.inf),
                      complex(np.nan, 0), complex(0, np.nan), 1e6 + 1e6j, 150 + 0j, -150 + 0j, 1e-300j])
    return np.concatenate([z, axis, near, x[np.isfinite(x)] + 0j, edges])


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.complex64],
                         ids=["float64", "float32", "complex128", "complex64"])
@pytest.mark.parametrize("name", ["airy", "airye"])
def test_airy_against_scipy(lib, name, dtype):
    """Each output of each loop: float64 within 1e-13 of SciPy's (most bit-equal: the same Cephes
    and AMOS operations; the rounding of the phase where they oscillate), complex128 within 1e-12,
    float32 and complex64 (computed in double, rounded once, as SciPy's) within 2e-6."""
    rng = np.random.default_rng(zlib.crc32((name + SUFFIX[dtype]).encode()))
    x = airy_points(rng, np.dtype(dtype).kind == "c")
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


def sph_points(rng):
    """(n, z) pairs: general z, small and large |z| (with large n: overflow), both real half-axes
    (the negative one with +0 and -0 imaginary parts), near the axis, and the edges."""
    n = rng.integers(0, 30, 12000)
    z = np.concatenate([rng.uniform(-60, 60, 3000) + 1j * rng.uniform(-60, 60, 3000),
                        10 ** rng.uniform(-6, 0, 2000) * np.exp(1j * rng.uniform(-np.pi, np.pi, 2000)),
                        10 ** rng.uniform(2, 4, 1000) * np.exp(1j * rng.uniform(-np.pi, np.pi, 1000)),
                        rng.uniform(0, 80, 1500) + 0j, -rng.uniform(0, 80, 1500) + 0j,
                        -rng.uniform(0, 80, 1500) + complex(0, -0.0) * np.ones(1500),
                        rng.uniform(-60, 60, 1500) + 1j * rng.choice([1e-13, -1e-13], 1500)])
    en = np.array([0, 1, 2, 3, -1])
    ez = np.array([0j, complex(0, -0.0), complex(np.inf, 0), complex(-np.inf, 0), complex(np.inf, 1), complex(0, np.inf),
                   complex(np.nan, 0), complex(1, np.nan), 1e-300 + 0j, 2 + 2j, complex(-2, 0), complex(-2, -0.0)])
    a, b = np.meshgrid(en, ez)
    return np.concatenate([n, a.ravel()]), np.concatenate([z, b.ravel()])


def sph_want(kind, derivative, n, z, dtype):
    """SciPy's value in complex128 (our complex64 loop computes in complex128 and rounds once; SciPy's
    multiplies in complex64, losing digits to overflow and cancellation): on the negative real axis,
    SciPy's real loop there (the reflection, in SciPy's Python wrapper: the same in 1.17 and 1.18;
    1.18's complex loop reflects too, 1.17's left a spurious imaginary part or, at -x - 0i, a wrong sign)."""
    f = getattr(special, "spherical_" + kind)
    z = z.astype(np.complex128)
    with np.errstate(all="ignore"):
        want = f(n, z, derivative)
        axis = (z.imag == 0) & (z.real < 0) & np.isfinite(z.real) & (n >= 0)
        want[axis] = f(n[axis], z.real[axis], derivative)
    with np.errstate(over="ignore"):  # (values beyond complex64 become infinities, as ours)
        return want.astype(dtype), axis


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64], ids=["complex128", "complex64"])
@pytest.mark.parametrize("derivative", [False, True], ids=["f", "derivative"])
@pytest.mark.parametrize("kind", SPHERICAL)
def test_complex_spherical_against_scipy(lib, kind, derivative, dtype):
    """Each complex loop over sph_points: within 1e-12 (complex128) or 2e-6 (complex64) of SciPy's
    value; where k_n overflows on the negative real axis ours is +-inf (the real loop's, and the
    current xsf's) where SciPy 1.18's is NaN (AMOS's overflow): excluded, docs/scipy.md says so."""
    rng = np.random.default_rng(zlib.crc32((kind + str(derivative)).encode()))
    n, z = sph_points(rng)
    z = z.astype(dtype)
    name = "spherical_" + kind + ("_d" if derivative else "")
    got = _sph(lib, name, n, z)
    want, axis = sph_want(kind, derivative, n, z, dtype)
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
