"""The fuzzer's catalog: public functions as table rows (name, argument kinds), not cases.

A row's `kinds` are its positional arguments, `kw` its keyword arguments, each a kind that
`Row.make` draws (see KINDS below); `dtypes` the dtype kinds it is mostly fed (others still come,
10% of the time, to probe the error paths); `check` replaces the value comparison where NumPy's
answer is not unique (tie orders of unstable sorts, eigenvector signs, rank-deficient least
squares): it compares invariants. `values=False`: only dtype and shape are compared (random draws).
"""

from __future__ import annotations

import dataclasses
import operator

import numpy as np

from fuzzlib import ArraySpec, Host, Seq, array_spec, broadcastable_shape, compare_values, pick_dtype, random_shape

# -- kinds --------------------------------------------------------------------------------------


def _one_of(rng, items):
    return items[int(rng.integers(0, len(items)))]  # rng.choice would make big ints floats


def _scalar(rng, ctx):
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
    divs = [d for d in range(1, n + 1) if n % d == 0] or [1]
    d = int(rng.choice(divs))
    shape = [d, n // d] if n else [0, int(rng.integers(1, 4))]
    if rng.random() < 0.3:
        shape[int(rng.integers(0, 2))] = -1
    return Host(tuple(shape))


def _shape(rng, ctx):
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
    edges: bool = True             # False: finite values only (LAPACK's gelsd can loop forever on NaN)

    @property
    def key(self) -> str:
        """Unique in the table: the name and the argument kinds ("add(a s)")."""
        return "{}({})".format(self.name, self.kinds)

    def fn(self, xp):
        if self.name.startswith("ndarray."):
            meth = self.name.split(".", 1)[1]
            return lambda a, *args, **kw: getattr(a, meth)(*args, **kw)
        return operator.attrgetter(self.name)(xp)

    def call(self, xp, args, kw):
        return self.fn(xp)(*args, **kw)

    def code(self, argstr):
        if self.name.startswith("ndarray."):
            first, _, rest = _split_first(argstr)
            return "({}).{}({})".format(first, self.name.split(".", 1)[1], rest)
        return "xp.{}({})".format(self.name, argstr)

    def make(self, rng):
        ctx = {}
        args = []
        first = None
        for kind in self.kinds.split():
            if kind in ("a", "m", "sq", "v", "a1"):
                spec = self._array(rng, kind, ctx)
                if first is None:
                    first = spec
                    shp = spec.host().shape
                    ctx.update(ndim=len(shp), shape=shp, size=int(np.prod(shp)))
                args.append(spec)
            elif kind == "b":
                shp = broadcastable_shape(rng, ctx["shape"])
                args.append(array_spec(rng, shp, pick_dtype(rng, self.dtypes)))
            elif kind == "rhs":  # a right-hand side for `m` (vector or matrix)
                m = ctx["shape"]
                shp = m[:-1] if rng.random() < 0.4 and len(m) == 2 else m[:-1] + (int(rng.integers(1, 3)),)
                args.append(array_spec(rng, shp, pick_dtype(rng, "fc"), edges=self.edges))
            elif kind == "arrays":
                if "shape" not in ctx:
                    shp = random_shape(rng, max_ndim=self.max_ndim)
                    ctx.update(ndim=len(shp), shape=shp, size=int(np.prod(shp)))
                args.append(Seq([array_spec(rng, ctx["shape"] if rng.random() < 0.9 else (2,),
                                            pick_dtype(rng, self.dtypes)) for _ in range(int(rng.integers(1, 4)))]))
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
        dt = pick_dtype(rng, self.dtypes)
        if kind == "a":
            shp = random_shape(rng, max_ndim=self.max_ndim)
        elif kind == "a1":
            shp = random_shape(rng, ndim=1)
        elif kind == "v":
            shp = (int(rng.integers(0, 6)),)
        elif kind == "m":
            shp = random_shape(rng, ndim=int(rng.choice([2, 2, 3] if self.max_ndim > 2 else [2])))
            shp = shp[:-2] + tuple(max(1, d) for d in shp[-2:]) if rng.random() < 0.9 else shp
        else:  # sq: a stack of square matrices
            n = int(rng.choice([1, 2, 3, 4, 5]))
            shp = (int(rng.choice([2, 3])),) * int(rng.random() < 0.3) + (n, n)
        return array_spec(rng, shp, dt, edges=self.edges)


def _split_first(argstr):
    depth = 0
    for i, ch in enumerate(argstr):
        depth += ch in "([{"
        depth -= ch in ")]}"
        if ch == "," and depth == 0:
            return argstr[:i], ",", argstr[i + 1:].lstrip()
    return argstr, "", ""


# -- invariant checks where NumPy's answer is not unique -----------------------------------------

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


def check_svd(exp, got, row, inputs=None):
    """Singular values compared; U and Vh through U S Vh (reconstruction)."""
    if len(exp) != 3 or len(got) != 3:
        return "result structure"
    for e, g in zip(exp, got):
        d = compare_values(e, g, _Exact(row, values=False))
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
    for e, g in ((xe, xg), (re_, rg), (se, sg)):
        d = compare_values(e, g, _Exact(row, values=False))
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
    if len(exp) != len(got):
        return "result structure"
    for e, g in zip(exp, got):
        d = compare_values(e, g, _Exact(row, values=False))
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
REDUCE_UFUNCS = "add multiply maximum minimum logical_and logical_or bitwise_xor bitwise_and".split()

ROWS = [
    *[Row(n, "a") for n in UNARY],
    *[Row(n, "a b") for n in BINARY],
    *[Row(n, "a s") for n in BINARY],
    *[Row(n, "a", kw={"axis": "axis", "keepdims": "bool"}, rtol=50)
      for n in REDUCTIONS if not n.startswith(("cum", "nancum"))],
    *[Row(n, "a", kw={"axis": "axis_int"}, rtol=50) for n in REDUCTIONS if n.startswith(("cum", "nancum"))],
    *[Row(n + ".reduce", "a", kw={"axis": "axis", "keepdims": "bool"}, rtol=50) for n in REDUCE_UFUNCS],
    *[Row(n + ".accumulate", "a", kw={"axis": "axis_int"}, rtol=50) for n in ("add", "multiply", "maximum")],
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
    Row("dot", "m m", dtypes="fc", rtol=100),
    Row("matmul", "m m", dtypes="iufc", rtol=100),
    Row("percentile", "a q", kw={"axis": "axis", "method": "method"}, dtypes="iuf", rtol=10),
    Row("nanpercentile", "a q", kw={"axis": "axis", "method": "method"}, dtypes="iuf", rtol=10),
    Row("quantile", "a q01", kw={"axis": "axis"}, dtypes="iuf", rtol=10),
    Row("linalg.norm", "a", dtypes="fc", rtol=100),
    Row("linalg.inv", "sq", dtypes="fc", rtol=1e4),
    Row("linalg.det", "sq", dtypes="fc", rtol=1e4),
    Row("linalg.solve", "sq rhs", dtypes="fc", rtol=1e4),
    Row("linalg.eigh", "sq", dtypes="fc", rtol=1e4, check=check_eigh),
    Row("linalg.eigvalsh", "sq", dtypes="fc", rtol=1e4),
    Row("linalg.svd", "m", dtypes="fc", rtol=1e4, check=check_svd),
    Row("linalg.qr", "m", dtypes="fc", rtol=1e4, check=check_qr),
    Row("linalg.lstsq", "m rhs", dtypes="fc", rtol=1e4, check=check_lstsq, max_ndim=2, edges=False),
]



# LAPACK (NumPy's side) can loop forever on NaN/inf input (gesdd, gelsd): factorisations get finite data.
for _r in ROWS:
    if _r.name.startswith("linalg.") and _r.name != "linalg.norm":
        _r.edges = False

BY_KEY = {r.key: r for r in ROWS}
assert len(BY_KEY) == len(ROWS), "two rows with the same name and kinds"
