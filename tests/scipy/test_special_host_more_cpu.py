"""The complex loops (wofz, the error functions, ndtr, log_ndtr, expm1, log1p, xlogy, xlog1py,
the gamma family, psi, exp1, expi, sici, shichi, lambertw, sph_harm_y) and the hypergeometric
functions (hyp2f1, hyp1f1) of cuarray/scipy/special/templates, compiled for the host with g++ (no
GPU), against scipy.special (and mpmath values where SciPy's are off). The shared build and
helpers: special_host_lib.py; the real functions: test_special_host_cpu.py.
"""

from __future__ import annotations

import ctypes
import zlib

import numpy as np
import pytest

special = pytest.importorskip("scipy.special")

import special_host_lib  # noqa: E402  (tests/scipy, beside this file)

_call = special_host_lib.call
_compare = special_host_lib.compare


@pytest.fixture(scope="module")
def lib():
    return special_host_lib.build()


def _scipy(name, dtype, *args):
    with np.errstate(all="ignore"):
        return getattr(special, name)(*args)


# -- complex loops ---------------------------------------------------------------------------------
# name: (complex128 rtol, complex64 rtol), relative to |value| (NumPy's isclose on complex numbers).
# 2e-13: the reflection w(z) = 2 e^(-z^2) - w(-z) below the real axis carries the rounding of -z^2
# (|z|^2 eps) into e^(-z^2), in SciPy's as in ours (6e-14 apart at |z| = 8); SciPy's erf, erfi and
# dawsn are up to 1.6e-13 off near 0.005 (test_complex_against_mpmath: ours within 1e-15).
COMPLEX = {name: (2e-13, 2e-6) for name in ("wofz", "erf", "erfc", "erfcx", "erfi", "dawsn", "ndtr", "log_ndtr")}
COMPLEX.update({name: (1e-14, 2e-6) for name in ("expm1", "log1p")})
COMPLEX.update({name: (1e-13, 2e-6) for name in ("loggamma", "gamma", "rgamma")})
# psi, the exponential integrals and sici/shichi (each output on its own: "sici_0" is Si): SciPy's
# algorithms, within 6e-15 of SciPy over the grid below
EXPINT = ("psi", "exp1", "expi", "sici_0", "sici_1", "shichi_0", "shichi_1")
COMPLEX.update({name: (1e-13, 2e-6) for name in EXPINT})
CEDGES = np.array([0.0, -0.0, 1.0, -1.0, 0.5, -3.0, 5.0, 30.0, -30.0, 27.0, -27.0, 1e-300, -1e-300, 1e-9,
                   1e10, -1e10, 1e300, -1e300, np.inf, -np.inf, np.nan])


def _ccall(lib, name, dtype, *args):
    """csf_<name>_D / _F over complex arrays of `dtype` (one output of the first argument's shape)."""
    fn = getattr(lib, "csf_{}_{}".format(name, "D" if dtype == np.complex128 else "F"))
    args = [np.ascontiguousarray(a, dtype=dtype) for a in args]
    out = np.empty_like(args[0])
    fn(*(a.ctypes.data_as(ctypes.c_void_p) for a in args), out.ctypes.data_as(ctypes.c_void_p),
       ctypes.c_long(out.size))
    return out


def _assert_ok(name, args, got, want, ok):
    """Fail naming the first arguments where `ok` is False, with both values."""
    bad = np.nonzero(~ok)[0]
    detail = "; ".join("{}{} = {!r}, SciPy {!r}".format(name, tuple(complex(a[i]) for a in args), complex(got[i]),
                                                         complex(want[i])) for i in bad[:6])
    assert not bad.size, "{} of {} differ: {}".format(bad.size, got.size, detail)


def _cargs(rng, n=20000, r=40.0):
    """A box |x|, |y| <= r, log-spaced magnitudes at every angle, points near both axes, the edges."""
    box = rng.uniform(-r, r, n) + 1j * rng.uniform(-r, r, n)
    polar = 10.0 ** rng.uniform(-10, np.log10(r), n) * np.exp(2j * np.pi * rng.random(n))
    axes = rng.uniform(-r, r, n // 4) + 1j * 10.0 ** rng.uniform(-300, -3, n // 4) * rng.choice([-1, 1], n // 4)
    a, b = np.meshgrid(CEDGES, CEDGES)
    return np.concatenate([box, polar, axes, 1j * axes, (a + 1j * b).ravel()])


def _cwant(name, *args):
    """SciPy's value; "sici_1" is the second output of sici."""
    base, _, k = name.rpartition("_") if name[-2:] in ("_0", "_1") else (name, "", "")
    with np.errstate(all="ignore"):
        out = getattr(special, base)(*args)
    return out[int(k)] if k else out


def _expint_points(rng, n=4000):
    """special_host_lib.expint_regions and magnitudes to 1e300 at every angle."""
    regions = special_host_lib.expint_regions(rng, n)
    big = 10.0 ** rng.uniform(1.6, 300, n) * np.exp(2j * np.pi * rng.random(n))
    return np.concatenate(regions + [big])


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64], ids=["complex128", "complex64"])
@pytest.mark.parametrize("name", sorted(COMPLEX))
def test_complex(lib, name, dtype):
    """The complex loops against SciPy's (S. G. Johnson's Faddeeva package) over |x|, |y| <= 40 and
    the edges. Where SciPy overflows (an infinite or NaN part) ours must too, or be huge: SciPy's
    e^(-z^2) overflows before the product e^(-z^2) w does (erfc(8.48 - 28.0j) = 2.2e307 - 3.6e307j,
    SciPy nan - inf j)."""
    rng = np.random.default_rng(zlib.crc32(("complex " + name).encode()))
    with np.errstate(all="ignore"):
        z = _cargs(rng)
        if name in EXPINT:
            z = np.concatenate([z, _expint_points(rng)])
        z = z.astype(dtype)
        want = _cwant(name, z)
    got = _ccall(lib, name, dtype, z)
    assert want.dtype == dtype
    rtol = COMPLEX[name][0 if dtype == np.complex128 else 1]
    floor = 1e-300 if dtype == np.complex128 else 1e-36
    with np.errstate(all="ignore"):
        if name == "log_ndtr":
            # SciPy's sum log(e^(-t^2)) + log w(it) cancels where ndtr is near 1: its error is a few
            # eps of |t^2| = |z|^2 / 2 (1e-6 relative at 5.91 - 0.25j against mpmath; ours 1e-16)
            floor = np.maximum(floor, 4e-15 * (1 + np.abs(z.astype(np.complex128)) ** 2 / 2))
        fin = np.isfinite(want)
        close = np.isclose(got, want, rtol=rtol, atol=floor)
        # NaN where SciPy has NaN, part by part, and infinities of the same sign
        same = [np.isnan(p(got)) & np.isnan(p(want)) | (p(got) == p(want)) for p in (np.real, np.imag)]
        ok = np.where(fin, close, same[0] & same[1] | ~np.isfinite(got)
                      | (np.abs(got) > (1e300 if dtype == np.complex128 else 1e36)))
        if name in ("gamma", "rgamma"):
            # xsf's 2026 guard (ours): NaN for a non-finite argument; SciPy 1.17 gave gamma(inf j) = -0j
            ok |= ~np.isfinite(z) & np.isnan(got)
    _assert_ok(name, (z,), got, want, ok)


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64], ids=["complex128", "complex64"])
@pytest.mark.parametrize("name", ["xlogy", "xlog1py"])
def test_complex_binary(lib, name, dtype):
    """xlogy and xlog1py's complex loops against SciPy's: x from the same points as y, zeros of x
    (0 unless y has a NaN part) and y near -1 (log1p's cancelling circle x = -y^2/2 included)."""
    rng = np.random.default_rng(zlib.crc32(("complex binary " + name).encode()))
    y = _cargs(rng, n=4000, r=5.0)
    t = 10.0 ** rng.uniform(-8, -0.2, 2000)
    circle = -t * t / 2 + 1j * t * rng.choice([-1, 1], 2000)  # |1 + z| = 1 + O(t^4)
    y = np.concatenate([y, circle, -1 + 1e-3 * (rng.random(500) - 0.5 + 1j * (rng.random(500) - 0.5))])
    x = rng.permutation(y)
    x[::7] = 0
    x, y = x.astype(dtype), y.astype(dtype)
    with np.errstate(all="ignore"):
        want = getattr(special, name)(x, y)
    got = _ccall(lib, name, dtype, x, y)
    rtol = 1e-14 if dtype == np.complex128 else 2e-6
    with np.errstate(all="ignore"):
        fin = np.isfinite(want)
        ok = np.where(fin, np.isclose(got, want, rtol=rtol, atol=1e-300 if dtype == np.complex128 else 1e-36),
                      ~np.isfinite(got))
    _assert_ok(name, (x, y), got, want, ok)


