"""`cdist` and `pdist`: SciPy 1.18's metrics over blocks of rows.

How each metric runs (`_plan`):
- The euclidean family (euclidean, sqeuclidean, seuclidean, minkowski p=2) on sm_90: one
  launch of the fused tensor-core tiles (`_sqdist_tiles`) for the whole result, on operands centred
  on B's mean (and scaled) with their norms by one launch each; no temporaries, no blocks.
- GEMM metrics: (the euclidean family elsewhere,) mahalanobis, cosine,
  correlation and the boolean metrics (dice, jaccard, hamming of bool rows, rogerstanimoto,
  russellrao, sokalsneath, yule) are one cuBLAS product per block, `A @ B.T`, and one fused
  epilogue written into the result: |a|^2 + |b|^2 - 2 a.b with a clamp at 0 (on rows centred on
  B's mean first, which keeps the cancellation small; `_sqdist_tiles.epilogue`), the cosine from
  the rows' norms, or the boolean counts ntt/ntf/nft/nff from row sums (`_distance_kernels`).
- Both epilogues of the squared family form a pair again from the original rows by SciPy's direct
  formula where the expanded form cancelled past `_sqdist_plan.exact_threshold` (duplicates, near
  pairs): those entries equal SciPy's; the others are within ~1e-14 of it (the bound is there).
- Pair reductions: cityblock, chebyshev, minkowski p != 2, canberra, braycurtis, hamming of
  non-bool rows, jensenshannon, and cupyx's own metrics hellinger and kl_divergence (names SciPy
  does not know: `CUPYX_ALIASES`), reduce the broadcast pair grid over features in the reduction
  engine.

A block is as many rows of XA as keep it under `BLOCK_ELEMENTS` distances, so temporaries stay
bounded for any size. Results are float64 as SciPy's are. A callable metric runs on the host, pair
by pair, as SciPy's does (the rows are NumPy arrays), unless it is one of this module's own
functions, which take the device path of their name.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy

from ..._core.host_input import as_literal_or_array, as_parameter
from ..._core.ndarray import ndarray
from ..._core.transfer import from_host, to_host
from ..._creation.basic import empty
from ..._creation.from_data import ascontiguousarray
from ..._creation.ranges import arange
from ..._indexing.inserting import take
from ..._manipulation.joining import vstack
from ..._math.misc import sqrt
from ..._sorting.searching import where
from ..._sorting.searchsorted import searchsorted
from ..._statistics.correlating import cov
from ...linalg._solve import inv
from .._rng import rng_transition
from . import _distance_kernels as _k
from . import _distance_vec as _vec
from . import _sqdist_tiles as _sqt
from ._distance_vec import validate_weights

__all__ = ["cdist", "pdist", "directed_hausdorff", "METRIC_NAMES"]

_F8 = numpy.dtype(numpy.float64)
BLOCK_ELEMENTS = 1 << 26  # distances per block (512 MiB of float64)

# canonical name -> aliases (SciPy 1.18's table)
_ALIASES = {
    "braycurtis": {"braycurtis"}, "canberra": {"canberra"},
    "chebyshev": {"chebychev", "chebyshev", "cheby", "cheb", "ch"},
    "cityblock": {"cityblock", "cblock", "cb", "c"}, "correlation": {"correlation", "co"},
    "cosine": {"cosine", "cos"}, "dice": {"dice"}, "euclidean": {"euclidean", "euclid", "eu", "e"},
    "hamming": {"matching", "hamming", "hamm", "ha", "h"}, "jaccard": {"jaccard", "jacc", "ja", "j"},
    "jensenshannon": {"jensenshannon", "js"}, "mahalanobis": {"mahalanobis", "mahal", "mah"},
    "minkowski": {"minkowski", "mi", "m", "pnorm"}, "rogerstanimoto": {"rogerstanimoto"},
    "russellrao": {"russellrao"}, "seuclidean": {"seuclidean", "se", "s"},
    "sokalsneath": {"sokalsneath"}, "sqeuclidean": {"sqeuclidean", "sqe", "sqeuclid"}, "yule": {"yule"},
}
METRIC_NAMES = list(_ALIASES)
# cupyx's own metric names (cupyx.scipy.spatial.distance), accepted besides SciPy's
CUPYX_ALIASES = {"hellinger": {"hellinger"}, "kl_divergence": {"kl_divergence", "kl_div", "kld"}}
_ALIAS = {a: name for table in (_ALIASES, CUPYX_ALIASES) for name, akas in table.items() for a in akas}
_BOOLEAN = ("dice", "jaccard", "rogerstanimoto", "russellrao", "sokalsneath", "yule")
# the metrics whose cdist takes a weight vector `w` (the others raise TypeError for it, as SciPy's)
_WEIGHTED = set(METRIC_NAMES) - {"jensenshannon", "mahalanobis", "seuclidean"}
# the keyword arguments each metric takes besides `w`
_EXTRA = {"minkowski": {"p"}, "seuclidean": {"V"}, "mahalanobis": {"VI"}}


@dataclass
class _Plan:
    kind: str                 # "squared", "cosine", "bool" or a pair reduction's name
    A: ndarray
    B: ndarray
    na: ndarray | None = None  # per-row values of A and B (norms, counts)
    nb: ndarray | None = None
    args: tuple = ()           # the kernel's trailing arguments (weights, p, code, ...)
    post: str | None = None    # "braycurtis", "hamming", "jensenshannon"
    extra: dict = field(default_factory=dict)


def _canonical(metric):
    name = _ALIAS.get(metric.lower())
    if name is None:
        raise ValueError("Unknown Distance Metric: {}".format(metric.lower()))
    return name


def _weights(kwargs, n, name):
    w = kwargs.pop("w", None)
    if w is None:
        return None
    if name not in _WEIGHTED:
        raise TypeError("{}() got an unexpected keyword argument 'w'".format(name))
    w = validate_weights(w, name)
    if w.shape[0] != n:
        raise ValueError("Weights must have same size as input vector. {} vs. {}.".format(w.shape[0], n))
    return w


def _rows_sq(X):
    return _k.pair_reduction("sumsq")(X, axis=1)


def _squared_plan(A, B, root, scale=None, quad=None, exact=("plain", None)):
    """|a - b|^2 (root: its square root) by one product: on rows centred at B's mean, scaled
    by `scale` per column or, for a quadratic form, with A's rows multiplied by `quad`. `exact`:
    SciPy's direct formula for the pairs that cancel (an `_sqdist_tiles.EXACT_MODES` name and its
    parameter: the weights, V or VI as SciPy takes them)."""
    mode, param = exact
    ex = _sqt.Exact(A, B, mode, None if param is None else ascontiguousarray(param.astype(_F8, copy=False)))
    shift = B.mean(axis=0) if B.shape[0] else None
    if shift is not None and quad is None and _sqt.plan_for(1, 1, A.shape[1]) is not None:
        # the fused tensor-core tiles (`_sqdist_tiles`): their operands and norms, one launch each
        # (five elementwise and reduction calls took ~100 us of host time before the product)
        sc = None if scale is None else ascontiguousarray(scale.astype(_F8, copy=False))
        (A, na), (B, nb) = _sqt.centred_rows(A, shift, sc), _sqt.centred_rows(B, shift, sc)
        return _Plan("squared", A, B, na, nb, (numpy.int32(root),), extra={"tiles": True, "exact": ex})
    if shift is not None:
        A, B = A - shift, B - shift
    if scale is not None:
        A, B = A * scale, B * scale
    if quad is not None:
        AQ, BQ = A @ quad, B @ quad
        return _Plan("squared", AQ, B, (A * AQ).sum(axis=1), (B * BQ).sum(axis=1), (numpy.int32(root),),
                     extra={"exact": ex})
    return _Plan("squared", A, B, _rows_sq(A), _rows_sq(B), (numpy.int32(root),), extra={"exact": ex})


def _cosine_plan(A, B, w, centered):
    if centered:
        if w is None:
            A, B = A - A.mean(axis=1, keepdims=True), B - B.mean(axis=1, keepdims=True)
        else:
            wn = w / w.sum()
            A, B = A - (A @ wn)[:, None], B - (B @ wn)[:, None]
    if w is not None:
        A, B = A * sqrt(w), B * sqrt(w)
    return _Plan("cosine", A, B, sqrt(_rows_sq(A)), sqrt(_rows_sq(B)))


def _bool_plan(A, B, w, name):
    A, B = (A != 0).astype(_F8), (B != 0).astype(_F8)
    if w is None:
        n = float(A.shape[1])
        sa, sb = A.sum(axis=1), B.sum(axis=1)
        Aw = A
    else:
        n = w.sum()
        Aw = A * w
        sa, sb = Aw.sum(axis=1), B @ w
    p = _Plan("bool", Aw, B, sa, sb, (numpy.int32(_k.BOOL_CODES[name]),))
    p.extra["n"] = n
    return p


def _default_vi(XA, XB, n, m):
    if m <= n:
        raise ValueError(
            "The number of observations ({}) is too small; the covariance matrix is singular. For "
            "observations with {} dimensions, at least {} observations are required.".format(m, n, n + 1))
    X = XA if XB is None else vstack([XA, XB])
    CV = cov(X.astype(_F8).T)
    return inv(CV.reshape(1, 1) if CV.ndim == 0 else CV).T


def _default_v(XA, XB):
    X = XA if XB is None else vstack([XA, XB])
    return X.astype(_F8).var(axis=0, ddof=1)


def _plan(name, XA, XB, kwargs, pdist):
    """How `name` runs on (XA, XB) (XB is None for pdist), after SciPy's argument checks."""
    mA, n = XA.shape
    m = mA + (0 if XB is None else XB.shape[0])
    w = _weights(kwargs, n, name)
    allowed = _EXTRA.get(name, set())
    bad = set(kwargs) - allowed
    if bad:
        raise TypeError("{}() got an unexpected keyword argument {!r}".format(name, sorted(bad)[0]))
    boolean = name in _BOOLEAN or (name == "hamming" and XA.dtype == numpy.bool_)
    if boolean:
        return _bool_plan(XA, XA if XB is None else XB, w, name)
    A = XA.astype(_F8, copy=False)
    B = A if XB is None else XB.astype(_F8, copy=False)
    if name in ("euclidean", "sqeuclidean"):
        ex = ("plain", None) if w is None else ("weighted" if name == "euclidean" else "weighted_sq", w)
        return _squared_plan(A, B, name == "euclidean", None if w is None else sqrt(w), exact=ex)
    if name == "seuclidean":
        V = kwargs.get("V")
        if V is None:
            V = _default_v(XA, XB)
        else:
            V = as_parameter(V, "cdist").astype(_F8, copy=False)
            if V.ndim != 1:
                raise ValueError("Variance vector V must be one-dimensional.")
            if V.shape[0] != n:
                raise ValueError("Variance vector V must be of the same dimension as the vectors on "
                                 "which the distances are computed.")
        return _squared_plan(A, B, True, 1.0 / sqrt(V), exact=("variance", V))
    if name == "mahalanobis":
        VI = kwargs.get("VI")
        VI = _default_vi(XA, XB, n, m) if VI is None else as_parameter(VI, "cdist").astype(_F8, copy=False)
        return _squared_plan(A, B, True, quad=(VI + VI.T) / 2.0, exact=("quad", VI))
    if name in ("cosine", "correlation"):
        return _cosine_plan(A, B, w, name == "correlation")
    return _reduction_plan(name, A, B, w, kwargs)


