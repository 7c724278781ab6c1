"""The fuzzer's invariant checks, for calls where NumPy's answer is not unique (tie orders of
unstable sorts and partitions, eigenvector signs, eigenvalue and root orders, rank-deficient least
squares): each compares dtype and shape, then invariants instead of values. A check is
``check(expected, got, row, inputs) -> None or what differs``; `inputs` are the host arguments."""

from __future__ import annotations

import operator
import warnings

import numpy as np

from fuzzlib import _RTOL, XpFn, compare_values

def _as(exp, got):
    return np.asarray(exp), np.asarray(got)


def check_argsort(exp, got, row, inputs):
    """Unstable sort: any order of ties is right. Same dtype/shape, and the input gathered by the
    indices equals NumPy's sort of it (NaNs last)."""
    e, g = _as(exp, got)
    d = compare_values(e, g, _Exact(row, values=False))
    if d or not row.values:
        return d
    (a, *_), kw = inputs
    axis = kw.get("axis", -1)
    if axis is None:
        a, axis = a.ravel(), 0
    if a.ndim == 0:
        return compare_values(e, g, row)
    same = np.array_equal(np.take_along_axis(a, g, axis), np.sort(a, axis=axis), equal_nan=a.dtype.kind in "fc")
    return None if same else "indices do not sort the input"


def check_eigh(exp, got, row, inputs=None):
    """Eigenvalues compared; eigenvectors up to sign/phase: columns compared by |v^H v_ref|."""
    w_e, v_e = exp
    w_g, v_g = got
    d = compare_values(w_e, w_g, row) or compare_values(v_e, v_g, _Exact(row, values=False))
    if d or not row.values or v_e.size == 0 or not _finite(w_e, v_e):
        return d
    # distinct eigenvalues: each column agrees with NumPy's up to a unit factor
    w = np.asarray(w_e, np.float64)
    gaps = np.diff(w, axis=-1)
    if (np.abs(gaps) < 1e-3 * max(1.0, float(np.max(np.abs(w))))).any():
        return None
    dots = np.abs(np.sum(np.conj(v_e) * v_g, axis=-2))
    return None if np.allclose(dots, 1, atol=1e-2) else "eigenvectors differ beyond a sign"


def _parts_differ(exp, got, row):
    """The first dtype or shape difference between the parts of two tuple results, or None."""
    if len(exp) != len(got):
        return "result structure"
    for e, g in zip(exp, got):
        d = compare_values(e, g, _Exact(row, values=False))
        if d:
            return d
    return None


def check_svd(exp, got, row, inputs=None):
    """Singular values compared; U and Vh through U S Vh (reconstruction)."""
    if len(exp) != 3 or len(got) != 3:
        return "result structure"
    d = _parts_differ(exp, got, row)
    if d:
        return d
    if not row.values or not _finite(*exp):
        return None
    d = compare_values(exp[1], got[1], row)
    if d:
        return "singular values: " + d
    u, s, vh = got
    k = s.shape[-1]
    rec = (u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :]
    ue, se, vhe = exp
    ref = (ue[..., :, :k] * se[..., None, :]) @ vhe[..., :k, :]
    return None if np.allclose(rec, ref, rtol=1e-3, atol=1e-3 * max(1.0, float(np.max(np.abs(se), initial=0)))) \
        else "U S Vh differs"


def check_lstsq(exp, got, row, inputs=None):
    """Rank, singular values and residual norm; x itself only at full rank (at the cutoff either
    answer is right)."""
    xe, re_, rank_e, se = exp
    xg, rg, rank_g, sg = got
    d = _parts_differ((xe, re_, se), (xg, rg, sg), row)
    if d:
        return d
    if not row.values or not _finite(xe, se):
        return None
    if int(rank_e) != int(rank_g):
        # at the cutoff either rank is right: then nothing more is comparable
        return None if np.min(np.abs(np.asarray(se)), initial=np.inf) < 1e-3 * np.max(np.abs(se), initial=1) else \
            "rank: expected {} got {}".format(rank_e, rank_g)
    d = compare_values(se, sg, row)
    if d:
        return "singular values: " + d
    if int(rank_e) == min(np.shape(xe)[0], np.shape(se)[0]) and (np.asarray(se).size == 0 or np.min(np.abs(se)) > 1e-3 * np.max(np.abs(se))):
        return compare_values(xe, xg, row)
    return None


def check_qr(exp, got, row, inputs=None):
    d = _parts_differ(exp, got, row)
    if d:
        return d
    if not row.values or not _finite(*exp):
        return None
    q, r = got
    qe, re_ = exp
    ok = np.allclose(q @ r, qe @ re_, rtol=1e-3, atol=1e-3 * max(1.0, float(np.max(np.abs(re_), initial=0))))
    return None if ok else "Q R differs"


def _finite(*xs) -> bool:
    """Every value finite: invariants of a factorisation of NaN/inf input say nothing."""
    return all(np.isfinite(np.asarray(x)).all() for x in xs)


class _Exact:
    def __init__(self, row, values):
        self.values, self.rtol = values, row.rtol


