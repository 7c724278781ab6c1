"""complex_math.cuh's functions built for the host (g++, the header as it is with __device__ empty)
against NumPy, without a GPU (issue 54 and the outside comparison with NumPy 2.5):

- every complex unary ufunc's function over a grid of special values (+-0, +-inf, NaN, +-1e308,
  subnormals, the largest finite, 1, 0.5, 3 and all their real/imaginary combinations): NumPy's
  values (glibc's complex functions on Linux) to a few ulps, NaN, infinities and zeros with their
  signs exactly; NumPy's inaccurate answers (log1p near 0, sign of subnormal or huge parts:
  docs/differences.md) against the exact value instead;
- the multiply ufunc's complex product bit for bit as NumPy's fused loop, power's integer steps as
  its unfused npy_cpow;
- 0 ** b, a ** 0, 0 ** 0 (complex64/complex128, signed zeros, NaN and infinite exponents): NumPy's
  0 for Re(b) > 0, 1 for b == 0, nan+nanj otherwise;
- |z|, log|z| and log1p near the top of the range with the host's hypot and with one that, as
  CUDA's did on the H100, rounds its top 4 ulps up to inf (|1e-3 + DBL_MAX j| is DBL_MAX, |DBL_MAX +
  DBL_MAX j| is inf, NaN and infinite parts as NumPy's).

The device build of the same functions: test_wrong_values_cpu.py (NVRTC, sm_90); their values on
the GPU: test_wrong_values_gpu.py."""

from __future__ import annotations

import ctypes
import pathlib
import shutil
import subprocess

import numpy as np
import pytest

import cuarray._core as core
from complex_special_values import UNARY, cpow_fallback_cases, mismatches, oracle, random_range, special_grid  # (beside this file)

HERE = pathlib.Path(__file__).parent
TEMPLATES = pathlib.Path(core.__file__).parent / "templates"


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    if shutil.which("g++") is None:
        pytest.skip("no g++")
    so = tmp_path_factory.mktemp("complex_math") / "libcm.so"
    subprocess.run(["g++", "-O1", "-std=c++17", "-ffp-contract=off", "-shared", "-fPIC", "-I", str(TEMPLATES),
                    str(HERE / "host" / "complex_math_host.cpp"), "-o", str(so)], check=True)
    return ctypes.CDLL(str(so))


def _real(dt):
    return np.float32 if np.dtype(dt) == np.complex64 else np.float64


def _unary(lib, name, z):
    """`name` over z: real for abs, complex (z's dtype) otherwise."""
    z = np.ascontiguousarray(z)
    pair = z.view(_real(z.dtype)).copy()
    out = np.empty_like(pair)
    getattr(lib, name)(pair.ctypes.data_as(ctypes.c_void_p), out.ctypes.data_as(ctypes.c_void_p),
                       ctypes.c_long(z.size))
    return out[:z.size] if name.startswith("abs") else out.view(z.dtype)


def _power(lib, a, b):
    a, b = np.broadcast_arrays(a, b)
    a, b = np.ascontiguousarray(a), np.ascontiguousarray(b)
    rt = _real(a.dtype)
    pa, pb = a.view(rt).copy(), b.view(rt).copy()
    out = np.empty_like(pa)
    getattr(lib, "pow_f" if rt is np.float32 else "pow_d")(
        *(x.ctypes.data_as(ctypes.c_void_p) for x in (pa, pb, out)), ctypes.c_long(a.size))
    return out.view(a.dtype).reshape(a.shape)


ZERO_PARTS = [0.0, -0.0]
EXPONENTS = [0, 2, 0.5, 1e-300, 3.5, -2, -0.5, np.inf, -np.inf, np.nan, 1e300]


