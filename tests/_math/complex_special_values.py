"""The special values of the complex unary ufuncs and their oracle, shared by the host build's test
(test_complex_math_host_cpu.py) and the GPU's (test_wrong_values_gpu.py): NumPy's values (glibc's
complex functions on Linux), with the exact value where NumPy's is documented as inaccurate
(docs/differences.md: log1p near 0, sign of a subnormal or huge part)."""

from __future__ import annotations

import decimal
import math

import numpy as np

# NumPy's name: complex_math.cuh's
UNARY = {"exp": "exp", "log": "log", "log2": "log2", "log10": "log10", "exp2": "exp2", "expm1": "expm1",
         "log1p": "log1p", "sqrt": "sqrt", "sin": "sin", "cos": "cos", "tan": "tan", "sinh": "sinh", "cosh": "cosh",
         "tanh": "tanh", "arcsin": "asin", "arccos": "acos", "arctan": "atan", "arcsinh": "asinh", "arccosh": "acosh",
         "arctanh": "atanh", "sign": "sign", "reciprocal": "reciprocal", "square": "square", "absolute": "abs"}


def real_type(dt):
    return np.float32 if np.dtype(dt) == np.complex64 else np.float64


def special_grid(dt):
    """Every pair (re, im) of the special parts of `dt`'s real type."""
    rt = real_type(dt)
    fi = np.finfo(rt)
    huge, sub = (1e308, 1e-310) if rt is np.float64 else (1e38, 1e-40)
    parts = [0.0, -0.0, np.inf, -np.inf, np.nan, huge, -huge, fi.max, sub, -sub, 1.0, -1.0, 0.5, -0.5, 3.0, -3.0]
    return np.array([complex(r, i) for r in parts for i in parts], dt)


def _exact_log1p_real(z):
    """Re log1p(z) = log1p(u)/2, u = 2x + x^2 + y^2, in 60 decimal digits (NumPy's log(hypot(1 + x,
    y)) rounds 1 + x first); a tiny u by its series, where 1 + u would round u away."""
    with decimal.localcontext() as ctx:
        ctx.prec = 60
        x, y = decimal.Decimal(float(z.real)), decimal.Decimal(float(z.imag))
        u = 2 * x + x * x + y * y
        if abs(u) < decimal.Decimal("1e-20"):
            return float((u - u * u / 2 + u * u * u / 3) / 2)
        return float((1 + u).ln() / 2)


def _exact_sign(z):
    """z/|z| over the larger part's power of 2 (exact scaling: NumPy's hypot of subnormal parts
    rounds)."""
    x, y = float(z.real), float(z.imag)
    e = math.frexp(max(abs(x), abs(y)))[1]
    xs, ys = math.ldexp(x, -e), math.ldexp(y, -e)
    h = math.hypot(xs, ys)
    return complex(xs / h, ys / h)


def oracle(name, z):
    """NumPy's `name` over z, with the exact value where NumPy's is documented as inaccurate."""
    with np.errstate(all="ignore"):
        want = getattr(np, name)(z)
    finite = np.isfinite(z.real) & np.isfinite(z.imag)
    if name == "log1p":
        near = finite & (np.abs(z.real) < 0.5) & (np.abs(z.imag) < 0.5)
        near[near] = np.abs(z.real[near]) + np.abs(z.imag[near]) < 0.5
        want.real[near] = [_exact_log1p_real(v) for v in z[near]]
    if name == "sign":
        fi = np.finfo(real_type(z.dtype))
        parts = np.abs(np.stack([z.real, z.imag]))
        subnormal = ((parts < fi.tiny) & (parts > 0)).any(axis=0)
        # (where NumPy's |z| overflows its answer is its rule, +-1j by Im's sign: cuarray's too)
        with np.errstate(over="ignore"):
            odd = finite & (subnormal | (parts.max(axis=0) > fi.max / 2)) & np.isfinite(np.abs(z))
        want[odd] = [_exact_sign(v) for v in z[odd]]
    return want