def check_partition(exp, got, row, inputs):
    """partition/argpartition: any order either side of kth is right. The result sorted equals the
    input sorted, and the kth elements are the sorted input's."""
    e, g = _as(exp, got)
    d = compare_values(e, g, _Exact(row, values=False))
    if d or not row.values:
        return d
    (a, axis, kth), _ = inputs
    if axis is None:
        a, axis = a.ravel(), 0
    if a.ndim == 0 or a.size == 0 or g.ndim != a.ndim:
        return compare_values(e, g, row)
    if row.name.endswith("argpartition"):
        g = np.take_along_axis(a, g.reshape(a.shape), axis)
    s = np.sort(a, axis=axis)
    nan = a.dtype.kind in "fc"
    if not np.array_equal(np.sort(g, axis=axis), s, equal_nan=nan):
        return "not a permutation of the input"
    for k in np.atleast_1d(kth):
        if not np.array_equal(np.take(g, k, axis=axis), np.take(s, k, axis=axis), equal_nan=nan):
            return "element kth={} is not the sorted input's".format(k)
    return None


def check_sorted_values(exp, got, row, inputs=None):
    """Eigenvalues / roots in no particular order: compared sorted (complex: by real, then imaginary)."""
    exp = exp[0] if isinstance(exp, tuple) else exp
    got = got[0] if isinstance(got, tuple) else got
    e, g = _as(exp, got)
    d = compare_values(e, g, _Exact(row, values=False))
    if d or not row.values or e.ndim == 0 or e.size == 0 or not _finite(e, g):
        return d
    if e.dtype.kind != "c":
        return compare_values(np.sort(e.reshape(-1, e.shape[-1])), np.sort(g.reshape(-1, g.shape[-1])), row)
    # Complex: each expected value paired with the nearest unpaired one (a lexicographic sort
    # flips on rounding noise in the real parts: -7.8e-16 +- 1j sorts before 0, 1.5e-16 +- 1j after)
    e2, g2 = e.reshape(-1, e.shape[-1]), g.reshape(-1, g.shape[-1])
    paired = np.empty_like(g2)
    for r in range(e2.shape[0]):
        left = list(g2[r])
        for k, v in enumerate(e2[r]):
            j = int(np.argmin([abs(v - w) for w in left]))
            paired[r, k] = left.pop(j)
    return compare_values(e2, paired, row)


def check_eigvals(exp, got, row, inputs=None):
    """Eigenvalues of a general matrix: those of a defective one (a Jordan block of size k) move by
    eps**(1/k) under any rounding, so LAPACK and cuSOLVER spread them differently around the same
    point (seed 171: a triple 0 of a 4 x 4 bool matrix at 4e-6 in NumPy, 6e-6 here). Per matrix, the
    values of both sides within 10 eps**(1/n) max(1, |w|) of each other form clusters; each cluster
    holds as many of NumPy's values as of ours, and a cluster's members compare by their mean (well
    conditioned where the members are not), then everything as check_sorted_values."""
    exp = exp[0] if isinstance(exp, tuple) else exp
    got = got[0] if isinstance(got, tuple) else got
    e, g = _as(exp, got)
    if (not row.values or e.ndim == 0 or e.size == 0 or e.shape != g.shape or e.dtype != g.dtype
            or e.dtype.kind not in "fc" or not _finite(e, g)):
        return check_sorted_values(exp, got, row, inputs)
    n = e.shape[-1]
    eps = float(np.finfo(e.dtype).eps)
    e2, g2 = e.reshape(-1, n).astype(np.complex128), g.reshape(-1, n).astype(np.complex128)
    for r in range(e2.shape[0]):
        pts = np.concatenate([e2[r], g2[r]])
        tol = 10 * eps ** (1.0 / n) * max(1.0, float(np.abs(pts).max()))
        parent = list(range(2 * n))

        def root(i):
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        for i in range(2 * n):
            for j in range(i + 1, 2 * n):
                if abs(pts[i] - pts[j]) <= tol:
                    parent[root(i)] = root(j)
        clusters = {}
        for i in range(2 * n):
            clusters.setdefault(root(i), []).append(i)
        for members in clusters.values():
            ce = [i for i in members if i < n]
            cg = [i - n for i in members if i >= n]
            if len(ce) != len(cg):
                return "eigenvalue clusters differ (within {:.1e}):\n  expected {}\n  got      {}".format(tol, e2[r], g2[r])
            if len(ce) > 1:
                e2[r, ce] = e2[r, ce].mean()
                g2[r, cg] = g2[r, cg].mean()
    kind = e.dtype if e.dtype.kind == "c" else np.result_type(e.dtype, np.complex64)
    return check_sorted_values(e2.reshape(e.shape).astype(kind), g2.reshape(g.shape).astype(kind), row)


