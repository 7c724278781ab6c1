"""Argument kinds of the catalog's second pass (issue 35: the rest of the namespace that takes
arrays): arrays drawn from the first array's shape (`ctx`), index arrays, sections, pad widths,
einsum subscripts and operands, bins and ranges, FFT lengths and axes. fuzz_catalog.KINDS holds
them with its own."""

from __future__ import annotations

import numpy as np

from fuzzlib import Host, Seq, XpFn, array_spec, broadcastable_shape, pick_dtype, random_shape


def _one_of(rng, items):
    return items[int(rng.integers(0, len(items)))]  # rng.choice would make big ints floats



def _choice(*values):
    return lambda rng, ctx: Host(_one_of(rng, list(values)))


def _arr(rng, ctx, shape, dtype=None, **kw):
    return array_spec(rng, shape, dtype or pick_dtype(rng, ctx["dtypes"]), edges=ctx["edges"], **kw)


def _same(rng, ctx):
    """An array of the first array's shape (sometimes another: both sides must refuse alike)."""
    shp = ctx["shape"] if rng.random() < 0.9 else random_shape(rng, max_ndim=2)
    return _arr(rng, ctx, shp)


def _mask(rng, ctx):
    shp = ctx["shape"] if rng.random() < 0.8 else broadcastable_shape(rng, ctx["shape"])
    return _arr(rng, ctx, shp, np.dtype(bool))


def _cond1(rng, ctx):
    """compress's condition: 1-d bool (sometimes int), up to the axis' length + 1."""
    n = max(ctx["shape"], default=1) if ctx["shape"] else 1
    k = int(rng.integers(0, n + 2))
    return _arr(rng, ctx, (k,), np.dtype(bool) if rng.random() < 0.9 else np.dtype("int64"), layout="C")


def _sorted(rng, ctx):
    """A sorted 1-d array (bins, interp's xp); descending 10% of the time (digitize accepts it)."""
    dt = pick_dtype(rng, "iuf" if "f" in ctx["dtypes"] or "i" in ctx["dtypes"] else ctx["dtypes"])
    spec = array_spec(rng, (int(rng.choice([0, 1, 2, 4, 5])),), dt, edges=False, layout="C")
    spec.base[...] = np.sort(spec.base)[::-1] if rng.random() < 0.1 else np.sort(spec.base)
    return spec


def _counts(rng, ctx):
    """bincount's input: small non-negative ints (sometimes a negative or a float: both refuse)."""
    dt = np.dtype(_one_of(rng, ["int64", "int32", "uint8", "int16", "bool", "float64"]))
    spec = array_spec(rng, (int(rng.choice([0, 1, 3, 8])),), dt, edges=False, layout=None)
    with np.errstate(all="ignore"):
        spec.base[...] = np.abs(rng.integers(-1 if rng.random() < 0.1 else 0, 9, spec.base.shape)).astype(dt) \
            if dt.kind != "i" or rng.random() > 0.05 else rng.integers(-3, 9, spec.base.shape).astype(dt)
    shp = spec.host().shape
    ctx.update(ndim=1, shape=shp, size=shp[0])
    return spec


def _weights(rng, ctx):
    """Weights of the first array's length (bincount, histogram)."""
    return _arr(rng, ctx, ctx["shape"] if rng.random() < 0.95 else (ctx["size"] + 1,), pick_dtype(rng, "f"))


def _choose_idx(rng, ctx):
    """choose's index array: values in [0, n) for n choices (a few out of range)."""
    n = ctx["nchoices"] = int(rng.integers(1, 4))
    shp = random_shape(rng, max_ndim=3)
    ctx.update(ndim=len(shp), shape=shp, size=int(np.prod(shp)))
    spec = array_spec(rng, shp, np.dtype(_one_of(rng, ["int64", "int32", "uint8"])), edges=False)
    spec.base[...] = rng.integers(0, n + (1 if rng.random() < 0.1 else 0), spec.base.shape)
    return spec


def _choices(rng, ctx):
    n = ctx.get("nchoices", int(rng.integers(1, 4)))
    return Seq([_arr(rng, ctx, broadcastable_shape(rng, ctx["shape"])) for _ in range(n)])


def _masks(rng, ctx):
    ctx["nchoices"] = n = int(rng.integers(0, 4))
    return Seq([_arr(rng, ctx, broadcastable_shape(rng, ctx["shape"]), np.dtype(bool)) for _ in range(n)])


def _along(rng, ctx):
    """take_along_axis's indices: the array's shape with the axis' length replaced."""
    ax, shp = ctx.get("axis_value"), list(ctx["shape"])
    nd = len(shp)
    if ax is None or not -nd <= ax < nd:
        shp, n = [int(rng.integers(0, 4))], ctx["size"]
    else:
        n = shp[ax]
        shp[ax] = int(rng.choice([0, 1, 2, 3]))
    lo, hi = (-n, n) if n else (0, 1)
    spec = array_spec(rng, tuple(shp), np.dtype(_one_of(rng, ["int64", "intp", "int32"])), edges=False)
    spec.base[...] = rng.integers(lo, hi, spec.base.shape) if n or rng.random() < 0.5 else 0
    spec.index = True
    return spec


