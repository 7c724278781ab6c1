"""Comparison rules that bound the error an implementation may make, so that inputs at the edges of
the range and of conditioning (fuzz_values: the largest finite values, rank-deficient and
ill-conditioned matrices) are compared as tightly as NumPy's answer allows, and no looser:

- check_accurate: elementwise math functions, per element (normwise for complex), relative to the
  element's own magnitude: a wrong small value beside a large one is found (the value comparison's
  tolerance is relative to the array's largest element).
- check_sums: sums and sums of products, whose rounding follows the order of the additions: per
  output element, the bound 2 n eps S of recursive summation, S the same function of the inputs'
  magnitudes (computed in long double); where S passes the largest finite value some order
  overflows and another does not, and that element is not compared. Moments (var, std): the
  two-pass bound on the whole input.
- check_conditioned: results of inverting a matrix (inv, solve, det, cond, lstsq, ...), with the
  tolerance grown by the condition number (the error of any backward stable algorithm); past
  1e-3 / eps both answers are rounding noise and only dtype and shape compare.
- check_pinv / check_matrix_rank: NumPy's cutoff rules (pinv: rcond 1e-15 of the largest singular
  value by default, rtol=None max(m, n) eps; matrix_rank: max(m, n) eps, or tol=/rtol=) applied to
  the input's singular values computed in double; a singular value within rounding of the cutoff
  decides either way on either side, and only there is the answer left open.
- check_histogram: a density over float16/float32 weights is NumPy's counts (the weights' dtype)
  over n.sum() taken in that dtype: its rounding, bins x eps of the weights' dtype, scales every
  float64 density alike, and the densities compare within it; the rest as values.

Each wrapper keeps an inner check's `outcome` (fuzzlib.run_case asks it when one side raised)."""

from __future__ import annotations

import warnings

import numpy as np

from fuzz_checks import _Exact, _input_arrays, _Scaled, check_large_int_moments, check_nonfinite_spread
from fuzzlib import _RTOL, compare_values


def _keep_outcome(check, inner):
    if inner is not None and hasattr(inner, "outcome"):
        check.outcome = inner.outcome
    return check


def _compare(inner, exp, got, row, inputs):
    return inner(exp, got, row, inputs) if inner is not None else compare_values(exp, got, row)


def _base_rtol(dtype, row):
    real = np.finfo(dtype).dtype
    return _RTOL.get(real.char, 1e-11) * row.rtol


# -- elementwise functions --------------------------------------------------------------------------

# C99 Annex G leaves the sign of an infinite part beside a NaN part unspecified for these (csinh(+inf
# + i NaN) = ±inf + i NaN, ccosh(+inf + i inf) = ±inf + i NaN, cexp(+inf + i inf) = ±inf + i NaN,
# cacos(±inf + i NaN) = NaN ± i inf, casinh(NaN + i inf) = ±inf + i NaN; through csin(z) = -i
# csinh(iz), ccos(z) = ccosh(iz), casin(z) = -i casinh(iz) the same for sin, cos and arcsin)
C99_UNSPECIFIED = {"sinh", "cosh", "sin", "cos", "exp", "exp2", "expm1", "arccos", "arcsin", "arcsinh"}


def _c99_sign(exp, got):
    """`got` with each infinite part that has the opposite sign of NumPy's beside a NaN part on
    both sides replaced by NumPy's (complex results; anything else as it is)."""
    e, g = np.asarray(exp), np.asarray(got)
    if e.dtype.kind != "c" or e.dtype != g.dtype or e.shape != g.shape:
        return got
    g = g.copy()
    for part, other in (("real", "imag"), ("imag", "real")):
        pe, pg = getattr(e, part), getattr(g, part)
        flip = np.isinf(pe) & np.isinf(pg) & (pe == -pg) & np.isnan(getattr(e, other)) & np.isnan(getattr(g, other))
        pg[flip] = pe[flip]
    return g[()] if np.ndim(got) == 0 else g