# mpmath at 40 digits (mpmath.erf, erfi, exp(-z^2) erfc(-iz), ...), rounded to 17
MPMATH = [
    ("erf", -0.005748603492051993 - 0.0010583702490002524j, complex(-0.0064865402336847669, -0.0011942039210828745)),
    ("erf", 0.4 + 0.3j, complex(0.46443721297956142, 0.29443980776931706)),
    ("erf", 2.5 - 1.5j, complex(1.0004844145745747, -0.0034035003087279405)),
    ("erfi", -0.00012220469968319953 + 0.00529889223882267j, complex(-0.00013788936618239238, 0.0059791037392692121)),
    ("erfi", 1.5 + 0.7j, complex(0.19010131608641476, 3.0696029937440546)),
    ("dawsn", -0.0007377705364453235 + 0.005652730852884006j,
     complex(-0.00073781741820466159, 0.0056528451163919523)),
    ("dawsn", 3 + 0.2j, complex(0.1770577532566953, -0.013807616636154345)),
    ("dawsn", 0.9 + 0.3j, complex(0.59266260217045314, -0.0011031372727443691)),
    ("wofz", 2.114717833058604 + 0.003014236350264099j, complex(0.01203840350334544, 0.31489745386163085)),
    ("wofz", 5 + 1e-09j, complex(3.7968395078817332e-11, 0.11524596183093659)),
    ("wofz", 0.2711380041320499 + 1.2701966152286372j, complex(0.35612998626825885, 0.054512654778423161)),
    ("wofz", 0.001 + 3j, complex(0.17900113529702001, 5.4372255527742178e-5)),
    ("erfc", 1e-300 + 5j, complex(1.0, -8298273880.6768035)),
    ("erfc", 2 + 3j, complex(21.829461427614568, -8.6873182714701631)),
    ("erfcx", -3 + 0.5j, complex(-12495.242856000212, -1781.1553495221088)),
    ("erfcx", 0.1 + 4j, complex(0.0039217520989642454, -0.14584316699790472)),
    # mpmath.log(mpmath.erfc(-z / sqrt(2)) / 2): SciPy's log_ndtr is 1e-6 off at the first two (its sum cancels)
    ("log_ndtr", 5.912662029266357 - 0.251686155796051j, complex(-7.3335414403137252e-11, -1.7343722520904515e-9)),
    ("log_ndtr", 4.292893006783899 - 2.5192503318698485j, complex(-5.8371356175053743e-5, 0.0001773171544071156)),
    ("log_ndtr", 0.5 + 2j, complex(0.74542584409636103, 0.63410305476156717)),
    ("log_ndtr", -3 + 1j, complex(-6.1422317282187914, -3.0052202655356404)),
    ("log1p", 1e-09 + 1e-09j, complex(1.0000000000000001e-9, 9.9999999900000006e-10)),
    ("log1p", -0.5 + 0.9j, complex(0.029134454061987907, 1.0636978224025597)),
    ("expm1", 1e-09 + 1e-09j, complex(1.0000000000000001e-9, 1.0000000010000001e-9)),
    ("expm1", -0.5 + 0.9j, complex(-0.62297449586084477, 0.47511178726701589)),
    # mpmath.loggamma (the principal branch), gamma, rgamma: reflection, Stirling, both Taylor series
    ("loggamma", -2.5 + 0.1j, complex(-0.1031492440428192, -9.3144442683598381)),
    ("loggamma", 0.3 + 8j, complex(-12.063210733646625, 8.3240831615213147)),
    ("loggamma", 1.1 + 0.05j, complex(-0.051662891471781499, -0.021149007244415597)),
    ("loggamma", 2.05 - 0.1j, complex(0.018812333627671672, -0.045516944236652762)),
    ("loggamma", -50.3 - 2j, complex(-154.06120382785348, 151.73656874264414)),
    ("gamma", 3 + 4j, complex(0.0052255384713692142, -0.17254707929430019)),
    ("rgamma", -3.7 + 0.2j, complex(5.1127107815144677, 0.49704039541419233)),
]


@pytest.mark.parametrize("name, z, want", MPMATH)
def test_complex_against_mpmath(lib, name, z, want):
    """Both parts to 1e-14 of their own size (or 5e-15 of |w|) where SciPy's is 1.5e-13 off (erf,
    erfi and dawsn near 0.005: its five-term Taylor series), and near the real axis, where Re w is
    the small part (wofz(5 + 1e-9j): e^-25 plus the 2e-11 of the imaginary shift)."""
    got = complex(_ccall(lib, name, np.complex128, np.array([z]))[0])
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        assert abs(g - w) <= 1e-14 * abs(w) + 5e-15 * abs(want), (name, z, got, want)