def check_slogdet(exp, got, row, inputs=None):
    """sign and logabsdet: where |det| is 0 the sign's phase is arbitrary. An exactly singular matrix
    (integer entries) has det 0 (logabsdet -inf) where a pivot comes out exactly zero, which
    depends on the order of elimination (seed 184: [[-6, -9], [-4, -6]], -inf in LAPACK, -33.8 in
    cuSOLVER), as check_singular says of inv/solve: where one side is -inf, the other must be at most
    100 eps (n max|a|)**n, and both count as -inf."""
    le, lg = (np.array(tuple(x)[1], copy=True) for x in (exp, got))
    d = compare_values(tuple(exp)[0], tuple(got)[0], _Exact(row, values=False)) or compare_values(
        le, lg, _Exact(row, values=False))
    if d or not row.values:
        return d
    a = _input_arrays(inputs)[:1]
    if a and le.dtype.kind == "f" and le.shape == lg.shape and a[0].ndim >= 2 and a[0].shape[:-2] == le.shape:
        n = a[0].shape[-1]
        with np.errstate(all="ignore"):
            top = np.abs(a[0]).max(axis=(-2, -1), initial=0) if a[0].size else np.zeros(le.shape)
            bound = np.log(100 * np.finfo(le.dtype).eps) + n * np.log(np.maximum(1.0, n * top.astype(np.float64)))
        sing_e, sing_g = np.isneginf(le), np.isneginf(lg)
        if ((sing_e & ~sing_g & (lg > bound)) | (sing_g & ~sing_e & (le > bound))).any():
            return "a singular matrix (logabsdet -inf) on one side only:\n  expected {}\n  got      {}".format(le, lg)
        le[sing_e | sing_g] = lg[sing_e | sing_g] = -np.inf
    return compare_values(le, lg, row)


def _input_arrays(inputs):
    """The input arrays, those inside a list argument (multi_dot's, concatenate's) included."""
    args, kw = inputs if inputs is not None else ((), {})
    flat = [y for x in list(args) + list(kw.values()) for y in (x if isinstance(x, (list, tuple)) else [x])]
    return [x for x in flat if isinstance(x, (np.ndarray, np.generic))]


def check_nonfinite_spread(exp, got, row, inputs):
    """Sum products, transforms and pseudo-inverses (vdot, FFTs, pinv) of input holding inf or
    NaN: where an input's inf
    and NaN land in each output depends on the algorithm's order of arithmetic, which NumPy does not
    define (vdot of conj(2.75-1.59j) and inf+0j: C99's product is inf+infj, OpenBLAS's zdotc gives
    nan+infj, cuBLAS nan+nanj; an ifft2 row pocketfft makes nan+0j, cuFFT nan+nanj; NumPy's
    convolve of [.., inf, ..] with complex taps gives nan-infj where each product is inf-infj). There, which
    elements are non-finite (complex: either part) must agree, and the finite ones compare as
    values. Finite input compares as every row does."""
    e, g = _as(exp, got)
    d = compare_values(e, g, _Exact(row, values=False))
    if d or not row.values:
        return d
    if e.dtype.kind not in "fc" or _finite(*[x for x in _input_arrays(inputs) if x.dtype.kind in "fc"]):
        return compare_values(e, g, row)
    fe, fg = np.isfinite(e), np.isfinite(g)
    if not np.array_equal(fe, fg):
        return "non-finite elements differ (input holds inf/NaN):\n  expected {}\n  got      {}".format(e, g)
    return compare_values(e[fe], g[fg], row)


def check_complex_product(exp, got, row, inputs):
    """Products of complex values (prod, nanprod, cumprod, multiply.reduce, the vecdot family) and
    matrix_power's chains of matrix products (seed 23: a float32 stack cubed past 3.4e38, [nan, inf]
    in NumPy where cuBLAS's order gives [nan, nan] and [-inf, inf]): as
    check_nonfinite_spread, and also where finite input overflows: NumPy multiplies 1 * x0 * x1 ...
    in turn, the GPU in a tree, so the step that overflows differs and inf times a complex value
    puts NaN in different parts (nan+nanj in NumPy, -inf+infj on the GPU, for one nanprod of
    complex64). Which elements are non-finite (or at the edge of overflow) must still agree.""" 
    e, g = _as(exp, got)
    if e.dtype.kind not in "fc" or g.dtype != e.dtype or e.shape != g.shape or not row.values:
        return check_nonfinite_spread(exp, got, row, inputs)
    # Real products too: which step overflows follows the order (a float32 cumprod of 180 values
    # crossed 3.4e38 one element apart in NumPy's sequence and the GPU's scan). Elements within
    # 1e-6 of the type's largest value, or beyond it, count as overflowed on either side.
    big = np.finfo(e.dtype).max * 1e-6
    with np.errstate(all="ignore"):
        he, hg = ~np.isfinite(e) | (np.abs(e) > big), ~np.isfinite(g) | (np.abs(g) > big)
        if _overflow_possible(inputs, e.dtype):
            # A zero times a sub-product that overflows in some order: NumPy's 0 * x0 * x1 ... keeps
            # 0 where a tree's (x0 * x1) is inf and 0 * inf NaN (seed 222: nancumprod of float32
            # holding -0.0 and -1e30 twice). Zero against NaN is then either side's order.
            either = ((e == 0) & np.isnan(g)) | (np.isnan(e) & (g == 0))
            he, hg = he | either, hg | either
    if not np.array_equal(he, hg):
        return "non-finite elements differ:\n  expected {}\n  got      {}".format(e, g)
    return compare_values(e[~he], g[~hg], row)


def _overflow_possible(inputs, dtype) -> bool:
    """Whether some order of multiplying the inputs' finite non-zero values overflows `dtype`: the
    product of all their magnitudes (each a factor in the worst order) passes its largest value."""
    logs = 0.0
    for v in _input_arrays(inputs):
        if v.dtype.kind not in "biufc":
            continue
        a = np.abs(v.astype(np.complex128 if v.dtype.kind == "c" else np.float64)).ravel()
        a = a[np.isfinite(a) & (a > 1)]
        logs += float(np.sum(np.log(a)))
    return logs > np.log(float(np.finfo(dtype).max))