def _values(dt):
    v = [complex(r, i) for r in EXPONENTS for i in [0.0, -0.0, 3.0, -1.5, np.inf, np.nan]]
    return np.array(v, dt)


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_powers_of_zero_and_to_zero_as_numpy(lib, dt):
    zeros = np.array([complex(r, i) for r in ZERO_PARTS for i in ZERO_PARTS], dt)
    b = _values(dt)
    rng = np.random.default_rng()
    bases = np.concatenate([zeros, (rng.standard_normal(6) + 1j * rng.standard_normal(6)).astype(dt),
                            np.array([complex(np.inf, 0), complex(np.nan, 1), complex(0, np.inf)], dt)])
    with np.errstate(all="ignore"):
        for a in bases:
            for exps in (b, np.array([0, complex(0, -0.0), complex(-0.0, 0)], dt)):
                want = np.power(a, exps)
                got = _power(lib, a, exps)
                zero_case = (a == 0) | (exps == 0)
                # the zero cases exactly (NaN where NumPy's is NaN, either part)
                np.testing.assert_array_equal(got[zero_case], want[zero_case], err_msg="{} ** {}".format(a, exps))
        # float_power: the complex128 loop
        a = zeros.astype(np.complex128)[:, None]
        e = _values(np.complex128)[None, :]
        np.testing.assert_array_equal(_power(lib, a, e), np.float_power(a, e))


@pytest.mark.parametrize("rough", [0, 1], ids=["host-hypot", "cuda-like-hypot"])
@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_modulus_log_log1p_at_the_top_of_the_range(lib, dt, rough):
    lib.set_rough(rough)
    rt = _real(dt)
    big = np.finfo(rt).max
    rng = np.random.default_rng()
    parts = [1e-3, big, -big, big / 2, big * 0.75, np.nextafter(big, 0), 1.0, 0.0, np.inf, -np.inf, np.nan]
    z = np.array([complex(x, y) for x in parts for y in parts] +
                 list(big * (rng.random(20) * 2 - 1) + 1j * big * (rng.random(20) * 2 - 1)), dt)
    tol = 4 * np.finfo(rt).eps
    suffix = "_f" if rt is np.float32 else "_d"
    with np.errstate(all="ignore"):
        got = _unary(lib, "abs" + suffix, z)
        np.testing.assert_allclose(got, np.abs(z), rtol=tol, atol=0)
        one = np.array([complex(rt(1e-3), big)], dt)
        assert _unary(lib, "abs" + suffix, one)[0] == np.abs(one)[0] == big
        assert np.isinf(_unary(lib, "abs" + suffix, np.array([complex(big, big)], dt))[0])
        for name, ref in (("log", np.log), ("log1p", np.log1p)):
            got = _unary(lib, name + suffix, z)
            want = ref(z)
            # (NumPy's log1p is log(hypot(1 + x, y)): absolute error ~eps for small z, where
            # cuarray's log1p(2x + x^2 + y^2)/2 is exact to rounding)
            np.testing.assert_allclose(got.real, want.real, rtol=tol, atol=0 if name == "log" else 2 * tol / 4,
                                       err_msg=name)
            np.testing.assert_allclose(got.imag, want.imag, rtol=tol, atol=tol, err_msg=name)
    lib.set_rough(0)


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_power_of_non_finite_exponents_as_glibc_cpow(lib, dt):
    # npy_cpow's fallback is glibc's cexp(b * clog(a)), the product with C99 Annex G's recovery of
    # infinities: 17 ** (-inf + infj) and (3e38 - 3e38j) ** (-inf + nanj) are 0 in NumPy (were NaN)
    a, b = cpow_fallback_cases(dt)
    with np.errstate(all="ignore"):
        want = np.power(a, b)
    got = _power(lib, a, b)
    bad = mismatches(got, want, a, "power", rtol=16)
    assert not bad, "\n".join(bad[:20])


