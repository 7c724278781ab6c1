"""The logsumexp grid both test files use: real, integer and complex inputs with -inf, +inf and
NaN entries, weights with zeros and negative sums, every axis form, keepdims, return_sign, 0-d,
empty and broadcast weights; `check` compares a result with SciPy's (values, dtype, shape)."""

import itertools
import warnings

import numpy as np
import scipy.special as sp

DTYPES = (np.float64, np.float32, np.complex128, np.complex64, np.int64, np.float16)


def data(rng, dtype):
    x = rng.normal(size=(3, 4, 5)) * 5
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.normal(size=x.shape) * 4
    if np.dtype(dtype).kind != "i":
        x[0, 1, 2], x[2, 0, 1], x[0, 3, 4] = -np.inf, np.inf, np.nan
        x[1, 2, :] = -np.inf
    b = rng.uniform(-1, 1, x.shape)
    b[0, 0, :2] = 0.0
    b[2, 0, 1] = 0.0  # drops the +inf term
    return x.astype(dtype), b


def calls(rng, dtype):
    """(a, kwargs) pairs over the grid (host arrays: the caller moves them)."""
    x, b = data(rng, dtype)
    out = []
    for axis, keep, sign, w in itertools.product((None, 0, -1, (0, 2)), (False, True), (False, True),
                                                 (None, b, b[0, :, :1])):
        out.append((x, dict(axis=axis, b=w, keepdims=keep, return_sign=sign)))
    out.append((x[0, 0, 0], dict(return_sign=True)))
    out.append((x[:, :0], dict(axis=1, return_sign=True)))
    out.append((x[1], dict(axis=1)))  # a row of -inf only
    return out


def reference(a, kw):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return sp.logsumexp(a, **kw)


def scale(a):
    """The largest finite |Re a| (at least 1): the terms' size, the absolute rounding of a result
    log1p(s) + log(m) + a_max that cancels to near 0."""
    re = np.abs(np.real(np.asarray(a, dtype=np.complex128)))
    return max(1.0, float(np.max(re[np.isfinite(re)], initial=0.0)))


def check(got, want, what, size=1.0):
    """`got` as SciPy's `want`: dtype and shape; values to a few ulp of the dtype relative and of
    `size` absolute (the device's exp, log1p and summation order round differently), a complex
    result's imaginary part (an angle in (-pi, pi]) modulo 2 pi (at +-pi either end rounds)."""
    assert isinstance(got, tuple) == isinstance(want, tuple), what
    for g, w in (zip(got, want) if isinstance(want, tuple) else [(got, want)]):
        g, w = np.asarray(g), np.asarray(w)
        assert (g.dtype, g.shape) == (w.dtype, w.shape), (what, g.dtype, w.dtype, g.shape, w.shape)
        rtol = {2: 5e-3, 4: 1e-5, 8: 1e-13}[w.real.dtype.itemsize]
        if w.dtype.kind == "c" and not isinstance(want, tuple):
            np.testing.assert_allclose(g.real, w.real, rtol=rtol, atol=rtol * size, equal_nan=True, err_msg=str(what))
            d = np.angle(np.exp(1j * (g.imag.astype(np.float64) - w.imag)))
            d = np.where(np.isnan(g.imag) & np.isnan(w.imag), 0.0, d)
            assert np.all(np.abs(d) <= rtol * 4), (what, g, w)
        else:
            np.testing.assert_allclose(g, w, rtol=rtol, atol=rtol * size, equal_nan=True, err_msg=str(what))