def check_unordered_values(exp, got, row, inputs=None):
    """A set's values in no specified order (the Array API's unique_values; NumPy 2.5's is
    unsorted, hash-based): compared sorted (NaNs last)."""
    e, g = _as(exp, got)
    d = compare_values(e, g, _Exact(row, values=False))
    if d or not row.values:
        return d
    return compare_values(np.sort(e), np.sort(g), row) if e.ndim == 1 else compare_values(e, g, row)


def check_isin_assume_unique(exp, got, row, inputs):
    """isin(..., assume_unique=True) of input that is not unique: NumPy's answer is then its
    algorithm's accident (a value repeated in the elements is a member when its neighbour in the
    sorted concatenation is equal); cuarray's is the membership, which assume_unique=False defines.
    Integers past the exact range of the float both promote to collide in NumPy's sort (int64 beside
    complex64: 2**62 - 1 and 2**62 are one complex128 there): then it is `x == any test` (seed 12)."""
    args, kw = inputs
    x = [np.asarray(a) for a in args[:2]]
    if kw.get("assume_unique") and any(np.unique(a).size != a.size for a in x):
        exp = np.isin(*args, **{**kw, "assume_unique": False})
    ct = np.result_type(*x)
    if ct.kind in "fc" and x[0].size * x[1].size <= 10**7 and any(
            a.dtype.kind in "iu" and a.size and np.abs(a.astype(float)).max() >= 2.0 ** (np.finfo(ct).nmant + 1) for a in x):
        exp = (x[0].reshape(-1, 1) == x[1].reshape(1, -1)).any(axis=1).reshape(x[0].shape) != bool(kw.get("invert"))
    return compare_values(*_as(exp, got), row)


def check_space_cast(exp, got, row, inputs):
    """linspace/logspace/geomspace with an integer dtype: the float samples are cast to it, and a
    cast of a non-finite sample or one beyond the target type's range is undefined in C (NumPy on
    x86-64 gives the conversion's 'integer indefinite': -2**31 for int32, 0 for uint8; the GPU's cvt
    saturates, then wraps). Only the samples whose cast is defined are compared (dtype and shape
    always). A sample within rounding of an integer (or beyond 2**52, where the float's step is 1 or
    more) may land one step either side: the power of logspace/geomspace is within 2 ulp on the GPU
    (CUDA's pow) and 1 on the host (geomspace(7, 7, dtype=int) is 6 where 10**log10(7) rounds
    below 7), so those samples compare within the float's rounding, the rest exactly.
    A wider float dtype than the samples' own (logspace(float32(-3), 1, dtype=complex128): float32
    powers cast up) compares at the samples' precision, and each sample must be a value of that
    precision (a power computed wider is reported: seed 88)."""
    e, g = _as(exp, got)
    d = compare_values(e, g, _Exact(row, values=False))
    if d or not row.values:
        return d
    args, kw = inputs
    dtype = kw.get("dtype")
    if dtype is None or np.dtype(dtype).kind not in "iufc":
        return compare_values(e, g, row)
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ref = np.asarray(getattr(np, row.name)(*args, **{k: v for k, v in kw.items() if k != "dtype"}))
    except Exception:  # noqa: BLE001 - no float reference: compare everything
        return compare_values(e, g, row)
    if ref.shape != e.shape or ref.dtype.kind not in "fc":
        return compare_values(e, g, row)
    if np.dtype(dtype).kind in "fc":
        low = ref.real.dtype
        if np.finfo(low).eps <= np.finfo(e.real.dtype).eps:
            return compare_values(e, g, row)
        parts = [g.real, g.imag] if g.dtype.kind == "c" else [g]
        if not all(np.array_equal(p.astype(low).astype(p.dtype), p, equal_nan=True) for p in parts):
            return compare_values(e, g, row)  # a sample finer than its own precision: reported
        cast = np.result_type(low, 1j) if e.dtype.kind == "c" else low
        return compare_values(e.astype(cast), g.astype(cast), row)
    ref = ref.real.astype(np.float64)
    info = np.iinfo(dtype)  # beyond the target type C's conversion is undefined (NumPy warns)
    defined = np.isfinite(ref) & (ref >= float(info.min)) & (ref < float(info.max) + 1.0)
    e, g, ref = e[defined], g[defined], ref[defined]
    tol = 4 * np.spacing(np.abs(ref))
    rounding = (np.floor(ref - tol) != np.floor(ref + tol)) | (np.abs(ref) >= 2.0 ** 52)
    near = np.abs(g.astype(np.float64) - e.astype(np.float64)) <= np.maximum(1.0, 2 * tol)
    if not np.all(near[rounding]):
        return compare_values(e, g, row)
    return compare_values(e[~rounding], g[~rounding], row)


def check_half_accumulation(exp, got, row, inputs):
    """Cumulative sums and products of float16: cuarray accumulates in float32 and rounds once per
    output (docs/differences.md, "Numerics"); NumPy rounds every partial result to float16, so its
    product can overflow to inf on the way where the exact one comes back into range. float16 input
    is compared with NumPy's answer computed in float32 and rounded once; products as
    check_complex_product, sums as values."""
    exp = _half_in_float32(exp, row, inputs)
    if "prod" in row.name or "multiply" in row.name:
        return check_complex_product(exp, got, row, inputs)
    return compare_values(exp, got, row)


