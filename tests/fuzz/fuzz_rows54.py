"""Issue 54's rows of the fuzzer's catalog (fuzz_catalog.py adds them, group 'issue54'): the
classes a differential run with NumPy found where the catalog's draws never went. Mismatched and
larger out= (the broadcast includes where=), negative integer exponents, scalars out of a dtype's
range (comparisons, initial=), weights summing to zero, moduli past the largest float, float16 with
a wider out=/dtype=, NaN and signed-zero sets, float arange lengths, integer linspace at int64's
limits, narrowing dtype= of scans and traces, 0-d squeeze, unsigned histograms with negative edges,
host prepend/append."""

from __future__ import annotations

import numpy as np

from fuzz_checks import check_complex_power, check_large_int_moments, check_unique_all, check_unique_inverse, check_where
from fuzzlib import ArraySpec, Host, array_spec, pick_dtype, random_shape


def _one_of(rng, items):
    return items[int(rng.integers(0, len(items)))]  # rng.choice would make big ints floats


def _outarr(rng, ctx):
    """An out= array: the broadcast shape (often), one dimension more or less, a larger shape the
    inputs broadcast to, or another length; a dtype of the row's kinds (sometimes bool)."""
    shp = tuple(ctx["shape"])
    r = rng.random()
    if r < 0.25 and shp:
        shp = shp[1:]              # fewer dims than the broadcast: NumPy's ValueError
    elif r < 0.4:
        shp = (1,) + shp           # one more leading 1: the inputs broadcast to it
    elif r < 0.55:
        shp = (2,) + shp           # larger: the inputs broadcast to it
    elif r < 0.6 and shp:
        shp = shp[:-1] + (shp[-1] + 1,)
    dt = np.dtype(bool) if rng.random() < 0.2 else pick_dtype(rng, ctx["dtypes"])
    return array_spec(rng, shp, dt, edges=False, layout=_one_of(rng, ["C", "C", "F", "step"]))


def _wmask(rng, ctx):
    shp = ctx["shape"] if rng.random() < 0.7 else (2,) + tuple(ctx["shape"])
    return array_spec(rng, shp, np.dtype(bool), edges=False)


def _intarr(rng, ctx, neg=True):
    """A small integer array with negative elements (exponents): the row's first kind sets ctx."""
    dt = np.dtype(_one_of(rng, ["int8", "int16", "int32", "int64", "uint8", "uint16"]))
    shp = ctx["shape"] if "shape" in ctx and rng.random() < 0.8 else random_shape(rng, max_ndim=3)
    spec = array_spec(rng, shp, dt, edges=False)
    lo = -3 if (neg and dt.kind == "i" and rng.random() < 0.6) else 0
    spec.base[...] = rng.integers(lo, 5, spec.base.shape).astype(dt)
    if "shape" not in ctx:
        hs = spec.host().shape
        ctx.update(ndim=len(hs), shape=hs, size=int(np.prod(hs)))
    return spec


def _bigscalar(rng, ctx):
    """A Python int or float past some dtype's range (NEP 50: OverflowError or NumPy 2's compare)."""
    return Host(_one_of(rng, [-1, -2, 256, 300, -129, 128, 65536, -32769, 2 ** 31, 2 ** 32, -2 ** 63 - 1, 2 ** 64,
                              1e40, -0.5, 255, 127, 0]))


def _zweights(rng, ctx):
    """Weights of the first array's shape, some slices summing to zero."""
    spec = array_spec(rng, ctx["shape"], pick_dtype(rng, "if"), edges=False, layout="C")
    base = spec.base
    if base.size and rng.random() < 0.6:
        base[...] = 0
        flat = base.reshape(-1)
        if flat.size >= 2 and base.dtype.kind in "if" and rng.random() < 0.5:
            flat[0], flat[1] = 2, -2
    return spec


