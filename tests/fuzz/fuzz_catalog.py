"""The fuzzer's catalog: public functions as table rows (name, argument kinds), not cases.

A row's `kinds` are its positional arguments, `kw` its keyword arguments, each a kind that
`Row.make` draws (see KINDS below); `dtypes` the dtype kinds it is mostly fed (others still come,
10% of the time, to probe the error paths); `check` replaces the value comparison where NumPy's
answer is not unique (tie orders of unstable sorts, eigenvector signs, rank-deficient least
squares): it compares invariants (fuzz_checks.py). `values=False`: only dtype and shape are compared
(random draws).
"""

from __future__ import annotations

import dataclasses
import operator

import numpy as np

from fuzz_checks import (check_applied_function, check_argsort, check_complex_power, check_complex_product, check_cond, check_eigh, check_eigvals,
                         check_half_accumulation, check_half_in_float32, check_isin_assume_unique, check_large_int_moments, check_lstsq, check_nonfinite_spread, check_pad,
                         check_partition, check_polydiv, check_qr, check_scaled_by_zero, check_singular, check_slogdet, check_solve, check_sorted_values,
                         check_space_cast, check_svd, check_transform_nonfinite, check_unique_all, check_unique_inverse, check_unordered_values, check_unpackbits)
from fuzz_check_unwrap import check_unwrap
import fuzz_args35
import fuzz_rows54  # issue 54's rows
import fuzz_rows_edges  # the edge pass's rows and comparison rules
import fuzz_legacy
import fuzz_values
from fuzz_values import edge_scalar, matrix_values
from fuzzlib import Host, Seq, array_spec, broadcastable_shape, pick_dtype, random_shape

# -- kinds --------------------------------------------------------------------------------------


def _one_of(rng, items):
    return items[int(rng.integers(0, len(items)))]  # rng.choice would make big ints floats


def _scalar(rng, ctx):
    if fuzz_values.GENERATION > 1 and rng.random() < 0.3:
        # at the edges of the first array's dtype: ints just outside it, IEEE specials
        return Host(edge_scalar(rng, ctx.get("dtype")))
    r = rng.random()
    if r < 0.35:
        return Host(_one_of(rng, [0, 1, 2, -1, 3, 7, -4, 300, 2**40, -2**63, 2**64 - 1, 2**64]))
    if r < 0.7:
        return Host(_one_of(rng, [0.5, -1.5, 2.0, 0.0, -0.0, np.inf, np.nan, 1e300, 3.25]))
    if r < 0.8:
        return Host(complex(rng.choice([1.5, -2.0]), rng.choice([0.5, 0.0])))
    if r < 0.9:
        return Host(bool(rng.random() < 0.5))
    dt = pick_dtype(rng)
    with np.errstate(all="ignore"):
        return Host(np.array(rng.choice([1, 2, -3])).astype(dt)[()])


def _axis(rng, ctx):
    nd = ctx["ndim"]
    r = rng.random()
    if r < 0.2:
        return Host(None)
    if r < 0.27:
        return Host(int(rng.choice([nd, -nd - 1])))  # out of range: AxisError on both sides
    if nd == 0:
        return Host(int(rng.choice([0, -1])))
    return Host(int(rng.integers(-nd, nd)))


def _axis_int(rng, ctx):
    nd = ctx["ndim"]
    if rng.random() < 0.07 or nd == 0:
        return Host(int(rng.choice([nd, -nd - 1, 0])))
    return Host(int(rng.integers(-nd, nd)))


def _axes(rng, ctx):
    nd = ctx["ndim"]
    if nd == 0 and fuzz_values.GENERATION > 1 and rng.random() < 0.4:
        return Host(_one_of(rng, [[0], 0, (-1,), [1]]))  # a 0-d array's axis 0 (ufunc reductions allow it)
    if nd == 0 or rng.random() < 0.2:
        return Host(None if rng.random() < 0.5 else ())
    k = int(rng.integers(1, nd + 1))
    ax = [int(x) for x in rng.choice(nd, k, replace=False)]
    if rng.random() < 0.05:
        ax.append(ax[0])  # repeated axis: ValueError on both sides
    return Host(tuple(a - nd if rng.random() < 0.3 else a for a in ax))