def check_accurate(inner=None):
    """A math function's every element within the row's relative tolerance of NumPy's, relative to
    that element's magnitude (complex: the larger part of either side's value; plus twice the
    smallest normal, so subnormal results compare absolutely). After the usual comparison (or
    `inner`'s), which compares NaN and infinite parts exactly."""

    def check(exp, got, row, inputs):
        if row.name in C99_UNSPECIFIED:
            got = _c99_sign(exp, got)
        d = _compare(inner, exp, got, row, inputs)
        if d or not row.values or isinstance(exp, tuple):
            return d
        e, g = np.asarray(exp), np.asarray(got)
        if e.dtype.kind not in "fc" or e.dtype != g.dtype or e.shape != g.shape:
            return None
        real = np.finfo(e.dtype).dtype
        rtol = min(1.0, _base_rtol(e.dtype, row))
        with np.errstate(all="ignore"):
            er, ei, gr, gi = (np.asarray(p, np.float64) for p in (e.real, e.imag, g.real, g.imag))
            fin = np.isfinite(er) & np.isfinite(ei) & np.isfinite(gr) & np.isfinite(gi)
            err = np.maximum(np.abs(er - gr), np.abs(ei - gi))
            mag = np.maximum(np.maximum(np.abs(er), np.abs(ei)), np.maximum(np.abs(gr), np.abs(gi)))
            bad = fin & ~(err <= rtol * mag + 2 * float(np.finfo(real).tiny))
        if not bad.any():
            return None
        k = np.flatnonzero(bad)[0]
        return "values differ beyond {:.1e} relative to the element at {}:\n  expected {!r}\n  got      {!r}".format(
            rtol, np.unravel_index(k, e.shape), e.flat[k], g.flat[k])

    return _keep_outcome(check, inner)


# -- sums -------------------------------------------------------------------------------------------

def _magnitude(x):
    """An argument's magnitudes in long double (arrays, and lists of them); masks, scalars of other
    kinds and strings as they are."""
    if isinstance(x, np.ndarray) and x.dtype.kind in "iufc":
        with np.errstate(all="ignore"):  # (in long double: |int64 min|, |1e308 + 1e308j| stay finite)
            m = np.abs(x.astype(np.clongdouble if x.dtype.kind == "c" else np.longdouble))
        return np.where(np.isfinite(m), m, 0)  # (a NaN or inf term decides the result in any order)
    if isinstance(x, list):
        return [_magnitude(v) for v in x]
    if isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)):
        return abs(int(x))
    if isinstance(x, (float, complex, np.number)):
        m = abs(complex(x))
        return m if np.isfinite(m) else 0.0
    return x


def _sum_magnitudes(row, inputs):
    """S: the row's function of the inputs' magnitudes (the sum of |terms| per output element), or
    None where it cannot be computed."""
    args, kw = inputs
    kw2 = {k: _magnitude(v) for k, v in kw.items() if k not in ("dtype", "out", "casting", "optimize")}
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            s = row.call(np, [_magnitude(a) for a in args], kw2)
    except Exception:  # noqa: BLE001 - no bound: the answer is compared as it is
        return None
    s = np.asarray(s)
    return s.real if s.dtype.kind == "c" else s


def _moment_bound(row, inputs, dtype):
    """var/std: the two-pass algorithm's error bound on the whole input, twice (one for each side)
    4 n eps mean|x|^2 over its finite values (std: the square root, as |sqrt a - sqrt b| <=
    sqrt|a - b|); None where no bound applies. Infinite and NaN elements decide in any order."""
    arrays = [a for a in _input_arrays(inputs)[:1] if a.dtype.kind in "iufc" and a.size]
    if not arrays:
        return None
    x = _magnitude(arrays[0])
    n = x.size
    fi = np.finfo(dtype)
    with np.errstate(all="ignore"):  # (+ underflow: each square may flush to zero, n tiny at most)
        b = 8 * n * float(fi.eps) * np.mean(x * x) + 4 * n * float(fi.tiny)
    return np.sqrt(b) if "std" in row.name else b


# Transforms of Hermitian input given by half of it (complex to real): their sums count each
# interior term twice (irfftn of [0, -6e307, 0, -6e307] overflows in pocketfft, 3e307 is its value)
_HERMITIAN_IN = {"fft.irfft", "fft.irfft2", "fft.irfftn", "fft.hfft"}