# mpmath at 40 digits (digamma, e1, ei, si, ci, shi, chi): |ours - mpmath| <= rtol |mpmath|. SciPy's
# E1 series loses digits for Re z > 0 near |z| = 5 (3.2e-13 at 4.2 - 1.5j, ours the same algorithm):
# SciPy's own test tolerance for E1 there (1e-11, test_mpmath.py's test_e1_complex). Where e^-z
# overflows (-715 + 3000j) SciPy's E1 is inf, ours within 1e-16.
MPMATH_EXPINT = [
    ("psi", -0.6 + 0.1j, complex(-0.7877785314967898, 0.9607392290521629), 1e-14),  # negative root's series
    ("psi", 1.2 - 0.3j, complex(-0.22578038521975913, -0.3664005412315735), 1e-14),  # positive root's series
    ("psi", -7.3 + 2j, complex(2.0865445794950275, 2.890890959233582), 1e-14),  # reflection
    ("psi", -3 + 14j, complex(2.669193005610108, 1.8158692852837273), 1e-14),
    ("psi", 20 - 30j, complex(3.57739211539108, -0.9943913598840195), 1e-14),  # asymptotic series
    ("psi", -3 + 1e-06j, complex(1.2561176684318405, 1000000.0000030061), 1e-14),  # beside a pole
    ("psi", 0.2 + 0.1j, complex(-4.281691986588725, 2.1262003139161525), 1e-14),  # a step of the recurrence
    ("exp1", 4.2 - 1.5j, complex(-0.0006285575647466606, 0.002765987804174001), 1e-11),
    ("exp1", 10 + 20j, complex(-1.201415002521843e-06, -1.5829805292573438e-06), 1e-14),  # continued fraction
    ("exp1", -30 + 5j, complex(-42238508757.31804, -361103191095.0411), 1e-14),  # the wedge's series
    ("exp1", -715 + 3000j, complex(1.3620518046561517e+305, 1.0750633752948118e+307), 1e-14),
    ("exp1", 0.5 + 0.5j, complex(0.2578664571379838, -0.3966904354558152), 1e-14),
    ("expi", 5 + 3j, complex(-19.843386431747206, 24.850103945457604), 1e-14),
    ("expi", 40 - 2j, complex(-2225497109438622.8, -5606180151503454.0), 1e-14),
    ("expi", -3 + 0.5j, complex(-0.010404084133521738, 3.133927393751679), 1e-14),
    ("sici_0", 2 + 3j, complex(4.547513889562289, 1.399196580646055), 1e-14),
    ("sici_1", 2 + 3j, complex(1.4082925015208496, -2.983617742029605), 1e-14),
    ("sici_0", -4 - 0.5j, complex(-1.7726586167725251, 0.09979520014796193), 1e-14),
    ("sici_1", -4 - 0.5j, complex(-0.17032801658970664, -3.2242899376119705), 1e-14),
    ("sici_0", 0.3 + 0.2j, complex(0.30049006262778444, 0.1974464963284888), 1e-14),  # the power series
    ("sici_1", 0.3 + 0.2j, complex(-0.455518236638613, 0.5581277943292196), 1e-14),
    ("shichi_0", 2 + 3j, complex(-0.19318907627191984, 2.6454325553623694), 1e-14),
    ("shichi_1", 2 + 3j, complex(-0.16836286832772046, 2.625115880451325), 1e-14),
    ("shichi_0", -5 + 1j, complex(-14.512798797399192, 13.222626715481127), 1e-14),
    ("shichi_1", -5 + 1j, complex(14.512359347593517, -10.082076095008778), 1e-14),
    ("shichi_0", 0.5 - 0.5j, complex(0.48590455885255984, -0.5136787936176077), 1e-14),
    ("shichi_1", 0.5 - 0.5j, complex(0.22803810171457603, -0.910369229073423), 1e-14),
]


@pytest.mark.parametrize("name, z, want, rtol", MPMATH_EXPINT)
def test_expint_against_mpmath(lib, name, z, want, rtol):
    got = complex(_ccall(lib, name, np.complex128, np.array([z]))[0])
    assert abs(got - want) <= rtol * abs(want), (name, z, got, want)


# SciPy's own tolerances against mpmath (scipy/special/tests/test_mpmath.py: test_digamma_complex,
# test_e1_complex, test_ei_complex, test_si_complex, ...): Ci's is 1e-8 and Ei's 1e-9 there.
SCIPY_MPMATH_RTOL = {"psi": 1e-13, "exp1": 1e-11, "expi": 1e-9, "sici_0": 1e-12, "sici_1": 1e-8, "shichi_0": 1e-12,
                     "shichi_1": 1e-12}


@pytest.mark.parametrize("name", sorted(SCIPY_MPMATH_RTOL))
def test_expint_sweep_against_mpmath(lib, name):
    """300 points over |x|, |y| <= 40 and magnitudes 1e-5..40 at every angle (off the negative
    real axis for psi, where mpmath's digamma hangs, as SciPy's test has it) against mpmath at
    SciPy's own test tolerances."""
    mpmath = pytest.importorskip("mpmath")
    f = {"psi": mpmath.digamma, "exp1": mpmath.e1, "expi": mpmath.ei, "sici_0": mpmath.si, "sici_1": mpmath.ci,
         "shichi_0": mpmath.shi, "shichi_1": mpmath.chi}[name]
    rng = np.random.default_rng(zlib.crc32(("mpmath " + name).encode()))
    z = np.concatenate([rng.uniform(-40, 40, 150) + 1j * rng.uniform(-40, 40, 150),
                        10.0 ** rng.uniform(-5, 1.6, 150) * np.exp(2j * np.pi * rng.random(150))])
    if name == "psi":
        z = z[~((z.real < 0) & (np.abs(z.imag) < 1.12))]
    got = _ccall(lib, name, np.complex128, z)
    with mpmath.workdps(30):
        want = np.array([complex(f(mpmath.mpc(v.real, v.imag))) for v in z])
    ok = np.abs(got - want) <= SCIPY_MPMATH_RTOL[name] * np.abs(want)
    _assert_ok(name, (z,), got, want, ok)