def _reduction_plan(name, A, B, w, kwargs):
    wv = () if w is None else (w,)
    sfx = "" if w is None else "_w"
    if name == "minkowski":
        p = kwargs.get("p", 2.0)  # p <= 0 is computed as SciPy's C loop does (pow), not refused
        if p == 2:
            return _squared_plan(A, B, True, None if w is None else sqrt(w),
                                 exact=("plain", None) if w is None else ("weighted", w))
        if p == 1:
            return _Plan("cityblock" + sfx, A, B, args=wv)
        if p == numpy.inf:
            return _Plan("chebyshev" + sfx, A, B, args=wv)
        return _Plan("minkowski" + sfx, A, B, args=wv + (float(p),))
    if name in ("cityblock", "chebyshev", "canberra"):
        return _Plan(name + sfx, A, B, args=wv)
    if name in CUPYX_ALIASES:
        return _Plan(name, A, B)
    if name == "braycurtis":
        return _Plan("cityblock" + sfx, A, B, args=wv, post="braycurtis")
    if name == "hamming":
        p = _Plan("hamming" + sfx, A, B, args=wv, post="hamming")
        p.extra["n"] = float(A.shape[1]) if w is None else w.sum()
        return p
    # jensenshannon: rows divided by their sums; a row with a negative entry or a zero sum gives inf
    sa, sb = A.sum(axis=1, keepdims=True), B.sum(axis=1, keepdims=True)
    p = _Plan("jensenshannon", A / sa, B / sb, post="jensenshannon")
    p.extra["badA"] = (A < 0).any(axis=1) | (sa[:, 0] == 0)
    p.extra["badB"] = (B < 0).any(axis=1) | (sb[:, 0] == 0)
    return p