def check_half_in_float32(exp, got, row, inputs):
    """Functions cuarray computes for float16 in float32 and rounds once (docs/differences.md,
    "Numerics": i0): NumPy's float16 steps overflow where the answer is in range (seed 276:
    i0(float16 11.555) is inf in NumPy, as its float16 exp(x) is, and 12376 here; the exact value is
    12380). float16 input is compared with NumPy's answer computed in float32 and rounded once."""
    return compare_values(_half_in_float32(exp, row, inputs), got, row)


def _half_in_float32(exp, row, inputs):
    """NumPy's answer for float16 input computed in float32 and rounded once to float16; `exp` for
    other input."""
    args, kw = inputs
    if not args or not isinstance(args[0], np.ndarray):
        return exp
    # the loop's type: `dtype=` where given (a float16 input summed as int8 is no float16 loop; an
    # int input with dtype=float16 is), else the input's
    loop = np.dtype(kw["dtype"]) if kw.get("dtype") is not None else args[0].dtype
    if loop != np.float16:
        return exp
    kw32 = {**kw, "dtype": np.float32} if "dtype" in kw else kw
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        x = args[0]
        if row.name.startswith("nan") and x.dtype.kind == "c":
            # the nan-functions replace an element with a NaN part (real or imaginary) by the identity
            # before the cast, which keeps only the real part (complex(1, nan) adds nothing)
            x = np.where(np.isnan(x), 1 if "prod" in row.name else 0, x)
        # the input cast to the loop's float16 first, as NumPy casts it (a complex or int input too)
        x = x.astype(np.float16).astype(np.float32)
        return operator.attrgetter(row.name)(np)(x, *args[1:], **kw32).astype(np.float16)


def check_unpackbits(exp, got, row, inputs):
    """unpackbits of an empty array with count > 0 (any axis): NumPy pads with uninitialised memory
    (NumPy 2.4 and 2.5 give e.g. [224] for unpackbits([], count=1), where the padding is zero bits);
    cuarray pads with zeros, so there zeros are expected."""
    args, kw = inputs
    if args[0].size == 0 and (kw.get("count") or 0) > 0:
        e = np.asarray(exp)
        exp = np.zeros_like(e)
    return compare_values(exp, got, row)


def check_solve(exp, got, row, inputs):
    """solve of a singular or nearly singular matrix (cond > 1e-3 / eps of the result type) that
    LAPACK and cuSOLVER both still factor: the answers are rounding noise of different pivots'
    arithmetic. There dtype and shape are compared; else the values."""
    args, _ = inputs
    e = np.asarray(exp)
    if e.dtype.kind in "fc":
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            a = np.asarray(args[0]).astype(np.complex128 if e.dtype.kind == "c" else np.float64)
            cond = np.linalg.cond(a) if a.size and np.isfinite(a).all() else np.inf
        if not np.all(np.asarray(cond) < 1e-3 / np.finfo(e.dtype).eps):
            return compare_values(exp, got, _Exact(row, values=False))
    return compare_values(exp, got, row)


def check_large_int_moments(exp, got, row, inputs):
    """mean/var/std (and nan-), average and trapezoid of integers beyond 2**53 (the values or
    average's weights): NumPy accumulates in float64 (pairwise),
    cuarray too (in a tree), and the conversions and sums of such values round differently in each
    order (mean of [2**63 - 1, -2**63, 5, ...] cancels to 0 or not). There dtype and shape are
    compared; else the values."""
    if any(a.dtype.kind in "iu" and a.size and np.max(np.abs(a.astype(np.float64))) >= 2.0**53
           for a in _input_arrays(inputs)):
        return compare_values(exp, got, _Exact(row, values=False))
    return compare_values(exp, got, row)


def check_applied_function(exp, got, row, inputs):
    """apply_along_axis / apply_over_axes: a moment of integers beyond 2**53 as the moments are
    checked (check_large_int_moments: seed 16, apply_over_axes(mean) of [2**63 - 1, -2**63, -2]
    cancels in NumPy's order and absorbs the -2 in the tree's); other functions by their values."""
    args, _ = inputs
    fn = next((a for a in args if isinstance(a, XpFn)), None)
    if fn is not None and fn.name in ("mean", "var", "std", "nanmean", "nanvar", "nanstd"):
        return check_large_int_moments(exp, got, row, inputs)
    return compare_values(exp, got, row)


def check_pad(exp, got, row, inputs):
    """pad: mode 'mean' of integers beyond 2**53 is a moment (check_large_int_moments: the float64
    sum's order decides its last bits, then the rounding to int64; seed 99); the other modes as
    check_nonfinite_spread."""
    _, kw = inputs
    if kw.get("mode") == "mean":
        return check_large_int_moments(exp, got, row, inputs)
    return check_nonfinite_spread(exp, got, row, inputs)


