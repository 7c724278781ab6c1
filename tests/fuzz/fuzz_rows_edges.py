"""The edge pass's rows (group 'edges'; fuzz_catalog adds them): the keyword arguments and the call
forms a randomized comparison with NumPy 2.5 reached and the catalog did not. Each keyword that
takes a scalar or a range draws values at the edges of the first array's dtype (Python ints just
outside it, NaN, inf, -0.0, huge and subnormal floats, complex mixes): initial= with where= of
max/min/sum/prod, fill_value=, prepend=/append=, histogram's range= and bins= (lists of arrays and
ints for histogramdd); einsum's dtype=/casting=; put/take's mode= and out=; a.flat[...] with every
kind of index; reshape's copy=; require's requirements; polyval/roots/poly1d/trimseq of 0-d and
N-d coefficients; linalg's keywords (rcond=, rtol=, tol=, hermitian=, UPLO=, upper=, mode=,
full_matrices=, compute_uv=, p=, ord=) over stacks of rank-deficient and ill-conditioned matrices.

`bound(rows)` also gives the catalog's rows the comparison rules of fuzz_bounds (elementwise
accuracy, summation bounds, conditioning, NumPy's cutoffs)."""

from __future__ import annotations

import numpy as np

import fuzz_bounds as fb
from fuzz_checks import (check_complex_product, check_cond, check_half_accumulation, check_lstsq, check_nonfinite_spread, check_singular,
                         check_slogdet, check_solve, check_sorted_values, check_unique_inverse)
from fuzz_values import edge_scalar, pick_dtype, random_shape
from fuzzlib import ArraySpec, Host, Seq, array_spec, broadcastable_shape


def _one_of(rng, items):
    return items[int(rng.integers(0, len(items)))]  # rng.choice would make big ints floats


def _edge(rng, ctx):
    """A scalar at the edges of the first array's dtype (fuzz_values.edge_scalar)."""
    return Host(edge_scalar(rng, ctx.get("dtype")))


def _initial(rng, ctx):
    r = rng.random()
    if r < 0.75:
        return _edge(rng, ctx)
    if r < 0.85:
        return Host(_one_of(rng, [0, 1, -3, 2.5]))
    return Host(_one_of(rng, [None, "a", [1], 1 + 2j]))


def _redmask(rng, ctx):
    """where= of a reduction: the first array's shape, or one it broadcasts from."""
    shp = tuple(ctx["shape"])
    if shp and rng.random() < 0.3:
        shp = tuple(1 if rng.random() < 0.5 else d for d in shp)
    spec = array_spec(rng, shp, np.dtype(bool), edges=False)
    if rng.random() < 0.2:
        spec.base[...] = rng.random() < 0.5  # all True or all False
    return spec


def _pend(rng, ctx):
    """diff's prepend=/append=: an edge scalar, a list, or an array of a fitting shape."""
    r = rng.random()
    if r < 0.5:
        return _edge(rng, ctx)
    shp = list(ctx["shape"]) or [1]
    shp[-1] = int(rng.integers(1, 3))
    if r < 0.75:
        return Host(np.asarray(rng.integers(-3, 4, shp)).tolist())
    return array_spec(rng, tuple(shp), pick_dtype(rng, "iuf"))


def _range(rng, ctx):
    """histogram's range=: inverted, empty, beyond the data (no sample in any bin), beyond the
    dtype's range (an unsigned array with negative or huge bounds), NaN, inf, huge, int or float."""
    dt = ctx.get("dtype")
    top = int(np.iinfo(dt).max) if dt is not None and dt.kind in "iu" else 300
    pairs = [(0, 1), (-5, 10), (250, 255), (top - 5, top), (top, top + 10), (top + 1, top + 5), (-300, -1), (5, 2), (3, 3), (0.5, 0.25),
             (-2.5, 2.5), (0, np.inf), (np.nan, 1), (-1e308, 1e308), (-0.0, 0.0), (0, 2 ** 64), (-1, 0)]
    lo, hi = _one_of(rng, pairs)
    if rng.random() < 0.3:
        lo, hi = float(lo), float(hi)
    return Host((lo, hi) if rng.random() < 0.9 else [lo, hi])