def assert_parts_match(got, want, z, what, rtol, noise=0.0):
    """`mismatches` is empty: else the first dozen, with how many."""
    bad = mismatches(got, want, z, what, rtol, noise)
    assert not bad, "{} mismatches:\n  ".format(len(bad)) + "\n  ".join(bad[:12])


def mismatches(got, want, z, what, rtol, noise=0.0):
    """Each part: NaN where want's is, infinities and zeros (where both are zero) with want's sign,
    finite values within rtol ulps of that part (subnormal parts and zeros: of the smallest normal,
    so an underflow rounded to a neighbouring subnormal passes). `noise`: a part below
    noise * |want| may be off by rtol ulps of |want| instead (the device's last bits in a part that
    is rounding noise of the other)."""
    rt = got.real.dtype.type
    eps, tiny = np.finfo(rt).eps, np.finfo(rt).tiny
    modulus = np.abs(np.asarray(want).astype(np.complex128))
    pairs = ((got.real, want.real, "re"), (got.imag, want.imag, "im")) if np.iscomplexobj(want) else ((got, want, ""),)
    bad = []
    for g, w, part in pairs:
        g, w = np.asarray(g, rt), np.asarray(w, rt)
        same_class = (np.isnan(g) == np.isnan(w)) & (np.isinf(g) == np.isinf(w))
        special = np.isinf(w) | ((w == 0) & (g == 0))  # (a zero against a few subnormal ulps: finite)
        same_class &= ~special | ((g == w) & (np.signbit(g) == np.signbit(w)))
        fin = np.isfinite(w) & ~special
        with np.errstate(all="ignore"):
            diff = np.abs(g.astype(np.float64) - w)
            ok_fin = diff <= rtol * eps * np.maximum(np.abs(w.astype(np.float64)), tiny)
            ok_fin |= (np.abs(w) < noise * modulus) & (diff <= rtol * eps * modulus)
        ok = same_class & (~fin | ok_fin)
        bad += ["{}({!r}).{} = {!r}, want {!r}".format(what, z[i], part, g[i], w[i]) for i in np.flatnonzero(~ok)]
    return bad


def random_range(dt, n, rng):
    """n values of every magnitude of `dt` (both parts log-uniform over the range, random signs), n
    of moderate size and n with one part huge: where the far fields and overflow steps start."""
    rt = real_type(dt)
    lo, hi = (-40, 38) if rt is np.float32 else (-305, 307)

    def mag():
        return 10.0 ** rng.uniform(lo, hi, n) * rng.choice([-1.0, 1.0], n)
    with np.errstate(all="ignore"):
        return np.concatenate([mag() + 1j * mag(), (rng.standard_normal(n) + 1j * rng.standard_normal(n)) * 3,
                               mag() + 1j * rng.standard_normal(n)]).astype(dt)


def cpow_fallback_cases(dt):
    """(bases, exponents) of dtype `dt`, every pair: powers that reach npy_cpow's fallback, glibc's
    cexp(b * clog(a)), whose product recovers an infinite factor (C99 Annex G): 17 ** (-inf + infj)
    and (3e38 - 3e38j) ** (-inf + nanj) are 0 in NumPy."""
    big = float(np.finfo(np.dtype(dt)).max)  # (a complex dtype's finfo is its parts')
    inf, nan = np.inf, np.nan
    bases = [17, 3e38 - 3e38j, 1 + 1j, -2, 0.5j, 0.25 - 0.5j, complex(inf, 0), complex(-inf, 1), complex(nan, 1),
             complex(1, inf), 1e30 + 1e-30j]
    exps = [complex(-inf, inf), complex(-inf, nan), complex(inf, inf), complex(nan, inf), complex(-big, -inf),
            complex(inf, -inf), complex(-inf, -inf), complex(inf, nan), complex(1.5, inf), complex(-1.5, -inf),
            complex(inf, 0.5), complex(-inf, 0.5), complex(nan, 0), complex(0.5, nan), 2.5 + 0.5j]
    with np.errstate(all="ignore"):
        return (np.array([x for x in bases for _ in exps], dt), np.array([y for _ in bases for y in exps], dt))