def check_scaled_by_zero(exp, got, row, inputs):
    """dot, inner, vdot, tensordot, multi_dot with a zero operand. A 0-d one: NumPy scales the other
    operand with BLAS's ?scal, which writes zeros for a zero factor (so NaN * 0 and inf * 0 are 0
    there), cuarray multiplies (NaN). Where
    such an operand occurs the finite elements compare; else as check_nonfinite_spread."""
    zero_scalar = any(np.ndim(x) == 0 and x == 0 for x in _input_arrays(inputs))
    if not zero_scalar:
        e, g = _as(exp, got)
        if e.dtype.kind in "fc" and g.shape == e.shape and row.values and any(
                np.any(x == 0) for x in _input_arrays(inputs) if x.dtype.kind in "biufc"):
            # A zero element: BLAS's gemm skips a zero multiplicand too, so NumPy's 0 * inf term is
            # no term (0 where IEEE's product, ours, is NaN: seed 245, tensordot of an int64 zero
            # and float16 holding inf). A NaN on either side is either algorithm's answer; the rest
            # compares as check_nonfinite_spread (inf against a finite value is still reported).
            d = compare_values(e, g, _Exact(row, values=False))
            keep = ~(np.isnan(e) | np.isnan(g))
            return d or check_nonfinite_spread(e[keep], g[keep], row, inputs)
        return check_nonfinite_spread(exp, got, row, inputs)
    e, g = _as(exp, got)
    d = compare_values(e, g, _Exact(row, values=False))
    if d or not row.values or e.dtype.kind not in "fc":
        return d
    both = np.isfinite(e) & np.isfinite(g)
    return compare_values(e[both], g[both], row)


def check_unique_inverse(exp, got, row, inputs):
    """unique_inverse with several NaNs (each its own value: equal_nan=False): NumPy sorts with an
    unstable quicksort, so which NaN of the input gets which of the NaN values' indices is its
    sort's accident. The values compare as values; the inverse exactly where the input is not NaN,
    and where it is, the inverse must point at a NaN value."""
    e, g = exp, got
    if not (isinstance(e, tuple) and isinstance(g, tuple) and len(e) == len(g) == 2):
        return compare_values(e, g, row)  # (unique without return_inverse: the values alone)
    d = compare_values(e[0], g[0], row) or compare_values(e[1], g[1], _Exact(row, values=False))
    if d or not row.values:
        return d
    x = np.asarray(inputs[0][0])
    ei, gi = np.asarray(e[1]), np.asarray(g[1])
    nan = np.isnan(x) if x.dtype.kind in "fc" else np.zeros(x.shape, bool)
    if not np.array_equal(ei[~nan], gi[~nan]):
        return "[1] inverse differs where the input is not NaN:\n  expected {}\n  got      {}".format(ei, gi)
    vals = np.asarray(g[0])
    if nan.any() and not np.isnan(vals[gi[nan]]).all():
        return "[1] a NaN of the input points at a value that is not NaN: {}".format(gi)
    return None


def check_complex_power(exp, got, row, inputs):
    """Complex power that overflows or meets inf/NaN (a huge exponent, an infinite base): the signs
    of the infinities and where NaN lands follow the order of the arithmetic (NumPy's npy_cpow
    multiplies out integer exponents, cuarray takes exp(b log a) beyond 100), so as
    check_complex_product: which elements are non-finite agrees, the finite ones compare; elements
    of an infinite base are left out. Real results compare as values."""
    e, g = _as(exp, got)
    if e.dtype.kind != "c":
        return compare_values(exp, got, row)
    base = _input_arrays(inputs)[:1]
    if base and e.shape and base[0].shape and np.broadcast_shapes(base[0].shape, e.shape) == e.shape:
        # an infinite base: NumPy's power(inf+0j, -1) is nan+nanj (its complex division), 1/inf 0 here
        keep = np.broadcast_to(np.isfinite(base[0]), e.shape)
        if not keep.all() and g.shape == e.shape and g.dtype == e.dtype:
            e, g = e[keep], g[keep]
    return check_complex_product(e, g, _Scaled(row, _exp_log_factor(e.dtype, inputs)), inputs)


class _Scaled:
    """`row` with its tolerance times `factor`."""

    def __init__(self, row, factor):
        self._row, self.rtol = row, row.rtol * factor

    def __getattr__(self, name):
        return getattr(self._row, name)


def _exp_log_factor(dtype, inputs):
    """How much wider than the row's tolerance a complex power's error may be: beyond |n| = 100 (or
    for a non-integer exponent) both sides compute exp(b log a), whose relative error is about eps
    |b log a| (docs/ufuncs.md): complex64 z**300 of |z| ~ 5 differs from NumPy's by 7e-5 (seed 158),
    past float32's 2e-5."""
    args = inputs[0] if inputs is not None else ()
    if len(args) < 2:
        return 1.0
    a, b = (np.asarray(x) for x in args[:2])
    with np.errstate(all="ignore"):
        la = np.abs(np.log(np.abs(a[np.isfinite(a) & (a != 0)]))) if a.dtype.kind in "fciu" else np.zeros(0)
        bb = np.abs(b[np.isfinite(b)]) if b.dtype.kind in "fciu" else np.zeros(0)
    if not la.size or not bb.size:
        return 1.0
    eps = np.finfo(np.dtype(dtype)).eps
    return max(1.0, 4 * eps * float(bb.max()) * (float(la.max()) + np.pi) / _RTOL.get(np.dtype(dtype).char.lower(), 1e-11))