def _block(plan, i0, i1, j0, out):
    """Distances of A[i0:i1] to B[j0:] into `out` (shape (i1 - i0, len(B) - j0), C-contiguous)."""
    a, b = plan.A[i0:i1], plan.B[j0:]
    if plan.extra.get("tiles"):
        tiles = _sqt.plan_for(a.shape[0], b.shape[0], a.shape[1])
        if tiles is not None:
            _sqt.launch(tiles, a, b, plan.na[i0:i1], plan.nb[j0:], out, bool(plan.args[0]),
                        plan.extra["exact"].rows(i0, j0))
            return
    if plan.kind == "squared":
        _sqt.epilogue(a @ b.T, plan.na[i0:i1], plan.nb[j0:], out, bool(plan.args[0]),
                      plan.extra["exact"].rows(i0, j0))
        return
    if plan.kind in ("cosine", "bool"):
        g = a @ b.T
        na, nb = plan.na[i0:i1, None], plan.nb[None, j0:]
        if plan.kind == "bool":
            n = plan.extra["n"]
            _k.epilogue("bool")(g, na, nb, n if isinstance(n, ndarray) else float(n), *plan.args, out)
        else:
            _k.epilogue(plan.kind)(g, na, nb, *plan.args, out)
        return
    ws = tuple(x[None, None, :] if isinstance(x, ndarray) else x for x in plan.args)
    _k.pair_reduction(plan.kind)(a[:, None, :], b[None, :, :], *ws, out, axis=2)
    if plan.post == "braycurtis":
        den = _k.pair_reduction("braysum" + plan.kind[len("cityblock"):])(
            a[:, None, :], b[None, :, :], *ws, axis=2)
        out /= den
    elif plan.post == "hamming":
        out /= plan.extra["n"]
    elif plan.post == "jensenshannon":
        bad = plan.extra["badA"][i0:i1, None] | plan.extra["badB"][None, j0:]
        out[...] = where(bad, numpy.inf, out)