# Signed zeros and limits: SciPy's values, which ours follow.
CSPECIAL = [
    ("wofz", complex(-0.0, 1.0), complex(0.427583576155807, -0.0)),
    ("wofz", complex(-np.inf, 1.0), complex(0.0, -0.0)),
    ("wofz", complex(1.0, np.inf), complex(0.0, 0.0)),
    ("wofz", complex(0.0, -np.inf), complex(np.inf, 0.0)),
    ("erf", complex(-0.0, 1.0), complex(-0.0, 1.6504257587975428)),
    ("erf", complex(np.inf, 1.0), complex(1.0, 0.0)),
    ("erfc", complex(0.0, 1.0), complex(1.0, -1.6504257587975428)),
    ("erfc", complex(-np.inf, 1.0), complex(2.0, 0.0)),
    ("erfi", complex(0.0, np.inf), complex(0.0, 1.0)),
    ("dawsn", complex(-0.0, 1.0), complex(-0.0, 2.030078469278705)),
    ("dawsn", complex(1.0, 0.0), complex(0.5380795069127684, -0.0)),
    # the sides of E1's and Ei's cuts by the sign of Im z's zero; Si/Ci's i z (i (-0 + 50i) = -50 + 0i)
    ("exp1", complex(-2.0, 0.0), complex(-4.954234356001891, -3.141592653589793)),
    ("exp1", complex(-2.0, -0.0), complex(-4.954234356001891, 3.141592653589793)),
    ("expi", complex(2.0, -0.0), complex(4.954234356001891, 0.0)),
    ("expi", complex(-2.0, 0.0), complex(-0.048900510708060896, -0.0)),
    ("sici_0", complex(np.inf, 0.0), complex(1.5707963267948966, 0.0)),
    ("sici_1", complex(-np.inf, 0.0), complex(0.0, 3.141592653589793)),
    ("sici_0", complex(-0.0, 50.0), complex(-0.0, 5.292818448565846e+19)),
    ("sici_1", complex(-0.0, 50.0), complex(5.292818448565846e+19, 1.5707963267948966)),
    ("sici_0", complex(2.0, 0.0), complex(1.6054129768026946, 0.0)),
    ("shichi_1", complex(-np.inf, 0.0), complex(np.inf, 0.0)),
    ("shichi_0", complex(-2.0, 0.0), complex(-2.5015674333549756, -0.0)),
    ("shichi_1", complex(-2.0, 0.0), complex(2.452666922646915, 3.141592653589793)),
    # psi of an infinite argument: log z where SciPy 1.17/1.18's dispatch reaches the asymptotic series
    ("psi", complex(1.0, np.inf), complex(np.inf, 1.5707963267948966)),
    ("psi", complex(np.inf, -0.0), complex(np.inf, 0.0)),
    ("psi", complex(-np.inf, np.inf), complex(np.inf, 2.356194490192345)),
]


@pytest.mark.parametrize("name, z, want", CSPECIAL)
def test_complex_special_values(lib, name, z, want):
    got = complex(_ccall(lib, name, np.complex128, np.array([z]))[0])
    assert complex(_cwant(name, z)) == want or np.isnan(want.real)
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        assert g == pytest.approx(w, rel=1e-15) and np.signbit(g) == np.signbit(w), (name, z, got, want)