def _snap(exp, got, row, inputs, kind):
    """`got` with each element within the summation bound of NumPy's (or in a sum that some
    order overflows) replaced by NumPy's: what is left to compare differs beyond any order."""
    e, g = np.asarray(exp), np.asarray(got)
    if e.dtype.kind not in "fc" or e.dtype != g.dtype or e.shape != g.shape or not e.size:
        return got
    real = np.finfo(e.dtype).dtype
    eps, top = float(np.finfo(real).eps), float(np.finfo(real).max)
    n = max([a.size for a in _input_arrays(inputs)] + [1])
    if kind == "total":
        arrays = [a for a in _input_arrays(inputs)[:1] if a.dtype.kind in "iufc"]
        if not arrays:
            return got
        with np.errstate(all="ignore"):
            total = np.sum(_magnitude(arrays[0]))
            if row.name in _HERMITIAN_IN:
                total = 2 * total  # (each term but the first and the last stands for itself and its conjugate)
        over = np.broadcast_to(np.asarray(~(total * (1 + 4 * n * eps) < top)), e.shape)
        bound = np.broadcast_to(np.asarray(2 * (n + 1) * eps * total), e.shape)
    elif kind == "moments":
        bound = _moment_bound(row, inputs, real)
        if bound is None:
            return got
        # (NumPy squares x - mean in the dtype: past sqrt(max) a square overflows where another
        # algorithm's variance is finite)
        x = _magnitude(_input_arrays(inputs)[0])
        with np.errstate(all="ignore"):  # (the sum of the squares, and one square of 2 max|x|)
            sq = 4 * np.sum(x * x) + (2 * np.max(x, initial=0)) ** 2
            over = np.broadcast_to(np.asarray(~(sq < top)), e.shape)
        bound = np.broadcast_to(np.asarray(bound), e.shape)
    else:
        s = _sum_magnitudes(row, inputs)
        if s is None or s.dtype.kind not in "fiu":
            return got
        try:
            s = np.broadcast_to(s.astype(np.longdouble), e.shape)
        except ValueError:
            return got
        with np.errstate(all="ignore"):
            # (a mean's sum may overflow before its division: the sum is at most n times the mean)
            over = ~(s * (n if "mean" in row.name else 1) * (1 + 4 * n * eps) < top)
            bound = 2 * (n + 1) * eps * s
    with np.errstate(all="ignore"):
        parts = [(e.real, g.real), (e.imag, g.imag)] if e.dtype.kind == "c" else [(e, g)]
        near = np.ones(e.shape, bool)
        for pe, pg in parts:
            diff = np.abs(pe.astype(np.longdouble) - pg.astype(np.longdouble))
            near &= (diff <= bound) | (pe == pg) | (np.isnan(pe) & np.isnan(pg))
    take = over | near
    if not take.any():
        return got
    out = np.where(take, e, g)
    return out.astype(g.dtype)[()] if np.ndim(got) == 0 else out.astype(g.dtype)


def _beyond(exp, got, row, inputs, kind):
    """Elements finite on both sides that differ by more than the summation bound plus the row's
    tolerance relative to the element (the first as text), or None."""
    e, g = np.asarray(exp), np.asarray(got)
    if e.dtype.kind not in "fc" or e.dtype != g.dtype or e.shape != g.shape or not e.size:
        return None
    real = np.finfo(e.dtype).dtype
    eps = float(np.finfo(real).eps)
    n = max([a.size for a in _input_arrays(inputs)] + [1])
    if kind == "moments":
        bound = _moment_bound(row, inputs, real)
    else:
        bound = _sum_magnitudes(row, inputs)
        if bound is not None:
            with np.errstate(all="ignore"):
                bound = 2 * (n + 1) * eps * bound.astype(np.longdouble)
    if bound is None:
        return None
    try:
        bound = np.broadcast_to(np.asarray(bound, np.longdouble), e.shape)
    except ValueError:
        return None
    rtol = _base_rtol(e.dtype, row)
    with np.errstate(all="ignore"):
        bad = np.zeros(e.shape, bool)
        for pe, pg in ((e.real, g.real), (e.imag, g.imag)) if e.dtype.kind == "c" else ((e, g),):
            pe, pg = pe.astype(np.longdouble), pg.astype(np.longdouble)
            fin = np.isfinite(pe) & np.isfinite(pg)
            bad |= fin & ~(np.abs(pe - pg) <= bound + rtol * np.abs(pe) + 2 * float(np.finfo(real).tiny))
    if not bad.any():
        return None
    k = np.flatnonzero(bad)[0]
    return "value at {} beyond the summation bound {:.3g}:\n  expected {!r}\n  got      {!r}".format(
        np.unravel_index(k, e.shape), float(bound.flat[k]), e.flat[k], g.flat[k])


