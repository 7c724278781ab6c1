"""The fuzzer's invariant checks, for calls where NumPy's answer is not unique (tie orders of
unstable sorts and partitions, eigenvector signs, eigenvalue and root orders, rank-deficient least
squares): each compares dtype and shape, then invariants instead of values. A check is
``check(expected, got, row, inputs) -> None or what differs``; `inputs` are the host arguments."""

from __future__ import annotations

import warnings

import numpy as np

from fuzzlib import compare_values

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
    order = np.sort_complex if e.dtype.kind == "c" else np.sort
    return compare_values(order(e.reshape(-1, e.shape[-1])), order(g.reshape(-1, g.shape[-1])), row)


def check_slogdet(exp, got, row, inputs=None):
    """sign and logabsdet: where |det| is 0 the sign's phase is arbitrary."""
    return compare_values(tuple(exp)[1], tuple(got)[1], row) or compare_values(
        tuple(exp)[0], tuple(got)[0], _Exact(row, values=False))


def _input_arrays(inputs):
    args, kw = inputs if inputs is not None else ((), {})
    return [x for x in list(args) + list(kw.values()) if isinstance(x, (np.ndarray, np.generic))]


def check_nonfinite_spread(exp, got, row, inputs):
    """Sum products and transforms (vdot, FFTs) of input holding inf or NaN: where an input's inf
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
    """Products of complex values (prod, nanprod, cumprod, multiply.reduce): as
    check_nonfinite_spread, and also where finite input overflows: NumPy multiplies 1 * x0 * x1 ...
    in turn, the GPU in a tree, so the step that overflows differs and inf times a complex value
    puts NaN in different parts (nan+nanj in NumPy, -inf+infj on the GPU, for one nanprod of
    complex64). Which elements are non-finite must still agree."""
    e, g = _as(exp, got)
    if e.dtype.kind != "c" or g.dtype != e.dtype or e.shape != g.shape or not row.values:
        return check_nonfinite_spread(exp, got, row, inputs)
    fe, fg = np.isfinite(e), np.isfinite(g)
    if not np.array_equal(fe, fg):
        return "non-finite elements differ:\n  expected {}\n  got      {}".format(e, g)
    return compare_values(e[fe], g[fg], row)


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
    sorted concatenation is equal); cuarray's is the membership, which assume_unique=False defines."""
    args, kw = inputs
    if kw.get("assume_unique") and any(np.unique(np.asarray(x)).size != np.asarray(x).size for x in args):
        exp = np.isin(*args, **{**kw, "assume_unique": False})
    return compare_values(*_as(exp, got), row)


def check_space_cast(exp, got, row, inputs):
    """linspace/logspace/geomspace with an integer dtype: the float samples are cast to it, and a
    cast of a non-finite sample or one beyond the 64-bit range is undefined in C (NumPy on x86-64
    gives the conversion's 'integer indefinite' 2**63, so 0 in every narrower type; the GPU's cvt
    saturates). Only the samples whose cast is defined are compared (dtype and shape always)."""
    e, g = _as(exp, got)
    d = compare_values(e, g, _Exact(row, values=False))
    if d or not row.values:
        return d
    args, kw = inputs
    dtype = kw.get("dtype")
    if dtype is None or np.dtype(dtype).kind not in "iu":
        return compare_values(e, g, row)
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ref = np.asarray(getattr(np, row.name)(*args, **{k: v for k, v in kw.items() if k != "dtype"}))
    except Exception:  # noqa: BLE001 - no float reference: compare everything
        return compare_values(e, g, row)
    if ref.shape != e.shape or ref.dtype.kind not in "fc":
        return compare_values(e, g, row)
    ref = ref.real.astype(np.float64)
    top = 2.0**64 if np.dtype(dtype) == np.uint64 else 2.0**63
    defined = np.isfinite(ref) & (ref >= -(2.0**63)) & (ref < top)
    return compare_values(e[defined], g[defined], row)