def _hyp2f1_args(rng, n):
    """Parameters in (-20, 20), a fifth of them integers and a tenth half-integers (the poles,
    polynomial cases and integer c - a - b of Cephes' case structure); x over (-1, 1) and (-10, -1);
    and a grid of edge values."""
    def par():
        p = rng.uniform(-20, 20, n)
        k = rng.random(n) < 0.2
        p[k] = np.round(p[k])
        k = rng.random(n) < 0.1
        p[k] = np.round(2 * p[k]) / 2
        return p
    a, b, c = par(), par(), par()
    x = np.concatenate([rng.uniform(-1, 1, n // 2), rng.uniform(-10, -1, n - n // 2)])
    e = np.array([0.0, -1.0, 1.0, 0.5, -2.0, 2.0, -0.5, np.nan, np.inf, -np.inf, 3.0, 1.5])
    g = np.meshgrid(e, e, e, np.array([0.0, 0.5, -0.5, 1.0, -1.0, -3.0, 0.99, 0.999999, 2.0, np.nan]))
    return [np.concatenate([u, v.ravel()]) for u, v in zip((a, b, c, x), g)]


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
def test_hyp2f1(lib, dtype):
    """hyp2f1 (a port of Cephes' hyp2f1, SciPy's algorithm) against SciPy: 1e-9 (within 1e-12 in
    practice over [-1, 1]). For x < -2 with b - a not an integer, A&S 15.3.7's two terms cancel (by
    up to 1e10 at parameters near 20: SciPy's and ours are both 1e-6 off there, each in its own
    rounding): an absolute 1e-13 of the larger term is allowed (computed here from SciPy's own
    hyp2f1 and gamma)."""
    rng = np.random.default_rng(zlib.crc32(b"hyp2f1"))
    a, b, c, x = (v.astype(dtype) for v in _hyp2f1_args(rng, 40000))
    with np.errstate(all="ignore"):
        want = special_host_lib.hyp2f1_want(dtype, a, b, c, x)
        got = _call(lib, "hyp2f1", dtype, a, b, c, x)
        a8, b8, c8, x8 = (v.astype(np.float64) for v in (a, b, c, x))
        g = special.gamma
        p = special.hyp2f1(a8, 1 - c8 + a8, 1 - b8 + a8, 1 / x8) * (-x8) ** -a8 * g(c8) * g(b8 - a8) / (g(b8) * g(c8 - a8))
        q = special.hyp2f1(b8, 1 - c8 + b8, 1 - a8 + b8, 1 / x8) * (-x8) ** -b8 * g(c8) * g(a8 - b8) / (g(a8) * g(c8 - b8))
        scale = np.where((x8 < -2) & np.isfinite(p) & np.isfinite(q), np.abs(p) + np.abs(q), 0.0)
        rtol = 1e-9 if dtype == np.float64 else 2e-6
        ok = np.isclose(got, want, rtol=rtol, atol=1e-300, equal_nan=True) | (np.abs(got - want) <= 1e-13 * scale)
    bad = np.nonzero(~ok)[0]
    detail = "; ".join("hyp2f1{} = {!r}, SciPy {!r}".format((float(a[i]), float(b[i]), float(c[i]), float(x[i])),
                                                           float(got[i]), float(want[i])) for i in bad[:6])
    assert not bad.size, "{} of {} differ: {}".format(bad.size, a.size, detail)


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
def test_hyp2f1_a_minus_one(lib, dtype):
    """2F1(-1, b; c; x) = 1 - (b / c) x for every c != 0, as SciPy 1.18 (xsf#85), nonpositive
    integer c included (Cephes' case structure, SciPy 1.17's and ours before, gave inf at c = -1
    and other wrong values); the Euler-transformed calls reach it too (c - a = -1)."""
    b, c, x = (v.ravel() for v in np.meshgrid(np.arange(-10, 10.5, 0.5), np.arange(-10, 10.5, 0.5),
                                               np.array([-7.5, -3.0, -1.0003, -0.6, 0.25, 0.331, 0.9, 1.0])))
    keep = c != 0
    b, c, x = b[keep], c[keep], x[keep]
    a = np.full_like(b, -1.0)
    want = special_host_lib.hyp2f1_want(dtype, *(v.astype(dtype) for v in (a, b, c, x)))
    got = _call(lib, "hyp2f1", dtype, a, b, c, x)
    _compare("hyp2f1", (a, b, c, x), got, want, 1e-14 if dtype == np.float64 else 1e-7, dtype, atol=(1e-15,))
    # through Euler's transformation: c - a - b <= -1 calls 2F1(c - a, c - b; c; x), c - a = -1
    a2, b2, c2, x2 = (np.array([v]) for v in (1.5, 4.0, 0.5, 0.3))
    poly = (1 - 0.3) ** (0.5 - 1.5 - 4.0) * (1 - (0.5 - 4.0) / 0.5 * 0.3)
    assert _call(lib, "hyp2f1", np.float64, a2, b2, c2, x2)[0] == pytest.approx(poly, rel=1e-13)


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
def test_hyp1f1(lib, dtype):
    """hyp1f1 against SciPy for |a|, |b| <= 20 (a fifth integers), |x| <= 50 and a grid of edges:
    5e-9 (SciPy's is 2.3e-9 off at hyp1f1(1, -10.99, -11.28); within 1e-12 elsewhere). Not
    x = +-inf: SciPy 1.17 does not return from hyp1f1(0.5, 1, inf) (Boost's loop). Left out:
    integer a <= 0 with b < 0 or a <= -15, where SciPy's (Boost's) is up to 1.4e-4 off
    (test_hyp1f1_against_mpmath), SciPy's NaN for a = b + 1 < 0 (ours: the closed form
    (1 + x/b) e^x), and a = b = inf (SciPy: e^x for x < 0, 1 above; ours 1)"""
    rng = np.random.default_rng(zlib.crc32(b"hyp1f1"))
    n = 40000
    a, b = (np.where(rng.random(n) < 0.2, np.round(p), p) for p in rng.uniform(-20, 20, (2, n)))
    x = rng.uniform(-50, 50, n)
    e = np.array([0.0, -1.0, 1.0, 0.5, -2.0, 2.0, -0.5, np.nan, np.inf, -np.inf, 3.0, 1.5, -3.0, 20.0, -20.0])
    g = np.meshgrid(e, e, e[np.isfinite(e) | np.isnan(e)])
    a, b, x = (np.concatenate([u, v.ravel()]).astype(dtype) for u, v in zip((a, b, x), g))
    with np.errstate(all="ignore"):
        want = _scipy("hyp1f1", dtype, a, b, x)
        got = _call(lib, "hyp1f1", dtype, a, b, x)
    a8, b8 = a.astype(np.float64), b.astype(np.float64)
    mask = ((a8 <= 0) & (a8 == np.round(a8)) & ((b8 < 0) | (a8 <= -15)) | (a8 - b8 == 1) & (b8 < 0)
            | np.isinf(a8) & np.isinf(b8))
    # (1e-15 absolute: near a zero, as hyp1f1(-2, 3, 2) = 0 exactly, SciPy 5.6e-17)
    _compare("hyp1f1", (a, b, x), got, want, 5e-9 if dtype == np.float64 else 2e-6, dtype, mask, (1e-15,))


# mpmath.hyp1f1 at 60 digits, where SciPy's (Boost's) value is off (1.5e-8, 3e-4, 4e-8, 24, 2.5e-7,
# 1.4e-4, 2.3e-9 relative; the last three, 5.7e-9, 3.6e-6, 1.6e-8: small |a| with b < -7 and
# x < -10, where SciPy is up to 1.7e-2 off, the first two from the GPU run's failures)
HYP1F1_MPMATH = [((-19.0, -13.837251281229573, 1.045623811934206), 4.3068969523592997),
                 ((-37.0, -28.459698519922206, 5.593408683880398), 1938.3520356625830),
                 ((-0.30093997588145527, -41.42638896456647, -28.911567992652067), 0.68325996128764592),
                 ((-47.0, -38.3086653987766, 6.08633129393553), 2067.8671382716285),
                 ((-80.0, 2.0, 2.0), -0.015437611519951114),
                 ((-20.0, 20.0, 20.0), 3.0777012229800825e-08),
                 ((1.0, -10.994650029925253, -11.279980318904784), -249.77139682593863),
                 ((0.004106070123928163, -16.945731859518467, -26.885319630387695), 0.9302349985617351),
                 ((0.0015668849227949977, -18.42789649963379, -41.9482421875), 1.000885168830147),
                 ((-0.5406377878040165, -19.26167614677439, -19.491164031870902), -0.0019490271997124014)]


@pytest.mark.parametrize("args, want", HYP1F1_MPMATH)
def test_hyp1f1_against_mpmath(lib, args, want):
    got = _call(lib, "hyp1f1", np.float64, *(np.array([v]) for v in args))[0]
    assert got == pytest.approx(want, rel=1e-13)


def _hyp1f1_c(lib, dtype, a, b, z):
    """hyp1f1's 'ddD->D' / 'ffF->F' loop on the host build."""
    real = np.float64 if dtype == np.complex128 else np.float32
    fn = getattr(lib, "csf_hyp1f1_" + ("ddD" if dtype == np.complex128 else "ffF"))
    a, b = (np.ascontiguousarray(v, dtype=real) for v in (a, b))
    z = np.ascontiguousarray(z, dtype=dtype)
    out = np.empty_like(z)
    fn(*(v.ctypes.data_as(ctypes.c_void_p) for v in (a, b, z, out)), ctypes.c_long(z.size))
    return out


def _hyp1f1_complex_args(rng, n):
    """|a|, |b| <= 20 (a fifth integers, a tenth half-integers), z in |x|, |y| <= 60 and at
    magnitudes 1e-5..1e10 at every angle; and a grid of edges: the closed forms (a = 0, -1, b,
    b + 1; a = 1, b = 2), the poles b = 0, -1, ..., negative integer a (the terminating series),
    a >= 2 (the recurrence in a), z = 0, +-inf and NaN parts."""
    a, b = (np.where(rng.random(n) < 0.2, np.round(p), p) for p in rng.uniform(-20, 20, (2, n)))
    a = np.where(rng.random(n) < 0.1, np.round(2 * a) / 2, a)
    z = np.where(rng.random(n) < 0.5, rng.uniform(-60, 60, n) + 1j * rng.uniform(-60, 60, n),
                 10.0 ** rng.uniform(-5, 10, n) * np.exp(2j * np.pi * rng.random(n)))
    e = np.array([0.0, -1.0, 1.0, 2.0, 0.5, -2.0, -0.5, 3.0, 1.5, -3.0, 20.0, -20.0, np.nan, np.inf, -np.inf])
    ez = np.array([0.0, -0.0, 1.0, -1.0, 3.0, -30.0, 60.0, 1e-300, 1e10, np.inf, -np.inf, np.nan])
    with np.errstate(invalid="ignore"):
        zz = (ez[:, None] + 1j * ez[None, :]).ravel()
    ga, gb, gz = (g.ravel() for g in np.meshgrid(e, e, zz, indexing="ij"))
    return np.concatenate([a, ga]), np.concatenate([b, gb]), np.concatenate([z, gz])


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64], ids=["complex128", "complex64"])
def test_hyp1f1_complex(lib, dtype):
    """hyp1f1's complex loops (SciPy's Zhang & Jin CCHG, templates/chyp1f1.cuh) against SciPy:
    1e-13 relative plus 4 eps |z| (e^z's phase is known to eps |z| at large |Im z|, where the sign
    of pi in CCHG's log Gamma of a negative b, -pi in SciPy 1.17 and +-pi in 1.18, moves it; 8e-15
    in practice elsewhere: the same arithmetic, CCHG's log Gamma included, which its recurrence in a
    amplifies). SciPy's own value is off by up to 2 against mpmath where the series cancels or the
    eight-term asymptotic expansion is short (its test_hyp1f1_complex is xfail); ours is the same.
    Where SciPy's is not finite ours must not be; a NaN argument gives NaN (SciPy 1.18; 1.17
    returned 1 for z = 0 or a = 0 whatever the others)."""
    rng = np.random.default_rng(zlib.crc32(b"hyp1f1 complex"))
    a, b, z = _hyp1f1_complex_args(rng, 60000)
    real = np.float64 if dtype == np.complex128 else np.float32
    a, b, z = a.astype(real), b.astype(real), z.astype(dtype)
    with np.errstate(all="ignore"):
        want = special.hyp1f1(a, b, z)
        got = _hyp1f1_c(lib, dtype, a, b, z)
        assert want.dtype == dtype
        az = np.abs(z.astype(np.complex128))
        rtol = (1e-13 if dtype == np.complex128 else 2e-6) + 4 * 2.2e-16 * np.where(np.isfinite(az), az, 0)
        close = np.abs(got - want) <= rtol * np.abs(want) + (1e-300 if dtype == np.complex128 else 1e-36)
        nan_in = np.isnan(a) | np.isnan(b) | np.isnan(z)
        ok = np.where(nan_in, np.isnan(got.real) & np.isnan(got.imag),
                      np.where(np.isfinite(want), close, ~np.isfinite(got)))
    _assert_ok("hyp1f1", (a, b, z), got, want, ok)


# mpmath.hyp1f1 at 40 digits where SciPy's algorithm is accurate: the series, the terminating
# series, Kummer's transformation with the recurrence in a; the asymptotic expansion (0.3, 0.7,
# 40 + 30j) to its eight terms' 1e-11.
HYP1F1_COMPLEX_MPMATH = [
    ((0.5, 1.5, 2 + 3j), complex(-0.10016552783144268, 1.4231150771991548), 1e-14),
    ((-3.0, 2.5, -4 + 1j), complex(12.263492063492064, -5.136507936507937), 1e-14),
    ((2.7, 1.3, -5 + 2j), complex(0.01436209496622205, -0.01029117142664504), 1e-14),
    ((0.3, 0.7, 40 + 30j), complex(-2270237589525050.0, -2.1335344028475492e+16), 1e-10),
    ((1.0, 3.0, 25j), complex(2.8151002036884488e-05, 0.08042352560031288), 1e-14),
    ((-0.5, 4.0, 0.5 - 0.2j), complex(0.9361535209187541, 0.026328045240030348), 1e-14),
    ((5.5, 2.25, 3 - 7j), complex(-822.0989916591996, 135.68888715774884), 1e-14),
]


@pytest.mark.parametrize("args, want, rtol", HYP1F1_COMPLEX_MPMATH)
def test_hyp1f1_complex_against_mpmath(lib, args, want, rtol):
    a, b, z = args
    got = complex(_hyp1f1_c(lib, np.complex128, np.array([a]), np.array([b]), np.array([z]))[0])
    assert abs(got - want) <= rtol * abs(want), (args, got, want)


def _hyp2f1_c(lib, dtype, a, b, c, z):
    """hyp2f1's 'dddD->D' / 'fffF->F' loop on the host build."""
    real = np.float64 if dtype == np.complex128 else np.float32
    fn = getattr(lib, "csf_hyp2f1_" + ("dddD" if dtype == np.complex128 else "fffF"))
    a, b, c = (np.ascontiguousarray(v, dtype=real) for v in (a, b, c))
    z = np.ascontiguousarray(z, dtype=dtype)
    out = np.empty_like(z)
    fn(*(v.ctypes.data_as(ctypes.c_void_p) for v in (a, b, c, z, out)), ctypes.c_long(z.size))
    return out


def _hyp2f1_complex_z(rng, n):
    """z over |x|, |y| <= 3, magnitudes 1e-3..1e2 at every angle, the ring 0.85 <= |z| <= 1.15
    (Lopez & Temme's series, the 1 - z and z/(z - 1) transformations) and near z = +-1."""
    k = n // 4
    return np.concatenate([rng.uniform(-3, 3, k) + 1j * rng.uniform(-3, 3, k),
                           10.0 ** rng.uniform(-3, 2, k) * np.exp(2j * np.pi * rng.random(k)),
                           rng.uniform(0.85, 1.15, k) * np.exp(2j * np.pi * rng.random(k)),
                           rng.choice([1.0, -1.0], n - 3 * k) + 10.0 ** rng.uniform(-16, -1, n - 3 * k)
                           * np.exp(2j * np.pi * rng.random(n - 3 * k))])


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64], ids=["complex128", "complex64"])
def test_hyp2f1_complex(lib, dtype):
    """hyp2f1's complex loops (SciPy's xsf hyp2f1, templates/chyp2f1.cuh) against SciPy over
    a, b, c in (-20, 20) (a fifth integers, a tenth half-integers: the polynomials, the poles of c,
    the limit forms) and the edges (a, b = 0, z = 0, +-1, the poles, Kummer's and Gauss's sums,
    infinite and NaN parts): within 1e-13 of the value plus the size of the terms SciPy's method
    adds (special_host_lib.hyp2f1_complex_size: its transformations' two terms cancel by up to
    1e10 here, where SciPy's and ours are both far off mpmath, each in its own rounding of the Gamma
    ratios). The limit forms (a - b or c - a - b an integer beyond |z| = 0.9) are compared in
    test_hyp2f1_complex_limits; NaN arguments give NaN (SciPy 1.18)."""
    rng = np.random.default_rng(zlib.crc32(b"hyp2f1 complex"))
    n = 40000
    a, b, c = (np.where(rng.random(n) < 0.2, np.round(p), p) for p in rng.uniform(-20, 20, (3, n)))
    a = np.where(rng.random(n) < 0.1, np.round(2 * a) / 2, a)
    z = _hyp2f1_complex_z(rng, n)
    e = np.array([0.0, -1.0, 1.0, 2.0, 0.5, -2.0, 1.5, -0.5, 3.0, np.nan, np.inf])
    ez = np.array([0.0, 1.0, -1.0, 0.5, 2.0, -3.0, 1e10, np.inf, np.nan])
    with np.errstate(invalid="ignore"):
        zz = (ez[:, None] + 1j * ez[None, :]).ravel()
    grid = [g.ravel() for g in np.meshgrid(e, e, e, zz, indexing="ij")]
    a, b, c, z = (np.concatenate([u, v]) for u, v in zip((a, b, c, z), grid))
    real = np.float64 if dtype == np.complex128 else np.float32
    a, b, c, z = a.astype(real), b.astype(real), c.astype(real), z.astype(dtype)
    with np.errstate(all="ignore"):
        want = special.hyp2f1(a, b, c, z)
        got = _hyp2f1_c(lib, dtype, a, b, c, z)
        assert want.dtype == dtype
        a8, b8, c8, z16 = [v.astype(np.float64) for v in (a, b, c)] + [z.astype(np.complex128)]
        branch = special_host_lib.hyp2f1_complex_branches(a8, b8, c8, z16)
        size = special_host_lib.hyp2f1_complex_size(a8, b8, c8, z16)
        rtol = 1e-13 if dtype == np.complex128 else 2e-6
        close = np.abs(got - want) <= rtol * np.abs(want) + 1e-13 * size + (1e-300 if dtype == np.complex128 else 1e-36)
        nan_in = np.isnan(a) | np.isnan(b) | np.isnan(c) | np.isnan(z)
        huge = np.abs(got) > (1e300 if dtype == np.complex128 else 1e36)  # SciPy's rounds to inf
        ok = np.where(nan_in, np.isnan(got.real) & np.isnan(got.imag),
                      np.where(np.isfinite(want), close, ~np.isfinite(got) | huge))
        ok |= np.isin(branch, ["1-z limit", "1/z limit"]) & (np.abs(z16) > 0.9) & np.isfinite(z16) & ~nan_in
    _assert_ok("hyp2f1", (a, b, c, z), got, want, ok)


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64], ids=["complex128", "complex64"])
def test_hyp2f1_complex_limits(lib, dtype):
    """The limit forms of the 1 - z and 1/z transformations (c - a - b, or a - b, an integer; and
    c - a an integer too) against SciPy for |a|, |b| <= 5, 0.5 < c < 10 (parameters in 1/64ths, so
    that the integer differences hold in float32 too): to 1e-4 of the value. SciPy's own value is
    that far off mpmath here (2F1(4.43, 4.06; 10.49; 0.69 + 0.74i): SciPy 7.9e-6, ours 8.6e-6;
    2F1(3, 4; 8; 0.72 - 0.71i): SciPy 1.1e-9, ours 9.5e-10), and more as |1 - z| nears 0.9
    (2F1(2.97, 4.73; 10.70; 0.698 + 0.831i), |1 - z| = 0.88: SciPy 7.1e-4, ours 9.0e-4), which the
    1 - z points keep below 0.8; test_hyp2f1_complex_against_mpmath checks each form to 1e-14
    where it is accurate."""
    rng = np.random.default_rng(zlib.crc32(b"hyp2f1 complex limits"))
    n = 6000
    a = np.where(rng.random(n) < 0.3, np.round(rng.uniform(-5, 5, n)), np.round(64 * rng.uniform(-5, 5, n)) / 64)
    m = rng.integers(-4, 5, n).astype(float)
    b = a - m  # a - b = m
    c = np.round(64 * rng.uniform(0.5, 10, n)) / 64
    c = np.where(rng.random(n) < 0.3, a + np.round(c), c)  # c - a an integer too
    z1 = 10.0 ** rng.uniform(0.05, 1.5, n) * np.exp(2j * np.pi * rng.random(n))  # 1/z
    # 1 - z: c = a + b + m', |z| in [0.9, 1.1) with |1 - z| < 0.9 and Re z >= 0
    a2, b2 = np.round(64 * rng.uniform(-5, 5, (2, n))) / 64
    c2 = a2 + b2 + rng.integers(-3, 4, n)
    t = 1 - rng.uniform(0.1, 0.8, n) * np.exp(1j * rng.uniform(-np.pi, np.pi, n))
    t = np.where((np.abs(t) >= 0.9) & (np.abs(t) < 1.1), t, 1 - 0.5j)  # (|1 - z| < 0.8: see below)
    a, b, c, z = (np.concatenate(v) for v in ((a, a2), (b, b2), (c, c2), (z1, t)))
    keep = (c > 0) & ~((a < 0) & (a == np.round(a))) & ~((b < 0) & (b == np.round(b)))
    real = np.float64 if dtype == np.complex128 else np.float32
    a, b, c, z = a[keep].astype(real), b[keep].astype(real), c[keep].astype(real), z[keep].astype(dtype)
    with np.errstate(all="ignore"):
        want = special.hyp2f1(a, b, c, z)
        got = _hyp2f1_c(lib, dtype, a, b, c, z)
        branch = special_host_lib.hyp2f1_complex_branches(*(v.astype(np.float64) for v in (a, b, c)),
                                                          z.astype(np.complex128))
        ok = np.abs(got - want) <= 1e-4 * np.abs(want) + 1e-300
    assert np.isin(branch, ["1-z limit", "1/z limit"]).sum() > n // 2
    _assert_ok("hyp2f1", (a, b, c, z), got, want, ok)