@pytest.mark.parametrize("rough", [0, 1], ids=["host-hypot", "cuda-like-hypot"])
@pytest.mark.parametrize("dt", [np.float16, np.float32, np.float64])
def test_real_hypot_at_the_top_of_the_range(lib, dt, rough):
    # the hypot ufunc's loops: C's hypot (NumPy's) is finite wherever the result is; hypot(1, DBL_MAX)
    # was inf on the H200 (CUDA's hypot rounds its top ulps up)
    lib.set_rough(rough)
    big = float(np.finfo(dt).max)
    rng = np.random.default_rng()
    parts = [1.0, -1.0, 1e-3, 0.0, -0.0, big, -big, big / 2, big * 0.75, float(np.nextafter(dt(big), dt(0))),
             np.inf, -np.inf, np.nan, float(np.finfo(dt).smallest_subnormal)]
    a = np.array([x for x in parts for _ in parts] + list(big * (rng.random(20) * 2 - 1)), dt)
    b = np.array([y for _ in parts for y in parts] + list(big * (rng.random(20) * 2 - 1)), dt)
    ct = np.float64 if dt == np.float64 else np.float32  # NumPy's float16 loop: hypotf, rounded
    out = np.empty(a.size, ct)
    fn = lib.hypot_d if ct == np.float64 else lib.hypot_f
    pa, pb = a.astype(ct), b.astype(ct)
    fn(*(x.ctypes.data_as(ctypes.c_void_p) for x in (pa, pb, out)), ctypes.c_long(a.size))
    lib.set_rough(0)
    with np.errstate(all="ignore"):
        got, want = out.astype(dt), np.hypot(a, b)
    assert got[0 * len(parts) + 5] == want[5] == big  # hypot(1, max)
    assert np.isinf(got[5 * len(parts) + 5])  # hypot(max, max)
    np.testing.assert_array_max_ulp(got[np.isfinite(want)], want[np.isfinite(want)], maxulp=2)
    np.testing.assert_array_equal(got[~np.isfinite(want)], want[~np.isfinite(want)])


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_log1p_near_zero_is_accurate_to_rounding(lib, dt):
    # Re log1p(z) near 0 is log1p(2x + x^2 + y^2)/2: the smallest normal t gives t + tj exactly, where
    # NumPy's log(hypot(1 + x, y)) gives 0 + tj (docs/differences.md); Im is NumPy's atan2(y, 1 + x)
    rt = _real(dt)
    t = np.finfo(rt).tiny
    suffix = "_f" if rt is np.float32 else "_d"
    z = np.array([complex(t, t), complex(-t, t), complex(t, -t), complex(0, t)], dt)
    got = _unary(lib, "log1p" + suffix, z)
    np.testing.assert_array_equal(got.real, [t, -t, t, 0])
    np.testing.assert_array_equal(got.imag, np.log1p(z).imag)
    assert np.log1p(z[:1])[0].real == 0  # NumPy's, the difference documented
    x = rt(1e-10) if rt is np.float64 else rt(1e-5)
    got = _unary(lib, "log1p" + suffix, np.array([complex(x, 0)], dt))[0]
    assert got.imag == 0 and abs(got.real - np.log1p(x)) <= np.spacing(np.log1p(x))  # the real log1p's value


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_logs_of_subnormal_parts_as_numpy(lib, dt):
    # |z| of two subnormal parts is itself subnormal, rounded to its few bits (|2^-149 (1 + 1j)| is
    # 2^-149 in float): log|z| from the parts scaled up, as NumPy's (log2 is -148.5 there, not -149)
    rt = _real(dt)
    fi = np.finfo(rt)
    t = fi.smallest_subnormal
    sub = np.concatenate([[t, 2 * t, 3 * t, fi.tiny / 2, fi.tiny - t],
                          np.random.default_rng().uniform(1, 2 ** fi.nmant, 8).round() * t]).astype(rt)
    z = np.array([complex(x * sx, y * sy) for x in sub for y in np.concatenate([sub, [0]])
                  for sx, sy in ((1, 1), (-1, -1))], dt)
    suffix = "_f" if rt is np.float32 else "_d"
    for name in ("log", "log2", "log10"):
        got, want = _unary(lib, name + suffix, z), getattr(np, name)(z)
        np.testing.assert_allclose(got.real, want.real, rtol=4 * fi.eps, atol=0, err_msg=name)
        np.testing.assert_array_equal(got.imag, want.imag, err_msg=name)


