"""The host build of cuarray/scipy/special/templates (tests/scipy/special_host.cpp, g++) and the
comparison helpers shared by test_special_host_cpu.py and test_special_host_more_cpu.py."""

from __future__ import annotations

import ctypes
import pathlib

import host_build  # tests/ is on sys.path
import numpy as np
import pytest

HERE = pathlib.Path(__file__).parent
TEMPLATES = HERE.parent.parent / "cuarray" / "scipy" / "special" / "templates"
_built = {}


def build():
    """The library, loaded once per process (tests/host_build.py; skips the test without g++)."""
    if "lib" not in _built:
        _built["lib"] = host_build.library(["-O2", "-std=c++17", "-shared", "-fPIC", "-I", TEMPLATES,
                                            HERE / "special_host.cpp"])
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


def _abs_series(a, b, c, x):
    """sum_k |(a)_k (b)_k / ((c)_k k!)| x^k for x >= 0, to 3000 terms (inf where it diverges)."""
    t = np.ones(np.shape(x))
    s = np.ones(np.shape(x))
    with np.errstate(all="ignore"):
        for k in range(3000):
            t = t * np.abs((a + k) * (b + k) / ((k + 1) * (c + k))) * x
            t = np.where(np.isfinite(t), t, np.inf)
            s = s + t
            if np.all((t < 1e-17 * s) | ~np.isfinite(s)):
                break
    return s


def hyp2f1_complex_branches(a, b, c, z):
    """Which of SciPy's methods (xsf's hyp2f1.h) takes 2F1(a, b; c; z), for complex z and real
    a, b, c (z = 0, +-1, a or b = 0 and the poles of c aside): 'polynomial' (a or b a negative
    integer), 'euler polynomial' (c - a or c - b), 'series', 'lopez', 'z/(z-1)', '1-z', '1-z limit'
    (c - a - b an integer), '1/z', '1/z limit' (a - b an integer)."""
    za, z1 = np.abs(z), np.abs(1 - z)
    ser = (za < 0.9) & (z.real >= 0)
    lopez = ~ser & (za >= 0.9) & (za < 1.1) & (z1 >= 0.9) & (z.real >= 0)
    zz1 = ~ser & ~lopez & (za < 1.1) & (z.real < 0)
    onez = ~ser & ~lopez & ~zz1 & (za < 1.1)
    lim1 = np.abs(c - a - b - np.round(c - a - b)) < 1e-15
    lim2 = np.abs(a - b - np.round(a - b)) < 1e-15
    neg_int = [(v == np.trunc(v)) & (v < 0) for v in (a, b, c - a, c - b)]
    return np.select([neg_int[0] | neg_int[1], neg_int[2] | neg_int[3], ser, lopez, zz1, onez & lim1, onez, lim2],
                     ["polynomial", "euler polynomial", "series", "lopez", "z/(z-1)", "1-z limit", "1-z", "1/z limit"],
                     "1/z")


def hyp2f1_complex_size(a, b, c, z):
    """The size of the terms SciPy's method for 2F1(a, b; c; z) adds (each series' sum of moduli,
    times the modulus of its Gamma-ratio prefactor): the rounding of that sum, not of the value,
    bounds how far two implementations of the method can differ (the 1/z transformation's two
    terms cancel where a - b is near an integer, its series' terms grow for large parameters).
    0 for Lopez & Temme's series and the limit forms (compare those by the value)."""
    from scipy import special

    g, rg = special.gamma, special.rgamma
    za, z1 = np.abs(z), np.abs(1 - z)
    branch = hyp2f1_complex_branches(a, b, c, z)
    # Each series is summed only over the points whose branch takes it (summed over every point,
    # the nine sums took 72 of test_hyp2f1_complex's 79 s on two cores: a sum runs until its
    # slowest point has converged, and every call held points near or past its radius)
    size = np.zeros(np.shape(z))
    with np.errstate(all="ignore"):
        for name, terms in (("polynomial", _poly_size), ("euler polynomial", _euler_poly_size),
                            ("series", _series_size), ("z/(z-1)", _zz1_size), ("1-z", _one_minus_z_size),
                            ("1/z", _inverse_size)):
            at = branch == name
            if at.any():
                size[at] = terms(a[at], b[at], c[at], z[at], za[at], z1[at], g, rg)
    return np.where(np.isfinite(size), size, 0.0)


def _poly_size(a, b, c, z, za, z1, g, rg):
    return _abs_series(a, b, c, za)


def _euler_poly_size(a, b, c, z, za, z1, g, rg):
    return z1 ** (c - a - b) * _abs_series(c - a, c - b, c, za)


def _series_size(a, b, c, z, za, z1, g, rg):
    euler = (c - a < a) & (c - b < b)
    return np.where(euler, z1 ** (c - a - b) * _abs_series(c - a, c - b, c, za), _abs_series(a, b, c, za))