def _hugec(rng, ctx):
    """Complex values near the top of the range (a modulus that overflows), and tiny ones."""
    dt = np.dtype(_one_of(rng, ["complex64", "complex128"]))
    m = float(np.finfo(dt).max)
    shp = random_shape(rng, max_ndim=2)
    n = int(np.prod(shp))
    pool = np.array([complex(m, m), complex(-m, m * 0.5), complex(m / 3, m / 3), complex(m * 0.9, -m * 0.9),
                     complex(m, 0.0), complex(1e-3, m), complex(float(np.finfo(dt).tiny), 0.0), 1 + 1j], dt)
    spec = ArraySpec(pool[rng.integers(0, len(pool), n)].reshape(shp))
    ctx.update(ndim=len(shp), shape=shp, size=n)
    return spec


def _half(rng, ctx):
    shp = random_shape(rng, max_ndim=3)
    ctx.update(ndim=len(shp), shape=shp, size=int(np.prod(shp)))
    spec = array_spec(rng, shp, np.dtype("float16"))
    with np.errstate(all="ignore"):
        spec.base[...] = np.abs(spec.base) + np.float16(0.01)  # (in the domain of log and arcsinh alike)
    return spec


def _wideout(rng, ctx):
    dt = np.dtype(_one_of(rng, ["float32", "float64", "complex64", "complex128"]))
    return array_spec(rng, ctx["shape"], dt, edges=False, layout="C")


def _widedtype(rng, ctx):
    return Host(np.dtype(_one_of(rng, ["float32", "float64", "complex128"])))


def _nanzeros(rng, ctx):
    """float64 data from NaN, -0.0, 0.0 and a few values (unique's NaN and zero rules)."""
    shp = random_shape(rng, max_ndim=2)
    ctx.update(ndim=len(shp), shape=shp, size=int(np.prod(shp)))
    pool = np.array([np.nan, -0.0, 0.0, 1.5, -1.5, np.inf, 2.0])
    return ArraySpec(pool[rng.integers(0, len(pool), int(np.prod(shp)))].reshape(shp), device=True)


def _fscalar(rng, ctx):
    """arange's float arguments: tiny, huge, float16/float32 scalars (its length's precision)."""
    return Host(_one_of(rng, [0, 1, -1, 2, 0.1, 0.3, -0.7, 1 / 3, 1.5, 1e-300, 10.0, np.float32(0.1),
                              np.float16(0.3), np.float32(3.3), np.float32(1 / 3), np.float64(2.2)]))


def _fstep(rng, ctx):
    return Host(_one_of(rng, [1, 0.1, 0.3, -0.7, 1e10, np.float32(0.1), np.float16(0.3), np.float32(3.3), 2, -1,
                              1 / 3, np.int8(3)]))


def _i64limit(rng, ctx):
    i = np.iinfo(np.int64)
    return Host(_one_of(rng, [int(i.min), int(i.max), 0, -1, 2 ** 62, -2 ** 62, int(i.max) - 1000]))


def _intdtype(rng, ctx):
    return Host(np.dtype(_one_of(rng, ["int64", "int32", "uint64", "int8"])))


def _narrow(rng, ctx):
    return Host(np.dtype(_one_of(rng, ["int8", "uint8", "int16", "int32", "float16", "float32"])))


def _uarr(rng, ctx):
    dt = np.dtype(_one_of(rng, ["uint8", "uint16", "uint32", "uint64"]))
    shp = random_shape(rng, max_ndim=2)
    ctx.update(ndim=len(shp), shape=shp, size=int(np.prod(shp)))
    return array_spec(rng, shp, dt)


def _negrange(rng, ctx):
    lo = _one_of(rng, [-5, -300, -1, 0, -2.5])
    return Host((lo, lo + _one_of(rng, [10, 300, 1, 500])))


def _negbins(rng, ctx):
    if rng.random() < 0.5:
        return Host(int(_one_of(rng, [1, 3, 10])))
    return Host(sorted(int(x) for x in rng.integers(-300, 300, int(rng.integers(2, 5)))))