def _kth(rng, ctx):
    ax = ctx.get("axis_value", -1)
    nd = ctx["ndim"]
    n = ctx["size"] if ax is None else (ctx["shape"][ax] if nd and -nd <= ax < nd else 1)
    if rng.random() < 0.3:
        return Host([int(x) for x in rng.integers(-n - 1 if rng.random() < 0.1 else -max(n, 1), max(n, 1), 2)])
    return Host(int(rng.integers(-max(n, 1), max(n, 1) + (1 if rng.random() < 0.05 else 0))))


def _sections(rng, ctx):
    if rng.random() < 0.6:
        return Host(int(rng.choice([1, 1, 2, 3, 4, 0])))
    return Host(sorted(int(x) for x in rng.integers(-1, 6, int(rng.integers(0, 4)))))


def _padw(rng, ctx):
    r, nd = rng.random(), ctx["ndim"]
    if r < 0.4:
        return Host(int(rng.choice([0, 1, 2, 3])))
    if r < 0.7:
        return Host(tuple(int(x) for x in rng.integers(0, 4, 2)))
    return Host(tuple(tuple(int(x) for x in rng.integers(0, 3, 2)) for _ in range(nd + (rng.random() < 0.05))))


def _bshape(rng, ctx):
    """A shape the first array broadcasts to (sometimes one it does not)."""
    shp = [d if d != 1 or rng.random() < 0.5 else int(rng.choice([0, 1, 3])) for d in ctx["shape"]]
    if rng.random() < 0.05 and shp:
        shp[-1] += 1
    return Host(tuple(random_shape(rng, max_ndim=1)) + tuple(shp))


def _perm(rng, ctx):
    nd = ctx["ndim"]
    p = [int(x) for x in rng.permutation(nd)]
    if rng.random() < 0.1:
        p = p[:-1] if p else [0]
    return Host(tuple(x - nd if rng.random() < 0.3 else x for x in p))


def _vec3(rng, ctx):
    """Vectors for cross: a last axis of 3 or 2 (sometimes 4)."""
    shp = random_shape(rng, max_ndim=2) + (int(_one_of(rng, [3, 3, 2, 4])),)
    if "shape" not in ctx:
        ctx.update(ndim=len(shp), shape=shp, size=int(np.prod(shp)))
    else:
        shp = broadcastable_shape(rng, ctx["shape"][:-1]) + (int(_one_of(rng, [3, 3, 2])),)
    return _arr(rng, ctx, shp)


_EINSUM = [("ij->ji", "ij"), ("ii->i", "ii"), ("ii", "ii"), ("ij->", "ij"), ("ijk->kj", "ijk"), ("ij", "ij"),
           ("ij,jk->ik", "ij jk"), ("i,i->", "i i"), ("i,j->ij", "i j"), ("ij,ij->ij", "ij ij"),
           ("ijk,ik->ij", "ijk ik"), ("bij,bjk->bik", "bij bjk"), ("ij,j", "ij j"), ("...i,...i->...", "ai ai")]


def _subs(rng, ctx):
    """einsum's subscripts and, in ctx, its operands' shapes (`op` kinds draw them)."""
    pool = [t for t in _EINSUM if len(t[1].split()) == ctx["nops"]]
    subs, ops = pool[int(rng.integers(0, len(pool)))]
    size = {c: int(rng.choice([0, 1, 2, 3, 4])) for c in "abijk"}
    ctx["ops"] = [tuple(size[c] for c in op) for op in ops.split()]
    if rng.random() < 0.05:
        ctx["ops"][0] = ctx["ops"][0] + (2,)  # too many dims: both refuse
    return Host(subs)


def _op(rng, ctx):
    shp = ctx["ops"].pop(0)
    if "shape" not in ctx:
        ctx.update(ndim=len(shp), shape=shp, size=int(np.prod(shp)))
    return _arr(rng, ctx, shp)


def _dims(rng, ctx):
    ctx["dims"] = dims = tuple(int(rng.choice([1, 2, 3, 5])) for _ in range(int(rng.integers(1, 4))))
    return Host(dims if rng.random() < 0.95 else dims + (0,))


def _flatidx(rng, ctx):
    n = int(np.prod(ctx["dims"]))
    spec = array_spec(rng, random_shape(rng, max_ndim=2), np.dtype(_one_of(rng, ["int64", "intp", "int32"])), edges=False)
    spec.base[...] = rng.integers(0, n + (rng.random() < 0.1), spec.base.shape)
    spec.index = True
    return spec


