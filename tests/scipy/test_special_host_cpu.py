"""The special functions' C source, compiled for the host with g++ (no GPU), against scipy.special.

cuarray/scipy/special/templates/*.cuh are `__host__ __device__`; special_host.cpp wraps the
functions that do not come from CUDA's math library as C loops over the same expressions as the
ufunc rows. Every function is checked over its domain (random and log-spaced arguments of both
signs) and at its edges (0, -0, +-inf, NaN, poles, huge arguments), for the float64 and the
float32 loop, within tolerances of SciPy's own tests. (The CUDA-library functions - erfcx,
erfinv, ndtri, i0, i0e, ... - are compiled by NVRTC in test_special_codegen_cpu.py and compared on
the GPU in test_special_gpu.py.)
"""

from __future__ import annotations

import ctypes
import pathlib
import shutil
import subprocess
import zlib

import numpy as np
import pytest

special = pytest.importorskip("scipy.special")

HERE = pathlib.Path(__file__).parent
TEMPLATES = HERE.parent.parent / "cuarray" / "scipy" / "special" / "templates"

EDGES = np.array([0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, -2.5, 10.0, -10.0, 1e-300, -1e-300, 1e-20,
                  1e10, -1e10, 1e300, -1e300, np.inf, -np.inf, np.nan, 1.4616321449683622, 45.0, 90.0,
                  180.0, 270.0, 360.0, -90.0, 135.0, 1e15, 0.3, 0.7, 0.9999999, 1e-8, 700.0, -700.0, 750.0])


def _args(rng, n=4000, lo=-50.0, hi=50.0, edges=True):
    """Uniform values, log-spaced magnitudes of both signs, and the edge values (those inside
    [lo, hi] unless `edges`)."""
    u = rng.uniform(lo, hi, n)
    mags = 10.0 ** rng.uniform(-12, np.log10(max(abs(lo), abs(hi), 1.0)), n)
    signs = np.where(rng.random(n) < 0.5, -1.0, 1.0) if lo < 0 else 1.0
    e = EDGES if edges else EDGES[(EDGES >= lo) & (EDGES <= hi) | ~np.isfinite(EDGES)]
    return np.concatenate([u, mags * signs, e])


# Where SciPy's values are themselves inaccurate, the edges outside the checked range are left out:
# Bessel functions beyond 1e4 (Cephes reduces x - pi/4 in double; glibc and CUDA reduce exactly).
RANGE_ONLY = {"j0", "j1", "y0", "y1", "yn"}


