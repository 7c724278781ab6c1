"""The kernels of `cdist`/`pdist`, as rows of the engine's elementwise and reduction definitions
(no raw launches).

- Product epilogues: one elementwise pass over a GEMM block `g = A @ B.T` with the rows' norms
  broadcast, written straight into the distance matrix (cosine, the boolean metrics' counts).
- Pair reductions: the (rows, cols, features) pair grid reduced over its last axis by the reduction
  engine from broadcast views `a[:, None, :]`, `b[None, :, :]`: the (rows x cols x features)
  differences are never stored.
"""

from __future__ import annotations

import numpy

from ..._core import shapes as _shapes
from ..._core.elementwise import Definition, KernelParam
from ..._core.ndarray import _new_c, ndarray
from ..._core.reduction import ReductionDef
from ..._core.reduction_ops import normalize_axes
from ...cuda import caches as _caches

__all__ = ["epilogue", "pair_reduction", "epilogue_definition", "reduction_definition", "BOOL_CODES"]

# The boolean metrics' codes in the counts epilogue (`bool_from_counts` below).
BOOL_CODES = {"dice": 0, "jaccard": 1, "hamming": 2, "rogerstanimoto": 3, "russellrao": 4,
              "sokalsneath": 5, "yule": 6}

# name: (in params, out params, operation). `g` is the GEMM block, `na`/`nb` the rows' norms.
_EPILOGUES = {
    # (the euclidean family's epilogue reads the rows again where it cancels: a kernel of its own,
    # `_sqdist_tiles.epilogue`)
    # 1 - a.b / (|a| |b|), the cosine clipped to [-1, 1] as SciPy's C loop does
    "cosine": ("float64 g, float64 na, float64 nb", "float64 d",
               "double c_ = g / (na * nb); if (fabs(c_) > 1.0) c_ = copysign(1.0, c_); d = 1.0 - c_",
               "cuarray_spatial_cosine"),
    # the boolean metrics from ntt (g), the weighted row counts sa, sb and the total n
    "bool": ("float64 g, float64 sa, float64 sb, float64 n, int32 code", "float64 d",
             "const double ntf_ = sa - g, nft_ = sb - g, nff_ = n - sa - sb + g, nd_ = ntf_ + nft_; "
             "switch (code) { "
             "case 0: d = nd_ / (2.0 * g + nd_); break; "
             "case 1: d = (g + nd_ != 0.0) ? nd_ / (g + nd_) : 0.0; break; "
             "case 2: d = nd_ / n; break; "
             "case 3: d = 2.0 * nd_ / (n + nd_); break; "
             "case 4: d = (n - g) / n; break; "
             "case 5: d = 2.0 * nd_ / (2.0 * nd_ + g); break; "
             "default: { const double h_ = ntf_ * nft_; "
             "d = 2.0 * h_ / (g * nff_ + h_ + (h_ == 0.0 ? 1.0 : 0.0)); } }",
             "cuarray_spatial_boolcounts"),
}

# name: (in params, map, reduce, post map, identity). x: a row of XA, y: a row of XB, w: weights.
_REDUCTIONS = {
    "cityblock": ("float64 x, float64 y", "fabs(x - y)", "a + b", "d = a", "0"),
    "cityblock_w": ("float64 x, float64 y, float64 w", "w * fabs(x - y)", "a + b", "d = a", "0"),
    "braysum": ("float64 x, float64 y", "fabs(x + y)", "a + b", "d = a", "0"),
    "braysum_w": ("float64 x, float64 y, float64 w", "w * fabs(x + y)", "a + b", "d = a", "0"),
    "canberra": ("float64 x, float64 y",
                 "fabs(x - y) / (fabs(x) + fabs(y) + (fabs(x) + fabs(y) == 0.0 ? 1.0 : 0.0))",
                 "a + b", "d = a", "0"),
    "canberra_w": ("float64 x, float64 y, float64 w",
                   "w * fabs(x - y) / (fabs(x) + fabs(y) + (fabs(x) + fabs(y) == 0.0 ? 1.0 : 0.0))",
                   "a + b", "d = a", "0"),
    "chebyshev": ("float64 x, float64 y", "fabs(x - y)", "(a < b) ? b : a", "d = a", "0"),
    "chebyshev_w": ("float64 x, float64 y, float64 w", "(w > 0.0) ? fabs(x - y) : 0.0",
                    "(a < b) ? b : a", "d = a", "0"),
    "minkowski": ("float64 x, float64 y, float64 p", "pow(fabs(x - y), p)", "a + b",
                  "d = pow(a, 1.0 / p)", "0"),
    "minkowski_w": ("float64 x, float64 y, float64 w, float64 p", "w * pow(fabs(x - y), p)", "a + b",
                    "d = pow(a, 1.0 / p)", "0"),
    "hamming": ("float64 x, float64 y", "(x != y) ? 1.0 : 0.0", "a + b", "d = a", "0"),
    "hamming_w": ("float64 x, float64 y, float64 w", "(x != y) ? w : 0.0", "a + b", "d = a", "0"),
    # a row's squared norm (the euclidean family's |a|^2, with no (rows x k) temporary)
    "sumsq": ("float64 x", "x * x", "a + b", "d = a", "0"),
    # rows already divided by their sums: sum p log(p/m) + q log(q/m), m the mean, over p, q > 0
    "jensenshannon": ("float64 x, float64 y",
                      "((x > 0.0) ? x * log(2.0 * x / (x + y)) : 0.0) + "
                      "((y > 0.0) ? y * log(2.0 * y / (x + y)) : 0.0)",
                      "a + b", "d = sqrt(a / 2.0)", "0"),
    # cupyx's own metrics (cupyx.scipy.spatial.distance's definitions): sqrt(sum (sqrt x - sqrt y)^2 / 2),
    # and sum x log(x / y) with rel_entr's conventions (0 where x == 0 <= y; inf where x < 0 or y <= 0 < x;
    # -log(0.0) is +inf on the device and the host alike)
    "hellinger": ("float64 x, float64 y", "(sqrt(x) - sqrt(y)) * (sqrt(x) - sqrt(y))", "a + b",
                  "d = sqrt(a / 2.0)", "0"),
    "kl_divergence": ("float64 x, float64 y",
                      "(x > 0.0 && y > 0.0) ? x * log(x / y) : ((x == 0.0 && y >= 0.0) ? 0.0 : -log(0.0))",
                      "a + b", "d = a", "0"),
}