def _multi(rng, ctx):
    shp = random_shape(rng, max_ndim=2)
    out = []
    for d in ctx["dims"]:
        spec = array_spec(rng, shp, np.dtype("int64"), edges=False)
        spec.base[...] = rng.integers(0, d + (rng.random() < 0.05), spec.base.shape)
        spec.index = True
        out.append(spec)
    return Seq(out)


def _fn1d(rng, ctx):
    return XpFn(_one_of(rng, ["sum", "cumsum", "sort", "mean", "max", "diff"]))


def _funclist(rng, ctx):
    n = ctx.get("nchoices", 1) + (rng.random() < 0.5)
    return Seq([XpFn(_one_of(rng, ["sin", "negative", "square"])) if rng.random() < 0.5
                else Host(_one_of(rng, [0, 1.5, -2])) for _ in range(n)])


def _smallint(rng, ctx):
    return Host(int(rng.choice([0, 1, 2, 3, 4, 5, 8, 16, -1])))


def _bins(rng, ctx):
    r = rng.random()
    if r < 0.6:
        return Host(int(rng.choice([1, 2, 3, 5, 10])))
    if r < 0.9:
        return Host(sorted(float(x) for x in rng.standard_normal(int(rng.integers(1, 5))) * 3))
    return Host(str(rng.choice(["auto", "fd", "sturges", "sqrt"])))


def _range(rng, ctx):
    lo = float(rng.choice([-3.0, 0.0, -1.0]))
    return Host((lo, lo + float(rng.choice([1.0, 4.0, 0.0]))))


def _uint8(rng, ctx):
    shp = random_shape(rng, max_ndim=3)
    ctx.update(ndim=len(shp), shape=shp, size=int(np.prod(shp)))
    return array_spec(rng, shp, np.dtype("uint8") if rng.random() < 0.9 else pick_dtype(rng), edges=False)


def _fftn(rng, ctx):
    n = int(rng.choice([0, 1, 2, 3, 4, 5, 8])) if rng.random() < 0.95 else -1
    return Host(None if rng.random() < 0.5 else n)


def _fftaxes(rng, ctx):
    nd = ctx["ndim"]
    if rng.random() < 0.3 or nd == 0:
        return Host(None)
    k = int(rng.integers(1, min(nd, 3) + 1))
    return Host(tuple(int(x) for x in rng.choice(nd, k, replace=False)))


def _tdaxes(rng, ctx):
    ctx["td_k"] = k = int(rng.integers(0, min(ctx["ndim"], 2) + 1))
    return Host(k if rng.random() < 0.95 else k + 1)


def _tdb(rng, ctx):
    """tensordot's second operand: its first axes are the first's last `td_k`."""
    k = min(ctx.get("td_k", 2), ctx["ndim"])
    head = ctx["shape"][len(ctx["shape"]) - k:] if k else ()
    return _arr(rng, ctx, tuple(head) + random_shape(rng, max_ndim=2))


def _right(rng, ctx):
    """A right operand of matmul-like calls: its second last (or only) axis is the first's last."""
    n = ctx["shape"][-1] if ctx["shape"] else 2
    if rng.random() < 0.05:
        n += 1
    shp = (n,) if rng.random() < 0.3 else broadcastable_shape(rng, ctx["shape"][:-2]) + (n, int(rng.choice([1, 2, 3])))
    return _arr(rng, ctx, shp)


KINDS35 = {
    "tdaxes": _tdaxes, "tdb": _tdb, "right": _right,
    "same": _same, "mask": _mask, "cond1": _cond1, "sorted": _sorted, "counts": _counts, "weights": _weights,
    "choose_idx": _choose_idx, "choices": _choices, "masks": _masks, "along": _along, "kth": _kth,
    "sections": _sections, "padw": _padw, "bshape": _bshape, "perm": _perm, "vec3": _vec3, "subs": _subs,
    "op": _op, "dims": _dims, "flatidx": _flatidx, "multi": _multi, "fn1d": _fn1d, "funclist": _funclist,
    "smallint": _smallint, "bins": _bins, "range": _range, "uint8": _uint8, "fftn": _fftn, "fftaxes": _fftaxes,
    "side": _choice("left", "right"), "convmode": _choice("full", "same", "valid"),
    "bitorder": _choice("big", "little"), "indexing": _choice("xy", "ij"),
    "norm": _choice(None, "backward", "ortho", "forward"), "ddof": _choice(0, 1, 2),
    "padmode": _choice("constant", "edge", "reflect", "symmetric", "wrap", "linear_ramp", "maximum", "mean",
                       "median", "minimum"),
    "ord": _choice(None, 1, 2, -1, np.inf, -np.inf, "fro", "nuc", 0, 3),
    "decimals": _choice(0, 1, 2, -1, -3),
    "str_unique": _choice(True, False),
}