def check_transform_nonfinite(exp, got, row, inputs):
    """FFTs of input holding inf or NaN: which outputs become non-finite depends on the transform's
    arithmetic (pocketfft multiplies by i and -1 exactly, so NaN+0j * i keeps a finite real part;
    cuFFT multiplies by the twiddle factor, NaN in both parts). There the outputs finite on both
    sides compare; finite input compares as every row."""
    e, g = _as(exp, got)
    d = compare_values(e, g, _Exact(row, values=False))
    if d or not row.values:
        return d
    arrays = _input_arrays(inputs)
    if arrays and arrays[0].size == 0 and e.size:
        # An empty input padded by n= to a length: zeros (pocketfft, NumPy 2.4 and 2.5, reads
        # uninitialised memory there: irfft(zeros((1, 3, 1, 0)), n=5) gave 2.7e22 or -2.5e-11)
        return compare_values(np.zeros_like(e), g, row)
    if e.dtype.kind not in "fc" or _finite(*[x for x in arrays if x.dtype.kind in "fc"]):
        return compare_values(e, g, row)
    both = np.isfinite(e) & np.isfinite(g)
    return compare_values(e[both], g[both], row)


def check_cond(exp, got, row, inputs=None):
    """cond of a singular matrix: s_max / s_min with s_min exactly 0 (inf) in LAPACK's arithmetic
    and 1e-32 in cuSOLVER's. Where NumPy's condition number is beyond 1e-3 / eps (or inf/NaN),
    cuarray's must be too; the others compare as values."""
    e, g = _as(exp, got)
    d = compare_values(e, g, _Exact(row, values=False))
    if d or not row.values or e.dtype.kind != "f":
        return d or (None if not row.values else compare_values(e, g, row))
    big = 1e-3 / np.finfo(e.dtype).eps
    huge_e = ~np.isfinite(e) | (np.abs(e) > big)
    huge_g = ~np.isfinite(g) | (np.abs(g) > big)
    if not np.array_equal(huge_e, huge_g):
        return "singular (cond > {:.0e}) elements differ:\n  expected {}\n  got      {}".format(big, e, g)
    return compare_values(e[~huge_e], g[~huge_g], row)


def check_unique_all(exp, got, row, inputs):
    """unique_all (values, indices, inverse, counts) of input with several NaNs or both zeros:
    NumPy's unstable sort decides which NaN slot a NaN of the input gets (check_unique_inverse)
    and, for the NaN values, which input position `indices` names. Values and counts compare as
    values; the inverse by check_unique_inverse's invariants; indices exactly at non-NaN values
    (NumPy's stable first occurrence there) and at NaN values as the set of the input's NaN
    positions."""
    if not (isinstance(exp, tuple) and isinstance(got, tuple)) or len(exp) != 4 or len(got) != 4:
        return compare_values(exp, got, row)
    d = (compare_values(exp[0], got[0], row) or compare_values(exp[3], got[3], row)
         or check_unique_inverse((exp[0], exp[2]), (got[0], got[2]), row, inputs)
         or compare_values(exp[1], got[1], _Exact(row, values=False)))
    if d or not row.values:
        return d
    vals = np.asarray(exp[0])
    ei, gi = np.asarray(exp[1]), np.asarray(got[1])
    nan = np.isnan(vals) if vals.dtype.kind in "fc" else np.zeros(vals.shape, bool)
    if not np.array_equal(ei[~nan], gi[~nan]):
        return "[1] indices differ at non-NaN values:\n  expected {}\n  got      {}".format(ei, gi)
    if sorted(ei[nan].tolist()) != sorted(gi[nan].tolist()):
        return "[1] the NaN values' indices are not the input's NaN positions: {}".format(gi)
    return None


class _Rtol:
    """`row` with its relative tolerance factor replaced (every other attribute the row's)."""

    def __init__(self, row, rtol):
        self._row, self.rtol = row, rtol

    def __getattr__(self, name):
        return getattr(self._row, name)


def _at_loop_precision(row, args, out):
    """`row`, compared at the precision of the ufunc loop NumPy picks for the inputs where out= is
    wider: NumPy computes in the loop's dtype and casts into out=, so its float32 loop's answer in a
    complex128 out carries float32's rounding (arctan2 of uint16 and bool, seed 3 index 146: NumPy's
    SIMD atan2f is 1 ulp from the correctly rounded pi/4, the GPU's is not), not complex128's."""
    uf = getattr(np, row.name, None)
    if out is None or not isinstance(uf, np.ufunc):
        return row
    try:
        loop = uf.resolve_dtypes(tuple(np.asarray(a).dtype for a in args) + (None,) * uf.nout)[-1]
    except (TypeError, ValueError):  # no loop: NumPy raised, nothing to compare
        return row
    o = np.asarray(out).dtype
    if loop.kind not in "fc" or o.kind not in "fc":
        return row
    lr, orl = _RTOL.get(np.finfo(loop).dtype.char, 1e-11), _RTOL.get(np.finfo(o).dtype.char, 1e-11)
    return _Rtol(row, row.rtol * lr / orl) if lr > orl else row


