"""The kernels of `cdist`/`pdist`, as ElementwiseKernel/ReductionKernel rows (no raw launches).

- Product epilogues: one elementwise pass over a GEMM block `g = A @ B.T` with the rows' norms
  broadcast, written straight into the distance matrix (the euclidean family, cosine, the boolean
  metrics' counts).
- Pair reductions: the (rows, cols, features) pair grid reduced over its last axis by the reduction
  engine from broadcast views `a[:, None, :]`, `b[None, :, :]`: the (rows x cols x features)
  differences are never stored.
"""

from __future__ import annotations

import functools

from ..._core.elementwise_kernel import ElementwiseKernel
from ..._core.reduction_kernel import ReductionKernel

__all__ = ["epilogue", "pair_reduction", "BOOL_CODES"]

# The boolean metrics' codes in the counts epilogue (`bool_from_counts` below).
BOOL_CODES = {"dice": 0, "jaccard": 1, "hamming": 2, "rogerstanimoto": 3, "russellrao": 4,
              "sokalsneath": 5, "yule": 6}

# name: (in params, out params, operation). `g` is the GEMM block, `na`/`nb` the rows' norms.
_EPILOGUES = {
    # |a|^2 + |b|^2 - 2 a.b, clamped at 0 (rounding makes it slightly negative for close points;
    # NaN passes through the comparison), then the root where asked.
    "squared": ("float64 g, float64 na, float64 nb, int32 root", "float64 d",
                "double s_ = na + nb - 2.0 * g; s_ = (s_ < 0.0) ? 0.0 : s_; d = root ? sqrt(s_) : s_",
                "cuarray_spatial_sqdist"),
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


@functools.lru_cache(maxsize=None)
def epilogue(name):
    ins, outs, op, kname = _EPILOGUES[name]
    return ElementwiseKernel(ins, outs, op, kname)


@functools.lru_cache(maxsize=None)
def pair_reduction(name):
    ins, mapped, red, post, ident = _REDUCTIONS[name]
    return ReductionKernel(ins, "float64 d", mapped, red, post, ident, "cuarray_spatial_" + name)