def _bins(rng, ctx):
    """bins=: a count (0 and negative ones raise; large ones), edges (sorted, with duplicates,
    unsorted, NaN, beyond the dtype), or a rule's name."""
    r = rng.random()
    if r < 0.45:
        return Host(_one_of(rng, [1, 2, 3, 5, 10, 0, -1, 300, np.int64(4), 2.0]))
    if r < 0.9:
        k = int(rng.integers(1, 6))
        pool = np.array([-300.0, -1.5, 0.0, -0.0, 0.5, 1.0, 2.0, 3.0, 250.0, 255.0, 256.0, 1e308, np.inf, np.nan])
        v = np.sort(pool[rng.integers(0, len(pool), k)])
        if rng.random() < 0.15:
            v = v[::-1]
        if rng.random() < 0.3:
            v = np.round(np.nan_to_num(v)).clip(-300, 300).astype(np.int64)
        return Host(v.tolist()) if rng.random() < 0.5 else ArraySpec(np.ascontiguousarray(v), device=False)
    return Host(_one_of(rng, ["auto", "fd", "sturges", "sqrt", "rice", "stone"]))


def _uarr(rng, ctx):
    """An unsigned array (histogram's unsigned subtractions), sometimes signed or float."""
    dt = np.dtype(_one_of(rng, ["uint8", "uint16", "uint32", "uint64", "uint8", "int8", "float32"]))
    shp = random_shape(rng, max_ndim=2)
    ctx.update(ndim=len(shp), shape=shp, size=int(np.prod(shp)), dtype=dt)
    return array_spec(rng, shp, dt)


def _ddbins(rng, ctx):
    """histogramdd's bins=: one entry per column, each a count or an array of edges (a device array
    of the side's type, or a host list), sometimes one entry too few."""
    d = ctx["shape"][-1] if len(ctx["shape"]) == 2 else 1
    n = d - (rng.random() < 0.1)
    if rng.random() < 0.3:
        return Host(int(_one_of(rng, [1, 2, 3, 0])))
    items = []
    for _ in range(max(n, 0)):
        if rng.random() < 0.5:
            items.append(Host(int(_one_of(rng, [1, 2, 3, 4, 0]))))
        else:
            e = np.sort(rng.standard_normal(int(rng.integers(1, 5))) * 2)
            items.append(ArraySpec(e) if rng.random() < 0.6 else Host(e.tolist()))
    return Seq(items)


def _ddrange(rng, ctx):
    d = ctx["shape"][-1] if len(ctx["shape"]) == 2 else 1
    return Host([None if rng.random() < 0.2 else _one_of(rng, [(0, 1), (-3, 3), (2, -2), (1, 1), (0, np.inf)])
                 for _ in range(d)])


def _flatidx(rng, ctx):
    """An index of a.flat: ints (in and out of range), None, tuples, slices, lists, bool and int
    arrays (host or device), Ellipsis, floats. No True into an empty array: NumPy reads its element
    0 unchecked there, past the end (whatever memory holds; cuarray's IndexError): False instead."""
    n = max(ctx["size"], 1)
    r = rng.random()
    if r < 0.5:
        return Host(_one_of(rng, [0, n - 1, -n, n, -n - 1, None, (1, 2), (0,), (), Ellipsis, (Ellipsis,),
                                  slice(1, None, 2), slice(None, None, -1), [0, n - 1], [], 1.5, ctx["size"] > 0]))
    if r < 0.75:
        spec = array_spec(rng, random_shape(rng, max_ndim=2), np.dtype(_one_of(rng, ["int64", "int32", "uint8"])),
                          edges=False, device=rng.random() < 0.5)
        spec.base[...] = rng.integers(0, n + (rng.random() < 0.1), spec.base.shape)
        spec.index = True
        return spec
    spec = array_spec(rng, (ctx["size"] if rng.random() < 0.9 else ctx["size"] + 1,), np.dtype(bool), edges=False,
                      device=rng.random() < 0.5)
    spec.index = True
    return spec


def _pcoef(rng, ctx):
    """Polynomial coefficients: 1-d mostly, 0-d and 2-d (NumPy refuses them), leading zeros."""
    shp = _one_of(rng, [(3,), (4,), (1,), (0,), (2,), (), (2, 2), (1, 3)])
    spec = array_spec(rng, shp, pick_dtype(rng, "if"), edges="finite")
    if spec.base.size and rng.random() < 0.2:
        spec.base.reshape(-1)[0] = 0
    ctx.setdefault("shape", spec.host().shape)
    ctx.setdefault("ndim", len(shp))
    ctx.setdefault("size", int(np.prod(shp)))
    return spec


