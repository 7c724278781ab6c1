"""The float evaluations of float32 special-function loops (templates/bessel_float.cuh: i0e, i1e;
templates/gamma_float.cuh: gammaln for x >= 0; over float_math.cuh), compiled for the host with
g++ (tests/scipy/special_float_host.cpp), against SciPy's float64 values: at most 2 ulp of the
value rounded to float32, over a million fresh random points of each of the evaluation's
intervals (gammaln: and within 1e-3 of its roots 1 and 2, where the error stays relative) and at
the edges (0, -0, subnormals, the interval ends, FLT_MAX, +-inf, NaN). The evaluation uses only +, *, fmaf, IEEE division and sqrt and bit operations, so
these are the bits the GPU computes (test_special_float_gpu.py compares the two where g++ is
there)."""

from __future__ import annotations

import ctypes
import pathlib
import shutil
import subprocess

import numpy as np
import pytest

special = pytest.importorskip("scipy.special")

HERE = pathlib.Path(__file__).parent
TEMPLATES = HERE.parent.parent / "cuarray" / "scipy" / "special" / "templates"
# name in special_float_host.cpp -> SciPy's function
FUNCS = {"i0e_float": "i0e", "i1e_float": "i1e", "gammaln_float": "gammaln"}
MAX_ULP = 2.0
# The evaluations' intervals in |x| (bessel_float.cuh, gamma_float.cuh); a log-spaced sweep of all
# magnitudes is added to each.
INTERVALS = {
    "i0e_float": [(0.0, 2.0), (2.0, 4.0), (4.0, 64.0), (64.0, 1e6)],
    "i1e_float": [(0.0, 2.0), (2.0, 4.0), (4.0, 64.0), (64.0, 1e6)],
    "gammaln_float": [(0.0, 0.5), (0.5, 1.5), (1.5, 3.0), (3.0, 8.0), (8.0, 1e4), (1 - 1e-3, 1 + 1e-3),
                      (2 - 1e-3, 2 + 1e-3)],
}
EVEN_ODD = {"i0e_float": 1, "i1e_float": -1}  # gammaln's negative axis is the double evaluation


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    gxx = shutil.which("g++")
    if gxx is None:
        pytest.skip("no g++ on this machine")
    so = tmp_path_factory.mktemp("csff") / "csf_float.so"
    subprocess.run([gxx, "-O2", "-std=c++17", "-shared", "-fPIC", "-I", str(TEMPLATES),
                    str(HERE / "special_float_host.cpp"), "-o", str(so)], check=True)
    return ctypes.CDLL(str(so))


def host(lib, name, x):
    x = np.ascontiguousarray(x, dtype=np.float32)
    out = np.empty_like(x)
    getattr(lib, "csf_" + name)(x.ctypes.data_as(ctypes.c_void_p), out.ctypes.data_as(ctypes.c_void_p),
                                ctypes.c_long(x.size))
    return out


def ulp_errors(got, want):
    """|got - want| in units of the float32 ulp of `want` (SciPy's float64 value), where `want` is
    finite; and whether got is `want` rounded to float32 (correctly rounded)."""
    fin = np.isfinite(want)
    w32 = want[fin].astype(np.float32)
    ulp = np.spacing(np.maximum(np.abs(w32), np.float32(np.finfo(np.float32).tiny))).astype(np.float64)
    err = np.abs(got[fin].astype(np.float64) - want[fin]) / ulp
    return err, got[fin] == w32


def edges(name):
    f = np.finfo(np.float32)
    v = [0.0, -0.0, f.smallest_subnormal, 1e-40, f.tiny, 1e-30, 1e-8, 1e20, 1e36, 4e36, float(f.max)]
    v += [float(np.nextafter(np.float32(b), np.float32(s * np.inf))) for lo, hi in INTERVALS[name] for b in (lo, hi)
          for s in (-1, 1)]
    v = np.array(v, dtype=np.float32)
    return np.concatenate([v, -v]) if name in EVEN_ODD else v