def _reshape(rng, ctx):
    n = ctx["size"]
    if rng.random() < 0.1:
        return Host((n + 1,))
    if fuzz_values.GENERATION > 1 and rng.random() < 0.03:
        return Host((n,) + (1,) * int(rng.choice([63, 64])))  # 64 and 65 dimensions
    divs = [d for d in range(1, n + 1) if n % d == 0] or [1]
    d = int(rng.choice(divs))
    shape = [d, n // d] if n else [0, int(rng.integers(1, 4))]
    if rng.random() < 0.3:
        shape[int(rng.integers(0, 2))] = -1
    return Host(tuple(shape))


def _shape(rng, ctx):
    if fuzz_values.GENERATION > 1 and rng.random() < 0.03:  # NumPy's limit of 64 dimensions, and one past
        return Host((1,) * int(rng.choice([64, 65])))
    s = random_shape(rng, max_ndim=3)
    return Host(s if rng.random() < 0.8 else (s[0] if s else 3))


def _int(rng, ctx):
    return Host(int(rng.choice([0, 1, 2, 3, -1, 5])))


def _dtype(rng, ctx):
    return Host(pick_dtype(rng))


def _q(rng, ctx):
    r = rng.random()
    if r < 0.6:
        return Host(float(rng.choice([0.0, 25.5, 50.0, 100.0, 99.9])))
    if r < 0.95:
        return Host([float(x) for x in rng.choice([0.0, 10.0, 50.0, 75.0, 100.0], int(rng.integers(1, 4)))])
    return Host(101.0)


def _method(rng, ctx):
    return Host(str(rng.choice(["linear", "nearest", "lower", "higher", "midpoint", "inverted_cdf",
                                "median_unbiased"])))


def _bool(rng, ctx):
    return Host(bool(rng.random() < 0.5))


def _idx(rng, ctx):
    """Integer indices into axis `ctx['axis']` of the first array (None: the flattened array); a few
    out of range; held on the host or the device."""
    ax = ctx.get("axis_value")
    n = ctx["size"] if ax is None else (ctx["shape"][ax] if -ctx["ndim"] <= ax < ctx["ndim"] else 1)
    k = int(rng.choice([0, 1, 3, 6]))
    lo, hi = (-n, n) if rng.random() < 0.85 else (-n - 2, n + 3)
    if hi <= lo:
        lo, hi = -2, 3
    vals = rng.integers(lo, hi, k)
    dt = np.dtype(str(rng.choice(["int64", "int32", "intp", "uint8", "int16"])))
    if dt.kind == "u":
        vals = np.abs(vals)
    spec = array_spec(rng, (k,), dt, edges=False, layout="C", device=rng.random() < 0.6)
    spec.base[...] = vals.astype(dt)
    spec.index = True
    return spec


def _q01(rng, ctx):
    q = _q(rng, ctx).value
    return Host([x / 100 for x in q] if isinstance(q, list) else q / 100)


KINDS = {"q01": _q01, "s": _scalar, "axis": _axis, "axis_int": _axis_int, "axes": _axes, "reshape": _reshape,
         "shape": _shape, "int": _int, "dtype": _dtype, "q": _q, "method": _method, "bool": _bool, "idx": _idx}
KINDS.update(fuzz_args35.KINDS35)  # the second pass's kinds (issue 35)
KINDS.update(fuzz_rows_edges.KINDS_EDGES)




@dataclasses.dataclass
class Row:
    name: str                      # "sum", "linalg.solve", "add.reduce", "ndarray.take"
    kinds: str = "a"               # positional kinds, space separated ("a", "b", "m", "sq", "v", kinds above)
    kw: dict = dataclasses.field(default_factory=dict)
    dtypes: str = "biufc"
    max_ndim: int = 4
    check: object = None
    rtol: float = 1.0
    values: bool = True
    inplace: bool = False
    edges: object = True           # True: every special value; "finite": no NaN, inf or overflow (LAPACK's
                                   # gelsd can loop forever on NaN); False: random normals only
    order: tuple | None = None     # positions of the drawn arguments in the call (kinds draw in dependency order)
    group: str = ""                # a name for a set of rows (--fuzz-rows picks it): "issue35b", the second pass
    tag: str = ""                  # appended to the key where name and kinds repeat (issue 54's keyword rows)
    legacy_dtypes: str = ""        # generation 1's `dtypes` where they changed (fuzz_legacy)
    custom: object = None          # (xp, args, kw) -> result, for a call that is no function of xp ("a.flat[i]")
    custom_code: str = ""          # its reproducer: a format of the arguments' code ("({0}).flat[{1}]")

    @property
    def key(self) -> str:
        """Unique in the table: the name and the argument kinds ("add(a s)"), and the tag."""
        return "{}({}){}".format(self.name, self.kinds, self.tag)

    def fn(self, xp):
        if self.name.startswith("ndarray."):
            meth = self.name.split(".", 1)[1]
            return lambda a, *args, **kw: operator.attrgetter(meth)(a)(*args, **kw)
        return operator.attrgetter(self.name)(xp)

    def arrange(self, args):
        """The drawn positional arguments in call order (`order` may also leave some out)."""
        return list(args) if self.order is None else [args[i] for i in self.order]

    def call(self, xp, args, kw):
        if self.custom is not None:  # (a stand-in module may answer it: fuzz_faults)
            return getattr(xp, "__fuzz_custom__", {}).get(self.name, self.custom)(xp, self.arrange(args), kw)
        return self.fn(xp)(*self.arrange(args), **kw)

    def code(self, argstr, parts=None):
        if self.custom is not None and parts is not None:
            return self.custom_code.format(*parts)
        if self.name.startswith("ndarray."):
            first, _, rest = _split_first(argstr)
            return "({}).{}({})".format(first, self.name.split(".", 1)[1], rest)
        return "xp.{}({})".format(self.name, argstr)

    def make(self, rng):
        args = []
        dtypes = self.legacy_dtypes if fuzz_values.GENERATION < 2 and self.legacy_dtypes else self.dtypes
        ctx = {"dtypes": dtypes, "edges": self.edges, "nops": self.kinds.split().count("op"), "args": args}
        first = None
        for kind in self.kinds.split():
            if kind in ("a", "m", "sq", "v", "a1"):
                spec = self._array(rng, kind, ctx)
                if first is None:
                    first = spec
                    shp = spec.host().shape
                    ctx.update(ndim=len(shp), shape=shp, size=int(np.prod(shp)), dtype=spec.base.dtype)
                args.append(spec)
            elif kind == "b":
                shp = broadcastable_shape(rng, ctx["shape"])
                args.append(array_spec(rng, shp, pick_dtype(rng, dtypes)))
            elif kind == "rhs":  # a right-hand side for `m` (vector or matrix)
                m = ctx["shape"]
                shp = m[:-1] if rng.random() < 0.4 and len(m) == 2 else m[:-1] + (int(rng.integers(1, 3)),)
                args.append(array_spec(rng, shp, pick_dtype(rng, "fc"), edges=self.edges))
            elif kind == "arrays":
                if "shape" not in ctx:
                    shp = random_shape(rng, max_ndim=self.max_ndim)
                    ctx.update(ndim=len(shp), shape=shp, size=int(np.prod(shp)))
                args.append(Seq([array_spec(rng, ctx["shape"] if rng.random() < 0.9 else (2,),
                                            pick_dtype(rng, dtypes)) for _ in range(int(rng.integers(1, 4)))]))
            else:
                v = KINDS[kind](rng, ctx)
                if kind in ("axis", "axis_int"):
                    ctx["axis_value"] = v.value
                args.append(v)
        kwargs = {}
        for key, kind in self.kw.items():
            if rng.random() < 0.5:  # each keyword is given half of the time
                v = KINDS[kind](rng, ctx)
                if kind in ("axis", "axis_int"):
                    ctx["axis_value"] = v.value
                kwargs[key] = v
        return args, kwargs

    def _array(self, rng, kind, ctx):
        legacy = fuzz_values.GENERATION < 2
        dt = pick_dtype(rng, self.legacy_dtypes if legacy and self.legacy_dtypes else self.dtypes)
        if legacy and kind in ("m", "sq"):
            return array_spec(rng, fuzz_legacy.array_shape(rng, kind, self.max_ndim), dt, edges=self.edges)
        if kind == "a":
            shp = random_shape(rng, max_ndim=self.max_ndim)
        elif kind == "a1":
            shp = random_shape(rng, ndim=1)
        elif kind == "v":
            shp = (int(rng.integers(0, 6)),)
        elif kind == "m":  # a matrix or a stack of them (up to two batch dimensions)
            shp = random_shape(rng, ndim=int(rng.choice([2, 2, 3, 4] if self.max_ndim > 2 else [2])))
            shp = shp[:-2] + tuple(max(1, d) for d in shp[-2:]) if rng.random() < 0.9 else shp
        else:  # sq: a stack of square matrices
            n = int(rng.choice([1, 2, 3, 4, 5]))
            batch = int(rng.choice([0, 0, 1, 2]))
            shp = tuple(int(rng.choice([0, 1, 2, 3])) if rng.random() < 0.15 else int(rng.choice([2, 3]))
                        for _ in range(batch)) + (n, n)
        spec = array_spec(rng, shp, dt, edges=self.edges)
        if kind in ("m", "sq") and self.name.startswith("linalg.") and len(shp) >= 2:
            # stacks of rank-deficient, ill-conditioned, exactly diagonal matrices (fuzz_values)
            herm = self.name in HERMITIAN and rng.random() < 0.7
            v, tags = matrix_values(rng, shp, dt, hermitian=herm and shp[-1] == shp[-2],
                                    normal=self.name in fuzz_rows_edges.NORMAL)
            spec.host()[...] = v
            spec.tags = frozenset(tags)
        return spec


# rows whose matrices are mostly Hermitian (positive definite for cholesky): the others' input is
# any matrix (NumPy reads one triangle)
HERMITIAN = {"linalg.eigh", "linalg.eigvalsh", "linalg.cholesky"}


def _split_first(argstr):
    depth = 0
    for i, ch in enumerate(argstr):
        depth += ch in "([{"
        depth -= ch in ")]}"
        if ch == "," and depth == 0:
            return argstr[:i], ",", argstr[i + 1:].lstrip()
    return argstr, "", ""


# -- the table ----------------------------------------------------------------------------------

UNARY = ("negative positive absolute sign sqrt cbrt exp exp2 expm1 log log2 log10 log1p sin cos tan arcsin "
         "arccos arctan sinh cosh tanh arcsinh arccosh arctanh floor ceil trunc rint isnan isinf isfinite "
         "signbit logical_not invert square reciprocal conj real imag angle deg2rad rad2deg fabs spacing "
         "nan_to_num fix around sinc i0").split()
BINARY = ("add subtract multiply divide true_divide floor_divide remainder fmod power float_power maximum minimum "
          "fmax fmin arctan2 hypot copysign nextafter logical_and logical_or logical_xor bitwise_and bitwise_or "
          "bitwise_xor left_shift right_shift greater greater_equal less less_equal equal not_equal gcd lcm "
          "heaviside logaddexp ldexp").split()
REDUCTIONS = ("sum prod mean std var min max argmin argmax any all nansum nanprod nanmean nanstd nanvar nanmin "
              "nanmax nanargmin nanargmax ptp count_nonzero cumsum cumprod nancumsum nancumprod median nanmedian").split()
BITWISE = {"invert", "logical_not", "isnan", "isinf", "isfinite", "signbit", "sign", "negative", "positive",
           "absolute", "floor", "ceil", "trunc", "rint", "fix", "around", "conj", "real", "imag", "square"}
REDUCE_UFUNCS = "add multiply maximum minimum logical_and logical_or bitwise_xor bitwise_and".split()

# Products of complex values holding or reaching inf: where NaN lands depends on the order of the
# multiplications (NumPy multiplies 1 * x0 * x1 ... in turn, a parallel reduction in a tree).
PRODUCTS = {"square", "prod", "nanprod", "cumprod", "nancumprod", "multiply.reduce", "multiply.accumulate", "cumulative_prod"}


# Cumulative sums and products: float16 accumulates in float32 (check_half_accumulation).
ACCUMULATIONS = {"cumsum", "cumprod", "nancumsum", "nancumprod", "add.accumulate", "multiply.accumulate",
                 "cumulative_sum", "cumulative_prod"}
# Moments of integers accumulate in float64: order-dependent beyond 2**53 (check_large_int_moments).
MOMENTS = {"mean", "nanmean", "var", "std", "nanvar", "nanstd"}
# Complex power: where inf/NaN land follows the order of the arithmetic (check_complex_power).
POWERS = {"power", "pow", "float_power"}


def _int_only(name):
    """Integer-only ufuncs (gcd, shifts, bitwise): mostly integer input."""
    return {"dtypes": "biu"} if name in ("gcd", "lcm", "left_shift", "right_shift") or name.startswith("bitwise") else {}


def _product_check(name):
    if name in ACCUMULATIONS:
        return {"check": check_half_accumulation}
    if name in MOMENTS:
        return {"check": check_large_int_moments}
    if name in POWERS:
        return {"check": check_complex_power}
    return {"check": check_complex_product} if name in PRODUCTS else {}


ROWS = [
    # (math functions: mostly float and complex input, where the special values are)
    *[Row(n, "a", dtypes="biufc" if n in BITWISE else "fc", legacy_dtypes="biufc",
          **({"check": check_half_in_float32} if n == "i0" else _product_check(n))) for n in UNARY],
    *[Row(n, "a b", **_int_only(n), **_product_check(n)) for n in BINARY],
    *[Row(n, "a s", **_int_only(n), **_product_check(n)) for n in BINARY],
    *[Row(n, "a", kw={"axis": "axis", "keepdims": "bool"}, rtol=50, **_product_check(n))
      for n in REDUCTIONS if not n.startswith(("cum", "nancum"))],
    *[Row(n, "a", kw={"axis": "axis_int"}, rtol=50, **_product_check(n))
      for n in REDUCTIONS if n.startswith(("cum", "nancum"))],
    *[Row(n + ".reduce", "a", kw={"axis": "axis", "keepdims": "bool"}, rtol=50, **_product_check(n + ".reduce"))
      for n in REDUCE_UFUNCS],
    *[Row(n + ".accumulate", "a", kw={"axis": "axis_int"}, rtol=50, **_product_check(n + ".accumulate"))
      for n in ("add", "multiply", "maximum")],
    Row("full", "shape s", kw={"dtype": "dtype"}),
    Row("full_like", "a s", kw={"dtype": "dtype"}),
    Row("zeros", "shape", kw={"dtype": "dtype"}),
    Row("ones_like", "a", kw={"dtype": "dtype"}),
    Row("arange", "int int", kw={"dtype": "dtype"}),
    Row("eye", "int", kw={"k": "int", "dtype": "dtype"}),
    Row("astype", "a dtype"),
    Row("reshape", "a reshape"),
    Row("transpose", "a"),
    Row("ravel", "a"),
    Row("squeeze", "a"),
    Row("expand_dims", "a axis_int"),
    Row("flip", "a", kw={"axis": "axis"}),
    Row("roll", "a int", kw={"axis": "axis"}),
    Row("swapaxes", "a axis_int axis_int"),
    Row("moveaxis", "a axis_int axis_int"),
    Row("concatenate", "arrays", kw={"axis": "axis"}),
    Row("stack", "arrays", kw={"axis": "axis_int"}),
    Row("repeat", "a int", kw={"axis": "axis"}),
    Row("tile", "a int"),
    Row("diff", "a", kw={"n": "int", "axis": "axis_int"}),
    Row("sort", "a", kw={"axis": "axis"}),
    Row("argsort", "a", kw={"axis": "axis"}, check=check_argsort),
    Row("unique", "a"),
    Row("clip", "a s s"),
    Row("where", "a b b"),
    Row("take", "a idx", kw={"axis": "axis"}),
    Row("ndarray.take", "a idx", kw={"axis": "axis"}),
    Row("trace", "a"),
    Row("diagonal", "a"),
    Row("tril", "a", kw={"k": "int"}),
    Row("triu", "a", kw={"k": "int"}),
    Row("outer", "a b"),
    Row("dot", "m right", dtypes="fc", rtol=100, check=check_scaled_by_zero),
    Row("matmul", "m m", dtypes="iufc", rtol=100, check=check_nonfinite_spread),
    Row("percentile", "a q", kw={"axis": "axis", "method": "method"}, dtypes="iuf", rtol=10),
    Row("nanpercentile", "a q", kw={"axis": "axis", "method": "method"}, dtypes="iuf", rtol=10),
    Row("quantile", "a q01", kw={"axis": "axis"}, dtypes="iuf", rtol=10),
    Row("linalg.norm", "a", dtypes="fc", rtol=100),
    Row("linalg.inv", "sq", dtypes="fc", rtol=1e4, check=check_singular()),
    Row("linalg.det", "sq", dtypes="fc", rtol=1e4),
    Row("linalg.solve", "sq rhs", dtypes="fc", rtol=1e4, check=check_singular(check_solve)),
    Row("linalg.eigh", "sq", dtypes="fc", rtol=1e4, check=check_eigh),
    Row("linalg.eigvalsh", "sq", dtypes="fc", rtol=1e4),
    Row("linalg.svd", "m", dtypes="fc", rtol=1e4, check=check_svd),
    Row("linalg.qr", "m", dtypes="fc", rtol=1e4, check=check_qr),
    Row("linalg.lstsq", "m rhs", dtypes="fc", rtol=1e4, check=check_lstsq, max_ndim=2, edges=False),
]


# -- issue 35's second pass: the rest of the namespace that takes arrays --------------------------
# (left out, fuzz_regressions.SKIPPED says why: I/O, printing, dtype introspection, configuration)

_FIRST_PASS = len(ROWS)

UNARY2 = ("abs acos acosh asin asinh atan atanh bitwise_count bitwise_invert bitwise_not conjugate degrees radians "
          "isneginf isposinf iscomplex isreal real_if_close frexp modf sort_complex matrix_transpose atleast_1d "
          "atleast_2d atleast_3d fliplr flipud ediff1d argwhere flatnonzero nonzero array asarray asanyarray "
          "ascontiguousarray asfortranarray asarray_chkfinite copy zeros_like empty_like isfortran iscomplexobj "
          "isrealobj ndim shape size isscalar iterable unique_all unique_counts unique_inverse").split()
BINARY2 = "atan2 bitwise_left_shift bitwise_right_shift logaddexp2 mod pow divmod".split()
_NO_VALUES = {"empty_like", "empty"}

ROWS += [
    *[Row(n, "a", values=n not in _NO_VALUES, rtol=50 if n in ("unwrap", "trapezoid") else 1,
          **({"check": check_unique_inverse} if n == "unique_inverse" else
             {"check": check_unique_all} if n == "unique_all" else {})) for n in UNARY2],
    Row("unique_values", "a", check=check_unordered_values),  # (order unspecified: the Array API)
    *[Row(n, "a b", **_product_check(n)) for n in BINARY2],
    *[Row(n, "a s", **_product_check(n)) for n in BINARY2],
    *[Row(n, "a", kw={"axis": "axis", "keepdims": "bool"}) for n in ("amax", "amin")],
    *[Row(n, "a", kw={"axis": "axis_int", "include_initial": "bool"}, rtol=50, **_product_check(n))
      for n in ("cumulative_sum", "cumulative_prod")],
    Row("round", "a", kw={"decimals": "decimals"}),
    Row("nanquantile", "a q01", kw={"axis": "axis", "method": "method", "keepdims": "bool"}, dtypes="iuf", rtol=10),
    Row("permute_dims", "a perm"),
    Row("rollaxis", "a axis_int", kw={"start": "int"}),
    Row("unstack", "a", kw={"axis": "axis_int"}),
    Row("rot90", "a int", kw={"axes": "axes"}),
    Row("resize", "a shape"),
    Row("broadcast_to", "a bshape"),
    Row("broadcast_arrays", "a b"),
    Row("broadcast_shapes", "shape shape"),
    Row("append", "a b", kw={"axis": "axis"}),
    Row("array_split", "a sections", kw={"axis": "axis_int"}),
    Row("split", "a sections", kw={"axis": "axis_int"}),
    *[Row(n, "a sections") for n in ("hsplit", "vsplit", "dsplit")],
    # (row_stack: NumPy 2.5 removed it, cuarray keeps it; compared where NumPy still has it)
    *[Row(n, "arrays") for n in ("column_stack", "dstack", "hstack", "vstack", "row_stack", "block") if hasattr(np, n)],
    Row("concat", "arrays", kw={"axis": "axis"}),
    Row("delete", "a idx", kw={"axis": "axis"}),
    Row("insert", "a idx s", kw={"axis": "axis"}),
    Row("trim_zeros", "a1", kw={"trim": "side"}),
    Row("pad", "a padw", kw={"mode": "padmode"}, check=check_pad),
    Row("diag", "a", kw={"k": "int"}, max_ndim=2),
    Row("diagflat", "a", kw={"k": "int"}, max_ndim=2),
    Row("tri", "smallint", kw={"M": "smallint", "k": "int", "dtype": "dtype"}),
    *[Row(n, "smallint", kw={"k": "int", "m": "smallint"}) for n in ("tril_indices", "triu_indices")],
    *[Row(n, "m", kw={"k": "int"}) for n in ("tril_indices_from", "triu_indices_from")],
    Row("diag_indices", "smallint", kw={"ndim": "smallint"}),
    Row("diag_indices_from", "a"),
    Row("fill_diagonal", "a s", kw={"wrap": "bool"}, inplace=True),
    Row("indices", "shape", kw={"dtype": "dtype", "sparse": "bool"}),
    Row("ones", "shape", kw={"dtype": "dtype"}),
    Row("empty", "shape", kw={"dtype": "dtype"}, values=False),
    Row("identity", "smallint", kw={"dtype": "dtype"}),
    *[Row(n, "s s", kw={"num": "smallint", "endpoint": "bool", "dtype": "dtype"}, rtol=1e3, check=check_space_cast)
      for n in ("linspace", "logspace", "geomspace")],
    *[Row(n, "smallint") for n in ("bartlett", "blackman", "hamming", "hanning")],
    Row("kaiser", "smallint s"),
    Row("vander", "a1", kw={"N": "smallint", "increasing": "bool"}, rtol=1e3, check=check_complex_product),
    Row("meshgrid", "a1 a1", kw={"indexing": "indexing", "sparse": "bool"}),
    Row("ix_", "a1 a1"),
    Row("argpartition", "a axis_int kth", order=(0, 2, 1), check=check_partition),
    Row("partition", "a axis_int kth", order=(0, 2, 1), check=check_partition),
    Row("take_along_axis", "a axis_int along", order=(0, 2, 1)),
    Row("put_along_axis", "a axis_int along s", order=(0, 2, 3, 1), inplace=True),
    Row("choose", "choose_idx choices"),
    Row("compress", "a cond1", kw={"axis": "axis"}, order=(1, 0)),
    Row("extract", "a mask", order=(1, 0)),
    Row("place", "a mask a1", inplace=True),
    Row("putmask", "a mask b", inplace=True),
    Row("put", "a idx b", inplace=True),
    Row("select", "a masks choices", kw={"default": "s"}, order=(1, 2)),
    Row("piecewise", "a masks funclist"),
    Row("lexsort", "arrays", kw={"axis": "axis_int"}),
    Row("searchsorted", "sorted a", kw={"side": "side"}),
    Row("digitize", "a sorted", kw={"right": "bool"}),
    Row("unravel_index", "dims flatidx", order=(1, 0)),
    Row("ravel_multi_index", "dims multi", kw={"mode": "convmode"}, order=(1, 0)),
    *[Row(n, "a b") for n in ("intersect1d", "union1d", "setdiff1d", "setxor1d")],
    Row("isin", "a b", kw={"invert": "bool", "assume_unique": "bool"}, check=check_isin_assume_unique),
    Row("isclose", "a b", kw={"equal_nan": "bool"}),
    Row("allclose", "a b", kw={"equal_nan": "bool"}),
    Row("array_equal", "a same", kw={"equal_nan": "bool"}),
    Row("array_equiv", "a b"),
    Row("shares_memory", "a b"),
    Row("may_share_memory", "a b"),
    Row("average", "a", kw={"axis": "axis", "keepdims": "bool", "returned": "bool", "weights": "weights"}, rtol=50,
        check=check_large_int_moments),
    Row("bincount", "counts", kw={"minlength": "smallint"}),
    Row("bincount", "counts weights"),
    Row("corrcoef", "a", kw={"rowvar": "bool"}, max_ndim=2, rtol=1e3, check=check_complex_product),
    Row("cov", "a", kw={"rowvar": "bool", "ddof": "ddof", "bias": "bool"}, max_ndim=2, rtol=1e3,
        check=check_complex_product),  # (no degrees of freedom: x * inf)
    Row("histogram", "a", kw={"bins": "bins", "range": "range", "density": "bool"}, dtypes="iuf", rtol=1e3),
    Row("histogram_bin_edges", "a", kw={"bins": "bins", "range": "range"}, dtypes="iuf", rtol=1e3),
    Row("histogram2d", "a1 same", kw={"bins": "bins"}, dtypes="iuf", rtol=1e3),
    Row("histogramdd", "m", kw={"bins": "smallint"}, dtypes="iuf", max_ndim=2, rtol=1e3),
    Row("gradient", "a", kw={"axis": "axis", "edge_order": "int"}, rtol=50),
    # (integers beyond 2**53: the float64 terms' sum cancels in an order-dependent way, as a mean's)
    Row("trapezoid", "a", kw={"dx": "s", "axis": "axis_int"}, rtol=50, check=check_large_int_moments),
    Row("interp", "a sorted sorted", dtypes="iuf", rtol=1e3),
    Row("unwrap", "a", kw={"axis": "axis_int", "period": "s"}, rtol=50, check=check_unwrap),
    *[Row(n, "a1 a1", kw={"mode": "convmode"}, rtol=100, check=check_nonfinite_spread)
      for n in ("convolve", "correlate")],
    Row("cross", "vec3 vec3", rtol=100),
    Row("einsum", "subs op", rtol=100),
    Row("einsum", "subs op op", rtol=100, check=check_nonfinite_spread),
    Row("inner", "a b", rtol=100, check=check_scaled_by_zero),
    Row("kron", "a b", max_ndim=3),
    Row("tensordot", "a tdaxes tdb", order=(0, 2, 1), rtol=100, check=check_scaled_by_zero),
    Row("vdot", "a same", rtol=100, check=check_scaled_by_zero),
    Row("vecdot", "a b", kw={"axis": "axis_int"}, rtol=100, check=check_complex_product),
    Row("matvec", "m right", rtol=100, check=check_complex_product),
    Row("vecmat", "a right", rtol=100, check=check_complex_product),
    Row("packbits", "a", kw={"axis": "axis", "bitorder": "bitorder"}, dtypes="bi"),
    Row("unpackbits", "uint8", kw={"axis": "axis", "count": "int", "bitorder": "bitorder"}, check=check_unpackbits),
    Row("apply_along_axis", "a axis_int fn1d", order=(2, 1, 0), rtol=50, check=check_applied_function),
    Row("apply_over_axes", "a axes fn1d", order=(2, 0, 1), rtol=50, check=check_applied_function),
    Row("copyto", "a b", inplace=True),
    Row("poly", "a1", rtol=1e3, check=check_complex_product),
    Row("roots", "a1", dtypes="if", rtol=1e4, edges=False, check=check_sorted_values),
    Row("polyval", "a1 a", rtol=1e3),
    *[Row(n, "a1 a1", rtol=1e3, **({"check": check_complex_product} if n == "polymul" else {}))
      for n in ("polyadd", "polysub", "polymul")],
    Row("polydiv", "a1 a1", dtypes="f", rtol=1e4, edges=False, check=check_polydiv),
    *[Row(n, "a1", kw={"m": "int"}, rtol=1e3) for n in ("polyder", "polyint")],
    Row("polyfit", "a1 same smallint", dtypes="f", rtol=1e6, edges=False, values=False),
    # linalg
    Row("linalg.cholesky", "sq", dtypes="fc", rtol=1e4),
    Row("linalg.cond", "sq", dtypes="fc", rtol=1e4, check=check_cond),
    Row("linalg.cross", "vec3 vec3", rtol=100),
    Row("linalg.diagonal", "a", kw={"offset": "int"}),
    Row("linalg.eig", "sq", dtypes="fc", rtol=1e4, values=False),
    Row("linalg.eigvals", "sq", dtypes="fc", rtol=1e4, check=check_eigvals),
    Row("linalg.matmul", "m right", dtypes="iufc", rtol=100),
    Row("linalg.matrix_norm", "m", kw={"ord": "ord", "keepdims": "bool"}, dtypes="fc", rtol=1e4),
    Row("linalg.vector_norm", "a", kw={"ord": "ord", "axis": "axis", "keepdims": "bool"}, dtypes="fc", rtol=100),
    Row("linalg.matrix_power", "sq int", dtypes="ifc", rtol=1e4, check=check_singular(check_complex_product)),
    Row("linalg.matrix_rank", "m", dtypes="fc", rtol=1e4, values=False),
    Row("linalg.matrix_transpose", "a"),
    Row("linalg.multi_dot", "arrays", dtypes="fc", max_ndim=2, rtol=1e3, check=check_scaled_by_zero),
    Row("linalg.outer", "a1 a1"),
    Row("linalg.pinv", "m", dtypes="fc", rtol=1e4, check=check_nonfinite_spread),
    Row("linalg.slogdet", "sq", dtypes="fc", rtol=1e4, check=check_slogdet),
    Row("linalg.svdvals", "m", dtypes="fc", rtol=1e4),
    Row("linalg.tensordot", "a tdb", rtol=100),  # axes=2: a keyword only here
    Row("linalg.trace", "m", kw={"offset": "int"}),
    Row("linalg.vecdot", "a b", kw={"axis": "axis_int"}, rtol=100, check=check_complex_product),
    Row("linalg.tensorinv", "sq tind", dtypes="fc", rtol=1e4, check=check_singular()),
    Row("linalg.tensorsolve", "sq rhs", dtypes="fc", rtol=1e4, check=check_singular()),
    # fft
    *[Row("fft." + n, "a", kw={"n": "fftn", "axis": "axis_int", "norm": "norm"}, rtol=1e3, check=check_transform_nonfinite)
      for n in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")],
    *[Row("fft." + n, "a", kw={"axes": "fftaxes", "norm": "norm"}, rtol=1e3, check=check_transform_nonfinite)
      for n in ("fft2", "ifft2", "fftn", "ifftn", "rfft2", "irfft2", "rfftn", "irfftn")],
    *[Row("fft." + n, "smallint", kw={"d": "s"}) for n in ("fftfreq", "rfftfreq")],
    *[Row("fft." + n, "a", kw={"axes": "fftaxes"}) for n in ("fftshift", "ifftshift")],
]

for _r in ROWS[_FIRST_PASS:]:
    _r.group = "issue35b"
KINDS.update(fuzz_rows54.KINDS54)
ROWS += fuzz_rows54.rows(Row, _product_check)  # group 'issue54', keys tagged: "max(a){initial,axis}"
ROWS += fuzz_rows_edges.rows(Row, _product_check)  # group 'edges', keys tagged as issue 54's

# LAPACK (NumPy's side) can loop forever on NaN/inf input (gesdd, gelsd): factorisations get finite
# data (signed zeros, subnormals and the smallest normals among it; nothing that overflows).
for _r in ROWS:
    if _r.name.startswith("linalg.") and _r.name != "linalg.norm":
        _r.edges = "finite"

fuzz_rows_edges.bound(ROWS)  # elementwise accuracy, summation bounds, conditioning, NumPy's cutoffs

BY_KEY = {r.key: r for r in ROWS}
assert len(BY_KEY) == len(ROWS), "two rows with the same name and kinds"