def check_where(inner=None):
    """A ufunc call with where= and no out=: NumPy leaves the elements the mask skips
    uninitialised (NumPy against itself differs there), so only the elements where the mask is
    True compare (by `inner`, a row's own check, else as values); with out= the skipped elements
    keep out's values on both sides and everything compares, at the precision of NumPy's loop
    (`_at_loop_precision`: a float32 loop cast into a complex128 out= carries float32's rounding)."""
    def check(exp, got, row, inputs):
        args, kw = inputs if inputs is not None else ((), {})
        w = kw.get("where")
        if w is None or kw.get("out") is not None:
            row = _at_loop_precision(row, args, kw.get("out"))
            return inner(exp, got, row, inputs) if inner is not None else compare_values(exp, got, row)
        e, g = _as(exp, got)
        d = compare_values(e, g, _Exact(row, values=False))
        if d or not row.values:
            return d
        try:
            m = np.broadcast_to(np.asarray(w, bool), e.shape)
        except ValueError:
            return None
        if inner is not None:
            return inner(e[m], g[m], row, None)
        return compare_values(e[m], g[m], row)
    return check


# -- outcomes that differ in kind: one side raised, the other answered ----------------------------
# A check with an `outcome` attribute is also asked when exactly one side raised (fuzzlib.run_case):
# ``outcome(ref, test, row, inputs)`` with the two outcomes ("ok", value, ...) / ("raise", exc).

def _square_matrices(row, a):
    """The matrices a row's LU factors: a's last two axes, or a reshaped to n x n for tensorinv and
    tensorsolve (their matrix is a's leading and trailing dimensions, square here)."""
    a = np.asarray(a)
    if row.name in ("linalg.tensorinv", "linalg.tensorsolve"):
        n = int(round(np.sqrt(a.size)))
        return a.reshape(n, n) if n * n == a.size else None
    return a if a.ndim >= 2 and a.shape[-1] == a.shape[-2] else None


def check_singular(inner=None):
    """inv, solve, matrix_power (negative), tensorinv, tensorsolve: LAPACK's and cuSOLVER's LU raise
    LinAlgError where a pivot comes out exactly zero, which for a matrix singular to working
    precision depends on the order of elimination's rounding (one side sees 0, the other 1e-17 and
    answers with huge values). So where exactly one side raised LinAlgError, they agree when some
    matrix the row factors is singular to working precision: its 2-norm condition number, in
    float64 on the host, at least 1e-3 / eps of the computation's dtype (float32/complex64: their
    own; integers and the rest: float64). Anything else is compared as usual (`inner`, or values)."""

    def check(exp, got, row, inputs):
        return inner(exp, got, row, inputs) if inner is not None else compare_values(exp, got, row)

    def outcome(ref, test, row, inputs):
        raised = ref if ref[0] == "raise" else test
        if type(raised[1]).__name__ != "LinAlgError" or not row.values:
            return "one side raised"
        m = _square_matrices(row, _input_arrays(inputs)[0]) if _input_arrays(inputs) else None
        if m is None or m.size == 0:
            return "one side raised"
        eps = np.finfo(np.float32 if m.dtype.char in "fFe" else np.float64).eps
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            mm = m.astype(np.complex128 if m.dtype.kind == "c" else np.float64)
            cond = np.linalg.cond(mm) if np.isfinite(mm).all() else np.inf
        return None if np.any(~(np.asarray(cond) < 1e-3 / eps)) else "one side raised LinAlgError for a " \
            "well-conditioned matrix (cond {})".format(np.max(cond))

    check.outcome = outcome
    return check


def check_polydiv(exp, got, row, inputs):
    """polydiv's remainder: NumPy drops its leading coefficients while allclose(r[0], 0) (|r[0]| <=
    1e-8), so whether one is dropped follows the last bits of the division's arithmetic (float16:
    exactly zero or not; a GPU's fused multiply-add rounds once). The quotients compare as values;
    the remainders' common trailing coefficients as values, and those only the longer one keeps
    must each be within 1e-8 of zero up to the division's rounding (1e3 eps of the dtype times the
    largest |u|, |q v|)."""
    (qe, re_), (qg, rg) = (tuple(np.asarray(x) for x in r) for r in (exp, got))
    d = compare_values(qe, qg, row)
    if d:
        return "quotient: " + d
    if re_.shape == rg.shape:
        return compare_values(re_, rg, row)
    if re_.dtype != rg.dtype or re_.ndim != 1 or rg.ndim != 1:
        return "remainder: expected {} {} got {} {}".format(re_.dtype, re_.shape, rg.dtype, rg.shape)
    u, v = (np.asarray(x) for x in _input_arrays(inputs)[:2])
    with np.errstate(all="ignore"):
        scale = max(1.0, float(np.max(np.abs(u), initial=0)),
                    float(np.max(np.abs(qe), initial=0)) * float(np.max(np.abs(v), initial=0)))
    slack = 1e-8 + 1e3 * np.finfo(re_.dtype).eps * scale
    n = min(re_.size, rg.size)
    longer = re_ if re_.size > rg.size else rg
    if not (np.abs(longer[:longer.size - n]) <= slack).all():
        return "remainder: a leading coefficient only one side keeps is not zero to rounding:\n  expected {}\n" \
               "  got      {}".format(re_, rg)
    return compare_values(re_[re_.size - n:], rg[rg.size - n:], row)