def _zz1_size(a, b, c, z, za, z1, g, rg):
    swap = (0 < b) & (b < a) & (a < c)
    aa, bb = np.where(swap, b, a), np.where(swap, a, b)
    return z1 ** -aa * _abs_series(aa, c - bb, c, np.abs(z / (z - 1)))


def _one_minus_z_size(a, b, c, z, za, z1, g, rg):
    return (np.abs(g(c) * g(c - a - b) * rg(c - a) * rg(c - b)) * _abs_series(a, b, a + b - c + 1, z1)
            + np.abs(g(c) * g(a + b - c) * rg(a) * rg(b)) * z1 ** (c - a - b)
            * _abs_series(c - a, c - b, c - a - b + 1, z1))


def _inverse_size(a, b, c, z, za, z1, g, rg):
    return (np.abs(g(c) * g(b - a) * rg(b) * rg(c - a)) * za ** -a * _abs_series(a, a - c + 1, a - b + 1, 1 / za)
            + np.abs(g(c) * g(a - b) * rg(a) * rg(c - b)) * za ** -b * _abs_series(b, b - c + 1, b - a + 1, 1 / za))




DIGAMMA_ROOTS = (1.4616321449683622, -0.5040830082644554)


def expint_regions(rng, n=4000) -> list:
    """Where psi and the exponential integrals change method or are singular (complex z, the host
    and GPU tests of cdigamma.cuh/cexpint.cuh draw from it): the poles 0, -1, ... (on and off the
    axis, both zeros), circles about digamma's two roots (the Taylor series' radii 0.5 and 0.3),
    the reflection strip's edge |Im z| = 16 and |z| = 16 (the asymptotic series), E1's |z| = 5 and
    |z| = 40 and its wedge Re z < -2|Im z|, the Si/Ci series' |z| = 0.8, and Re z < -709 (e^-z
    overflows): a list of arrays, one a region."""
    k = -rng.integers(0, 30, n).astype(float)
    poles = k + rng.choice([0.0, 1e-12, -1e-8, 1e-3, -0.3], n) + 1j * rng.choice([0.0, -0.0, 1e-10, -1e-5, 0.2], n)
    roots = np.concatenate([r + rng.uniform(0, 2.2 * rad, n // 2) * np.exp(2j * np.pi * rng.random(n // 2))
                            for r, rad in zip(DIGAMMA_ROOTS, (0.5, 0.3))])
    strip = rng.uniform(-40, 1, n) + 1j * rng.uniform(15, 17, n) * rng.choice([-1, 1], n)
    rings = np.concatenate([rad * rng.uniform(0.97, 1.03, n // 4) * np.exp(2j * np.pi * rng.random(n // 4))
                            for rad in (0.5, 0.8, 5.0, 16.0, 40.0)])
    t = rng.uniform(0, 60, n)
    wedge = -t + 1j * t * rng.uniform(-0.55, 0.55, n)
    left = rng.uniform(-800, -700, n // 4) + 1j * rng.uniform(-2000, 2000, n // 4)
    return [poles, roots, strip, rings, wedge, left]


def amos_regions(rng, n=2000) -> list:
    """Where AMOS (the complex Bessel functions: templates/amos_*.cuh) changes method or is singular,
    as (order, z) pairs, one pair of arrays a region: small |z| (power series), moderate |z|
    (Miller / Wronskian), large |z| (the asymptotic expansion beyond |z| ~ 21), large orders with
    |z| about the order (the uniform expansions and their turning point), near the negative real
    axis and on it (the cut, both zeros), on the imaginary axis, where e^|Re z| or e^|Im z|
    overflows (|z| ~ 700), and orders of both signs (the reflection) with integers and halves."""
    def orders(scale):
        v = rng.choice([-1.0, 1.0], n) * scale
        u = rng.random(n)
        return np.where(u < 0.2, np.round(v), np.where(u < 0.3, np.round(v) + 0.5, v))

    def angles():
        return np.exp(1j * rng.uniform(-np.pi, np.pi, n))

    small = (orders(rng.uniform(0, 5, n)), 10.0 ** rng.uniform(-8, 0, n) * angles())
    moderate = (orders(rng.uniform(0, 20, n)), rng.uniform(0, 30, n) * angles())
    large = (orders(rng.uniform(0, 30, n)), 10.0 ** rng.uniform(1.3, 3.5, n) * angles())
    v = orders(10.0 ** rng.uniform(1.5, 2.6, n))
    uniform = (v, np.abs(v) * rng.uniform(0.3, 2.5, n) * angles())
    t = np.pi - 10.0 ** rng.uniform(-12, -1, n)
    cut = (orders(rng.uniform(0, 10, n)), rng.uniform(0.1, 50, n) * np.exp(1j * t * rng.choice([-1, 1], n)))
    x = rng.uniform(0.01, 60, n)
    axes = (orders(rng.uniform(0, 10, n)), np.where(rng.random(n) < 0.5, -x + 1j * rng.choice([0.0, -0.0], n),
                                                   1j * x * rng.choice([-1, 1], n)))
    big = rng.uniform(680, 730, n) * rng.choice([-1, 1], n)
    other = rng.uniform(-20, 20, n)
    edge = (orders(rng.uniform(0, 3, n)), np.where(rng.random(n) < 0.5, big + 1j * other, other + 1j * big))
    return [small, moderate, large, uniform, cut, axes, edge]


AMOS_EDGE_Z = np.array([0, -0.0, 1, -1, 1j, -1j, 2.5 - 0.5j, np.inf, -np.inf, 1j * np.inf, complex(np.nan, 0),
                        complex(0, np.nan), 1e300, -1e300j, 1e-300])
AMOS_EDGE_V = np.array([0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -3.0, 7.3, -7.3, 1e3, np.nan])


def amos_mpmath(name, v, z):
    """mpmath's value of scipy.special.<name>(v, z) (the scaled ones by their factors), complex128:
    at 30 digits, then at twice the digits until two agree to 1e-14 (mpmath's besselk loses ~30
    digits at order 373 near the negative axis)."""
    import mpmath

    def at(dps):
        with mpmath.workdps(dps):
            vv, zz = mpmath.mpf(float(v)), mpmath.mpc(complex(z))
            f = {"jv": mpmath.besselj, "yv": mpmath.bessely, "iv": mpmath.besseli, "kv": mpmath.besselk,
                 "hankel1": mpmath.hankel1, "hankel2": mpmath.hankel2}[name.rstrip("e")](vv, zz)
            scale = {"jve": mpmath.exp(-abs(zz.imag)), "yve": mpmath.exp(-abs(zz.imag)),
                     "ive": mpmath.exp(-abs(zz.real)), "kve": mpmath.exp(zz), "hankel1e": mpmath.exp(-1j * zz),
                     "hankel2e": mpmath.exp(1j * zz)}.get(name, 1)
            return complex(f * scale)

    dps, prev = 30, at(30)
    while dps < 240:
        dps *= 2
        cur = at(dps)
        if abs(cur - prev) <= 1e-14 * abs(cur):
            return cur
        prev = cur
    return prev


def amos_unexplained(name, v, z, got, want, bad, rtol, floor, sample=30):
    """Of the points `bad` where a scaled complex Bessel function differs from SciPy's, those that
    mpmath does not confirm (SciPy 1.17/1.18's scaled functions return 0 or values many orders off
    at large orders and |z|: test_special_host_amos_cpu.py). Those where SciPy's value is below
    1e-6 of ours (that failure) are checked on a sample of `sample` (mpmath is slow there), the
    others each."""
    pytest.importorskip("mpmath")
    with np.errstate(all="ignore"):
        tiny = np.abs(want[bad]) < 1e-6 * np.abs(got[bad])
    rng = np.random.default_rng(len(bad))
    check = np.concatenate([bad[~tiny], rng.permutation(bad[tiny])[:sample]])
    ref = np.array([amos_mpmath(name, v[i], z[i]) for i in check], dtype=np.complex128).astype(got.dtype)
    with np.errstate(all="ignore"):
        fine = np.isclose(got[check], ref, rtol=rtol, atol=floor)
    return check[~fine]


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
    ez = np.array([0j, complex(0, -0.0), complex(np.inf, 0), complex(-np.inf, 0), complex(np.inf, 1),
                   complex(0, np.inf), complex(np.nan, 0), complex(1, np.nan), 1e-300 + 0j, 2 + 2j, complex(-2, 0), complex(-2, -0.0)])
    a, b = np.meshgrid(en, ez)
    return np.concatenate([n, a.ravel()]), np.concatenate([z, b.ravel()])


def sph_want(kind, derivative, n, z, dtype):
    """SciPy's value in complex128 (our complex64 loop computes in complex128 and rounds once; SciPy's
    multiplies in complex64, losing digits to overflow and cancellation): on the negative real axis,
    SciPy's real loop there (the reflection, in SciPy's Python wrapper: the same in 1.17 and 1.18;
    1.18's complex loop reflects too, 1.17's left a spurious imaginary part or, at -x - 0i, a wrong sign)."""
    from scipy import special

    f = getattr(special, "spherical_" + kind)
    z = z.astype(np.complex128)
    with np.errstate(all="ignore"):
        want = f(n, z, derivative)
        axis = (z.imag == 0) & (z.real < 0) & np.isfinite(z.real) & (n >= 0)
        want[axis] = f(n[axis], z.real[axis], derivative)
    with np.errstate(over="ignore"):  # (values beyond complex64 become infinities, as ours)
        return want.astype(dtype), axis