# mpmath.hyp2f1 at 50 digits, one or two in each of SciPy's methods: the 1 - z limit for m = 0,
# m > 0, m < 0, the 1 - z transformation, the 1/z limit with c - a not and an integer, the 1/z
# transformation, z/(z - 1), Lopez & Temme, the series, the polynomial of a negative integer a.
HYP2F1_COMPLEX_MPMATH = [
    ((1.5, 0.5, 2.0, 0.8 + 0.55j), complex(1.1468684434538066, 0.5225199810316256)),
    ((1.5, 0.5, 4.0, 0.8 - 0.55j), complex(1.1397343391757917, -0.19804194670215142)),
    ((1.5, 2.5, 1.0, 0.85 + 0.5j), complex(-7.225774543734366, -9.072067467074856)),
    ((1.3, 0.7, 2.6, 0.7 + 0.6j), complex(1.136752368933133, 0.40940140441490935)),
    ((2.5, 0.5, 1.3, 3 + 1j), complex(0.03690239411699485, 0.2884645024808198)),
    ((3.0, 1.0, 5.0, -4 + 2j), complex(0.28345033291356275, 0.09279468524795961)),
    ((0.5, 0.5, 1.7, 5 - 2j), complex(0.7477620197599345, -0.508600937992524)),
    ((1.2, 0.4, 2.9, -3 - 4j), complex(0.6796403435885668, -0.14747533543166622)),
    ((0.75, 1.25, 1.5, 1.5 + 0.1j), complex(-0.3374300219581834, 1.7143756486562716)),
    ((0.3, 0.6, 1.4, 0.55 + 0.8j), complex(1.021279011080735, 0.1363659279148815)),
    ((2.0, 1.5, 3.0, -0.8 + 0.5j), complex(0.5025675284912944, 0.15105348817651257)),
    ((0.5, 1.5, 2.5, 0.3 - 0.4j), complex(1.0633111322641267, -0.15862202254898028)),
    ((-3.0, 1.5, 2.5, 4 + 1j), complex(-4.247619047619048, -7.180952380952381)),
    ((1.5, 2.0, -1.5, 7j), complex(0.4541754368, -0.5177665024)),
]