# name: (argument range(s), float64 rtol, float32 rtol[, absolute tolerance]). Ranges are per
# argument. An absolute tolerance where the function oscillates (Bessel functions near their zeros)
# or where SciPy's own error is absolute: gammaln near its roots 1 and 2, where ours is relative
# (test_gammaln_near_its_roots) and SciPy's is not (3e-9 relative at 1 - 1e-7); kl_div's
# x log(x/y) - x + y cancels when x ~ y. expi's 5e-14: SciPy's own error just above 40
# (1.4e-14; ours is checked to 1e-15 against the 60-digit series in test_expi_against_its_series).
UNARY = {
    "erf": ((-10, 10), 1e-14, 2e-6),
    "erfc": ((-10, 30), 1e-13, 2e-6),
    "ndtr": ((-40, 40), 5e-13, 2e-6),
    "gamma": ((-180, 180), 1e-13, 5e-6),
    "gammaln": ((-200, 1e5), 1e-13, 5e-6, 1e-15),
    "loggamma": ((-10, 1e5), 1e-13, 5e-6, 1e-15),
    "gammasgn": ((-100, 100), 0, 0),
    "rgamma": ((-180, 180), 1e-12, 5e-6),
    "psi": ((-50, 1e5), 1e-12, 2e-6),
    "j0": ((-1e4, 1e4), 1e-10, 1e-5, 1e-14),
    "j1": ((-1e4, 1e4), 1e-10, 1e-5, 1e-14),
    "y0": ((0, 1e4), 1e-10, 1e-5, 1e-14),
    "y1": ((0, 1e4), 1e-10, 1e-5, 1e-14),
    "expit": ((-800, 800), 1e-15, 1e-6),
    "logit": ((0, 1), 1e-14, 1e-6),
    "log_expit": ((-800, 800), 1e-14, 1e-6),
    "entr": ((-1, 100), 1e-15, 1e-6),
    "cbrt": ((-1e10, 1e10), 1e-15, 1e-6),
    "exp2": ((-1100, 1100), 1e-15, 1e-6),
    "exp10": ((-330, 330), 1e-14, 1e-6),
    "expm1": ((-50, 50), 1e-15, 1e-6),
    "log1p": ((-1, 1e10), 1e-15, 1e-6),
    "cosm1": ((-10, 10), 1e-14, 1e-6),
    "cosdg": ((-1000, 1000), 1e-13, 1e-6),
    "sindg": ((-1000, 1000), 1e-13, 1e-6),
    "tandg": ((-1000, 1000), 1e-13, 1e-6),
    "cotdg": ((-1000, 1000), 1e-13, 1e-6),
    "round": ((-100, 100), 0, 0),
    "exprel": ((-800, 800), 1e-14, 1e-6),
    "exp1": ((0, 800), 1e-14, 1e-6),
    "expi": ((-800, 800), 5e-14, 1e-6),
}
BINARY = {
    "yn": ((-10, 10), (0, 1e4), 1e-10, 1e-5, 1e-14),
    "xlogy": ((-10, 10), (-1, 1e5), 1e-15, 1e-6),
    "xlog1py": ((-10, 10), (-2, 1e5), 1e-15, 1e-6),
    "rel_entr": ((-1, 10), (-1, 10), 1e-13, 1e-5),
    "kl_div": ((-1, 10), (-1, 10), 1e-13, 1e-5, 1e-14),
    "huber": ((-1, 10), (-20, 20), 1e-15, 1e-6),
    "pseudo_huber": ((-1, 10), (-20, 20), 1e-14, 1e-6),
    "boxcox": ((0, 100), (-5, 5), 1e-13, 1e-5),
    "boxcox1p": ((-1, 100), (-5, 5), 1e-13, 1e-5),
    "inv_boxcox": ((-5, 5), (-3, 3), 1e-13, 1e-5),
    "inv_boxcox1p": ((-5, 5), (-3, 3), 1e-13, 1e-5),
}
# Arguments where our value knowingly differs from SciPy's, SciPy's being an overflow artefact
# (documented in docs/scipy.md): pseudo_huber of a huge r/delta, which SciPy turns into NaN and we
# evaluate (~ delta |r|); kl_div where x/y overflows or underflows (SciPy: inf or -inf, we:
# x (log x - log y) - x + y).
KNOWN = {
    # rgamma below -170, where SciPy's 1/Gamma overflows before 1/Gamma does (~7e307 at -170.7).
    "rgamma": lambda x: (x < -170) & np.isfinite(x),
    # expi between 709.8 and 716, where SciPy's e^x overflows before Ei(x) does.
    "expi": lambda x: (x > 709) & np.isfinite(x),
    "pseudo_huber": lambda a, b: np.isfinite(a) & (a > 0) & (np.abs(b) > 1e150 * np.abs(a)),
    "kl_div": lambda a, b: (a > 0) & (b > 0) & np.isfinite(a) & np.isfinite(b) & (
        (np.abs(a) > 1e300 * np.abs(b)) | (np.abs(a) < 1e-300 * np.abs(b))),
}


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    gxx = shutil.which("g++")
    if gxx is None:
        pytest.skip("no g++ on this machine")
    so = tmp_path_factory.mktemp("csf") / "csf_host.so"
    subprocess.run([gxx, "-O2", "-std=c++17", "-shared", "-fPIC", "-I", str(TEMPLATES),
                    str(HERE / "special_host.cpp"), "-o", str(so)], check=True)
    return ctypes.CDLL(str(so))


def _call(lib, name, dtype, *args):
    fn = getattr(lib, "csf_{}_{}".format(name, "d" if dtype == np.float64 else "f"))
    args = [np.ascontiguousarray(a, dtype=dtype) for a in args]
    out = np.empty_like(args[0])
    ptr = [a.ctypes.data_as(ctypes.c_void_p) for a in args]
    fn(*ptr, out.ctypes.data_as(ctypes.c_void_p), ctypes.c_long(out.size))
    return out