def _prepare_out(out, shape):
    if out is None:
        return empty(shape, dtype=_F8)
    if not isinstance(out, ndarray):
        raise TypeError("out must be a cuarray array")
    if out.shape != shape:
        raise ValueError("Output array has incorrect shape.")
    if not out.flags.c_contiguous:
        raise ValueError("Output array must be C-contiguous.")
    if out.dtype != _F8:
        raise ValueError("Output array must be double type.")
    return out


def _own_metric(metric):
    """The canonical name of one of this module's distance functions, None for another callable."""
    name = getattr(metric, "__name__", None)
    if (name in _ALIASES or name in CUPYX_ALIASES) and getattr(_vec, name, None) is metric:
        return name
    return None


def _host_pairs(XA, XB, metric, kwargs, out, pdist):
    """SciPy's per-pair loop, on the host: the slow path of a user's callable metric."""
    a = to_host(XA)
    b = a if XB is None else to_host(XB)
    if pdist:
        m = a.shape[0]
        res = numpy.array([metric(a[i], a[j], **kwargs) for i in range(m) for j in range(i + 1, m)],
                          dtype=numpy.float64).reshape(m * (m - 1) // 2)
    else:
        res = numpy.array([[metric(u, v, **kwargs) for v in b] for u in a],
                          dtype=numpy.float64).reshape(a.shape[0], b.shape[0])
    if out is None:
        return from_host(res)
    out[...] = from_host(res)
    return out


def _check_metric(metric):
    if callable(metric):
        return _own_metric(metric)
    if not isinstance(metric, str):
        raise TypeError("2nd argument metric must be a string identifier or a function.")
    return _canonical(metric)


def cdist(XA, XB, metric="euclidean", *, out=None, **kwargs):
    """See `scipy.spatial.distance.cdist`. The euclidean family is one pass of tensor-core tiles on
    sm_90; the other GEMM metrics (and that family elsewhere) run as one cuBLAS product
    and a fused epilogue per block of rows (euclidean: ``a.a + b.b - 2 a.b`` clamped at 0 on rows
    centred on XB's mean, the pairs where it cancels formed again by SciPy's direct formula: equal
    rows give 0, the rest within ~1e-14 relative); a callable metric other than this module's
    functions runs on the host, pair by pair."""
    XA, XB = as_literal_or_array(XA, "cdist"), as_literal_or_array(XB, "cdist")
    if XA.ndim != 2:
        raise ValueError("XA must be a 2-dimensional array.")
    if XB.ndim != 2:
        raise ValueError("XB must be a 2-dimensional array.")
    if XA.shape[1] != XB.shape[1]:
        raise ValueError("XA and XB must have the same number of columns (i.e. feature dimension.)")
    name = _check_metric(metric)
    if name is None:
        return _host_pairs(XA, XB, metric, kwargs, _prepare_out(out, (XA.shape[0], XB.shape[0])) if out is not None else None, False)
    plan = _plan(name, XA, XB, dict(kwargs), False)
    mA, mB = XA.shape[0], XB.shape[0]
    dm = _prepare_out(out, (mA, mB))
    if dm.size == 0:
        return dm
    # the fused tiles write the result with no temporaries: one launch for the whole of it (where
    # one launch takes it; else blocks, which `_block` multiplies with cuBLAS)
    whole = plan.extra.get("tiles") and _sqt.plan_for(mA, mB, plan.A.shape[1]) is not None
    step = mA if whole else max(1, BLOCK_ELEMENTS // mB)
    for i0 in range(0, mA, step):
        i1 = min(mA, i0 + step)
        _block(plan, i0, i1, 0, dm[i0:i1])
    return dm


def pdist(X, metric="euclidean", *, out=None, **kwargs):
    """See `scipy.spatial.distance.pdist`. Blocks of rows against the rows after them (the
    GEMM or reduction paths of `cdist`), the upper triangle of each block gathered into the
    condensed result (no host read)."""
    X = as_literal_or_array(X, "pdist")
    if X.ndim != 2:
        raise ValueError("A 2-dimensional array must be passed. (Shape was {}).".format(X.shape))
    m = X.shape[0]
    size = m * (m - 1) // 2
    name = _check_metric(metric)
    if name is None:
        return _host_pairs(X, None, metric, kwargs, _prepare_out(out, (size,)) if out is not None else None, True)
    plan = _plan(name, X, None, dict(kwargs), True)
    dm = _prepare_out(out, (size,))
    if size == 0:
        return dm
    step = max(1, BLOCK_ELEMENTS // m)
    for i0 in range(0, m - 1, step):
        i1 = min(m - 1, i0 + step)
        width = m - i0 - 1
        blk = empty((i1 - i0, width), dtype=_F8)
        _block(plan, i0, i1, i0 + 1, blk)
        start = i0 * m - i0 * (i0 + 1) // 2
        stop = i1 * m - i1 * (i1 + 1) // 2
        dm[start:stop] = take(blk.reshape(-1), _upper_index(i1 - i0, width, stop - start))
    return dm


def _upper_index(t, width, count):
    """Flat indices into a (t, width) block of its entries at column >= row, row by row: the row
    of each entry by a search in the rows' starting offsets (on the device, no host read)."""
    r = arange(t, dtype=numpy.int64)
    offsets = r * width - r * (r - 1) // 2  # where row r's entries start in the condensed run
    k = arange(count, dtype=numpy.int64)
    row = searchsorted(offsets, k, side="right") - 1
    return row * width + (k - offsets[row]) + row


@rng_transition("seed", position_num=2)
def directed_hausdorff(u, v, rng=0):
    """See `scipy.spatial.distance.directed_hausdorff`: max over u's rows of the distance to the
    nearest row of v, by blocks of GEMM squared distances (a min and an argmin per row on the
    device). `rng` (and its legacy name `seed`) is accepted and unused (SciPy shuffles to stop early; the answer is the same
    distance); where several pairs attain it the indices may name another. Returns SciPy's
    (float, int, int) on the host."""
    u, v = as_literal_or_array(u, "directed_hausdorff"), as_literal_or_array(v, "directed_hausdorff")
    if u.ndim != 2 or v.ndim != 2 or u.shape[1] != v.shape[1]:
        raise ValueError("u and v need to have the same number of columns")
    m = u.shape[0]
    if m == 0 or v.shape[0] == 0:
        return 0.0, -1, -1
    plan = _squared_plan(u.astype(_F8), v.astype(_F8), False)
    best = empty((m,), dtype=_F8)
    arg = empty((m,), dtype=numpy.int64)
    step = max(1, BLOCK_ELEMENTS // v.shape[0])
    for i0 in range(0, m, step):
        i1 = min(m, i0 + step)
        blk = empty((i1 - i0, v.shape[0]), dtype=_F8)
        _block(plan, i0, i1, 0, blk)
        arg[i0:i1] = blk.argmin(axis=1)
        best[i0:i1] = blk.min(axis=1)
    i = int(to_host(best.argmax()))
    return float(numpy.sqrt(to_host(best[i]))), i, int(to_host(arg[i]))