def _outtake(rng, ctx):
    """take's out=: the result's shape (sometimes another), any dtype."""
    shp = random_shape(rng, max_ndim=2)
    if rng.random() < 0.8:
        try:
            shp = np.take(np.empty(ctx["shape"]), ctx["args"][1].host(), axis=ctx.get("axis_value")).shape
        except Exception:  # noqa: BLE001 - NumPy refuses the call: any out= will do
            pass
    return array_spec(rng, shp, pick_dtype(rng), edges=False, layout="C")


def _bmix(rng, ctx):
    """A second operand broadcasting with the first, often bool or a small integer type (NumPy's
    promotion of a bool exponent, a complex zero to the power True)."""
    dt = np.dtype(_one_of(rng, ["bool", "bool", "int8", "uint8"])) if rng.random() < 0.6 else pick_dtype(rng)
    return array_spec(rng, broadcastable_shape(rng, ctx["shape"]), dt)


def _ddsample(rng, ctx):
    """histogramdd's sample: (n, d) with d of 1 to 3 columns (its bins multiply per column)."""
    shp = (int(rng.choice([0, 1, 3, 5, 8])), int(rng.choice([1, 2, 3])))
    ctx.update(ndim=2, shape=shp, size=shp[0] * shp[1], dtype=np.dtype(np.float64))
    return array_spec(rng, shp, pick_dtype(rng, "iuf"))


def _rcond(rng, ctx):
    batch = tuple(ctx["shape"][:-2])
    r = rng.random()
    if r < 0.8:
        return Host(_one_of(rng, [None, 1e-15, 1e-5, 0.1, 0.0, -1.0, 1e-7, 1.0]))
    return ArraySpec(np.abs(rng.standard_normal(batch)) * 1e-3, device=False)


_CH = lambda *v: (lambda rng, ctx: Host(_one_of(rng, list(v))))  # noqa: E731

KINDS_EDGES = {
    "edge": _edge, "initial": _initial, "redmask": _redmask, "pend": _pend, "erange": _range, "ebins": _bins,
    "euarr": _uarr, "ddbins": _ddbins, "ddrange": _ddrange, "flatidx1": _flatidx, "pcoef": _pcoef,
    "outtake": _outtake, "rcond": _rcond, "bmix": _bmix, "ddsample": _ddsample,
    "edtype": _CH(np.dtype("uint8"), np.dtype("int8"), np.dtype("float16"), np.dtype("float32"), np.dtype("float64"),
                  np.dtype("complex64"), np.dtype("int64"), np.dtype("bool"), None),
    "casting": _CH("unsafe", "same_kind", "safe", "no", "equiv"),
    "mode3": _CH("raise", "wrap", "clip", "bogus"),
    "copyarg": _CH(True, False, None, "yes", 1, 0),
    "order": _CH("C", "F", "A", "K", None),
    "requirements": _CH("C", "F", "A", "W", "O", "E", "Z", ["C", "A"], ["F", "W"], "CONTIGUOUS", None, "aligned",
                        ("O", "C")),
    "rtol": _CH(None, 1e-5, 0.5, 1e-15, 0.0),
    "tol": _CH(None, 1e-5, 0.0, 1e10),
    "tind": _CH(1, 1, 2, 0, 3),
    # (poly1d's power multiplies n times: no huge n)
    "ppow": _CH(0, 1, 2, 3, -1, 2.5, 2.0, True, np.int64(3), np.uint8(2), 1 + 0j, None, "2"),
    # `a ** s`: NumPy's ndarray takes square, reciprocal, sqrt for the Python 2, -1, 0.5 (not for
    # 2.0, True or NumPy scalars), whose types and special values differ from power's
    "spow": _CH(2, -1, 0.5, 2, -1, 0.5, 3, 0, 1, -2, 0.25, 2.0, -1.0, True, np.int64(2), np.float64(0.5)),
    "uplo": _CH("L", "U", "l", "X"),
    "qrmode": _CH("reduced", "complete", "r", "raw", "full"),
    "pnorm": _CH(None, 1, -1, 2, -2, np.inf, -np.inf, "fro", "nuc"),
    "sortkind": _CH(None, "quicksort", "mergesort", "heapsort", "stable"),
}


def _flat(xp, args, kw):
    return args[0].flat[args[1]]


def _poly_pow(xp, args, kw):
    return (xp.poly1d(args[0]) ** args[1]).coeffs


def _operator_pow(xp, args, kw):
    return args[0] ** args[1]


