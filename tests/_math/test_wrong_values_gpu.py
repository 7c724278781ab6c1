"""Issue 54, "wrong values": each case against NumPy on the host (the oracle)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import cuarray as cp
from complex_special_values import UNARY, cpow_fallback_cases, mismatches, oracle, random_range, special_grid  # (beside this file)

pytestmark = pytest.mark.gpu


def _huge(dt):
    f = np.finfo(np.dtype(dt).char.lower())
    m = f.max
    return np.array([complex(m, m), complex(-m, m), complex(m / 2, m), complex(m, 0), complex(m * 0.9, -m * 0.9),
                     complex(m / 3, m / 3), complex(f.tiny, f.tiny), complex(1e-3, m)], dtype=dt)


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
@pytest.mark.parametrize("name", ["log", "log10", "log2", "log1p", "sqrt", "abs"])
def test_complex_near_the_top_of_the_range(dt, name):
    x = _huge(dt)
    with np.errstate(all="ignore"):
        want = getattr(np, name)(x)
    got = getattr(cp, name)(cp.asarray(x)).get()
    assert got.dtype == want.dtype
    assert np.isfinite(got).tolist() == np.isfinite(want).tolist()
    rtol = 2e-6 if dt == "complex64" else 1e-14
    if name == "log1p":
        # log1p(tiny + tiny j): Re is log1p(2x + x^2 + y^2)/2, tiny to rounding (CUDA's log1p: within
        # 2 ulp); NumPy's log(hypot(1 + x, y)) rounds 1 + x to 1 and gives 0 (docs/differences.md)
        f = np.finfo(np.dtype(dt).char.lower())
        assert abs(got[6].real - f.tiny) <= 2 * f.eps * f.tiny and want[6].real == 0
        got, want = np.delete(got, 6), np.delete(want, 6)
    # part by part: NumPy 2.5's assert_allclose compares a complex value with an infinite part
    # exactly, the finite part too (an ulp of atan2 in Im(log1p) next to Re = inf)
    np.testing.assert_allclose(got.real, want.real, rtol=rtol, atol=0)
    np.testing.assert_allclose(got.imag, want.imag, rtol=rtol, atol=0)


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_float_power_of_complex_zero(dt):
    x = np.array([0, -0.0, complex(0, -0.0), complex(-0.0, -0.0), 0, 0], dtype=dt)
    b = np.array([2.5, 0.5, 3.0, 1 + 1j, 1e-3, 7], dtype=dt)
    want = np.float_power(x, b)
    got = cp.float_power(cp.asarray(x), cp.asarray(b)).get()
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(cp.float_power(cp.asarray(x), 2.5).get(), np.float_power(x, 2.5))
    np.testing.assert_array_equal(cp.power(cp.asarray(x), cp.asarray(b)).get(), np.power(x, b))


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_complex_unary_special_values_and_range(dt):
    """Every complex unary ufunc over every pair of special parts (+-0, +-inf, NaN, subnormal,
    +-1e308, the largest finite, 1, 0.5, 3) and over fresh values of every magnitude, against NumPy
    2.5 (glibc's complex functions; the exact value where NumPy's is documented as inaccurate:
    tests/_math/complex_special_values.py): each NaN, infinity and signed zero NumPy's, finite parts
    within 32 ulps (CUDA's real functions add their last bits to the host build's 8). The host build
    of the same header: test_complex_math_host_cpu.py."""
    bad = []
    for z, kw in ((special_grid(dt), {"rtol": 32, "noise": 2.0 ** -20}),
                  (random_range(dt, 2000, np.random.default_rng()), {"rtol": 32, "noise": 1.0})):
        gz = cp.asarray(z)
        for name in UNARY:
            with np.errstate(all="ignore"):
                got = getattr(cp, name)(gz).get()
            want = oracle(name, z)
            assert got.dtype == want.dtype, (name, got.dtype, want.dtype)
            bad += mismatches(got, want, z, name, **kw)
    assert not bad, "{} mismatches:\n  ".format(len(bad)) + "\n  ".join(bad[:40])


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_complex_products_bit_for_bit(dt):
    """multiply and square as NumPy's fused loop (x86-64 with FMA), power's integer exponents as its
    unfused npy_cpow (1/r as its division), bit for bit; (1e308+1e308j)**2 is -inf+infj."""
    rng = np.random.default_rng()
    rt = np.finfo(np.dtype(dt).char.lower())
    a = (rng.standard_normal(5000) + 1j * rng.standard_normal(5000)).astype(dt)
    b = (rng.standard_normal(5000) + 1j * rng.standard_normal(5000)).astype(dt)
    big = np.array([complex(rt.max / 3, rt.max / 3), complex(rt.max / 3, np.inf), 3 + 0j], dt)
    ga, gb = cp.asarray(a), cp.asarray(b)
    for n in (2, 3, 5, -3):
        e = np.array(n, dt)  # a 0-d complex exponent: npy_cpow's integer-exponent branch
        np.testing.assert_array_equal(cp.power(ga, cp.asarray(e)).get(), np.power(a, e), err_msg="z ** {}".format(n))
    fuses = (np.array([complex(1 + 2.0 ** -30, 1)]) * np.array([complex(1 - 2.0 ** -30, -1)]))[0].real == 2 - 2.0 ** -60
    if not fuses:
        pytest.skip("this NumPy's complex multiply does not fuse (no FMA on this host)")
    np.testing.assert_array_equal((ga * gb).get(), a * b)
    with np.errstate(all="ignore"):
        c = np.concatenate([a, big])
        np.testing.assert_array_equal(cp.square(cp.asarray(c)).get(), np.square(c))
        np.testing.assert_array_equal(cp.multiply(cp.asarray(c), cp.asarray(c)).get(), c * c)


_ZERO_EXPONENTS = [0, 0j, complex(-0.0, 0), 2, 2.5, 1e-300, 0.5, complex(2, 3), complex(0, 3), -2, complex(-2, 1),
                   complex(np.inf, 1), np.inf, np.nan, complex(0, np.nan), 1e300]


def _power_close(got, want, a, b, ulps=8):
    """a ** b of non-zero bases against NumPy: exp(b log a) in both, CUDA's log/atan2/exp/sincos
    against the host's, so within `ulps` eps of |w| times 1 + |b log a| (the error of b log a is
    carried into the result); the NaN and infinite parts where NumPy's are, their signs not
    compared: an overflowed a ** 1e300 has the phase 1e300 arg(a), which an ulp of atan2 moves by
    ~0.1 rad in NumPy too (docs/ufuncs.md)."""
    for part in (np.real, np.imag):
        np.testing.assert_array_equal(np.isnan(part(got)), np.isnan(part(want)))
        np.testing.assert_array_equal(np.isinf(part(got)), np.isinf(part(want)))
    fin = np.isfinite(want)
    w, g = want[fin].astype(np.complex128), got[fin].astype(np.complex128)
    amp = 1 + np.abs(b[fin].astype(np.complex128)) * np.abs(np.log(a[fin].astype(np.complex128)))
    bound = np.where(w == 0, 0.0, ulps * np.finfo(got.real.dtype).eps * amp * np.abs(w))
    err = np.abs(g - w)
    assert (err <= bound).all(), (a[fin], b[fin], g, w, err / np.where(bound == 0, 1, bound))


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
@pytest.mark.parametrize("fn", ["float_power", "power"])
def test_complex_zero_powers_through_every_entry(dt, fn):
    """0j ** x, x ** 0j, 0j ** 0j as arrays, 0-d arrays, Python and NumPy scalars, the operator, real
    exponent arrays and fuse, against NumPy 2.5: 0 for Re(x) > 0, 1 for x == 0, else nan+nanj."""
    npf, cpf = getattr(np, fn), getattr(cp, fn)
    zeros = np.array([0, complex(-0.0, 0), complex(0, -0.0), complex(-0.0, -0.0)], dt)
    rng = np.random.default_rng()
    others = (rng.standard_normal(4) + 1j * rng.standard_normal(4)).astype(dt)
    b = np.array(_ZERO_EXPONENTS, dt)
    with np.errstate(all="ignore"):
        for base in (zeros, others):
            a2, b2 = base[:, None], b[None, :]
            got, want = cpf(cp.asarray(a2), cp.asarray(b2)).get(), npf(a2, b2)
            exact = np.broadcast_to((a2 == 0) | (b2 == 0), want.shape)  # NumPy's 0, 1 or nan+nanj
            np.testing.assert_array_equal(got[exact], want[exact])
            _power_close(got[~exact], want[~exact], np.broadcast_to(a2, want.shape)[~exact],
                         np.broadcast_to(b2, want.shape)[~exact])
        for e in _ZERO_EXPONENTS:  # Python scalars on either side
            np.testing.assert_array_equal(cpf(cp.asarray(zeros), e).get(), npf(zeros, e), err_msg=repr(e))
            np.testing.assert_array_equal(cpf(0j, cp.asarray(b)).get(), npf(0j, b))
            np.testing.assert_array_equal(cpf(cp.asarray(zeros[:1].reshape(())), cp.asarray(np.array(e, dt))).get(),
                                          npf(zeros[0], np.array(e, dt)))
        for rdt in ("float32", "float64", "int64", "bool", "float16", "uint8"):  # real exponent arrays
            r = np.array([0, 1, 2, -1, 3], rdt) if rdt != "uint8" else np.array([0, 1, 2, 255, 3], rdt)
            np.testing.assert_array_equal(cpf(cp.asarray(zeros)[:, None], cp.asarray(r)).get(), npf(zeros[:, None], r),
                                          err_msg=rdt)
        for e in (True, False, np.True_, np.float32(2), np.float16(0.5), np.int8(-1)):  # bool and NumPy scalars
            np.testing.assert_array_equal(cpf(cp.asarray(zeros), e).get(), npf(zeros, e), err_msg=repr(e))
            np.testing.assert_array_equal(cpf(e, cp.asarray(zeros)).get(), npf(e, zeros), err_msg=repr(e))
        if fn == "power":
            np.testing.assert_array_equal((cp.asarray(zeros) ** 0j).get(), zeros ** 0j)
            np.testing.assert_array_equal((cp.asarray(zeros) ** 2.5).get(), zeros ** 2.5)
            np.testing.assert_array_equal((cp.asarray(zeros) ** cp.asarray(b[:4])).get(), zeros ** b[:4])
        fused = cp.fuse(lambda x, y: cpf(x, y))
        np.testing.assert_array_equal(fused(cp.asarray(zeros)[:, None], cp.asarray(b)).get(), npf(zeros[:, None], b))


def _parts_equal(got, want, what):
    """Equal as values with NaN == NaN, real and imaginary parts apart (a complex NaN class)."""
    for f in ((np.real, np.imag) if np.iscomplexobj(want) else (np.asarray,)):
        np.testing.assert_array_equal(f(got), f(want), err_msg=what)


def _check_unique_inverse(x):
    """NumPy's own results where they are defined; by invariants where its unstable sort leaves
    them open (which of several NaNs, or of -0.0 and 0.0, an index names)."""
    vals, inv = (r.get() for r in cp.unique_inverse(cp.asarray(x)))
    nvals, ninv = np.unique_inverse(x)
    assert inv.shape == ninv.shape == x.shape and inv.dtype == ninv.dtype
    _parts_equal(vals, nvals, "values")  # NaN == NaN, -0.0 == 0.0; NumPy's order of complex NaN classes
    _parts_equal(vals[inv], x, "values[inverse]")  # every element maps back to itself
    finite = ~np.isnan(x)
    np.testing.assert_array_equal(inv[finite], ninv[finite])  # equal values: one index, NumPy's
    nan_slots = np.flatnonzero(np.isnan(nvals))
    assert sorted(inv[~finite].ravel().tolist()) == nan_slots.tolist()  # each NaN its own slot
    # With indices NumPy's sort is stable (mergesort): every result is defined, cuarray's exactly.
    got = [r.get() for r in cp.unique_all(cp.asarray(x))]
    want = np.unique_all(x)
    for name, g, w in zip(want._fields, got, want):
        assert g.shape == w.shape and g.dtype == w.dtype, (name, g.shape, w.shape, g.dtype, w.dtype)
        _parts_equal(g, w, "unique_all " + name)
        if name == "values":  # the first zero of the input kept, as NumPy's stable sort
            np.testing.assert_array_equal(np.signbit(np.real(g)), np.signbit(np.real(w)))
    got = [r.get() for r in cp.unique(cp.asarray(x), True, True, True, equal_nan=False)]
    for name, g, w in zip(want._fields, got, np.unique(x, True, True, True, equal_nan=False)):
        _parts_equal(g, w, "unique(equal_nan=False) " + name)
    g, w = cp.unique_counts(cp.asarray(x)), np.unique_counts(x)
    _parts_equal(g.values.get(), w.values, "unique_counts values")
    np.testing.assert_array_equal(g.counts.get(), w.counts)


@pytest.mark.parametrize("dt", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("seed", range(2))
def test_unique_inverse(dt, seed):
    rng = np.random.default_rng(seed)
    pool = np.array([np.nan, -0.0, 0.0, 1.5, -1.5, np.inf, -np.inf, 2.0])
    for n in (1, 5, 17, 300):
        x = rng.choice(pool, size=n)
        if dt.startswith("complex"):
            x = x + 0j
            x.imag = rng.choice(pool, size=n)
        x = x.astype(dt)
        _check_unique_inverse(x)
        _check_unique_inverse(x.reshape(-1, 1)[::-1])
        _check_unique_inverse(x[: n - n % 3].reshape(3, -1, order="F") if n >= 3 else x[0].reshape(()))


@pytest.mark.parametrize("args", [(0, 1e-300, np.float32(0.1)), (np.float16(0.3), 2, 1e10),
                                  (2, np.float16(0.3), 1e10), (0.1, 10, np.float32(3.3)), (1.0, 2.0, 0.3)])
def test_arange_length(args):
    want = np.arange(*args)
    got = cp.arange(*args).get()
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dt", ["int64", "uint64", "int32"])
@pytest.mark.parametrize("num", [2, 3, 5, 8])
def test_linspace_integer_limits(dt, num):
    i = np.iinfo(dt)
    for start, stop in ((i.min, i.max), (i.max, i.min), (0, i.max), (i.min, 0)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = np.linspace(start, stop, num, dtype=dt)
        got = cp.linspace(start, stop, num, dtype=dt).get()
        np.testing.assert_array_equal(got, want, err_msg=str((start, stop)))


def test_float_to_int_casts_as_numpy_on_x86():
    a = np.array([2.0 ** 63, -2.0 ** 63 - 4096, np.nan, 1e19, 3e9, -3e9, 5e9 + 7, 300.7, -11.0])
    for dt in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint64"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = a.astype(dt)
        np.testing.assert_array_equal(cp.asarray(a).astype(dt).get(), want, err_msg=dt)


@pytest.mark.parametrize("dt", ["int8", "uint8", "int16", "int32"])
def test_nancumsum_trace_narrowing_dtype(dt):
    # (float16 accumulates in float32 here, NumPy in float16: docs/differences.md, "Numerics")
    rng = np.random.default_rng(3)
    a = rng.uniform(-400, 400, size=(6, 7))
    a[1, 2] = a[4, 0] = np.nan
    for f in (np.nancumsum, np.nancumprod):
        for axis in (None, 0, 1):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = f(a, axis=axis, dtype=dt)
            got = getattr(cp, f.__name__)(cp.asarray(a), axis=axis, dtype=dt).get()
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(got, want)
    b = np.nan_to_num(a) * 1e7
    for offset in (0, 1, -2):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = np.trace(b, offset=offset, dtype=dt)
        got = cp.trace(cp.asarray(b), offset=offset, dtype=dt).get()
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name", ["sin", "arcsinh", "log1p", "log", "exp", "sqrt"])
@pytest.mark.parametrize("out", ["float32", "float64", "complex128"])
def test_float16_in_wider_out(name, out):
    x = np.array([0.3, 1.7, 2.9, 5.1, 0.01, 60000.0, 0.0], np.float16)
    f, g = getattr(np, name), getattr(cp, name)
    o = np.zeros(x.shape, out)
    with np.errstate(all="ignore"):
        f(x, out=o)
    go = cp.zeros(x.shape, out)
    g(cp.asarray(x), out=go)
    # the loop is float16's: the result is a half, then cast (compare to the half result exactly)
    np.testing.assert_allclose(go.get(), o, rtol=1e-3)
    r = go.get()
    halves = (r.real if r.dtype.kind == "c" else r).astype(np.float16)
    np.testing.assert_array_equal(halves.astype(r.real.dtype), r.real if r.dtype.kind == "c" else r)
    # dtype= picks the wider loop: computed in float64 (as NumPy)
    with np.errstate(all="ignore"):
        want = f(x, dtype="float64")
    np.testing.assert_allclose(g(cp.asarray(x), dtype="float64").get(), want, rtol=1e-12)


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_arctan_of_an_infinite_part_keeps_the_sign_of_im(dt):
    """glibc's catan (NumPy's): an infinite part gives Im a zero of Im z's sign, NaN's included (the
    GPU's negation of a NaN may drop its sign: arctan(inf + nanj) was pi/2 - 0j)."""
    nan = np.float64(np.nan)
    ims = [nan, -nan, np.inf, -np.inf, 0.0, -0.0, 2.0, -2.0]
    res = [np.inf, -np.inf, nan, -nan, 0.0, -0.0, 2.0, -2.0]
    z = np.array([complex(r, i) for r in res for i in ims if np.isinf(r) or np.isinf(i)], dt)
    got = cp.arctan(cp.asarray(z)).get()
    with np.errstate(all="ignore"):
        want = np.arctan(z)
    bad = [(z[i], got[i], want[i]) for i in range(z.size)
           if not (np.array_equal(got[i:i + 1], want[i:i + 1], equal_nan=True)
                   and np.signbit(got[i].imag) == np.signbit(want[i].imag))]
    assert not bad, bad


def test_sinc_as_numpy_steps():
    """NumPy's sinc step by step: float16 rounds pi (3.140625), pi x and each quotient to float16
    (sinc(1) is 3.08e-4, pi x past 20850 is inf: NaN); complex divides by NumPy's loop (1/d times
    the parts: sinc(-5e-324 + 0j) is inf + nanj, sinc(5e-324 - 2.2e-308j) is 1 - 0j). A finite
    complex part is compared within 32 ulps of the result's modulus (noise=1): sin(pi z) / (pi z)
    cancels in a part far below the modulus, where NumPy's own complex64 answer is off the exact
    quotient of its float32 steps by more than that part's ulps (sinc(25.472395+2.1586874j).im:
    NumPy -0.011968701, the quotient -0.0119687465, cuarray -0.011968749; modulus 5.49)."""
    rng = np.random.default_rng()
    h = np.concatenate([[0, -0.0, 1, -1, 2, 0.5, 32752, -21840, 20850, 20860, 6.1e-5, np.inf, -np.inf, np.nan],
                        rng.uniform(-50, 50, 500), rng.uniform(-1e4, 1e4, 100)]).astype(np.float16)
    with np.errstate(all="ignore"):
        want = np.sinc(h)
    got = cp.sinc(cp.asarray(h)).get()
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want, err_msg=str(h[np.flatnonzero(~((got == want) | np.isnan(want)))][:10]))
    for dt in ("complex64", "complex128"):
        t = np.finfo(dt).smallest_subnormal
        z = np.array([complex(-t, 0), complex(t, -np.finfo(dt).tiny), complex(np.inf, 0), complex(0, np.inf), 0j,
                      complex(-0.0, -0.0), complex(1e30, 1e30), complex(np.nan, 1)], dt)
        z = np.concatenate([z, (rng.standard_normal(200) * 30 + 1j * rng.standard_normal(200) * 30).astype(dt)])
        with np.errstate(all="ignore"):
            want = np.sinc(z)
        got = cp.sinc(cp.asarray(z)).get()
        assert got.dtype == want.dtype
        bad = mismatches(got, want, z, "sinc", rtol=32, noise=1.0)
        assert not bad, "\n".join(bad[:20])