def check_sums(kind="linear", inner=None, half=True, strict=True):
    """Sums ("linear": sum, cumsum, mean, trapezoid, ...; sums of products, "bilinear": dot, matmul,
    einsum, convolve, polyval, ...: the row's function of the magnitudes gives S either way),
    moments ("moments": var, std) and transforms ("total": S the sum of the input's magnitudes):
    within the bound of the order of summation, or not compared where some order overflows (the
    module's docstring); then `inner` or the usual comparison; `strict`: and each element finite
    on both sides within its own bound plus the row's tolerance relative to it (the usual
    comparison's is relative to the array's largest element). `half=False`: float16 results are
    left to `inner` (check_half_accumulation re-makes NumPy's answer in float32). Sums through an
    FFT (convolve's long operands) err relative to the largest term: `strict=False`."""

    def check(exp, got, row, inputs):
        if row.values and inputs is not None and not isinstance(exp, tuple) and (
                half or np.asarray(exp).dtype != np.float16):
            got = _snap(exp, got, row, inputs, kind)
            d = _compare(inner, exp, got, row, inputs)
            return d or (_beyond(exp, got, row, inputs, kind) if strict and kind != "total" else None)
        return _compare(inner, exp, got, row, inputs)

    return _keep_outcome(check, inner)


def check_moments_or_spread(exp, got, row, inputs):
    """trapezoid: integers past 2**53 as check_large_int_moments; input holding inf or NaN (a
    complex dx times an infinite sample: where NaN lands is the product's order) as
    check_nonfinite_spread."""
    if any(a.dtype.kind in "iu" and a.size and np.max(np.abs(a.astype(np.float64))) >= 2.0 ** 53
           for a in _input_arrays(inputs)):
        return check_large_int_moments(exp, got, row, inputs)
    return check_nonfinite_spread(exp, got, row, inputs)


# -- matrices ---------------------------------------------------------------------------------------

def _matrices(row, a):
    """The matrices a row inverts or factors: a's last two axes (tensorinv/tensorsolve: a as n x n)."""
    a = np.asarray(a)
    if row.name in ("linalg.tensorinv", "linalg.tensorsolve"):
        n = int(round(np.sqrt(a.size)))
        return a.reshape(1, n, n) if n * n == a.size and n else None
    if a.ndim < 2 or not a.size or a.dtype.kind not in "biufc":
        return None
    return a.reshape((-1,) + a.shape[-2:])


def _work_eps(dtype):
    return float(np.finfo(np.float32 if np.dtype(dtype).char in "fFe" else np.float64).eps)