def rows(Row, product_check):
    """The edge pass's rows, group 'edges', keys tagged with their keywords."""
    unique_check = {"check": check_unique_inverse}
    out = [
        *[Row(n, "a", kw={"initial": "initial", "where": "redmask", "axis": "axis", "keepdims": "bool"}, dtypes="iub")
          for n in ("max", "min", "amax", "amin")],
        *[Row(n, "a", kw={"initial": "initial", "where": "redmask", "axis": "axis"}, dtypes="iufb")
          for n in ("nanmax", "nanmin", "maximum.reduce", "minimum.reduce")],
        *[Row(n, "a", kw={"initial": "initial", "where": "redmask", "dtype": "edtype"}, dtypes="iub", **product_check(n))
          for n in ("sum", "prod")],
        Row("full_like", "a edge", kw={"dtype": "edtype"}),
        Row("full", "shape edge", kw={"dtype": "edtype"}),
        Row("diff", "a", kw={"prepend": "pend", "append": "pend", "n": "int", "axis": "axis_int"}, dtypes="iub"),
        Row("histogram", "a", kw={"bins": "ebins", "range": "erange", "density": "bool", "weights": "weights"},
            dtypes="iuf", rtol=1e3, check=fb.check_histogram),
        Row("histogram", "euarr", kw={"bins": "ebins", "range": "erange"}, rtol=1e3),
        Row("histogram_bin_edges", "euarr", kw={"bins": "ebins", "range": "erange"}, rtol=1e3),
        Row("histogram2d", "a1 same", kw={"bins": "ebins", "range": "ddrange"}, dtypes="iuf", rtol=1e3),
        Row("histogramdd", "ddsample", kw={"bins": "ddbins", "range": "ddrange", "density": "bool"}, rtol=1e3),
        *[Row(n, "a bmix", dtypes="fc", edges="dups", **product_check(n)) for n in ("float_power", "power")],
        *[Row("einsum", k, kw={"dtype": "edtype", "casting": "casting"}, rtol=100,
              check=fb.check_sums("bilinear", check_nonfinite_spread)) for k in ("subs op", "subs op op")],
        Row("put", "a idx b", kw={"mode": "mode3"}, inplace=True),
        Row("take", "a idx", kw={"axis": "axis", "mode": "mode3", "out": "outtake"}),
        Row("ndarray.take", "a idx", kw={"axis": "axis", "mode": "mode3"}),
        Row("flat[]", "a flatidx1", custom=_flat, custom_code="({0}).flat[{1}]"),
        Row("reshape", "a reshape", kw={"copy": "copyarg", "order": "order"}),
        Row("require", "a", kw={"dtype": "edtype", "requirements": "requirements"}),
        Row("polyval", "pcoef a", rtol=1e3),
        Row("roots", "pcoef", dtypes="if", rtol=1e4, edges=False, check=check_sorted_values),  # (cuSOLVER's order)
        Row("poly1d**", "a1 ppow", custom=_poly_pow, custom_code="(xp.poly1d({0}) ** {1}).coeffs", dtypes="if",
            rtol=1e3, max_ndim=1),
        Row("polynomial.polyutils.trimseq", "pcoef"),
        Row("a**s", "a spow", custom=_operator_pow, custom_code="({0}) ** {1}", dtypes="biufc"),
        Row("sort", "a", kw={"axis": "axis", "kind": "sortkind"}),
        Row("unique", "a", kw={"return_inverse": "bool", "equal_nan": "bool"}, **unique_check),
        Row("linalg.pinv", "m", kw={"rcond": "rcond", "hermitian": "bool"}, dtypes="fc", rtol=1e4, check=fb.check_pinv),
        Row("linalg.pinv", "m", kw={"rtol": "rtol"}, dtypes="fc", rtol=1e4, check=fb.check_pinv),
        Row("linalg.matrix_rank", "m", kw={"tol": "tol", "hermitian": "bool"}, dtypes="fc", check=fb.check_matrix_rank),
        Row("linalg.matrix_rank", "m", kw={"rtol": "rtol"}, dtypes="fc", check=fb.check_matrix_rank),
        Row("linalg.lstsq", "m rhs", kw={"rcond": "rtol"}, dtypes="fc", rtol=1e4, max_ndim=2,
            check=fb.check_conditioned(check_lstsq)),
        Row("linalg.svd", "m", kw={"full_matrices": "bool", "compute_uv": "bool", "hermitian": "bool"}, dtypes="fc",
            rtol=1e4, values=False),
        Row("linalg.eigvalsh", "sq", kw={"UPLO": "uplo"}, dtypes="fc", rtol=1e4),
        Row("linalg.cholesky", "sq", kw={"upper": "bool"}, dtypes="fc", rtol=1e4, check=fb.check_cholesky),
        Row("linalg.qr", "m", kw={"mode": "qrmode"}, dtypes="fc", rtol=1e4, values=False),
        Row("linalg.cond", "sq", kw={"p": "pnorm"}, dtypes="fc", rtol=1e4,
            check=check_singular(fb.check_conditioned(check_cond))),
        Row("linalg.norm", "m", kw={"ord": "pnorm", "keepdims": "bool"}, dtypes="fc", rtol=1e4,
            check=fb.check_conditioned()),
    ]
    for r in out:
        r.group, r.tag = "edges", "{{{}}}".format(",".join(r.kw))
    return out