def _hostpend(rng, ctx):
    r = rng.random()
    if r < 0.4:
        return Host(_one_of(rng, [0, 1.5, -2, 7]))
    shp = list(ctx["shape"])
    if not shp:
        return Host([1])
    shp[-1] = int(rng.integers(1, 3))
    return Host(np.asarray(rng.integers(-3, 4, shp)).tolist())


KINDS54 = {
    "outarr": _outarr, "wmask": _wmask, "intarr": _intarr, "ineg": lambda rng, ctx: _intarr(rng, ctx, True),
    "bigs": _bigscalar, "zweights": _zweights, "hugec": _hugec, "half": _half, "wideout": _wideout,
    "widedtype": _widedtype, "nanzeros": _nanzeros, "fs": _fscalar, "fstep": _fstep, "i64": _i64limit,
    "intdtype": _intdtype, "narrow": _narrow, "uarr": _uarr, "negrange": _negrange, "negbins": _negbins,
    "hostpend": _hostpend,
}

_OUT_UFUNCS = ("less", "remainder", "float_power", "add", "equal", "power", "maximum", "arctan2")
_HUGE = ("log", "log10", "log2", "log1p", "sqrt", "absolute")
_HALF = ("sin", "arcsinh", "log1p", "log", "exp", "sqrt", "tanh")


def rows(Row, product_check):
    """Issue 54's rows (fuzz_catalog adds them to ROWS): group 'issue54', each key tagged with its
    keywords ("max(a){initial,axis}": name and kinds repeat rows of the other groups)."""
    out = [
        *[Row(n, "a b", kw={"out": "outarr", "where": "wmask"}, check=check_where(product_check(n).get("check")))
          for n in _OUT_UFUNCS],
        *[Row(n, "intarr ineg") for n in ("power", "pow")],
        Row("power", "intarr s", kw={"out": "outarr"}),
        *[Row(n, "a bigs", kw={"out": "outarr"}) for n in ("equal", "not_equal", "less", "greater_equal", "less_equal")],
        *[Row(n, "a bigs") for n in ("add", "maximum", "bitwise_and", "left_shift")],
        # prod's complex overflow puts NaN where its order of products does, as prod's row without
        # initial= (fuzz seed 4 index 127: check_complex_product)
        *[Row(n, "a", kw={"initial": "bigs", "axis": "axis"}, **product_check(n))
          for n in ("max", "min", "amax", "amin", "sum", "prod")],
        Row("average", "a", kw={"weights": "zweights", "axis": "axis", "returned": "bool"}, rtol=50,
            check=check_large_int_moments),
        *[Row(n, "hugec") for n in _HUGE],
        Row("float_power", "hugec a", check=check_complex_power),
        *[Row(n, "half", kw={"out": "wideout"}) for n in _HALF],
        *[Row(n, "half", kw={"dtype": "widedtype"}) for n in _HALF],
        Row("unique_inverse", "nanzeros", check=check_unique_inverse),
        Row("unique_all", "nanzeros", check=check_unique_all),
        Row("unique", "nanzeros", kw={"return_inverse": "bool", "equal_nan": "bool"}, check=check_unique_inverse),
        Row("arange", "fs fs fstep"),
        Row("arange", "fs fs fstep", kw={"dtype": "widedtype"}),
        Row("linspace", "i64 i64", kw={"num": "smallint", "dtype": "intdtype", "endpoint": "bool"}),
        # the catalog's accumulation check (products: which step overflows follows the order; seed 6)
        *[Row(n, "a", kw={"dtype": "narrow", "axis": "axis_int"}, **product_check(n))
          for n in ("nancumsum", "nancumprod", "cumsum")],
        Row("trace", "a", kw={"dtype": "narrow", "offset": "int"}),
        Row("squeeze", "a", kw={"axis": "axis"}, max_ndim=2),
        Row("histogram", "uarr", kw={"bins": "negbins", "range": "negrange"}, rtol=1e3),
        Row("diff", "a", kw={"prepend": "hostpend", "append": "hostpend", "axis": "axis_int"}),
    ]
    for r in out:
        r.group, r.tag = "issue54", "{{{}}}".format(",".join(r.kw))
    return out