@pytest.mark.parametrize("args, want", HYP2F1_COMPLEX_MPMATH)
def test_hyp2f1_complex_against_mpmath(lib, args, want):
    a, b, c, z = args
    got = complex(_hyp2f1_c(lib, np.complex128, *(np.array([v]) for v in args))[0])
    assert abs(got - want) <= 1e-14 * abs(want), (args, got, want)


# mpmath (60 digits) where SciPy 1.17 and 1.18 are off, from the GPU run's failures of
# test_special_gpu.py: iv underflows to 0 (Cephes' Temme series), stdtrit is 2.7e-11 off near
# p = 1/2 (Boost's quantile: 3.911332020885639e-05), yve overflows to +inf (Y_v(x) is -1.03e328).
MPMATH = [("iv", (26.971553200415176, 1.772542805261539e-10), 7.485440053671179e-300),
          ("stdtrit", (19.00961565625759, 0.5000154001823814), 3.9113320208960296e-05),
          ("stdtrit", (5.106607537237743, 0.499999895802266), -2.7420752374060684e-07),
          ("yve", (91.83216094970703, 0.01762409880757332), -np.inf),
          ("yv", (91.83216094970703, 0.01762409880757332), -np.inf)]


@pytest.mark.parametrize("name, args, want", MPMATH)
def test_against_mpmath(lib, name, args, want):
    got = _call(lib, name, np.float64, *(np.array([v]) for v in args))[0]
    assert got == pytest.approx(want, rel=1e-14)
    if name in ("yve", "yv"):  # the float32 loop too (the GPU run's failure was yve-float32)
        assert _call(lib, name, np.float32, *(np.array([v]) for v in args))[0] == -np.inf