@pytest.mark.parametrize("dt", ["float16", "float32", "float64"])
def test_hypot_at_the_top_of_the_range(dt):
    """C's hypot (NumPy's) is finite wherever the result is: hypot(1, DBL_MAX) is DBL_MAX (CUDA's
    hypot gave inf on the H200); inf and NaN as NumPy's."""
    f = np.finfo(dt)
    big = float(f.max)
    parts = [1.0, -1.0, 1e-3, 0.0, big, -big, big / 2, big * 0.75, float(np.nextafter(f.max, 0)), np.inf, np.nan,
             float(f.smallest_subnormal)]
    rng = np.random.default_rng()
    a = np.array([x for x in parts for _ in parts] + list(big * (rng.random(200) * 2 - 1)), dt)
    b = np.array([y for _ in parts for y in parts] + list(big * (rng.random(200) * 2 - 1)), dt)
    with np.errstate(all="ignore"):
        want = np.hypot(a, b)
    got = cp.hypot(cp.asarray(a), cp.asarray(b)).get()
    assert got.dtype == want.dtype
    fin = np.isfinite(want)
    assert np.isfinite(got).tolist() == fin.tolist(), (a[np.isfinite(got) != fin], b[np.isfinite(got) != fin])
    np.testing.assert_array_max_ulp(got[fin], want[fin], maxulp=2)
    np.testing.assert_array_equal(got[~fin], want[~fin])
    # the fuzz case: an int8 array with a Python float (the float64 loop)
    x = np.array([[1, 0], [1, 1]], np.int8)
    np.testing.assert_array_equal(cp.hypot(cp.asarray(x), -1.7976931348623157e308).get(),
                                  np.hypot(x, -1.7976931348623157e308))


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_power_of_non_finite_exponents_as_glibc_cpow(dt):
    """npy_cpow's fallback is glibc's cexp(b * clog(a)), C99 Annex G's product recovering an infinite
    factor: float_power(17, -inf + infj) and (3e38 - 3e38j) ** (-inf + nanj) are 0 (cuarray gave
    NaN); NaN, infinities and signed zeros as NumPy's, finite parts within 32 ulps."""
    a, b = cpow_fallback_cases(dt)
    with np.errstate(all="ignore"):
        want = np.power(a, b)
    got = cp.power(cp.asarray(a), cp.asarray(b)).get()
    bad = mismatches(got, want, a, "power", rtol=32)
    assert not bad, "\n".join(bad[:20])
    # the fuzz cases: a uint16 base (the complex128 loop) and a complex64 base to complex128 exponents
    big, inf, nan = float(np.finfo(dt).max), np.inf, np.nan
    x, e = np.array(17, np.uint16), np.array(complex(-inf, inf), np.complex64)
    np.testing.assert_array_equal(cp.float_power(cp.asarray(x), cp.asarray(e)).get(), np.float_power(x, e))
    x = np.array([3.0625412211588078e+38 - 3.0625412211588078e+38j], np.complex64)
    e = np.array([complex(-inf, nan), complex(-big, -inf)], np.complex128)
    with np.errstate(all="ignore"):
        want = np.float_power(x, e)
    np.testing.assert_array_equal(cp.float_power(cp.asarray(x), cp.asarray(e)).get(), want)


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_complex_divide_as_numpys_loop(dt):
    """Complex divide is NumPy's loop (Smith's ratio, then 1/d times each part): over a subnormal d,
    1/d overflows and a zero numerator gives NaN (fuzz seed 12 index 293: False / (2.8e-309 -
    2.8e-309j) is nan+nanj in NumPy, cuarray gave 0); a bool numerator and a 0-d divisor as there."""
    rng = np.random.default_rng()
    f = np.finfo(dt)
    t = f.smallest_subnormal
    special = [0j, complex(-0.0, 0), 1 + 0j, complex(t, -t), complex(-t, 0), complex(f.tiny, f.tiny), complex(t, 1),
               complex(f.max, f.max), complex(np.inf, 1), complex(np.nan, 0), complex(1e-30, -1e30)]
    a = np.array(special + list(rng.standard_normal(40) + 1j * rng.standard_normal(40)), dt)
    b = np.concatenate([np.array(special, dt), (rng.standard_normal(40) * 10 + 1j * rng.standard_normal(40)).astype(dt)])
    x, y = np.repeat(a, b.size), np.tile(b, a.size)
    with np.errstate(all="ignore"):
        want = np.true_divide(x, y)
        got = cp.true_divide(cp.asarray(x), cp.asarray(y)).get()
        assert got.dtype == want.dtype
        bad = mismatches(got, want, np.stack([x, y], -1), "divide", rtol=4)
        assert not bad, "\n".join(bad[:20])
        d = np.array(complex(2.781342323134e-309, -2.781342323134e-309) if dt == "complex128" else complex(t, -t), dt)
        z = np.zeros(3, bool)
        want = np.true_divide(z, d)
        got = cp.true_divide(cp.asarray(z), cp.asarray(d)).get()
    assert got.dtype == want.dtype and np.array_equal(np.isnan(got), np.isnan(want)), (got, want)