# -- comparison rules for the catalog's rows (fuzz_bounds) -------------------------------------------

ACCURATE = set((
    "negative positive absolute sign sqrt cbrt exp exp2 expm1 log log2 log10 log1p sin cos tan arcsin arccos arctan "
    "sinh cosh tanh arcsinh arccosh arctanh floor ceil trunc rint reciprocal square conj real imag angle deg2rad "
    "rad2deg fabs spacing fix i0 abs acos acosh asin asinh atan atanh degrees radians conjugate").split())
LINEAR = set("sum nansum mean nanmean cumsum nancumsum add.reduce add.accumulate cumulative_sum trapezoid trace "
             "linalg.trace".split())
MOMENTS = set("var std nanvar nanstd".split())
BILINEAR = set(("dot matmul inner vdot tensordot einsum vecdot matvec vecmat linalg.multi_dot linalg.matmul "
                "linalg.vecdot linalg.tensordot convolve correlate polyval polymul").split())
CONDITIONED = {"linalg.det": None, "linalg.slogdet": check_slogdet, "linalg.cond": check_cond,
               "linalg.lstsq": check_lstsq, "linalg.matrix_norm": None}
SINGULAR = {"linalg.inv": None, "linalg.solve": check_solve, "linalg.tensorinv": None, "linalg.tensorsolve": None,
            "linalg.matrix_power": check_complex_product}
FFT_SUMS = {"convolve", "correlate", "polymul"}  # (cuarray: through the FFT for long operands)
NORMAL = {"linalg.eig", "linalg.eigvals"}  # (their structured matrices: normal, fuzz_values.matrix_values)


SETS = set(("sort argsort unique unique_all unique_counts unique_inverse unique_values sort_complex intersect1d "
            "union1d setdiff1d setxor1d isin lexsort partition argpartition").split())


def bound(rows):
    """Give the catalog's rows fuzz_bounds' rules, each around the row's own check (group 'edges'
    rows carry theirs), and the sort, unique and set rows arrays of many duplicates (NaN, both
    zeros: edges="dups")."""
    for r in rows:
        if r.name in SETS and r.edges is True:
            r.edges = "dups"
        if r.group == "edges" and r.check is not None:
            continue
        if r.name in ACCURATE:
            r.check = fb.check_accurate(r.check)
        elif r.name in LINEAR or r.name in BILINEAR:
            half = r.check is check_half_accumulation  # (it re-makes NumPy's float16 answer: no snapping there)
            if r.name == "trapezoid":
                r.check = fb.check_moments_or_spread
            r.check = fb.check_sums("linear" if r.name in LINEAR else "bilinear", r.check, half=not half,
                                    strict=r.name not in FFT_SUMS)
        elif r.name in MOMENTS:
            r.check = fb.check_sums("moments", r.check)
        elif r.name in CONDITIONED:
            r.check = fb.check_conditioned(CONDITIONED[r.name])
            if r.name == "linalg.cond":  # (p=1, inf, fro invert the matrix: LinAlgError where singular)
                r.check = check_singular(r.check)
        elif r.name in SINGULAR:
            r.check = check_singular(fb.check_conditioned(SINGULAR[r.name], power=r.name.endswith("power")))
        elif r.name == "linalg.pinv":
            r.check = fb.check_pinv
        elif r.name == "linalg.matrix_rank":
            r.values, r.check = True, fb.check_matrix_rank
        elif r.name == "linalg.cholesky":
            r.check = fb.check_cholesky
        elif r.name.startswith("fft.") and "freq" not in r.name and "shift" not in r.name:
            r.check = fb.check_sums("total", r.check)
    return rows