def _compare(name, args, got, want, rtol, dtype, mask=None, atol=()):
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


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary(lib, name, dtype):
    (lo, hi), rtol_d, rtol_f, *atol = UNARY[name]
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    with np.errstate(all="ignore"):
        x = _args(rng, lo=lo, hi=hi, edges=name not in RANGE_ONLY).astype(dtype)
        want = getattr(special, name)(x)
    got = _call(lib, name, dtype, x)
    assert want.dtype == dtype
    with np.errstate(all="ignore"):
        mask = KNOWN[name](x) & ~np.isfinite(want) if name in KNOWN else None
    _compare(name, (x,), got, want, rtol_d if dtype == np.float64 else rtol_f, dtype, mask, atol)


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary(lib, name, dtype):
    (lo1, hi1), (lo2, hi2), rtol_d, rtol_f, *atol = BINARY[name]
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    full = name not in RANGE_ONLY
    a, b = _args(rng, lo=lo1, hi=hi1, edges=full), _args(rng, lo=lo2, hi=hi2, edges=full)
    a, b = a[: min(a.size, b.size)], b[: min(a.size, b.size)]
    # every edge against every edge as well
    eb = EDGES if full else EDGES[(EDGES >= lo2) & (EDGES <= hi2) | ~np.isfinite(EDGES)]
    ea, eb = np.meshgrid(EDGES, eb)
    with np.errstate(all="ignore"):
        a = np.concatenate([a, ea.ravel()]).astype(dtype)
        b = np.concatenate([b, eb.ravel()]).astype(dtype)
    if name == "yn":  # the recurrence runs n steps (here, in SciPy and in CUDA): keep n small
        a = np.where(np.abs(a) > 1000, 7.0, np.trunc(a)).astype(dtype)
    with np.errstate(all="ignore"):
        want = getattr(special, name)(a, b)
    got = _call(lib, name, dtype, a, b)
    with np.errstate(all="ignore"):
        mask = KNOWN[name](a.astype(np.float64), b.astype(np.float64)) if name in KNOWN else None
    _compare(name, (a, b), got, want, rtol_d if dtype == np.float64 else rtol_f, dtype, mask, atol)


@pytest.mark.parametrize("x", [0.9999999, 1.0000001, 0.8, 1.2, 1.9999999, 2.0000001, 1.8, 2.2])
def test_gammaln_near_its_roots(lib, x):
    """Relative accuracy where log Gamma crosses zero: against its Taylor series about 1 in 40-digit
    decimal arithmetic (log Gamma(2 + z) = log(1 + z) + log Gamma(1 + z))."""
    from decimal import Decimal, getcontext

    getcontext().prec = 40
    z = Decimal(x) - (2 if x > 1.5 else 1)
    zetas = [special.zeta(k) for k in range(2, 60)]  # double precision is plenty: |z| <= 1/4
    s = -Decimal("0.57721566490153286060651209008240243104") * z
    for k, zk in zip(range(2, 60), zetas):
        s += (-1) ** k * Decimal(zk) / k * z ** k
    if x > 1.5:
        s += Decimal(np.log1p(float(z)))  # log1p is correctly rounded enough: its error is relative
    got = _call(lib, "gammaln", np.float64, np.array([x]))[0]
    assert got == pytest.approx(float(s), rel=4e-16)


@pytest.mark.parametrize("x", [0.5, 5.0, 25.0, 39.9, 40.1, 41.17203287941322, 60.0, 300.0])
def test_expi_against_its_series(lib, x):
    """Ei(x) = euler + ln x + sum x^k / (k k!) (all terms positive), in 60-digit decimal arithmetic."""
    from decimal import Decimal, getcontext

    getcontext().prec = 60
    d = Decimal(x)
    s, t = Decimal(0), Decimal(1)
    for k in range(1, int(4 * x) + 200):
        t = t * d / k
        s += t / k
    want = float(Decimal("0.577215664901532860606512090082402431042159335939923598805767") + d.ln() + s)
    got = _call(lib, "expi", np.float64, np.array([x]))[0]
    assert got == pytest.approx(want, rel=1e-15)


def test_ndtr_far_tail_uses_sqrt1_2_rounded_once(lib):
    """Phi(x) at x in (-37, -20) scales x by 1/sqrt 2: our constant was 1.0 / sqrt 2 rounded twice
    (an ulp low), an error the tail amplifies by ~x^2 (4e-13 relative against SciPy, and 2e-13 in
    log_ndtr's right tail on the GPU). SciPy's M_SQRT1_2 leaves the libraries' erfc difference."""
    x = -np.random.default_rng(zlib.crc32(b"ndtr tail")).uniform(20, 37, 20000)
    got = _call(lib, "ndtr", np.float64, x)
    np.testing.assert_allclose(got, special.ndtr(x), rtol=1e-13)