def _singular_values(m, hermitian=False):
    """In double, descending; `hermitian`: NumPy's, |eigenvalues| of the lower triangle's matrix."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mm = m.astype(np.complex128 if m.dtype.kind == "c" else np.float64)
        if not np.isfinite(mm).all():
            return None
        if hermitian and mm.shape[-1] == mm.shape[-2]:
            return np.sort(np.abs(np.linalg.eigvalsh(mm)), axis=-1)[..., ::-1]
        return np.linalg.svd(mm, compute_uv=False)


def condition(row, inputs):
    """The largest 2-norm condition number of the matrices the row's first argument holds (inf for
    a singular one), and the working eps; None where there are no such matrices."""
    arrays = _input_arrays(inputs)
    ms = _matrices(row, arrays[0]) if arrays else None
    if ms is None:
        return None
    s = _singular_values(ms)
    if s is None or not s.size:
        return None
    with np.errstate(all="ignore"):
        kappa = float(np.max(np.where(s[..., -1] > 0, s[..., 0] / s[..., -1], np.inf)))
    return kappa, _work_eps(ms.dtype)


def check_conditioned(inner=None, power=False):
    """The inner comparison with the row's tolerance times 10 n kappa eps / rtol (kappa the
    condition number of the input's matrices; `power`: times |n| of matrix_power's exponent);
    past kappa eps = 1e-3 dtype and shape only (both answers are rounding noise)."""

    def check(exp, got, row, inputs):
        c = condition(row, inputs) if row.values and inputs is not None else None
        if c is None:
            return _compare(inner, exp, got, row, inputs)
        kappa, eps = c
        if power:
            k = abs(int(inputs[0][1])) if len(inputs[0]) > 1 and np.ndim(inputs[0][1]) == 0 else 1
            kappa = kappa ** max(1, min(k, 4)) if k > 1 else kappa
        if not kappa * eps < 1e-3:
            return _structure(exp, got, row)
        n = max(np.shape(_input_arrays(inputs)[0])[-1:] or (1,))
        factor = max(1.0, 10 * n * kappa * eps / (_RTOL["d" if eps < 1e-10 else "f"] * row.rtol))
        return _compare(inner, exp, got, _Scaled(row, factor), inputs)

    return _keep_outcome(check, inner)


def _structure(exp, got, row):
    if isinstance(exp, tuple) or isinstance(got, tuple):
        if not (isinstance(exp, tuple) and isinstance(got, tuple)) or len(exp) != len(got):
            return "result structure"
        for e, g in zip(exp, got):
            d = compare_values(e, g, _Exact(row, values=False))
            if d:
                return d
        return None
    return compare_values(exp, got, _Exact(row, values=False))


def _exactly_diagonal(m):
    """Each matrix of the stack with at most one nonzero in each row and column (a permuted
    diagonal: its singular values are its nonzeros' magnitudes, exact on every side)."""
    nz = m != 0
    return bool((nz.sum(axis=-1) <= 1).all() and (nz.sum(axis=-2) <= 1).all())


def _cutoff_band(s, cut, eps, n):
    """Singular values within rounding (10 n eps s_max) of the cutoff: either decision is right."""
    noise = 10 * n * eps * s[..., :1]
    return np.abs(s - cut) <= noise


def check_pinv(exp, got, row, inputs):
    """pinv: NumPy's cutoff (rcond=1e-15 by default, whatever the dtype; rtol=None: max(m, n) eps)
    applied to the input's singular values. A permuted diagonal matrix's are exact: compared as
    values. Others: a singular value kept by the cutoff but within rounding of it, or one so small
    that 1/s is rounding noise (kappa eps of the kept ones past 1e-3), leaves that matrix open
    (dtype and shape); the rest compare with the tolerance grown by the kept values' condition."""
    e, g = np.asarray(exp), np.asarray(got)
    d = compare_values(e, g, _Exact(row, values=False))
    arrays = _input_arrays(inputs)
    if d or not row.values or not arrays or not e.size:
        return d
    a = np.asarray(arrays[0])
    if a.ndim < 2 or a.dtype.kind not in "biufc" or not np.isfinite(a).all():
        return compare_values(e, g, row)
    _, kw = inputs
    m_, n_ = a.shape[-2:]
    eps = _work_eps(e.dtype)
    rcond = kw.get("rcond")
    if rcond is None:
        rcond = 1e-15 if "rtol" not in kw else (max(m_, n_) * float(np.finfo(e.dtype).eps) if kw["rtol"] is None
                                                else kw["rtol"])
    ms = a.reshape((-1, m_, n_))
    herm = bool(kw.get("hermitian"))
    s = _singular_values(ms, herm)
    if s is None:
        return compare_values(e, g, row)
    # a permuted diagonal matrix's singular values are its nonzeros' magnitudes, exact on every
    # side: there the cutoff decides alone, and 1/s is exact
    exact = np.array([_exactly_diagonal(x) and not herm for x in ms], bool)
    rc = np.broadcast_to(np.asarray(rcond, np.float64), a.shape[:-2]).reshape(-1, 1)
    cut = rc * s[:, :1]
    keep = s > cut
    k = max(m_, n_)
    open_ = _cutoff_band(s, cut, eps, k).any(axis=-1)
    with np.errstate(all="ignore"):
        smin = np.where(keep, s, np.inf).min(axis=-1)
        kappa = np.where(np.isfinite(smin) & (smin > 0), s[:, 0] / smin, 1.0)
    open_ |= ~(kappa * eps < 1e-3)
    open_ &= ~exact
    kappa[exact] = 1.0
    eg = e.reshape((-1,) + e.shape[-2:]).copy()
    gg = g.reshape((-1,) + g.shape[-2:]).copy()
    if eg.shape[0] != open_.shape[0]:
        return compare_values(e, g, row)
    gg[open_] = eg[open_]
    shut = kappa[~open_]
    factor = max(1.0, 10 * k * float(shut.max(initial=1.0)) * eps / (_RTOL["d" if eps < 1e-10 else "f"] * row.rtol))
    return compare_values(eg, gg, _Scaled(row, factor))


def check_matrix_rank(exp, got, row, inputs):
    """matrix_rank: NumPy's count of singular values above tol (tol=, rtol=, default max(m, n) eps
    s_max of the singular values' dtype); each singular value within rounding of tol may count
    either way, so the ranks may differ by as many as there are such values, and no more."""
    e, g = np.asarray(exp), np.asarray(got)
    d = compare_values(e, g, _Exact(row, values=False))
    arrays = _input_arrays(inputs)
    if d or not row.values or not arrays:
        return d
    a = np.asarray(arrays[0])
    if a.ndim < 2 or not a.size or a.dtype.kind not in "biufc" or not np.isfinite(a).all():
        return compare_values(e, g, row)
    _, kw = inputs
    m_, n_ = a.shape[-2:]
    ms = a.reshape((-1, m_, n_))
    s = _singular_values(ms, bool(kw.get("hermitian")))
    if s is None:
        return compare_values(e, g, row)
    sdt = np.float32 if a.dtype.char in "fF" else np.float64
    eps = float(np.finfo(sdt).eps)
    batch = a.shape[:-2]
    if kw.get("tol") is not None:
        tol = np.broadcast_to(np.asarray(kw["tol"], np.float64), batch).reshape(-1, 1)
    else:
        rtol = kw.get("rtol")
        rtol = max(m_, n_) * eps if rtol is None else np.broadcast_to(np.asarray(rtol, np.float64), batch).reshape(-1, 1)
        tol = s[:, :1] * rtol
    band = _cutoff_band(s, tol, eps, max(m_, n_)).sum(axis=-1)
    diff = np.abs(e.reshape(-1).astype(np.int64) - g.reshape(-1).astype(np.int64))
    if diff.shape != band.shape or (diff <= band).all():
        return None if diff.shape == band.shape else compare_values(e, g, row)
    return "rank beyond the cutoff's rounding:\n  expected {}\n  got      {}".format(e, g)


def check_cholesky(exp, got, row, inputs):
    """cholesky: the lower triangle's Hermitian matrix; values with the tolerance of its
    conditioning (check_conditioned)."""
    return check_conditioned()(exp, got, row, inputs)


def _cholesky_outcome(ref, test, row, inputs):
    """One side's LinAlgError for a matrix positive definite only to rounding (its smallest
    eigenvalue within 10 n eps of the largest's magnitude) agrees: which pivot comes out <= 0 is
    the order of the arithmetic."""
    raised = ref if ref[0] == "raise" else test
    arrays = _input_arrays(inputs)
    if type(raised[1]).__name__ != "LinAlgError" or not arrays:
        return "one side raised"
    a = np.asarray(arrays[0])
    if a.ndim < 2 or a.shape[-1] != a.shape[-2] or not a.size or not np.isfinite(a).all():
        return "one side raised"
    low = np.tril(a.astype(np.complex128 if a.dtype.kind == "c" else np.float64))
    h = low + np.conj(np.swapaxes(np.tril(low, -1), -1, -2))
    w = np.linalg.eigvalsh(h)
    eps = _work_eps(a.dtype)
    edge = w[..., 0] <= 10 * a.shape[-1] * eps * np.abs(w).max(axis=-1)
    return None if edge.any() else "one side raised LinAlgError for a positive definite matrix"


check_cholesky.outcome = _cholesky_outcome


def check_histogram(exp, got, row, inputs):
    """histogram(density=True) over float16/float32 weights: NumPy divides the counts by n.sum()
    taken in the weights' dtype (pairwise, its own order), so its float64 densities carry that
    sum's rounding, at most about bins x eps of the weights' dtype, relative; cuarray's sum of the
    same counts rounds in another order. The densities compare within 4 bins eps of that dtype;
    the edges, and every other call, as values."""
    _, kw = inputs if inputs is not None else ((), {})
    w = kw.get("weights")
    if (not kw.get("density") or not isinstance(w, np.ndarray) or w.dtype.char not in "ef"
            or not isinstance(exp, tuple) or not isinstance(got, tuple) or len(exp) != 2 or len(got) != 2):
        return compare_values(exp, got, row)
    d = compare_values(exp[1], got[1], row)
    if d:
        return "[1] " + d
    nb = max(np.asarray(exp[0]).size, 1)
    factor = max(1.0, 4 * nb * float(np.finfo(w.dtype).eps) / (_RTOL["d"] * row.rtol))
    d = compare_values(exp[0], got[0], _Scaled(row, factor))
    return "[0] " + d if d else None