def points(rng, name, n=1_000_000):
    parts = [rng.uniform(lo, hi, n) for lo, hi in INTERVALS[name]]
    parts.append(10.0 ** rng.uniform(-44, 38.5, n))
    x = np.concatenate(parts).astype(np.float32)
    if name in EVEN_ODD:
        x = x * np.where(rng.random(x.size) < 0.5, -1, 1).astype(np.float32)
    return np.concatenate([x, edges(name)])


def check(name, x, got):
    """At most MAX_ULP from SciPy's float64 value (infinite where it is, in float32); more than 0.6
    of the values correctly rounded."""
    want = getattr(special, FUNCS[name])(x.astype(np.float64))
    with np.errstate(over="ignore"):  # float32 overflow of SciPy's value: inf, as its float32 loop
        want32 = want.astype(np.float32)
    inf32 = np.isinf(want32)
    np.testing.assert_array_equal(got[inf32], want32[inf32])
    err, exact = ulp_errors(got[~inf32], want[~inf32])
    i = int(np.argmax(err))
    xs, gs, ws = (a[~inf32][np.isfinite(want[~inf32])] for a in (x, got, want))
    assert err.max() <= MAX_ULP, "{}({!r}) = {!r}, SciPy {!r}: {:.2f} ulp".format(
        FUNCS[name], float(xs[i]), float(gs[i]), float(ws[i]), err.max())
    assert exact.mean() > 0.6  # measured 0.57-0.96 by interval


@pytest.mark.parametrize("name", sorted(FUNCS))
def test_within_two_ulp_of_scipy(lib, name):
    x = points(np.random.default_rng(), name)
    check(name, x, host(lib, name, x))


@pytest.mark.parametrize("name", sorted(FUNCS))
def test_non_finite_and_signs(lib, name):
    x = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0], dtype=np.float32)
    got = host(lib, name, x)
    want = getattr(special, FUNCS[name])(x.astype(np.float64)).astype(np.float32)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got[[0, 1, 3, 4]]), np.signbit(want[[0, 1, 3, 4]]))
    if name in EVEN_ODD:  # i0e even, i1e odd, bit for bit
        y = np.random.default_rng().uniform(-50, 50, 10000).astype(np.float32)
        np.testing.assert_array_equal(host(lib, name, -y), EVEN_ODD[name] * host(lib, name, y))


def test_gammaln_overflow_edge_as_scipy(lib):
    # gammaln's float32 overflow: every float32 within 2e-3 relative of the x where x (log x - 1)
    # passes FLT_MAX is inf exactly where SciPy's double rounds to inf (two float roundings gave
    # FLT_MAX at 4.0850034e36, where SciPy's 3.40282362e38 overflows), within 2 ulp elsewhere
    c = np.float32(4.0850034e36)
    x = c + np.arange(-2**18, 2**18, dtype=np.float64) * float(np.spacing(c))
    x = x.astype(np.float32)
    check("gammaln_float", x, host(lib, "gammaln_float", x))
    assert host(lib, "gammaln_float", np.array([c]))[0] == np.inf


def test_gammaln_negative_axis_as_scipy(lib):
    # below 0 the float32 loop computes in double (gamma_float.cuh): SciPy's value rounded once,
    # absolutely accurate near the roots, inf at the poles, -inf at -inf
    rng = np.random.default_rng()
    x = np.concatenate([rng.uniform(-40, 0, 200_000), -np.arange(0, 40), [-1e-40, -3e38]]).astype(np.float32)
    want = special.gammaln(x.astype(np.float64))
    np.testing.assert_allclose(host(lib, "gammaln_float", x), want.astype(np.float32), rtol=2.5e-7, atol=1e-6)


def test_log_parts(lib):
    # the logarithm under gammaln's float evaluation (float_math.cuh): within 0.9 ulp everywhere
    x = (10.0 ** np.random.default_rng().uniform(-45, 38.5, 1_000_000)).astype(np.float32)
    x = x[x > 0]
    err, exact = ulp_errors(host(lib, "log_f", x), np.log(x.astype(np.float64)))
    assert err.max() < 0.9 and exact.mean() > 0.95