def _lambertw(lib, dtype, z, k, tol):
    fn = getattr(lib, "csf__lambertw_" + ("D" if dtype == np.complex128 else "F"))
    z = np.ascontiguousarray(z, dtype=dtype)
    k = np.ascontiguousarray(np.broadcast_to(k, z.shape), dtype=np.int64)
    tol = np.ascontiguousarray(np.broadcast_to(tol, z.shape), dtype=dtype(0).real.dtype)  # 'Dld' / 'Flf'
    out = np.empty_like(z)
    fn(*(a.ctypes.data_as(ctypes.c_void_p) for a in (z, k, tol, out)), ctypes.c_long(z.size))
    return out


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64], ids=["complex128", "complex64"])
@pytest.mark.parametrize("k", [0, -1, 1, 2, -3, 40])
def test_lambertw(lib, k, dtype):
    """lambertw against SciPy on branches 0, +-1 and beyond: a box |x|, |y| <= 5, magnitudes
    1e-10..1e10 at every angle, the branch point's neighbourhood (both half planes and the real
    segment with both zeros: W_-1 is real there for either), and the edges (0, +-inf, NaN, +-1e300):
    1e-12 (Halley's last step
    leaves the iteration converged to rounding in both). -1/e itself is left out (the iteration
    divides by 2w + 2 = 0 there: NaN in SciPy, rounding decides ours)."""
    rng = np.random.default_rng(zlib.crc32(b"lambertw") + k % 97)
    n = 20000
    z = np.concatenate([rng.uniform(-5, 5, n) + 1j * rng.uniform(-5, 5, n),
                        10 ** rng.uniform(-10, 10, n) * np.exp(2j * np.pi * rng.random(n)),
                        -np.exp(-1) + rng.uniform(-0.3, 0.3, n) + 1j * rng.uniform(-0.3, 0.3, n) * (rng.random(n) < 0.5),
                        rng.uniform(-0.4, 0, n) + 0j, np.conj(rng.uniform(-0.4, 0, n) + 0j)])
    e = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e300, -1e300, 1e-300, -0.1])
    a, b = np.meshgrid(e, e)
    with np.errstate(all="ignore"):
        z = np.concatenate([z, (a + 1j * b).ravel()]).astype(dtype)
        # (a float32 tol picks SciPy's 'Flf->F' loop; a Python float, its 'Dld->D')
        want = special.lambertw(z, k, 1e-8 if dtype == np.complex128 else np.float32(1e-8))
        got = _lambertw(lib, dtype, z, k, 1e-8)
    assert want.dtype == dtype
    keep = np.abs(z.astype(np.complex128) + np.exp(-1)) > 1e-7
    _compare_complex("lambertw", z[keep], got[keep], want[keep], 1e-12 if dtype == np.complex128 else 2e-6)


def _compare_complex(name, z, got, want, rtol):
    with np.errstate(all="ignore"):
        ok = np.isclose(got, want, rtol=rtol, atol=1e-300, equal_nan=True)
        ok |= np.isnan(got) & np.isnan(want)
    bad = np.nonzero(~ok)[0]
    detail = "; ".join("{}({!r}) = {!r}, SciPy {!r}".format(name, complex(z[i]), complex(got[i]), complex(want[i]))
                       for i in bad[:6])
    assert not bad.size, "{} of {} differ: {}".format(bad.size, z.size, detail)


def test_sph_harm_y(lib):
    """sph_harm_y (diff_n=0) against SciPy: degrees to 120, orders in and beyond [-n, n] (0 there),
    n < 0 (0), theta over (-1, 4) (outside [0, pi] SciPy takes |sin theta|), phi over (-7, 7), and
    edge angles (0, pi, pi/2, 2 pi, +-inf, NaN): 1e-12 relative, or 1e-14 of the largest value
    near the harmonics' zeros."""
    rng = np.random.default_rng(zlib.crc32(b"sph_harm_y"))
    N = 50000
    n = rng.integers(-2, 120, N)
    m = rng.integers(-125, 125, N)
    m = np.where(rng.random(N) < 0.5, np.clip(m, -np.maximum(n, 0), np.maximum(n, 0)), m)
    t, p = rng.uniform(-1, 4, N), rng.uniform(-7, 7, N)
    e = np.array([0.0, -0.0, np.pi, np.pi / 2, np.nan, np.inf, -np.inf, 1e-300, 2 * np.pi])
    tt, pp = (g.ravel() for g in np.meshgrid(e, e))
    n = np.concatenate([n, np.resize([0, 1, 2, 5, 3], tt.size)])
    m = np.concatenate([m, np.resize([0, 1, -2, 3, -3], tt.size)])
    t, p = np.concatenate([t, tt]), np.concatenate([p, pp])
    out = np.empty(n.size, np.complex128)
    args = [np.ascontiguousarray(v) for v in (n.astype(np.int64), m.astype(np.int64), t, p)]
    lib.csf__sph_harm_y_D(*(a.ctypes.data_as(ctypes.c_void_p) for a in args + [out]), ctypes.c_long(n.size))
    with np.errstate(all="ignore"):
        want = special.sph_harm_y(n, m, t, p)
        ok = np.isclose(out, want, rtol=1e-12, atol=1e-14 * np.nanmax(np.abs(want)), equal_nan=True)
    bad = np.nonzero(~ok)[0]
    assert not bad.size, [(n[i], m[i], t[i], p[i], out[i], want[i]) for i in bad[:6]]