_F8 = numpy.dtype(numpy.float64)
_defs: dict = {}
_caches.register("distance kernel definitions", _defs)


def _params(text, stored):
    """KernelParams of a row's parameter list ("float64 g, int32 root"), each array input of its
    stored dtype in `stored` (None: a scalar of the declared type)."""
    out = []
    for word, st in zip(text.split(","), stored):
        tname, name = word.split()
        dt = numpy.dtype(tname)
        out.append(KernelParam(name, "scalar", dt, dt) if st is None else KernelParam(name, "in", st, dt))
    return out


def _types(params) -> str:
    return "_".join(p.compute.name for p in params)


def epilogue_definition(name, stored) -> Definition:
    """The epilogue `name` over inputs of stored dtypes `stored` (None for a scalar)."""
    key = ("epilogue", name, stored)
    d = _defs.get(key)
    if d is None:
        ins, _, op, kname = _EPILOGUES[name]
        params = _params(ins, stored) + [KernelParam("d", "out", _F8, _F8, by_ref=True)]
        d = _defs[key] = Definition("{}_{}".format(kname, _types(params)), params, op)
    return d


def reduction_definition(name, stored) -> ReductionDef:
    """The pair reduction `name` over inputs of stored dtypes `stored` (None for a scalar)."""
    key = ("reduction", name, stored)
    d = _defs.get(key)
    if d is None:
        ins, mapped, red, post, ident = _REDUCTIONS[name]
        params = _params(ins, stored)
        d = _defs[key] = ReductionDef("cuarray_spatial_{}_{}".format(name, _types(params)), params,
                                      KernelParam("d", "out", _F8, _F8), "double", 8, "_acc_t({})".format(mapped),
                                      red, "_acc_t({})".format(ident), post)
    return d


def _bind(text, args):
    """(stored dtypes, arrays, scalars as their declared types, broadcast shape) of a row's call."""
    stored, arrays, scalars = [], [], []
    for word, a in zip(text.split(","), args):
        if isinstance(a, ndarray):
            stored.append(a.dtype)
            arrays.append(a)
        else:
            stored.append(None)
            scalars.append(numpy.dtype(word.split()[0]).type(a))
    shapes = [a.shape for a in arrays]
    shape = shapes[0] if len(set(shapes)) == 1 else _shapes.broadcast_shapes(*shapes)
    return tuple(stored), arrays, tuple(scalars), shape


def epilogue(name):
    """The epilogue `name` as a call: its inputs (arrays or numbers), then the float64 output they
    broadcast to, written in place."""
    ins = _EPILOGUES[name][0]

    def run(*args):
        out = args[-1]
        stored, arrays, scalars, _ = _bind(ins, args[:-1])
        shape = _shapes.broadcast_shapes(*[a.shape for a in arrays], out.shape)
        epilogue_definition(name, stored).run(arrays + [out], scalars, shape)

    return run


def pair_reduction(name):
    """The pair reduction `name` as a call: its inputs (arrays broadcast together, or numbers),
    optionally the float64 output (positional or `out=`), reduced over `axis`."""
    ins = _REDUCTIONS[name][0]
    nin = len(ins.split(","))

    def run(*args, out=None, axis=None):
        if len(args) == nin + 1 and out is None:
            out, args = args[-1], args[:-1]
        stored, arrays, scalars, shape = _bind(ins, args)
        raxes = normalize_axes(axis, len(shape))
        y = _new_c(tuple(n for i, n in enumerate(shape) if i not in raxes), _F8) if out is None else out
        reduction_definition(name, stored).run(shape, arrays, scalars, y, raxes)
        return y

    return run