# -- every unary function over the special values --------------------------------------------------
@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_unary_special_values_as_numpy(lib, dt):
    z = special_grid(dt)
    suffix = "_f" if _real(dt) is np.float32 else "_d"
    bad = []
    for name, fn in UNARY.items():
        with np.errstate(all="ignore"):
            got = _unary(lib, fn + suffix, z)
        bad += mismatches(got, oracle(name, z), z, name, rtol=8)
    assert not bad, "{} mismatches:\n  ".format(len(bad)) + "\n  ".join(bad[:30])


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_unary_over_the_whole_range_as_numpy(lib, dt):
    """Fresh values of every magnitude: within 4 ulps of |NumPy's| (the far-field and overflow
    branches against glibc's own), every NaN and infinity where NumPy's is."""
    z = random_range(dt, 3000, np.random.default_rng())
    suffix = "_f" if _real(dt) is np.float32 else "_d"
    bad = []
    for name, fn in UNARY.items():
        with np.errstate(all="ignore"):
            got = _unary(lib, fn + suffix, z)
        bad += mismatches(got, oracle(name, z), z, name, rtol=4, noise=1.0)
    assert not bad, "{} mismatches:\n  ".format(len(bad)) + "\n  ".join(bad[:30])


def _numpy_fuses_complex_products():
    """Whether this NumPy's multiply loop fuses (x86-64 with FMA: the oracle's machines):
    (1 + 2^-30)(1 - 2^-30) - 1 is -2^-60 once fused, 0 in two roundings."""
    a = np.array([complex(1 + 2.0 ** -30, 1.0)])
    b = np.array([complex(1 - 2.0 ** -30, -1.0)])
    return (a * b)[0].real == 2 - 2.0 ** -60  # re = a.re b.re - a.im b.im = (1 - 2^-60) + 1


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_products_bit_for_bit(lib, dt):
    rng = np.random.default_rng()
    rt = _real(dt)
    a = (rng.standard_normal(4000) + 1j * rng.standard_normal(4000)).astype(dt)
    b = (rng.standard_normal(4000) + 1j * rng.standard_normal(4000)).astype(dt)
    big = np.array([complex(np.finfo(rt).max / 3, np.finfo(rt).max / 3), complex(1e38, np.inf), 3 + 0j], dt)
    # power's integer steps: NumPy's npy_cpow multiplies unfused
    for n in (2, 3, 5, -3):
        np.testing.assert_array_equal(_power(lib, a, np.array(n, dt)), np.power(a, dt(n)), err_msg="z ** {}".format(n))
    if not _numpy_fuses_complex_products():
        pytest.skip("this NumPy's complex multiply does not fuse (no FMA)")
    pa, pb, out = a.view(rt).copy(), b.view(rt).copy(), np.empty(2 * a.size, rt)
    getattr(lib, "mul_f" if rt is np.float32 else "mul_d")(
        *(x.ctypes.data_as(ctypes.c_void_p) for x in (pa, pb, out)), ctypes.c_long(a.size))
    np.testing.assert_array_equal(out.view(dt), a * b)
    with np.errstate(all="ignore"):
        got = _unary(lib, "square" + ("_f" if rt is np.float32 else "_d"), np.concatenate([a, big]))
        np.testing.assert_array_equal(got, np.square(np.concatenate([a, big])))


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_arctan_of_an_infinite_part_keeps_the_sign_of_im(lib, dt):
    """glibc's catan: an infinite part gives Im a zero of Im z's sign, a NaN Im z's too (the device
    once took it through atanh(iz), where the GPU's -NaN may lose the sign: -0 for inf + nanj)."""
    nan = np.float64(np.nan)
    ims = [nan, -nan, np.inf, -np.inf, 0.0, -0.0, 2.0, -2.0]
    res = [np.inf, -np.inf, nan, -nan, 0.0, -0.0, 2.0, -2.0]
    z = np.array([complex(r, i) for r in res for i in ims if np.isinf(r) or np.isinf(i)], dt)
    suffix = "_f" if _real(dt) is np.float32 else "_d"
    got = _unary(lib, "atan" + suffix, z)
    with np.errstate(all="ignore"):
        want = np.arctan(z)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got.imag), np.signbit(want.imag), err_msg=str(z))
