"""The Examples sections of the ufuncs' docstrings and of the routines that lacked one: their input
lines are written here, their printed output is NumPy's, SciPy's for cuarray.scipy and
cuarray.sparse (the answer cuarray promises; tests/test_docstring_examples.py checks it against
NumPy/SciPy here and runs it on the GPU under `gpu`).

    python -m scripts.docstring_examples ufuncs     # rewrites cuarray/_core/ufunc_examples.py
    python -m scripts.docstring_examples routines   # adds the section to those docstrings lacking one
    python -m scripts.docstring_examples special-ufuncs          # cuarray/scipy/special/_ufunc_examples_{1,2}.py
    python -m scripts.docstring_examples cuarray.scipy.linalg    # (a key of SCIPY_ROUTINES) as `routines`

Rules for the lines: a typical call in 1-4 short lines; float64 inputs for transcendental functions
(the GPU's last-bit differences then stay below the 8 digits NumPy prints); a scalar result through
int()/float()/bool() (a cuarray reduction gives a 0-d array, NumPy a NumPy scalar: their reprs
differ), and float() only of results the GPU computes exactly, else round(float(...), 6); no
printed zero among inexact values (the GPU may give -0. or 1e-17 where the host gives 0: `section`
warns of those and of values at a rounding boundary of the printed digits); nothing that depends
on the library's free choices (eigenvector signs, eig's order); no random data, no dtype whose
printing differs by platform.
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import importlib.util
import inspect
import io
import os
import re
import sys
import warnings

import numpy

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UFUNC_TABLE = os.path.join(ROOT, "cuarray", "_core", "ufunc_examples.py")

# By the ufunc's name (its __name__; aliases share the object: abs is absolute).
UFUNCS = {
    # arithmetic
    "add": ["a = cuarray.arange(3)", "cuarray.add(a, 10)", "a + a                   # the same ufunc"],
    "subtract": ["cuarray.subtract(cuarray.array([5, 7, 9]), 2)"],
    "multiply": ["cuarray.multiply(cuarray.arange(3), cuarray.array([[1], [10]]))"],
    "divide": ["cuarray.divide(cuarray.array([1, 2, 3]), 2)"],
    "floor_divide": ["cuarray.floor_divide(cuarray.array([7, -7]), 2)"],
    "remainder": ["cuarray.remainder(cuarray.array([7, -7]), 3)"],
    "fmod": ["cuarray.fmod(cuarray.array([7, -7]), 3)"],
    "divmod": ["cuarray.divmod(cuarray.array([7, -7]), 2)"],
    "power": ["cuarray.power(cuarray.arange(4), 2)", "cuarray.power(2., cuarray.array([-1., 0.5]))"],
    "float_power": ["cuarray.float_power(cuarray.array([2, 3]), 2)"],
    "negative": ["cuarray.negative(cuarray.array([1., -2.]))"],
    "positive": ["cuarray.positive(cuarray.array([1., -2.]))"],
    "absolute": ["cuarray.absolute(cuarray.array([-1.5, 0., 2.]))", "cuarray.abs(cuarray.array([3 + 4j]))"],
    "fabs": ["cuarray.fabs(cuarray.array([-1.5, 2.]))"],
    "sign": ["cuarray.sign(cuarray.array([-3., 0., 2.]))"],
    "reciprocal": ["cuarray.reciprocal(cuarray.array([1., 2., 4.]))"],
    "square": ["cuarray.square(cuarray.array([-2, 3]))"],
    "sqrt": ["cuarray.sqrt(cuarray.array([1., 4., 9.]))", "cuarray.sqrt(cuarray.array([-4 + 0j]))"],
    "cbrt": ["cuarray.cbrt(cuarray.array([1., 8., -27.]))"],
    "heaviside": ["cuarray.heaviside(cuarray.array([-1., 0., 2.]), 0.5)"],
    "gcd": ["cuarray.gcd(cuarray.array([12, 20]), 8)"],
    "lcm": ["cuarray.lcm(cuarray.array([4, 6]), 10)"],
    "conjugate": ["cuarray.conjugate(cuarray.array([1 + 2j, 3 - 1j]))"],
    # exponents and logarithms
    "exp": ["cuarray.exp(cuarray.array([0., 1.]))"],
    "exp2": ["cuarray.exp2(cuarray.array([0., 1., 3.]))"],
    "expm1": ["cuarray.expm1(cuarray.array([0., 1e-10]))"],
    "log": ["cuarray.log(cuarray.array([1., 10., 100.]))"],
    "log2": ["cuarray.log2(cuarray.array([1., 2., 8.]))"],
    "log10": ["cuarray.log10(cuarray.array([1., 10., 1000.]))"],
    "log1p": ["cuarray.log1p(cuarray.array([0., 1e-10]))"],
    "logaddexp": ["cuarray.logaddexp(cuarray.array([0., 1.]), cuarray.array([0., 1.]))"],
    "logaddexp2": ["cuarray.logaddexp2(cuarray.array([1., 3.]), 1.)"],
    # trigonometric and hyperbolic
    "sin": ["cuarray.sin(cuarray.array([0., cuarray.pi / 2]))"],
    "cos": ["cuarray.cos(cuarray.array([0., cuarray.pi]))"],
    "tan": ["cuarray.tan(cuarray.array([0., cuarray.pi / 4]))"],
    "arcsin": ["cuarray.arcsin(cuarray.array([0., 1.]))"],
    "arccos": ["cuarray.arccos(cuarray.array([1., 0.]))"],
    "arctan": ["cuarray.arctan(cuarray.array([0., 1.]))"],
    "arctan2": ["cuarray.arctan2(cuarray.array([1., -1.]), cuarray.array([-1., -1.]))"],
    "hypot": ["cuarray.hypot(cuarray.array([3., 5.]), cuarray.array([4., 12.]))"],
    "sinh": ["cuarray.sinh(cuarray.array([0., 1.]))"],
    "cosh": ["cuarray.cosh(cuarray.array([0., 1.]))"],
    "tanh": ["cuarray.tanh(cuarray.array([0., 1.]))"],
    "arcsinh": ["cuarray.arcsinh(cuarray.array([0., 1.]))"],
    "arccosh": ["cuarray.arccosh(cuarray.array([1., 2.]))"],
    "arctanh": ["cuarray.arctanh(cuarray.array([0., 0.5]))"],
    "deg2rad": ["cuarray.deg2rad(cuarray.array([0., 90., 180.]))"],
    "radians": ["cuarray.radians(cuarray.array([0., 90., 180.]))"],
    "rad2deg": ["cuarray.rad2deg(cuarray.array([0., cuarray.pi / 2, cuarray.pi]))"],
    "degrees": ["cuarray.degrees(cuarray.array([0., cuarray.pi / 2, cuarray.pi]))"],
    # rounding and floating point
    "floor": ["cuarray.floor(cuarray.array([-1.7, -0.5, 0.5, 1.7]))"],
    "ceil": ["cuarray.ceil(cuarray.array([-1.7, -0.5, 0.5, 1.7]))"],
    "trunc": ["cuarray.trunc(cuarray.array([-1.7, -0.5, 0.5, 1.7]))"],
    "rint": ["cuarray.rint(cuarray.array([-1.7, -0.5, 0.5, 1.5]))"],
    "signbit": ["cuarray.signbit(cuarray.array([-1., -0., 0., 2.]))"],
    "copysign": ["cuarray.copysign(1., cuarray.array([-1., -0., 2.]))"],
    "nextafter": ["cuarray.nextafter(cuarray.array([1.]), 2.) - 1."],
    "spacing": ["cuarray.spacing(cuarray.array([1., 1024.]))"],
    "ldexp": ["cuarray.ldexp(cuarray.array([1., 3.]), 2)"],
    "frexp": ["mantissa, exponent = cuarray.frexp(cuarray.array([8., 0.5, 3.]))", "mantissa",
              "exponent"],
    "modf": ["cuarray.modf(cuarray.array([1.5, -2.25]))"],
    "maximum": ["cuarray.maximum(cuarray.array([1., cuarray.nan, 3.]), 2.)"],
    "minimum": ["cuarray.minimum(cuarray.array([1., cuarray.nan, 3.]), 2.)"],
    "fmax": ["cuarray.fmax(cuarray.array([1., cuarray.nan, 3.]), 2.)"],
    "fmin": ["cuarray.fmin(cuarray.array([1., cuarray.nan, 3.]), 2.)"],
    # logic and comparison
    "isfinite": ["cuarray.isfinite(cuarray.array([1., cuarray.inf, cuarray.nan]))"],
    "isinf": ["cuarray.isinf(cuarray.array([1., -cuarray.inf, cuarray.nan]))"],
    "isnan": ["cuarray.isnan(cuarray.array([1., cuarray.inf, cuarray.nan]))"],
    "isnat": ["cuarray.isnat(cuarray.array(['NaT', '2024-01-01'], dtype='datetime64[D]'))"],
    "equal": ["cuarray.equal(cuarray.array([1, 2, 3]), 2)"],
    "not_equal": ["cuarray.not_equal(cuarray.array([1, 2, 3]), 2)"],
    "less": ["cuarray.less(cuarray.array([1, 2, 3]), 2)"],
    "less_equal": ["cuarray.less_equal(cuarray.array([1, 2, 3]), 2)"],
    "greater": ["cuarray.greater(cuarray.array([1, 2, 3]), 2)"],
    "greater_equal": ["cuarray.greater_equal(cuarray.array([1, 2, 3]), 2)"],
    "logical_and": ["cuarray.logical_and(cuarray.array([True, True, False]), cuarray.array([True, False, False]))"],
    "logical_or": ["cuarray.logical_or(cuarray.array([True, True, False]), cuarray.array([True, False, False]))"],
    "logical_xor": ["cuarray.logical_xor(cuarray.array([True, True, False]), cuarray.array([True, False, False]))"],
    "logical_not": ["cuarray.logical_not(cuarray.array([True, False]))"],
    # bitwise
    "bitwise_and": ["cuarray.bitwise_and(cuarray.array([12, 10]), 6)"],
    "bitwise_or": ["cuarray.bitwise_or(cuarray.array([12, 10]), 6)"],
    "bitwise_xor": ["cuarray.bitwise_xor(cuarray.array([12, 10]), 6)"],
    "invert": ["cuarray.invert(cuarray.array([0, 5], dtype=cuarray.uint8))",
               "cuarray.invert(cuarray.array([True, False]))"],
    "left_shift": ["cuarray.left_shift(cuarray.array([1, 3]), 2)"],
    "right_shift": ["cuarray.right_shift(cuarray.array([16, 7]), 2)"],
    "bitwise_count": ["cuarray.bitwise_count(cuarray.array([0, 7, 255]))"],
}

_A = "a = cuarray.array([[3, 7], [5, 1]])"
_N = "a = cuarray.array([1., cuarray.nan, 3.])"
_U = "a = cuarray.array([3, 1, 3, 2, 1])"
_Q = "a = cuarray.array([1., 2., 3., 4.])"
_QN = "a = cuarray.array([1., 2., cuarray.nan, 3., 4.])"
_C = "x = cuarray.array([[0., 1., 2.], [2., 1., 0.]])"
_B = "a = cuarray.array([[True, False], [True, True]])"

# By public name, most used first (the order the generator fills them in).
ROUTINES = {
    # sums, means, spreads
    "prod": ["a = cuarray.array([[1, 2], [3, 4]])", "cuarray.prod(a, axis=1)",
             "int(cuarray.prod(a))  # a host value: waits for the GPU"],
    "mean": ["a = cuarray.array([[1, 2], [3, 4]])", "cuarray.mean(a, axis=0)",
             "float(a.mean())  # a host value: waits for the GPU"],
    "std": [_Q, "float(cuarray.std(a))", "cuarray.std(cuarray.array([[1., 3.], [2., 6.]]), axis=1)"],
    "var": [_Q, "float(cuarray.var(a))  # a host value: waits for the GPU", "float(cuarray.var(a, ddof=1))"],
    "average": ["a = cuarray.array([1., 2., 3.])", "float(cuarray.average(a, weights=cuarray.array([3., 1., 0.])))"],
    "nansum": [_N, "float(cuarray.nansum(a))"],
    "nanprod": [_N, "float(cuarray.nanprod(a))"],
    "nanmean": [_N, "float(cuarray.nanmean(a))"],
    "nanstd": [_N, "float(cuarray.nanstd(a))"],
    "nanvar": [_N, "float(cuarray.nanvar(a))"],
    "median": ["a = cuarray.array([[10, 7, 4], [3, 2, 1]])", "cuarray.median(a, axis=1)",
               "float(cuarray.median(a))  # a host value: waits for the GPU"],
    "nanmedian": ["a = cuarray.array([[10., cuarray.nan, 4.], [3., 2., 1.]])", "cuarray.nanmedian(a, axis=1)"],
    "quantile": [_Q, "cuarray.quantile(a, [0.25, 0.5])", "float(cuarray.quantile(a, 0.5))"],
    "percentile": [_Q, "cuarray.percentile(a, [25, 50])"],
    "nanquantile": [_QN, "cuarray.nanquantile(a, [0.25, 0.5])"],
    "nanpercentile": [_QN, "cuarray.nanpercentile(a, [25, 50])"],
    # extrema
    "max": [_A, "cuarray.max(a, axis=0)", "int(cuarray.max(a))  # a host value: waits for the GPU",
            "float(cuarray.max(cuarray.array([1., cuarray.nan])))   # NaN propagates"],
    "min": [_A, "cuarray.min(a, axis=0)", "int(cuarray.min(a))"],
    "nanmax": [_N, "float(cuarray.nanmax(a))"],
    "nanmin": [_N, "float(cuarray.nanmin(a))"],
    "ptp": ["cuarray.ptp(cuarray.array([[4, 9, 2], [1, 5, 7]]), axis=1)"],
    "argmax": [_A, "int(cuarray.argmax(a))  # a host value: waits for the GPU", "cuarray.argmax(a, axis=0)"],
    "argmin": [_A, "int(cuarray.argmin(a))", "cuarray.argmin(a, axis=0)"],
    "nanargmax": [_N, "int(cuarray.nanargmax(a))"],
    "nanargmin": [_N, "int(cuarray.nanargmin(a))"],
    # sorting, searching, counting
    "sort": ["a = cuarray.array([[3, 1, 2], [9, 7, 8]])", "cuarray.sort(a)", "cuarray.sort(a, axis=0)"],
    "argsort": ["cuarray.argsort(cuarray.array([3, 1, 2]))"],
    "lexsort": ["first = cuarray.array([1, 1, 0])", "last = cuarray.array([2, 1, 3])",
                "cuarray.lexsort((last, first))"],
    "partition": ["a = cuarray.array([7, 1, 5, 3, 9])", "int(cuarray.partition(a, 2)[2])"],
    "argpartition": ["a = cuarray.array([7, 1, 5, 3, 9])", "int(cuarray.argpartition(a, 2)[2])"],
    "sort_complex": ["cuarray.sort_complex(cuarray.array([1 + 2j, 1 - 1j, 5j]))"],
    "searchsorted": ["a = cuarray.array([1, 3, 5, 7])", "cuarray.searchsorted(a, cuarray.array([0, 3, 6]))",
                     "cuarray.searchsorted(a, cuarray.array([0, 3, 6]), side='right')"],
    "digitize": ["cuarray.digitize(cuarray.array([0.5, 1.5, 3.5]), cuarray.array([1., 2., 3.]))"],
    "nonzero": ["a = cuarray.array([[0, 3], [4, 0]])", "cuarray.nonzero(a)"],
    "argwhere": ["a = cuarray.array([[0, 3], [4, 0]])", "cuarray.argwhere(a)"],
    "flatnonzero": ["cuarray.flatnonzero(cuarray.array([[0, 3], [4, 0]]))"],
    "count_nonzero": ["a = cuarray.array([[0, 3], [4, 5]])", "int(cuarray.count_nonzero(a))",
                      "cuarray.count_nonzero(a, axis=0)"],
    # sets
    "unique": [_U, "cuarray.unique(a)", "values, counts = cuarray.unique(a, return_counts=True)", "counts"],
    "unique_values": [_U, "cuarray.sort(cuarray.unique_values(a))   # NumPy's order is arbitrary"],
    "unique_counts": [_U, "values, counts = cuarray.unique_counts(a)", "counts"],
    "unique_inverse": [_U, "values, inverse = cuarray.unique_inverse(a)", "inverse"],
    "unique_all": [_U, "values, indices, inverse, counts = cuarray.unique_all(a)", "indices"],
    "isin": ["cuarray.isin(cuarray.array([1, 2, 3, 4]), cuarray.array([2, 4]))"],
    "in1d": ["cuarray.in1d(cuarray.array([1, 2, 3, 4]), cuarray.array([2, 4]))"],
    "intersect1d": ["cuarray.intersect1d(cuarray.array([1, 3, 4, 3]), cuarray.array([3, 1, 2, 1]))"],
    "union1d": ["cuarray.union1d(cuarray.array([-1, 0, 1]), cuarray.array([-2, 0, 2]))"],
    "setdiff1d": ["cuarray.setdiff1d(cuarray.array([1, 2, 3, 2, 4, 1]), cuarray.array([3, 4, 5, 6]))"],
    "setxor1d": ["cuarray.setxor1d(cuarray.array([1, 2, 3, 2, 4]), cuarray.array([2, 3, 5, 7, 5]))"],
    # elementwise routines
    "clip": ["cuarray.clip(cuarray.arange(6), 1, 4)",
             "cuarray.clip(cuarray.array([0.5, cuarray.nan, 2.]), 0., 1.)"],
    "round": ["cuarray.round(cuarray.array([0.5, 1.5, 2.5]))", "cuarray.round(cuarray.array([1.234, 5.678]), 1)"],
    "fix": ["cuarray.fix(cuarray.array([-2.5, 2.5]))"],
    "nan_to_num": ["cuarray.nan_to_num(cuarray.array([cuarray.nan, cuarray.inf, -1.]), posinf=9.)"],
    "real": ["cuarray.real(cuarray.array([1 + 2j, 3 - 4j]))"],
    "imag": ["cuarray.imag(cuarray.array([1 + 2j, 3 - 4j]))"],
    "angle": ["cuarray.angle(cuarray.array([1j, -1 + 0j]))", "cuarray.angle(cuarray.array([1j]), deg=True)"],
    "sinc": ["cuarray.sinc(cuarray.array([0., 0.5, -0.5]))"],
    "i0": ["cuarray.i0(cuarray.array([0., 1.]))"],
    "interp": ["xp, fp = cuarray.array([0., 1., 2.]), cuarray.array([0., 10., 20.])",
               "cuarray.interp(cuarray.array([0.5, 1.5, 5.]), xp, fp)"],
    # cumulative, differences
    "cumsum": ["a = cuarray.array([[1, 2], [3, 4]])", "cuarray.cumsum(a)", "cuarray.cumsum(a, axis=0)"],
    "cumprod": ["cuarray.cumprod(cuarray.array([1, 2, 3, 4]))"],
    "cumulative_sum": ["cuarray.cumulative_sum(cuarray.array([1, 2, 3]), include_initial=True)"],
    "cumulative_prod": ["cuarray.cumulative_prod(cuarray.array([1, 2, 3]))"],
    "nancumsum": ["cuarray.nancumsum(cuarray.array([1., cuarray.nan, 3.]))"],
    "nancumprod": ["cuarray.nancumprod(cuarray.array([2., cuarray.nan, 3.]))"],
    "diff": ["a = cuarray.array([1, 4, 9, 16])", "cuarray.diff(a)", "cuarray.diff(a, n=2)"],
    "ediff1d": ["cuarray.ediff1d(cuarray.array([1, 4, 9]), to_begin=0)"],
    "gradient": ["cuarray.gradient(cuarray.array([1., 2., 4., 7.]))"],
    "trapezoid": ["float(cuarray.trapezoid(cuarray.array([1., 2., 3.])))"],
    "trace": ["int(cuarray.trace(cuarray.arange(9).reshape(3, 3)))"],
    "convolve": ["cuarray.convolve(cuarray.array([1., 2., 3.]), cuarray.array([0., 1., 0.5]))"],
    "correlate": ["cuarray.correlate(cuarray.array([1., 2., 3.]), cuarray.array([0., 1., 0.5]))"],
    "unwrap": ["cuarray.unwrap(cuarray.array([0., 3., 6.5]))"],
    # logic
    "all": [_B, "bool(cuarray.all(a))  # a host value: waits for the GPU", "cuarray.all(a, axis=0)"],
    "any": [_B, "bool(cuarray.any(a))", "cuarray.any(a, axis=1)"],
    "allclose": ["bool(cuarray.allclose(cuarray.array([1., 2.]), cuarray.array([1., 2. + 1e-9])))"],
    "isclose": ["cuarray.isclose(cuarray.array([1., 2.]), cuarray.array([1. + 1e-9, 2.1]))"],
    "array_equal": ["bool(cuarray.array_equal(cuarray.array([1, 2]), cuarray.array([1, 2])))"],
    "array_equiv": ["bool(cuarray.array_equiv(cuarray.array([1, 2]), cuarray.array([[1, 2], [1, 2]])))"],
    "isneginf": ["cuarray.isneginf(cuarray.array([-cuarray.inf, 0., cuarray.inf]))"],
    "isposinf": ["cuarray.isposinf(cuarray.array([-cuarray.inf, 0., cuarray.inf]))"],
    "iscomplex": ["cuarray.iscomplex(cuarray.array([1 + 1j, 1 + 0j, 2]))"],
    "isreal": ["cuarray.isreal(cuarray.array([1 + 1j, 1 + 0j, 2]))"],
    "iscomplexobj": ["bool(cuarray.iscomplexobj(cuarray.array([1 + 0j])))"],
    "isrealobj": ["bool(cuarray.isrealobj(cuarray.array([1.])))"],
    "isfortran": ["a = cuarray.ones((2, 3), order='F')", "bool(cuarray.isfortran(a))", "bool(cuarray.isfortran(a.T))"],
    "real_if_close": ["cuarray.real_if_close(cuarray.array([2.1 + 4e-15j, 5.2 + 3e-15j]))"],
    # statistics: correlation, histograms
    "cov": [_C, "cuarray.cov(x)"],
    "corrcoef": [_C, "cuarray.corrcoef(x)"],
    "bincount": ["cuarray.bincount(cuarray.array([0, 1, 1, 3]))"],
    "histogram": ["hist, edges = cuarray.histogram(cuarray.array([1, 2, 2, 3, 5]), bins=4)", "hist", "edges"],
    "histogram_bin_edges": ["cuarray.histogram_bin_edges(cuarray.array([0., 1., 4.]), bins=4)"],
    "histogram2d": ["x, y = cuarray.array([0., 1., 1.]), cuarray.array([0., 0., 1.])",
                    "h, xedges, yedges = cuarray.histogram2d(x, y, bins=2)", "h"],
    "histogramdd": ["h, edges = cuarray.histogramdd(cuarray.array([[0., 0.], [1., 0.], [1., 1.]]), bins=2)", "h"],
    # polynomials
    "polyval": ["cuarray.polyval(cuarray.array([1, 2, 3]), cuarray.array([0, 1, 2]))"],
    "polyfit": ["x = cuarray.array([0., 1., 2., 3.])", "cuarray.polyfit(x, 2 * x + 1, 1)"],
    "poly1d": ["p = cuarray.poly1d([1, 2, 3])", "int(p(2))", "p.deriv().coeffs"],
    "roots": ["cuarray.sort(cuarray.roots(cuarray.array([1., -3., 2.])))"],
    "poly": ["cuarray.poly(cuarray.array([1., 2.]))"],
    "polyadd": ["cuarray.polyadd(cuarray.array([1, 2]), cuarray.array([1, 0, 3]))"],
    "polysub": ["cuarray.polysub(cuarray.array([1, 2]), cuarray.array([1, 0, 3]))"],
    "polymul": ["cuarray.polymul(cuarray.array([1, 2]), cuarray.array([1, 3]))"],
    "polydiv": ["q, r = cuarray.polydiv(cuarray.array([1., 5., 6.]), cuarray.array([1., 2.]))", "q", "r"],
    "polyder": ["cuarray.polyder(cuarray.array([1, 2, 3]))"],
    "polyint": ["cuarray.polyint(cuarray.array([3., 2., 1.]))"],
    # windows
    "hamming": ["cuarray.hamming(5)"],
    "hanning": ["cuarray.hanning(5)[1:4]"],
    "bartlett": ["cuarray.bartlett(5)"],
    "blackman": ["cuarray.blackman(5)[1:4]"],
    "kaiser": ["cuarray.kaiser(5, 14.)[1:4]"],
    # bits, memory
    "packbits": ["cuarray.packbits(cuarray.array([1, 0, 1, 1, 0, 0, 0, 1], dtype=cuarray.uint8))"],
    "unpackbits": ["cuarray.unpackbits(cuarray.array([177], dtype=cuarray.uint8))"],
    "may_share_memory": ["a = cuarray.arange(6)", "bool(cuarray.may_share_memory(a[:3], a[3:]))",
                         "bool(cuarray.may_share_memory(a[::2], a[1::2]))"],
    "shares_memory": ["a = cuarray.arange(6)", "bool(cuarray.shares_memory(a[::2], a[1::2]))"],
}


# -- SciPy's namespaces ------------------------------------------------------------------------------
# An example of cuarray.scipy.X starts `>>> import cuarray` then this line (SciPy's docs' own form);
# tests/test_docstring_examples.py reads it as an attribute of its stand-in.
HEADS = {
    "cuarray.scipy.special": "from cuarray.scipy import special",
    "cuarray.scipy.linalg": "from cuarray.scipy import linalg",
    "cuarray.scipy.stats": "from cuarray.scipy import stats",
    "cuarray.scipy.stats.qmc": "from cuarray.scipy.stats import qmc",
    "cuarray.scipy.ndimage": "from cuarray.scipy import ndimage",
    "cuarray.scipy.signal": "from cuarray.scipy import signal",
    "cuarray.scipy.fft": "from cuarray.scipy import fft",
    "cuarray.sparse": "from cuarray import sparse",
    "cuarray.sparse.linalg": "from cuarray.sparse import linalg as splinalg",
}
SPECIAL_UFUNC_TABLE = os.path.join(ROOT, "cuarray", "scipy", "special", "_ufunc_examples.py")


def _a(*values):
    return "cuarray.array([{}])".format(", ".join(values))


# By the ufunc's name (psi is digamma).
SPECIAL_UFUNCS = {
    # error function
    "erf": ["special.erf(cuarray.array([0., 0.5, 1.]))"],
    "erfc": ["special.erfc(cuarray.array([0., 0.5, 1.]))"],
    "erfcx": ["special.erfcx(cuarray.array([0., 1., 10.]))"],
    "erfinv": ["special.erfinv(cuarray.array([0.25, 0.5, 0.9]))"],
    "erfcinv": ["special.erfcinv(cuarray.array([0.1, 0.5, 1.5]))"],
    "erfi": ["special.erfi(cuarray.array([0.5, 1.]))"],
    "dawsn": ["special.dawsn(cuarray.array([0.5, 1., 2.]))"],
    "wofz": ["special.wofz(cuarray.array([1 + 1j, 0.5 + 2j]))"],
    # gamma and beta
    "gamma": ["special.gamma(cuarray.array([0.5, 1., 5.]))"],
    "gammaln": ["special.gammaln(cuarray.array([0.5, 10., 100.]))"],
    "loggamma": ["special.loggamma(cuarray.array([0.5, 10.]))"],
    "gammasgn": ["special.gammasgn(cuarray.array([-0.5, -1.5, 2.]))"],
    "rgamma": ["special.rgamma(cuarray.array([0.5, 1., 5.]))"],
    "psi": ["special.digamma(cuarray.array([0.5, 1., 10.]))", "special.psi is special.digamma"],
    "beta": ["special.beta(cuarray.array([1., 2.]), 3.)"],
    "betaln": ["special.betaln(cuarray.array([10., 100.]), 3.)"],
    "poch": ["special.poch(cuarray.array([2., 3.]), 3.)"],
    "binom": ["special.binom(cuarray.array([5., 10.]), 2.)"],
    "gammainc": ["special.gammainc(2., cuarray.array([0.5, 1., 3.]))"],
    "gammaincc": ["special.gammaincc(2., cuarray.array([0.5, 1., 3.]))"],
    "gammaincinv": ["special.gammaincinv(2., cuarray.array([0.25, 0.5]))"],
    "gammainccinv": ["special.gammainccinv(2., cuarray.array([0.25, 0.5]))"],
    "betainc": ["special.betainc(2., 3., cuarray.array([0.25, 0.5]))"],
    "betaincinv": ["special.betaincinv(2., 3., cuarray.array([0.25, 0.5]))"],
    # logistic, information theory, convex functions
    "expit": ["special.expit(cuarray.array([-2., 0., 2.]))"],
    "logit": ["special.logit(cuarray.array([0.25, 0.6, 0.75]))"],
    "log_expit": ["special.log_expit(cuarray.array([-2., 0., 2.]))"],
    "xlogy": ["special.xlogy(cuarray.array([0., 2.]), cuarray.array([0., 3.]))   # 0 * log(0) is 0"],
    "xlog1py": ["special.xlog1py(cuarray.array([0., 2.]), cuarray.array([-1., 3.]))"],
    "entr": ["special.entr(cuarray.array([0., 0.25, 0.5]))"],
    "rel_entr": ["special.rel_entr(cuarray.array([0.5, 0.25]), cuarray.array([0.25, 0.5]))"],
    "kl_div": ["special.kl_div(cuarray.array([0.5, 0.25]), cuarray.array([0.25, 0.5]))"],
    "huber": ["special.huber(1., cuarray.array([0.5, 2.]))"],
    "pseudo_huber": ["special.pseudo_huber(1., cuarray.array([0.5, 2.]))"],
    "boxcox": ["special.boxcox(cuarray.array([1., 2., 4.]), 0.5)"],
    "boxcox1p": ["special.boxcox1p(cuarray.array([0., 1., 3.]), 0.5)"],
    "inv_boxcox": ["special.inv_boxcox(cuarray.array([0., 2.]), 0.5)"],
    "inv_boxcox1p": ["special.inv_boxcox1p(cuarray.array([0., 2.]), 0.5)"],
    # Bessel functions
    "i0": ["special.i0(cuarray.array([0., 1., 2.]))"],
    "i0e": ["special.i0e(cuarray.array([0., 1., 2.]))"],
    "i1": ["special.i1(cuarray.array([0.5, 1., 2.]))"],
    "i1e": ["special.i1e(cuarray.array([0.5, 1., 2.]))"],
    "j0": ["special.j0(cuarray.array([0., 1., 2.]))"],
    "j1": ["special.j1(cuarray.array([0.5, 1., 2.]))"],
    "y0": ["special.y0(cuarray.array([0.5, 1., 2.]))"],
    "y1": ["special.y1(cuarray.array([0.5, 1., 2.]))"],
    "k0": ["special.k0(cuarray.array([0.5, 1., 2.]))"],
    "k0e": ["special.k0e(cuarray.array([0.5, 1., 2.]))"],
    "k1": ["special.k1(cuarray.array([0.5, 1., 2.]))"],
    "k1e": ["special.k1e(cuarray.array([0.5, 1., 2.]))"],
    "jn": ["special.jn(2, cuarray.array([0.5, 1., 2.]))"],
    "jv": ["special.jv(cuarray.array([0., 1., 2.5]), 2.)"],
    "jve": ["special.jve(1., cuarray.array([1., 2.]))"],
    "yn": ["special.yn(1, cuarray.array([1., 2.]))"],
    "yv": ["special.yv(cuarray.array([0., 1.5]), 2.)"],
    "yve": ["special.yve(1., cuarray.array([1., 2.]))"],
    "iv": ["special.iv(cuarray.array([0., 1., 2.5]), 2.)"],
    "ive": ["special.ive(1., cuarray.array([1., 2.]))"],
    "kv": ["special.kv(cuarray.array([0., 1., 2.5]), 2.)"],
    "kve": ["special.kve(1., cuarray.array([1., 2.]))"],
    "kn": ["special.kn(2, cuarray.array([1., 2.]))"],
    "hankel1": ["special.hankel1(0., cuarray.array([1. + 0j, 2. + 1j]))"],
    "hankel1e": ["special.hankel1e(0., cuarray.array([1. + 0j, 2. + 1j]))"],
    "hankel2": ["special.hankel2(0., cuarray.array([1. + 0j, 2. + 1j]))"],
    "hankel2e": ["special.hankel2e(0., cuarray.array([1. + 0j, 2. + 1j]))"],
    "struve": ["special.struve(0., cuarray.array([1., 2.]))"],
    "modstruve": ["special.modstruve(0., cuarray.array([1., 2.]))"],
    "wright_bessel": ["special.wright_bessel(1., 1., cuarray.array([0.5, 1.]))"],
    # normal and other distributions
    "ndtr": ["special.ndtr(cuarray.array([-1., 0., 1.]))"],
    "ndtri": ["special.ndtri(cuarray.array([0.025, 0.9, 0.975]))"],
    "log_ndtr": ["special.log_ndtr(cuarray.array([-10., 0., 1.]))"],
    "owens_t": ["special.owens_t(cuarray.array([0.5, 1.]), 1.)"],
    "bdtr": ["special.bdtr(cuarray.array([2, 5]), 10, 0.3)"],
    "bdtrc": ["special.bdtrc(cuarray.array([2, 5]), 10, 0.3)"],
    "bdtri": ["special.bdtri(cuarray.array([2, 5]), 10, 0.3)"],
    "chdtr": ["special.chdtr(2., cuarray.array([1., 3.]))"],
    "chdtrc": ["special.chdtrc(2., cuarray.array([1., 3.]))"],
    "chdtri": ["special.chdtri(2., cuarray.array([0.25, 0.5]))"],
    "fdtr": ["special.fdtr(2., 3., cuarray.array([1., 2.]))"],
    "fdtrc": ["special.fdtrc(2., 3., cuarray.array([1., 2.]))"],
    "fdtri": ["special.fdtri(2., 3., cuarray.array([0.25, 0.5]))"],
    "gdtr": ["special.gdtr(1., 2., cuarray.array([1., 3.]))"],
    "gdtrc": ["special.gdtrc(1., 2., cuarray.array([1., 3.]))"],
    "nbdtr": ["special.nbdtr(cuarray.array([2, 5]), 3, 0.5)"],
    "nbdtrc": ["special.nbdtrc(cuarray.array([2, 5]), 3, 0.5)"],
    "nbdtri": ["special.nbdtri(cuarray.array([2, 5]), 3, 0.5)"],
    "pdtr": ["special.pdtr(cuarray.array([1, 3]), 2.)"],
    "pdtrc": ["special.pdtrc(cuarray.array([1, 3]), 2.)"],
    "pdtri": ["special.pdtri(cuarray.array([1, 3]), 0.5)"],
    "stdtr": ["special.stdtr(3., cuarray.array([-1., 0., 2.]))"],
    "stdtrit": ["special.stdtrit(3., cuarray.array([0.75, 0.975]))"],
    "kolmogorov": ["special.kolmogorov(cuarray.array([0.5, 1., 2.]))"],
    "kolmogi": ["special.kolmogi(cuarray.array([0.25, 0.5]))"],
    "smirnov": ["special.smirnov(5, cuarray.array([0.1, 0.5]))"],
    "smirnovi": ["special.smirnovi(5, cuarray.array([0.25, 0.5]))"],
    # exponentials, logarithms, trigonometry in degrees, rounding
    "cbrt": ["special.cbrt(cuarray.array([8., 27.]))"],
    "exp10": ["special.exp10(cuarray.array([0., 1., 2.]))"],
    "exp2": ["special.exp2(cuarray.array([0., 1., 3.]))"],
    "expm1": ["special.expm1(cuarray.array([1e-10, 1.]))"],
    "log1p": ["special.log1p(cuarray.array([1e-10, 1.]))"],
    "cosm1": ["special.cosm1(cuarray.array([1e-5, 1.]))"],
    "cosdg": ["special.cosdg(cuarray.array([0., 60., 180.]))"],
    "sindg": ["special.sindg(cuarray.array([30., 90.]))"],
    "tandg": ["special.tandg(cuarray.array([30., 45.]))"],
    "cotdg": ["special.cotdg(cuarray.array([30., 45.]))"],
    "radian": ["special.radian(cuarray.array([90., 180.]), 0., 0.)"],
    "round": ["special.round(cuarray.array([0.4, 1.5, 2.5, -1.6]))"],
    # exponential and trigonometric integrals
    "exp1": ["special.exp1(cuarray.array([0.5, 1., 2.]))"],
    "expi": ["special.expi(cuarray.array([0.5, 1., 2.]))"],
    "expn": ["special.expn(2, cuarray.array([0.5, 1.]))"],
    "exprel": ["special.exprel(cuarray.array([0., 1.]))"],
    "sici": ["si, ci = special.sici(cuarray.array([1., 2.]))", "si", "ci"],
    "shichi": ["shi, chi = special.shichi(cuarray.array([1., 2.]))", "shi", "chi"],
    # elliptic functions and integrals
    "ellipk": ["special.ellipk(cuarray.array([0., 0.5, 0.9]))"],
    "ellipkm1": ["special.ellipkm1(cuarray.array([0.1, 0.5]))"],
    "ellipe": ["special.ellipe(cuarray.array([0., 0.5, 0.9]))"],
    "ellipkinc": ["special.ellipkinc(cuarray.pi / 4, cuarray.array([0., 0.5]))"],
    "ellipeinc": ["special.ellipeinc(cuarray.pi / 4, cuarray.array([0., 0.5]))"],
    "ellipj": ["sn, cn, dn, ph = special.ellipj(cuarray.array([0.5, 1.]), 0.5)", "sn"],
    # Airy functions
    "airy": ["ai, aip, bi, bip = special.airy(cuarray.array([-1., 0.5]))", "ai", "bip",
             "special.airy(cuarray.array([1. + 1.j]))[0]"],
    "airye": ["eai, eaip, ebi, ebip = special.airye(cuarray.array([0.5, 2.]))", "eai", "ebi"],
    # hypergeometric, Legendre, zeta
    "hyp1f1": ["special.hyp1f1(1., 2., cuarray.array([0.5, 1.]))"],
    "hyp2f1": ["special.hyp2f1(1., 1., 2., cuarray.array([0.25, 0.5]))"],
    "lpmv": ["special.lpmv(1, 2, cuarray.array([0.25, 0.5]))"],
    "zetac": ["special.zetac(cuarray.array([2., 4.]))"],
}

_F3 = "a = cuarray.array([[1., 2., 3.], [4., 5., 6.], [7., 8., 9.]])"
_I3 = "a = cuarray.array([[1, 9, 2], [8, 3, 7], [4, 6, 5]])"
_L = "a = cuarray.array([[1, 1, 0], [0, 0, 0], [0, 1, 1]])"
_V = "a, labels = cuarray.array([1., 2., 3., 5., 9.]), cuarray.array([1, 1, 2, 2, 0])"

_SOS = "sos = cuarray.array([[1., 0., 0., 1., -0.5, 0.]])   # 1 / (1 - 0.5 z^-1)"
_PK = "x = cuarray.array([0., 2., 1., 3., 0.5, 1.])"
_X8 = "x = cuarray.array([1., 2., 5., 3., 1., 4., 2., 6.])"

_R4 = "x = cuarray.array([1., 2., 5., 3.])"
_R22 = "x = cuarray.array([[1., 2.], [5., 3.]])"
_SPD = "a = sparse.csr_matrix(cuarray.array([[4., 1.], [1., 3.]]))"
_SB = "b = cuarray.array([1., 2.])"
_ROW = "a = sparse.csr_matrix(cuarray.array([[1., 2.]]))"
_NPZ = ["import os, tempfile", "path = os.path.join(tempfile.mkdtemp(), 'a.npz')",
        "sparse.save_npz(path, sparse.csr_matrix(cuarray.array([[0., 3.], [4., 0.]])))",
        "sparse.load_npz(path).toarray()"]

# By namespace, then public name, most used first.
SCIPY_ROUTINES = {
    "cuarray.scipy.special": {
        "logsumexp": ["x = cuarray.array([[1., 2.], [3., 4.]])", "special.logsumexp(x, axis=1)"],
        "softmax": ["special.softmax(cuarray.array([1., 2., 3.]))"],
        "log_softmax": ["special.log_softmax(cuarray.array([1., 2., 3.]))"],
        "comb": ["special.comb(cuarray.array([5, 10]), 2)", "special.comb(10, 3, exact=True)   # a Python int"],
        "perm": ["special.perm(cuarray.array([5, 10]), 2)"],
        "zeta": ["special.zeta(cuarray.array([2., 4.]))", "special.zeta(2., cuarray.array([1., 2.]))   # Hurwitz"],
        "polygamma": ["special.polygamma(1, cuarray.array([1., 2.]))"],
        "multigammaln": ["special.multigammaln(cuarray.array([2., 3.]), 2)"],
        "spherical_jn": ["x = cuarray.array([1., 2.])", "special.spherical_jn(1, x)",
                         "special.spherical_jn(1, x, derivative=True)"],
        "spherical_yn": ["special.spherical_yn(1, cuarray.array([1., 2.]))"],
        "spherical_in": ["special.spherical_in(1, cuarray.array([1., 2.]))"],
        "spherical_kn": ["special.spherical_kn(1, cuarray.array([1., 2.]))"],
        "lambertw": ["special.lambertw(cuarray.array([1., 2.])).real   # complex, real for z >= -1/e"],
        "sph_harm_y": ["special.sph_harm_y(1, 1, cuarray.array([cuarray.pi / 3, cuarray.pi / 4]), cuarray.pi / 3)"],
    },
    # Inputs whose answers have no zero that rounding could make -0. or 1e-17, and only what
    # does not depend on LAPACK's choices (eigenvectors' signs, the order of eig's values).
    "cuarray.scipy.linalg": {
        "solve": ["a = cuarray.array([[3., 1.], [1., 2.]])", "linalg.solve(a, cuarray.array([9., 8.]))"],
        "inv": ["linalg.inv(cuarray.array([[4., 7.], [2., 6.]]))"],
        "det": ["round(float(linalg.det(cuarray.array([[4., 7.], [2., 6.]]))), 6)  # waits for the GPU"],
        "lu_factor": ["lu, piv = linalg.lu_factor(cuarray.array([[1., 2.], [3., 4.]]))", "lu", "piv"],
        "lu_solve": ["a = cuarray.array([[1., 2.], [3., 4.]])", "lu_and_piv = linalg.lu_factor(a)",
                     "linalg.lu_solve(lu_and_piv, cuarray.array([5., 11.]))"],
        "lu": ["p, l, u = linalg.lu(cuarray.array([[1., 2.], [3., 4.]]))", "l", "u"],
        "cho_factor": ["c, lower = linalg.cho_factor(cuarray.array([[4., 2.], [2., 3.]]))",
                       "cuarray.triu(c)   # the other triangle is not referenced", "bool(lower)   # SciPy 1.18: a bool array of the batch shape (0-d here); 1.17: a bool"],
        "cho_solve": ["a = cuarray.array([[4., 2.], [2., 3.]])",
                      "linalg.cho_solve(linalg.cho_factor(a), cuarray.array([8., 7.]))"],
        "cholesky": ["linalg.cholesky(cuarray.array([[4., 2.], [2., 3.]]))"],
        "solve_triangular": ["a = cuarray.array([[2., 0.], [1., 4.]])",
                             "linalg.solve_triangular(a, cuarray.array([2., 9.]), lower=True)"],
        "solve_banded": ["ab = cuarray.array([[0., 1., 1.], [4., 4., 4.], [1., 1., 0.]])   # one band above, one below",
                         "linalg.solve_banded((1, 1), ab, cuarray.array([5., 7., 9.]))"],
        "solveh_banded": ["ab = cuarray.array([[0., 1., 1.], [4., 4., 4.]])   # the upper band, then the diagonal",
                          "linalg.solveh_banded(ab, cuarray.array([5., 7., 9.]))"],
        "eigh": ["w, v = linalg.eigh(cuarray.array([[2., 1.], [1., 2.]]))", "w"],
        "eigvalsh": ["linalg.eigvalsh(cuarray.array([[2., 1.], [1., 2.]]))"],
        "eig": ["w, v = linalg.eig(cuarray.array([[1., 2.], [3., 2.]]))",
                "cuarray.sort(w.real)   # the order of the eigenvalues is not defined"],
        "eigvals": ["cuarray.sort(linalg.eigvals(cuarray.array([[1., 2.], [3., 2.]])).real)"],
        "svd": ["u, s, vh = linalg.svd(cuarray.array([[3., 0.], [4., 5.]]))", "s"],
        "svdvals": ["linalg.svdvals(cuarray.array([[3., 0.], [4., 5.]]))"],
        "qr": ["a = cuarray.array([[1., 2.], [3., 4.], [5., 6.]])", "q, r = linalg.qr(a, mode='economic')",
               "bool(cuarray.allclose(q @ r, a))", "cuarray.abs(cuarray.diag(r))   # R's signs are LAPACK's choice"],
        "expm": ["linalg.expm(cuarray.array([[0., 1.], [0., 0.]]))"],
        "logm": ["linalg.logm(cuarray.array([[2., 1.], [1., 2.]]))"],
        "sqrtm": ["linalg.sqrtm(cuarray.array([[2., 1.], [1., 2.]]))"],
        "cosm": ["linalg.cosm(cuarray.array([[2., 1.], [1., 2.]]))"],
        "sinm": ["linalg.sinm(cuarray.array([[2., 1.], [1., 2.]]))"],
        "tanm": ["linalg.tanm(cuarray.array([[0.5, 0.25], [0.25, 0.5]]))"],
        "coshm": ["linalg.coshm(cuarray.array([[2., 1.], [1., 2.]]))"],
        "sinhm": ["linalg.sinhm(cuarray.array([[2., 1.], [1., 2.]]))"],
        "tanhm": ["linalg.tanhm(cuarray.array([[2., 1.], [1., 2.]]))"],
        "norm": ["a = cuarray.array([[3., 4.], [6., 8.]])", "round(float(linalg.norm(a[0])), 6)  # waits for the GPU",
                 "linalg.norm(a, axis=1)"],
        "pinv": ["linalg.pinv(cuarray.array([[1., 2.], [3., 4.], [5., 6.]]))"],
        "lstsq": ["a = cuarray.array([[1., 0.], [1., 1.], [1., 2.]])",
                  "x, residues, rank, s = linalg.lstsq(a, cuarray.array([1., 2., 4.]))", "x", "int(rank)"],
        "null_space": ["cuarray.abs(linalg.null_space(cuarray.array([[1., 1.]])))   # the sign is LAPACK's choice"],
        "orth": ["cuarray.abs(linalg.orth(cuarray.array([[1., 1.], [1., 1.]])))   # the sign is LAPACK's choice"],
        "orthogonal_procrustes": ["a = cuarray.array([[1., 2.], [3., 4.]])",
                                  "r, scale = linalg.orthogonal_procrustes(a, a[:, ::-1])",
                                  "bool(cuarray.allclose(a @ r, a[:, ::-1]))", "round(float(scale), 6)"],
        "polar": ["u, p = linalg.polar(cuarray.array([[2., 1.], [1., 2.]]))", "p"],
        "block_diag": ["linalg.block_diag(cuarray.array([[1, 2]]), cuarray.array([[3], [4]]))"],
        "toeplitz": ["linalg.toeplitz(cuarray.array([1, 2, 3]), cuarray.array([1, 4, 5]))"],
        "circulant": ["linalg.circulant(cuarray.array([1, 2, 3]))"],
        "hankel": ["linalg.hankel(cuarray.array([1, 2, 3]), cuarray.array([3, 4, 5]))"],
        "companion": ["linalg.companion(cuarray.array([1., -3., 2.]))"],
        "hadamard": ["linalg.hadamard(4)"],
        "helmert": ["linalg.helmert(3)"],
        "hilbert": ["linalg.hilbert(3)"],
        "invhilbert": ["linalg.invhilbert(3)"],
        "leslie": ["linalg.leslie(cuarray.array([0.1, 2., 1.]), cuarray.array([0.2, 0.8]))"],
        "khatri_rao": ["linalg.khatri_rao(cuarray.array([[1, 2], [3, 4]]), cuarray.array([[5, 6], [7, 8]]))"],
    },
    # A statistic is a 0-d array here, a NumPy scalar in SciPy: through round(float(...), 6).
    "cuarray.scipy.stats": {
        "zscore": ["stats.zscore(cuarray.array([1., 2., 3., 4.]))"],
        "zmap": ["stats.zmap(cuarray.array([1., 2.]), cuarray.array([1., 2., 3., 4.]))"],
        "entropy": ["p = cuarray.array([0.5, 0.25, 0.25])", "round(float(stats.entropy(p)), 6)  # waits for the GPU",
                    "round(float(stats.entropy(p, base=2)), 6)"],
        "rankdata": ["stats.rankdata(cuarray.array([10, 30, 20, 20]))"],
        "skew": ["round(float(stats.skew(cuarray.array([1., 2., 3., 10.]))), 6)",
                 "stats.skew(cuarray.array([[1., 2., 4.], [3., 2., 0.]]), axis=1)"],
        "kurtosis": ["round(float(stats.kurtosis(cuarray.array([1., 2., 3., 10.]))), 6)"],
        "describe": ["res = stats.describe(cuarray.array([1., 2., 3., 10.]))", "int(res.nobs)",
                     "round(float(res.mean), 6), round(float(res.variance), 6)"],
        "pearsonr": ["x, y = cuarray.array([1., 2., 3., 4.]), cuarray.array([2., 1., 4., 5.])",
                     "res = stats.pearsonr(x, y)", "round(float(res.statistic), 6), round(float(res.pvalue), 6)"],
        "spearmanr": ["x, y = cuarray.array([1., 2., 3., 4.]), cuarray.array([2., 1., 4., 5.])",
                      "res = stats.spearmanr(x, y)", "round(float(res.statistic), 6)"],
        "gmean": ["round(float(stats.gmean(cuarray.array([1., 4., 16.]))), 6)"],
        "hmean": ["round(float(stats.hmean(cuarray.array([1., 2., 4.]))), 6)"],
        "pmean": ["round(float(stats.pmean(cuarray.array([1., 2., 4.]), 2)), 6)"],
        "mode": ["res = stats.mode(cuarray.array([1, 2, 2, 3]))", "int(res.mode), int(res.count)"],
        "moment": ["round(float(stats.moment(cuarray.array([1., 2., 3., 10.]), order=2)), 6)"],
        "trim_mean": ["round(float(stats.trim_mean(cuarray.array([1., 2., 3., 4., 100.]), 0.2)), 6)"],
        "boxcox_llf": ["round(float(stats.boxcox_llf(0.5, cuarray.array([1., 2., 3.]))), 6)"],
        "skewtest": ["x = cuarray.array([1., 2., 3., 4., 5., 6., 7., 30.])", "res = stats.skewtest(x)",
                     "round(float(res.statistic), 6), round(float(res.pvalue), 6)"],
        "kurtosistest": ["x = cuarray.array([1., 2., 3., 4., 5., 6., 7., 30.])", "res = stats.kurtosistest(x)",
                         "round(float(res.statistic), 6), round(float(res.pvalue), 6)"],
        "normaltest": ["x = cuarray.array([1., 2., 3., 4., 5., 6., 7., 30.])", "res = stats.normaltest(x)",
                       "round(float(res.statistic), 6), round(float(res.pvalue), 6)"],
        "jarque_bera": ["res = stats.jarque_bera(cuarray.array([1., 2., 3., 4., 5., 6., 7., 30.]))",
                        "round(float(res.statistic), 6), round(float(res.pvalue), 6)"],
        "ks_1samp": ["res = stats.ks_1samp(cuarray.array([-1.2, -0.3, 0.1, 0.4, 1.5]), stats.norm.cdf)",
                     "round(float(res.statistic), 6), round(float(res.pvalue), 6)"],
        "kstest": ["res = stats.kstest(cuarray.array([-1.2, -0.3, 0.1, 0.4, 1.5]), 'norm')",
                   "round(float(res.statistic), 6), round(float(res.pvalue), 6)"],
        "cramervonmises": ["res = stats.cramervonmises(cuarray.array([-1.2, -0.3, 0.1, 0.4, 1.5, 0.8]), 'norm')",
                           "round(float(res.statistic), 6), round(float(res.pvalue), 6)"],
        "ranksums": ["x, y = cuarray.array([1.1, 2.3, 0.4, 3.8, 2.9]), cuarray.array([3.5, 4.1, 5.2, 2.7])",
                     "res = stats.ranksums(x, y)", "round(float(res.statistic), 6), round(float(res.pvalue), 6)"],
        "mood": ["x, y = cuarray.array([1.1, 2.3, 0.4, 3.8, 2.9, 5.0]), cuarray.array([2.5, 3.1, 2.7, 3.0])",
                 "res = stats.mood(x, y)", "round(float(res.statistic), 6), round(float(res.pvalue), 6)"],
        "fisher_exact": ["res = stats.fisher_exact(cuarray.array([[8, 2], [1, 5]]))",
                         "round(float(res.statistic), 6), round(float(res.pvalue), 6)",
                         "round(float(stats.fisher_exact([[8, 2], [1, 5]], alternative='greater').pvalue), 6)"],
        "binomtest": ["res = stats.binomtest(3, 15, 0.1)", "round(float(res.pvalue), 6), round(float(res.statistic), 6)",
                      "ci = res.proportion_ci(confidence_level=0.95)", "round(float(ci.low), 6), round(float(ci.high), 6)"],
        "ansari": ["x, y = cuarray.array([1.1, 2.3, 0.4, 3.8, 2.9, 5.0]), cuarray.array([2.5, 3.1, 2.7, 3.0, 2.2])",
                   "res = stats.ansari(x, y)", "round(float(res.statistic), 6), round(float(res.pvalue), 6)"],
        "anderson_ksamp": ["a, b = cuarray.array([0.1, 0.4, 0.7, 1.0, 1.3, 1.6]), cuarray.array([1.5, 2.4, 1.9, 3.3, 0.8])",
                           "res = stats.anderson_ksamp([a, b], variant='midrank')",
                           "round(float(res.statistic), 6), round(float(res.pvalue), 6)"],
        "epps_singleton_2samp": ["x = cuarray.array([0.3, -1.2, 0.8, 1.9, -0.4, 0.1, 2.2, -0.9])",
                                 "y = cuarray.array([1.5, 2.4, 1.9, 3.3, 0.8, 2.7, 2.1])",
                                 "res = stats.epps_singleton_2samp(x, y)",
                                 "round(float(res.statistic), 6), round(float(res.pvalue), 6)"],
        "anderson": ["x = cuarray.array([-1.2, -0.3, 0.1, 0.4, 1.5, 0.8, 2.1, -0.7])",
                     "res = stats.anderson(x, method='interpolate')",
                     "round(float(res.statistic), 6), round(float(res.pvalue), 6)"],
        "shapiro": ["res = stats.shapiro(cuarray.array([2.1, 3.4, 1.9, 5.6, 4.4, 3.0, 2.8, 7.9, 3.3, 4.1]))",
                    "round(float(res.statistic), 6), round(float(res.pvalue), 6)"],
        "chisquare": ["res = stats.chisquare(cuarray.array([16., 18., 16., 14., 12., 12.]))",
                      "round(float(res.statistic), 6), round(float(res.pvalue), 6)"],
        "power_divergence": ["obs = cuarray.array([16., 18., 16., 14., 12., 12.])",
                             "res = stats.power_divergence(obs, lambda_='log-likelihood')",
                             "round(float(res.statistic), 6), round(float(res.pvalue), 6)"],
        "f_oneway": ["a, b = cuarray.array([1., 2., 3., 4.]), cuarray.array([3., 4., 5., 6., 7.])",
                     "res = stats.f_oneway(a, b)", "round(float(res.statistic), 6), round(float(res.pvalue), 6)"],
        "tmean": ["round(float(stats.tmean(cuarray.array([1., 2., 3., 10., 50.]), (0, 20))), 6)"],
        "tvar": ["round(float(stats.tvar(cuarray.array([1., 2., 3., 10., 50.]), (0, 20))), 6)"],
        "tstd": ["round(float(stats.tstd(cuarray.array([1., 2., 3., 10., 50.]), (0, 20))), 6)"],
        "tsem": ["round(float(stats.tsem(cuarray.array([1., 2., 3., 10., 50.]), (0, 20))), 6)"],
        "tmin": ["float(stats.tmin(cuarray.array([1., 2., 3., 10., 50.]), 2.5))"],
        "tmax": ["float(stats.tmax(cuarray.array([1., 2., 3., 10., 50.]), 20))"],
        "bartlett": ["a, b = cuarray.array([1., 2., 4., 7.]), cuarray.array([3., 3.5, 4., 4.5, 5.])",
                     "res = stats.bartlett(a, b)", "round(float(res.statistic), 6), round(float(res.pvalue), 6)"],
        "levene": ["a, b = cuarray.array([1., 2., 4., 7.]), cuarray.array([3., 3.5, 4., 4.5, 5.])",
                   "res = stats.levene(a, b)", "round(float(res.statistic), 6), round(float(res.pvalue), 6)"],
        "fligner": ["a, b = cuarray.array([1., 2., 4., 7.]), cuarray.array([3., 3.5, 4., 4.5, 5.])",
                    "res = stats.fligner(a, b)", "round(float(res.statistic), 6), round(float(res.pvalue), 6)"],
        "kruskal": ["a, b = cuarray.array([1., 2., 4., 7.]), cuarray.array([3., 3.5, 5., 8., 9.])",
                    "res = stats.kruskal(a, b)", "round(float(res.statistic), 6), round(float(res.pvalue), 6)"],
        "friedmanchisquare": ["a, b = cuarray.array([1., 2., 4., 7.]), cuarray.array([3., 3.5, 5., 8.])",
                              "c = cuarray.array([2., 6., 3., 9.])", "res = stats.friedmanchisquare(a, b, c)",
                              "round(float(res.statistic), 6), round(float(res.pvalue), 6)"],
        "pointbiserialr": ["x, y = cuarray.array([0., 0., 1., 1., 1.]), cuarray.array([1., 2., 4., 3., 5.])",
                           "res = stats.pointbiserialr(x, y)", "round(float(res.statistic), 6)"],
        "false_discovery_control": ["stats.false_discovery_control(cuarray.array([0.01, 0.04, 0.03, 0.2]))"],
        "chi2_contingency": ["res = stats.chi2_contingency(cuarray.array([[10, 20], [30, 25]]))",
                             "round(float(res.statistic), 6), round(float(res.pvalue), 6), res.dof"],
        "brunnermunzel": ["x1 = cuarray.array([1., 2, 1, 1, 1, 1, 1, 1, 1, 1, 2, 4, 1, 1])",
                          "x2 = cuarray.array([3., 3, 4, 3, 1, 2, 3, 1, 1, 5, 4])", "res = stats.brunnermunzel(x1, x2)",
                          "round(float(res.statistic), 6), round(float(res.pvalue), 6)"],
        "cumfreq": ["res = stats.cumfreq(cuarray.array([1., 4, 2, 1, 3, 1]), numbins=4)", "res.cumcount",
                    "float(res.lowerlimit), float(res.binsize)"],
        "relfreq": ["res = stats.relfreq(cuarray.array([2., 4, 1, 2, 3, 2]), numbins=4)", "res.frequency",
                    "float(res.lowerlimit), float(res.binsize)"],
        "sigmaclip": ["a = cuarray.concatenate((cuarray.linspace(9.5, 10.5, 31), cuarray.linspace(0, 20, 5)))",
                      "c, lower, upper = stats.sigmaclip(a, 1.5, 1.5)", "c",
                      "round(float(lower), 6), round(float(upper), 6)"],
        "theilslopes": ["x = cuarray.array([0., 1, 2, 3, 4, 5])", "y = cuarray.array([1., 2.5, 4.5, 7.5, 9, 10.5])",
                        "res = stats.theilslopes(y, x)", "float(res.slope), float(res.intercept)",
                        "float(res.low_slope), float(res.high_slope)"],
        "boxcox": ["x = cuarray.array([1., 2., 4., 8., 16., 40.])", "stats.boxcox(x, 0.5)",
                   "y, lmbda = stats.boxcox(x)", "round(float(lmbda), 4)"],
        "yeojohnson": ["x = cuarray.array([-2., -0.5, 0., 1., 3., 12.])", "stats.yeojohnson(x, 0.5)",
                       "y, lmbda = stats.yeojohnson(x)", "round(float(lmbda), 4)"],
        "yeojohnson_llf": ["x = cuarray.array([-2., -0.5, 0., 1., 3., 12.])", "round(float(stats.yeojohnson_llf(0.5, x)), 6)"],
        "boxcox_normmax": ["x = cuarray.array([1., 2., 4., 8., 16., 40.])", "round(float(stats.boxcox_normmax(x)), 4)",
                           "round(float(stats.boxcox_normmax(x, method='mle')), 4)"],
        "yeojohnson_normmax": ["x = cuarray.array([-2., -0.5, 0., 1., 3., 12.])", "round(float(stats.yeojohnson_normmax(x)), 4)"],
        "monte_carlo_test": ["x = cuarray.array([0.3, -0.1, 0.8, 1.1, 0.4, 0.9])",
                             "rng = cuarray.random.default_rng(0)",
                             "res = stats.monte_carlo_test(x, rng.standard_normal, lambda s, axis: s.mean(axis=axis))",
                             "res.null_distribution.shape"],
        "permutation_test": ["x, y = cuarray.array([1.1, 2.3, 1.9, 3.0]), cuarray.array([2.8, 3.9, 3.1])",
                             "res = stats.permutation_test((x, y), lambda a, b, axis: a.mean(axis=axis) - b.mean(axis=axis))",
                             "round(float(res.pvalue), 4), res.null_distribution.shape  # every permutation: exact"],
        "bootstrap": ["x = cuarray.array([2.1, 3.4, 1.9, 5.6, 4.2, 3.3, 2.8, 4.9])",
                      "res = stats.bootstrap((x,), lambda s, axis: s.mean(axis=axis), rng=0)",
                      "res.bootstrap_distribution.shape",
                      "bool(res.confidence_interval.low < x.mean() < res.confidence_interval.high)"],
        "quantile": ["x = cuarray.asarray([[10., 8., 7., 5., 4.], [0., 1., 2., 3., 5.]])",
                     "stats.quantile(x, 0.5, axis=-1)", "stats.quantile(x, cuarray.asarray([0.25, 0.75]), axis=-1)",
                     "stats.quantile(x, 0.3, axis=-1, method='harrell-davis')"],
        "siegelslopes": ["res = stats.siegelslopes(cuarray.array([1., 3, 5, 7, 9, 30]))  # x = 0, 1, ..., 5",
                         "float(res.slope), float(res.intercept)"],
        "somersd": ["table = cuarray.array([[27, 25, 14, 7, 0], [7, 14, 18, 35, 12], [1, 3, 2, 7, 17]])",
                    "res = stats.somersd(table)", "round(float(res.statistic), 6)"],
        "weightedtau": ["x = cuarray.array([12., 2, 1, 12, 2])", "y = cuarray.array([1., 4, 7, 1, 0])",
                        "res = stats.weightedtau(x, y)", "round(float(res.statistic), 6)"],
        "ecdf": ["res = stats.ecdf(cuarray.array([1., 3., 2., 2.]))", "res.cdf.quantiles", "res.cdf.probabilities"],
        "CensoredData": ["data = stats.CensoredData(uncensored=cuarray.array([1., 2.]), right=cuarray.array([5.]))",
                         "int(data.num_censored())"],
    },
    "cuarray.scipy.stats.qmc": {
        "discrepancy": ["space = cuarray.array([[1., 3], [2, 6], [3, 2], [4, 5], [5, 1], [6, 4]])",
                        "space = qmc.scale(space, [0.5, 0.5], [6.5, 6.5], reverse=True)",
                        "round(float(qmc.discrepancy(space)), 6)"],
        "scale": ["sample = cuarray.array([[0.5, 0.75], [0.5, 0.5], [0.75, 0.25]])", "qmc.scale(sample, [-2, 0], [6, 5])"],
        "Sobol": ["sampler = qmc.Sobol(d=2, scramble=False)", "sampler.random_base2(m=2)"],
        "Halton": ["sampler = qmc.Halton(d=2, scramble=False)", "sampler.random(n=4)"],
        "LatinHypercube": ["sample = qmc.LatinHypercube(d=2, rng=1).random(n=5)", "sample.shape"],
    },
    # Integer inputs where the result is computed in the input's type (rank filters, morphology),
    # float inputs where it is computed in float (a float result cast to an integer output would
    # truncate 2.9999999 and 3.0000001 differently).
    "cuarray.scipy.ndimage": {
        "gaussian_filter": [_F3, "ndimage.gaussian_filter(a, sigma=1)"],
        "gaussian_filter1d": ["ndimage.gaussian_filter1d(cuarray.array([1., 2., 3., 4., 5.]), sigma=1)"],
        "uniform_filter": [_F3, "ndimage.uniform_filter(a, size=3)"],
        "uniform_filter1d": ["ndimage.uniform_filter1d(cuarray.array([2., 8., 0., 4., 1.]), size=3)"],
        "median_filter": [_I3, "ndimage.median_filter(a, size=3)"],
        "minimum_filter": [_I3, "ndimage.minimum_filter(a, size=2)"],
        "maximum_filter": [_I3, "ndimage.maximum_filter(a, size=2)"],
        "minimum_filter1d": ["ndimage.minimum_filter1d(cuarray.array([2, 8, 0, 4, 1]), size=3)"],
        "maximum_filter1d": ["ndimage.maximum_filter1d(cuarray.array([2, 8, 0, 4, 1]), size=3)"],
        "percentile_filter": ["ndimage.percentile_filter(cuarray.array([2, 8, 0, 4, 1]), 50, size=3)"],
        "rank_filter": ["ndimage.rank_filter(cuarray.array([2, 8, 0, 4, 1]), rank=-1, size=3)   # the largest"],
        "convolve": ["ndimage.convolve(cuarray.array([1, 2, 3, 4]), cuarray.array([1, 1, 1]))"],
        "correlate": ["ndimage.correlate(cuarray.array([1, 2, 3, 4]), cuarray.array([1, 0, -1]))"],
        "convolve1d": ["ndimage.convolve1d(cuarray.array([1, 2, 3, 4]), cuarray.array([1, 0, -1]))"],
        "correlate1d": ["ndimage.correlate1d(cuarray.array([1, 2, 3, 4]), cuarray.array([1, 0, -1]))"],
        "laplace": ["ndimage.laplace(cuarray.array([[0., 0., 0.], [0., 1., 0.], [0., 0., 0.]]))"],
        "sobel": ["a = cuarray.array([[0, 1, 3], [0, 1, 3], [0, 1, 3]])", "ndimage.sobel(a, axis=1)"],
        "prewitt": ["a = cuarray.array([[0, 1, 3], [0, 1, 3], [0, 1, 3]])", "ndimage.prewitt(a, axis=1)"],
        "gaussian_laplace": ["ndimage.gaussian_laplace(cuarray.array([0., 0., 1., 0., 0.]), sigma=1)"],
        "gaussian_gradient_magnitude": ["x = cuarray.array([1., 2., 4., 8.])",
                                        "ndimage.gaussian_gradient_magnitude(x, sigma=1)"],
        "generic_gradient_magnitude": ["a = cuarray.array([[0., 1., 3.], [0., 1., 3.]])",
                                       "ndimage.generic_gradient_magnitude(a, ndimage.sobel)"],
        "generic_laplace": ["def d2(input, axis, output, mode, cval):\n"
                            "    return ndimage.correlate1d(input, [1., -2., 1.], axis, output, mode, cval)",
                            "ndimage.generic_laplace(cuarray.array([[0., 0., 0.], [0., 1., 0.], [0., 0., 0.]]), d2)"],
        "fourier_gaussian": ["ndimage.fourier_gaussian(cuarray.array([1., 1., 1., 1.]), sigma=1)"],
        "fourier_uniform": ["ndimage.fourier_uniform(cuarray.array([1., 1., 1., 1.]), size=3)"],
        "fourier_ellipsoid": ["ndimage.fourier_ellipsoid(cuarray.array([1., 1., 1., 1.]), size=3)"],
        "fourier_shift": ["x = cuarray.array([1., 2., 3., 4.])",
                          "cuarray.fft.ifft(ndimage.fourier_shift(cuarray.fft.fft(x), 1)).real"],
        "spline_filter": ["ndimage.spline_filter(cuarray.array([[1., 2., 3.], [4., 6., 9.], [2., 5., 7.]]))"],
        "spline_filter1d": ["ndimage.spline_filter1d(cuarray.array([1., 2., 4., 8.]))"],
        "zoom": ["ndimage.zoom(cuarray.array([[1., 2.], [3., 4.]]), 2, order=1)"],
        "shift": ["ndimage.shift(cuarray.array([1., 2., 3., 4.]), 1, order=1)"],
        "rotate": ["ndimage.rotate(cuarray.array([[1., 2.], [3., 4.]]), 90, order=1, mode='nearest')"],
        "affine_transform": ["a = cuarray.array([1., 2., 3., 4.])",
                             "ndimage.affine_transform(a, cuarray.array([1.]), offset=1., order=1)"],
        "map_coordinates": ["a = cuarray.arange(12.).reshape(4, 3)",
                            "ndimage.map_coordinates(a, cuarray.array([[0.5, 2.], [0.5, 1.]]), order=1)"],
        "label": [_L, "labels, n = ndimage.label(a)", "labels", "int(n)"],
        "find_objects": ["ndimage.find_objects(cuarray.array([[1, 1, 0], [0, 0, 2]]))"],
        "value_indices": ["idx = ndimage.value_indices(cuarray.array([[1, 1, 0], [0, 2, 2]]))", "idx[2]"],
        "center_of_mass": ["[float(c) for c in ndimage.center_of_mass(cuarray.array([[0., 1.], [0., 3.]]))]"],
        "extrema": ["mn, mx, mn_pos, mx_pos = ndimage.extrema(cuarray.array([[1, 5], [3, 2]]))", "int(mn), int(mx)"],
        "maximum_position": ["tuple(int(i) for i in ndimage.maximum_position(cuarray.array([[1, 5], [3, 2]])))"],
        "minimum_position": ["tuple(int(i) for i in ndimage.minimum_position(cuarray.array([[1, 5], [3, 2]])))"],
        "histogram": ["ndimage.histogram(cuarray.array([1, 2, 2, 3]), 0, 4, 4)"],
        "labeled_comprehension": [_V, "index = cuarray.array([1, 2])",
                                  "ndimage.labeled_comprehension(a, labels, index, cuarray.max, float, 0.)"],
        "sum_labels": [_V, "ndimage.sum_labels(a, labels, index=cuarray.array([1, 2]))"],
        "sum": [_V, "ndimage.sum(a, labels, index=cuarray.array([1, 2]))"],
        "mean": [_V, "ndimage.mean(a, labels, index=cuarray.array([1, 2]))"],
        "median": [_V, "ndimage.median(a, labels, index=cuarray.array([1, 2]))"],
        "maximum": [_V, "ndimage.maximum(a, labels, index=cuarray.array([1, 2]))"],
        "minimum": [_V, "ndimage.minimum(a, labels, index=cuarray.array([1, 2]))"],
        "variance": [_V, "ndimage.variance(a, labels, index=cuarray.array([1, 2]))"],
        "standard_deviation": [_V, "ndimage.standard_deviation(a, labels, index=cuarray.array([1, 2]))"],
        "binary_erosion": ["ndimage.binary_erosion(cuarray.array([0, 1, 1, 1, 0]))"],
        "binary_dilation": ["ndimage.binary_dilation(cuarray.array([0, 0, 1, 0, 0]))"],
        "binary_opening": ["ndimage.binary_opening(cuarray.array([1, 1, 1, 0, 1, 0, 0]))"],
        "binary_closing": ["ndimage.binary_closing(cuarray.array([0, 1, 1, 0, 1, 1, 0]))"],
        "binary_fill_holes": ["ndimage.binary_fill_holes(cuarray.array([[1, 1, 1], [1, 0, 1], [1, 1, 1]]))"],
        "binary_hit_or_miss": ["a = cuarray.array([0, 1, 0, 1, 1])",
                               "ndimage.binary_hit_or_miss(a, cuarray.array([0, 1, 0]), cuarray.array([1, 0, 1]))"],
        "binary_propagation": ["mask = cuarray.array([1, 1, 1, 0, 1])",
                               "ndimage.binary_propagation(cuarray.array([0, 1, 0, 0, 0]), mask=mask)"],
        "grey_erosion": ["ndimage.grey_erosion(cuarray.array([1, 5, 2, 0, 3]), size=3)"],
        "grey_dilation": ["ndimage.grey_dilation(cuarray.array([1, 5, 2, 0, 3]), size=3)"],
        "grey_opening": ["ndimage.grey_opening(cuarray.array([1, 5, 2, 0, 3]), size=3)"],
        "grey_closing": ["ndimage.grey_closing(cuarray.array([1, 5, 2, 0, 3]), size=3)"],
        "white_tophat": ["ndimage.white_tophat(cuarray.array([1, 5, 2, 0, 3]), size=3)"],
        "black_tophat": ["ndimage.black_tophat(cuarray.array([1, 5, 2, 0, 3]), size=3)"],
        "morphological_gradient": ["ndimage.morphological_gradient(cuarray.array([1, 5, 2, 0, 3]), size=3)"],
        "morphological_laplace": ["ndimage.morphological_laplace(cuarray.array([1, 5, 2, 0, 3]), size=3)"],
        "generate_binary_structure": ["ndimage.generate_binary_structure(2, 1)"],
        "iterate_structure": ["s = ndimage.generate_binary_structure(2, 1)",
                              "ndimage.iterate_structure(s, 2).astype(int)"],
        "distance_transform_edt": ["ndimage.distance_transform_edt(cuarray.array([[0, 1, 1, 1], [0, 1, 1, 1]]))"],
    },
    # Spectra through cuarray.round(..., 6) (a bin that is 0 on the host is 1e-33 on the GPU), the
    # analytic signal through its magnitude, filter designs whose coefficients have no zero.
    "cuarray.scipy.signal": {
        "convolve": ["signal.convolve(cuarray.array([1., 2., 3.]), cuarray.array([1., 1., 0.5]))"],
        "fftconvolve": ["signal.fftconvolve(cuarray.array([1., 2., 3.]), cuarray.array([1., 1., 0.5]))"],
        "oaconvolve": ["signal.oaconvolve(cuarray.array([1., 2., 3.]), cuarray.array([1., 1., 0.5]))"],
        "correlate": ["signal.correlate(cuarray.array([1., 2., 3.]), cuarray.array([1., 1., 0.5]))"],
        "convolve2d": ["signal.convolve2d(cuarray.array([[1, 2], [3, 4]]), cuarray.array([[1, 1], [1, 1]]))"],
        "correlate2d": ["signal.correlate2d(cuarray.array([[1, 2], [3, 4]]), cuarray.array([[1, 0], [0, 2]]))"],
        "correlation_lags": ["signal.correlation_lags(3, 3)"],
        "choose_conv_method": ["signal.choose_conv_method(cuarray.array([1, 2, 3]), cuarray.array([1, 1]))"],
        "deconvolve": ["quotient, remainder = signal.deconvolve(cuarray.array([1., 3., 5.5, 4., 1.5]), "
                       "cuarray.array([1., 1., 0.5]))", "quotient"],
        "lfilter": ["signal.lfilter(cuarray.array([1.]), cuarray.array([1., -0.5]), cuarray.array([1., 1., 1., 1.]))"],
        "lfilter_zi": ["signal.lfilter_zi(cuarray.array([1.]), cuarray.array([1., -0.5]))"],
        "filtfilt": ["b, a = cuarray.array([0.5, 0.5]), cuarray.array([1.])",
                     "signal.filtfilt(b, a, cuarray.array([1., 2., 4., 8., 16., 32., 64., 128.]))"],
        "sosfilt": [_SOS, "signal.sosfilt(sos, cuarray.array([1., 1., 1., 1.]))"],
        "sosfilt_zi": [_SOS, "signal.sosfilt_zi(sos)"],
        "sosfiltfilt": [_SOS, "signal.sosfiltfilt(sos, cuarray.array([1., 2., 4., 8., 16., 32., 64., 128.]))"],
        "butter": ["b, a = signal.butter(2, 0.25)", "b", "a"],
        "cheby1": ["b, a = signal.cheby1(2, 1., 0.25)", "b", "a"],
        "cheby2": ["b, a = signal.cheby2(2, 20., 0.25)", "b", "a"],
        "ellip": ["b, a = signal.ellip(2, 1., 20., 0.25)", "b", "a"],
        "bessel": ["b, a = signal.bessel(2, 0.25)", "b", "a"],
        "iirfilter": ["b, a = signal.iirfilter(2, 0.25, btype='lowpass', ftype='butter')", "a"],
        "iirnotch": ["b, a = signal.iirnotch(60., 30., fs=1000.)", "b", "a"],
        "iirpeak": ["b, a = signal.iirpeak(60., 30., fs=1000.)", "a"],
        "firwin": ["signal.firwin(5, 0.25)"],
        "firwin2": ["signal.firwin2(5, [0., 0.5, 1.], [1., 1., 0.])"],
        "remez": ["signal.remez(5, [0., 0.1, 0.3, 0.5], [1., 0.])"],
        "firwin_2d": ["cuarray.round(signal.firwin_2d((3, 3), ('hamming', 'hamming'), fc=0.5), 6)"],
        "besselap": ["z, p, k = signal.besselap(2)", "p"],
        # issue 52, the names SciPy 1.18 has that cuarray lacked (whittaker_henderson: new in 1.18, its
        # example written and checked under SciPy 1.18)
        "envelope": ["t = cuarray.arange(16.) * cuarray.pi / 8", "x = cuarray.cos(2. * t) * (1. + 0.5 * cuarray.cos(t))",
                     "cuarray.round(signal.envelope(x, residual=None), 6)"],
        "find_peaks_cwt": ["x = cuarray.sin(cuarray.linspace(0., 6. * cuarray.pi, 500))",
                           "signal.find_peaks_cwt(x, cuarray.arange(1, 10))"],
        "whittaker_henderson": ["y = cuarray.array([1., 3., 2., 5., 4., 6., 8., 7.])",
                                "res = signal.whittaker_henderson(y, lamb=2.)", "cuarray.round(res.x, 6)"],
        # issue 52, systems and conversions (signal-b): host work prints SciPy's own numbers; the
        # device's responses through cuarray.round(..., 6) of values away from zero.
        "tf2ss": ["A, B, C, D = signal.tf2ss([1., 3.], [1., 2., 5.])", "A", "C"],
        "ss2tf": ["num, den = signal.ss2tf([[-2., -5.], [1., 0.]], [[1.], [0.]], [[1., 3.]], [[0.]])", "den"],
        "tf2zpk": ["z, p, k = signal.tf2zpk([1., 3.], [1., 3., 2.])", "z", "p", "k"],
        "zpk2tf": ["b, a = signal.zpk2tf([-3.], [-1., -2.], 2.)", "b", "a"],
        "zpk2ss": ["A, B, C, D = signal.zpk2ss([-3.], [-1., -2.], 2.)", "D"],
        "ss2zpk": ["z, p, k = signal.ss2zpk([[-2., 1.], [0., -3.]], [[1.], [1.]], [[1., 1.]], [[1.]])", "k"],
        "tf2sos": ["signal.tf2sos([1., 2., 1.], [1., -0.5, 0.06])"],
        "sos2tf": ["b, a = signal.sos2tf(cuarray.array([[1., 2., 1., 1., -0.5, 0.06]]))", "a"],
        "sos2zpk": ["z, p, k = signal.sos2zpk(cuarray.array([[1., 1., 0., 1., -0.5, 0.]]))", "p"],
        "zpk2sos": ["signal.zpk2sos([-1.], [0.5, 0.2], 1.)"],
        "normalize": ["b, a = signal.normalize([2., 4.], [4., 2., 1.])", "b", "a"],
        "lp2lp": ["b, a = signal.lp2lp([1.], [1., 1.], 2.)", "b", "a"],
        "lp2hp": ["b, a = signal.lp2hp([1.], [1., 1.], 2.)", "b", "a"],
        "lp2bp": ["b, a = signal.lp2bp([1.], [1., 1.], 2., 0.5)", "a"],
        "lp2bs": ["b, a = signal.lp2bs([1.], [1., 1.], 2., 0.5)", "b"],
        "lp2lp_zpk": ["z, p, k = signal.lp2lp_zpk([], [-1.], 1., 3.)", "p", "k"],
        "lp2hp_zpk": ["z, p, k = signal.lp2hp_zpk([], [-1.], 1., 3.)", "p"],
        "lp2bp_zpk": ["z, p, k = signal.lp2bp_zpk([], [-1.], 1., 2., 0.5)", "p"],
        "lp2bs_zpk": ["z, p, k = signal.lp2bs_zpk([], [-1.], 1., 2., 0.5)", "z"],
        "bilinear": ["b, a = signal.bilinear([1.], [1., 1.], 10.)", "b", "a"],
        "bilinear_zpk": ["z, p, k = signal.bilinear_zpk([], [-1.], 1., 10.)", "p", "k"],
        "residue": ["r, p, k = signal.residue([1., 2.], [1., 3., 2.])", "r", "p"],
        "residuez": ["r, p, k = signal.residuez([1., 2.], [1., 0.5, 0.06])", "p"],
        "invres": ["b, a = signal.invres([1., -1.], [-1., -2.], [])", "a"],
        "invresz": ["b, a = signal.invresz([1., -1.], [0.5, 0.25], [])", "a"],
        "unique_roots": ["uniq, mult = signal.unique_roots([1., 1.0005, 2.])", "uniq", "mult"],
        "abcd_normalize": ["A, B, C, D = signal.abcd_normalize(A=[[1., 2.], [3., 4.]], B=[[1.], [5.]], D=2.5)",
                           "C"],
        "cont2discrete": ["num, den, dt = signal.cont2discrete(([1.], [1., 2.]), 0.1)", "den"],
        "buttord": ["signal.buttord(0.2, 0.3, 3, 40)"],
        "cheb1ord": ["signal.cheb1ord(0.2, 0.3, 3, 40)"],
        "cheb2ord": ["signal.cheb2ord(0.2, 0.3, 3, 40)"],
        "ellipord": ["signal.ellipord(0.2, 0.3, 3, 40)"],
        "kaiserord": ["signal.kaiserord(65, 0.1)"],
        "kaiser_beta": ["signal.kaiser_beta(65.)"],
        "kaiser_atten": ["signal.kaiser_atten(31, 0.1)"],
        "iirdesign": ["b, a = signal.iirdesign(0.2, 0.3, 1, 20, ftype='butter')", "len(a)"],
        "iircomb": ["b, a = signal.iircomb(0.5, 30)", "b"],
        "gammatone": ["b, a = signal.gammatone(440, 'fir', numtaps=4, fs=16000)", "a"],
        "firls": ["signal.firls(5, [0., 0.3, 0.5, 1.], [1., 1., 0., 0.])"],
        "minimum_phase": ["signal.minimum_phase(cuarray.array([0.25, 0.5, 1., 0.5, 0.25]))"],
        "buttap": ["z, p, k = signal.buttap(2)", "p"],
        "cheb1ap": ["z, p, k = signal.cheb1ap(2, 1.)", "p"],
        "cheb2ap": ["z, p, k = signal.cheb2ap(2, 20.)", "z"],
        "ellipap": ["z, p, k = signal.ellipap(2, 1., 20.)", "p"],
        "band_stop_obj": ["passb, stopb = cuarray.array([0.3, 0.4]), cuarray.array([0.1, 0.6])",
                          "float(signal.band_stop_obj(0.3, 0, passb, stopb, 3, 40, 'butter'))"],
        "lfiltic": ["signal.lfiltic([1.], [1., -0.5], [2.])"],
        "freqz": ["w, h = signal.freqz(cuarray.array([0.5, 0.5]), worN=4)", "w", "cuarray.round(cuarray.abs(h), 6)"],
        "freqz_zpk": ["w, h = signal.freqz_zpk([-1.], [0.5], 0.25, worN=4)", "cuarray.round(cuarray.abs(h), 6)"],
        "freqz_sos": [_SOS, "w, h = signal.freqz_sos(sos, worN=4)", "cuarray.round(cuarray.abs(h), 6)"],
        "sosfreqz": [_SOS, "w, h = signal.sosfreqz(sos, worN=4)", "cuarray.round(cuarray.abs(h), 6)"],
        "freqs": ["w, h = signal.freqs([1.], [1., 1.], worN=cuarray.array([0.5, 1., 2.]))",
                  "cuarray.round(cuarray.abs(h), 6)"],
        "freqs_zpk": ["w, h = signal.freqs_zpk([], [-1.], 1., worN=cuarray.array([0.5, 1., 2.]))",
                      "cuarray.round(cuarray.abs(h), 6)"],
        "group_delay": ["w, gd = signal.group_delay(([1., 0.5], [1.]), w=4)", "cuarray.round(gd, 6)"],
        "findfreqs": ["signal.findfreqs([1.], [1., 1.], 3)"],
        "lti": ["sys = signal.lti([1.], [1., 1.])", "sys.den", "sys.to_ss().A"],
        "dlti": ["sys = signal.dlti([1.], [1., -0.5], dt=0.1)", "sys.poles"],
        "StateSpace": ["sys = signal.StateSpace([[-1.]], [[1.]], [[2.]], [[1.]])", "sys.to_tf().num"],
        "TransferFunction": ["sys = signal.TransferFunction([1.], [1., 3., 2.])", "sys.poles"],
        "ZerosPolesGain": ["sys = signal.ZerosPolesGain([], [-1., -2.], 2.)", "sys.to_tf().den"],
        "lsim": ["t = cuarray.linspace(0., 2., 5)", "tout, y, x = signal.lsim(([1.], [1., 1.]), cuarray.ones(5), t)",
                 "cuarray.round(y, 6)"],
        "dlsim": ["t, y = signal.dlsim(([1.], [1., -0.5], 1.), cuarray.ones(4))", "y"],
        "step": ["t, y = signal.step(([1.], [1., 1.]), T=cuarray.linspace(0.5, 2., 4))", "cuarray.round(y, 6)"],
        "dstep": ["t, y = signal.dstep(([1.], [1., -0.5], 1.), n=4)", "y[0]"],
        "impulse": ["t, y = signal.impulse(([1.], [1., 1.]), T=cuarray.linspace(0., 2., 4))", "cuarray.round(y, 6)"],
        "dimpulse": ["t, y = signal.dimpulse(([1.], [1., -0.5], 1.), n=4)", "y[0]"],
        "freqresp": ["w, h = signal.freqresp(([1.], [1., 1.]), w=[1.])", "h"],
        "dfreqresp": ["w, h = signal.dfreqresp(([1.], [1., -0.5], 1.), w=[0.5])", "h"],
        "bode": ["w, mag, phase = signal.bode(([1.], [1., 1.]), w=[1.])", "phase"],
        "dbode": ["w, mag, phase = signal.dbode(([1.], [1., -0.5], 1.), w=[0.5])", "mag"],
        "place_poles": ["A, B = cuarray.array([[0., 1.], [-2., -3.]]), cuarray.array([[0.], [1.]])",
                        "fsf = signal.place_poles(A, B, cuarray.array([-4., -5.]))",
                        "fsf.gain_matrix"],
        "get_window": ["signal.get_window('hann', 4)", "signal.get_window(('kaiser', 4.), 3)"],
        "medfilt": ["signal.medfilt(cuarray.array([2., 8., 0., 4., 1.]), 3)"],
        "medfilt2d": ["signal.medfilt2d(cuarray.array([[1., 9., 2.], [8., 3., 7.], [4., 6., 5.]]))"],
        "order_filter": ["x = cuarray.array([2., 8., 0., 4., 1.])",
                         "signal.order_filter(x, cuarray.ones(3), 2)   # the largest of 3"],
        "wiener": ["signal.wiener(cuarray.array([1., 2., 8., 3., 4.]), 3)"],
        "detrend": ["signal.detrend(cuarray.array([1., 2., 4., 4., 6.]), type='constant')"],
        "hilbert": ["x = cuarray.array([1., 0., -1., 0.])", "cuarray.abs(signal.hilbert(x))   # the envelope"],
        "hilbert2": ["cuarray.abs(signal.hilbert2(cuarray.array([[1., 2.], [3., 5.]])))"],
        "find_peaks": [_PK, "peaks, properties = signal.find_peaks(x)", "peaks",
                       "signal.find_peaks(x, height=2.5)[0]"],
        "peak_prominences": [_PK, "prominences, left, right = signal.peak_prominences(x, cuarray.array([1, 3]))",
                             "prominences"],
        "peak_widths": [_PK, "widths, heights, left, right = signal.peak_widths(x, cuarray.array([1, 3]))", "widths"],
        "argrelmax": [_PK, "signal.argrelmax(x)"],
        "argrelmin": [_PK, "signal.argrelmin(x)"],
        "argrelextrema": [_PK, "signal.argrelextrema(x, cuarray.greater)"],
        "welch": [_X8, "f, p = signal.welch(x, nperseg=4)", "f", "cuarray.round(p, 6)"],
        "periodogram": [_X8, "f, p = signal.periodogram(x)", "cuarray.round(p, 6)"],
        "csd": [_X8, "f, pxy = signal.csd(x, 2 * x, nperseg=4)", "cuarray.round(cuarray.abs(pxy), 6)"],
        "coherence": [_X8, "f, c = signal.coherence(x, 2 * x, nperseg=4, detrend=False)", "cuarray.round(c, 6)"],
        "spectrogram": [_X8, "f, t, sxx = signal.spectrogram(x, nperseg=4)", "t", "sxx.shape"],
        "stft": [_X8, "f, t, z = signal.stft(x, nperseg=4)", "z.shape"],
        "istft": [_X8, "f, t, z = signal.stft(x, nperseg=4)", "t, y = signal.istft(z, nperseg=4)",
                  "cuarray.round(y, 6)"],
        "lombscargle": ["t = cuarray.array([0., 1., 2., 3., 5., 6.])",
                        "y = cuarray.array([1., 3., 1., -1., 1., 3.])",
                        "signal.lombscargle(t, y, cuarray.array([0.5, 1., 1.5]))"],
        "resample": ["signal.resample(cuarray.array([1., 2., 5., 3.]), 8)"],
        "resample_poly": ["signal.resample_poly(cuarray.array([1., 2., 5., 3.]), 2, 1)"],
        "decimate": [_X8, "signal.decimate(x, 2, ftype='fir')"],
        "upfirdn": ["signal.upfirdn(cuarray.array([1., 1., 1.]), cuarray.array([1., 2., 3.]), up=2)"],
        "savgol_coeffs": ["signal.savgol_coeffs(5, 2)"],
        "savgol_filter": ["signal.savgol_filter(cuarray.array([2., 2., 5., 2., 1., 0., 1., 4., 9.]), 5, 2)"],
        "ShortTimeFFT": ["sft = signal.ShortTimeFFT(signal.get_window('hann', 4), hop=2, fs=1.)",
                         "sft.m_num, sft.hop", "sft.stft(cuarray.array([1., 2., 5., 3., 1., 4., 2., 6.])).shape"],
        "closest_STFT_dual_window": ["dual, alpha = signal.closest_STFT_dual_window(signal.get_window('hann', 4), 2)",
                                    "dual.shape"],
    },
    # The transforms (fft, rfft, ...) live in cuarray/fft/_scipy_backend.py, whose Examples come
    # with cuarray.fft's; these are the real-to-real transforms and the length helpers.
    "cuarray.scipy.fft": {
        "fht": ["a = cuarray.array([1., 2., 3., 4.])", "cuarray.round(fft.fht(a, dln=0.1, mu=0.5), 6)"],
        "ifht": ["a = cuarray.array([1., 2., 3., 4.])",
                 "cuarray.round(fft.ifht(fft.fht(a, dln=0.1, mu=0.5), dln=0.1, mu=0.5), 6)"],
        "fhtoffset": ["round(float(fft.fhtoffset(0.1, 0.5)), 6)"],
        "dct": [_R4, "fft.dct(x)", "fft.dct(x, type=3, norm='ortho')"],
        "idct": [_R4, "fft.idct(fft.dct(x))"],
        "dst": [_R4, "fft.dst(x)"],
        "idst": [_R4, "fft.idst(fft.dst(x))"],
        "dctn": [_R22, "fft.dctn(x)"],
        "idctn": [_R22, "fft.idctn(fft.dctn(x))"],
        "dstn": [_R22, "fft.dstn(x)"],
        "idstn": [_R22, "fft.idstn(fft.dstn(x))"],
        "next_fast_len": ["fft.next_fast_len(1021)", "fft.next_fast_len(1021, real=True)"],
        "prev_fast_len": ["fft.prev_fast_len(1021)"],
    },
    # A sparse matrix prints differently from SciPy's: its dense form, its nnz.
    "cuarray.sparse": {
        "csr_matrix": ["a = sparse.csr_matrix(cuarray.array([[1., 0.], [0., 2.]]))", "a.nnz",
                       "a @ cuarray.array([1., 1.])", "a.toarray()"],
        "csr_array": ["a = sparse.csr_array(cuarray.array([[1., 0.], [0., 2.]]))", "a.nnz", "(2 * a).toarray()"],
        "csc_matrix": ["a = sparse.csc_matrix(cuarray.array([[1., 0.], [3., 2.]]))", "a.indptr", "a.toarray()"],
        "csc_array": ["a = sparse.csc_array(cuarray.array([[1., 0.], [3., 2.]]))", "a.indices"],
        "coo_matrix": ["rows, cols = cuarray.array([0, 1]), cuarray.array([1, 0])",
                       "sparse.coo_matrix((cuarray.array([1., 2.]), (rows, cols)), shape=(2, 2)).toarray()"],
        "coo_array": ["rows, cols = cuarray.array([0, 1]), cuarray.array([1, 0])",
                      "sparse.coo_array((cuarray.array([1., 2.]), (rows, cols)), shape=(2, 2)).toarray()"],
        "dia_matrix": ["data, offsets = cuarray.array([[1., 2., 3.]]), cuarray.array([1])",
                       "sparse.dia_matrix((data, offsets), shape=(3, 3)).toarray()"],
        "dia_array": ["data, offsets = cuarray.array([[1., 2., 3.]]), cuarray.array([0])",
                      "sparse.dia_array((data, offsets), shape=(3, 3)).toarray()"],
        "bsr_array": ["a = sparse.bsr_array(cuarray.eye(4), blocksize=(2, 2))", "a.blocksize, a.indptr",
                      "a @ cuarray.array([1., 2., 3., 4.])"],
        "bsr_matrix": ["data = cuarray.arange(8.).reshape(2, 2, 2)",
                       "indices, indptr = cuarray.array([1, 0]), cuarray.array([0, 1, 2])",
                       "sparse.bsr_matrix((data, indices, indptr), shape=(4, 4)).toarray()"],
        "eye": ["sparse.eye(3, k=1).toarray()"],
        "eye_array": ["sparse.eye_array(2, format='csr').toarray()"],
        "identity": ["sparse.identity(2).toarray()"],
        "diags": ["sparse.diags([1., -2., 1.], [-1, 0, 1], shape=(3, 3)).toarray()"],
        "diags_array": ["sparse.diags_array([1., -2., 1.], offsets=[-1, 0, 1], shape=(3, 3)).toarray()"],
        "spdiags": ["data = cuarray.array([[1., 2., 3.], [4., 5., 6.]])",
                    "sparse.spdiags(data, [0, 1], 3, 3).toarray()"],
        "random": ["s = sparse.random(4, 5, density=0.25, format='csr')", "s.shape, s.nnz"],
        "random_array": ["s = sparse.random_array((4, 5), density=0.25, format='csr')", "s.shape, s.nnz"],
        "rand": ["s = sparse.rand(4, 5, density=0.25, format='csr')", "s.shape, s.nnz"],
        "kron": ["sparse.kron(sparse.eye(2), cuarray.array([[1., 2.], [3., 4.]])).toarray()"],
        "kronsum": ["a = sparse.csr_matrix(cuarray.array([[1., 2.], [3., 4.]]))",
                    "sparse.kronsum(a, sparse.identity(2)).toarray()"],
        "hstack": [_ROW, "sparse.hstack([a, a]).toarray()"],
        "vstack": [_ROW, "sparse.vstack([a, a]).toarray()"],
        "bmat": [_ROW, "sparse.bmat([[a, None], [None, a]]).toarray()"],
        "block_diag": [_ROW, "sparse.block_diag([a, a]).toarray()"],
        "find": ["rows, cols, values = sparse.find(sparse.csr_matrix(cuarray.array([[0., 3.], [4., 0.]])))",
                 "rows", "cols", "values"],
        "tril": ["sparse.tril(sparse.csr_matrix(cuarray.array([[1., 2.], [3., 4.]]))).toarray()"],
        "triu": ["sparse.triu(sparse.csr_matrix(cuarray.array([[1., 2.], [3., 4.]]))).toarray()"],
        "issparse": ["sparse.issparse(sparse.eye(2)), sparse.issparse(cuarray.eye(2))"],
        "isspmatrix": ["sparse.isspmatrix(sparse.csr_matrix(cuarray.eye(2))), sparse.isspmatrix(cuarray.eye(2))"],
        "isspmatrix_csr": ["sparse.isspmatrix_csr(sparse.csr_matrix(cuarray.eye(2)))"],
        "isspmatrix_csc": ["sparse.isspmatrix_csc(sparse.csr_matrix(cuarray.eye(2)))"],
        "isspmatrix_coo": ["sparse.isspmatrix_coo(sparse.coo_matrix(cuarray.eye(2)))"],
        "isspmatrix_dia": ["sparse.isspmatrix_dia(sparse.dia_matrix(cuarray.eye(2)))"],
        "isspmatrix_bsr": ["sparse.isspmatrix_bsr(sparse.bsr_matrix(cuarray.eye(2))), "
                           "sparse.isspmatrix_bsr(sparse.bsr_array(cuarray.eye(2)))"],
        "sparray": ["isinstance(sparse.csr_array(cuarray.eye(2)), sparse.sparray)"],
        "spmatrix": ["isinstance(sparse.csr_matrix(cuarray.eye(2)), sparse.spmatrix)"],
        "save_npz": _NPZ,
        "load_npz": _NPZ,
    },
    "cuarray.sparse.linalg": {
        "cg": ["from cuarray import sparse", _SPD, _SB, "x, info = splinalg.cg(a, b)",
               "cuarray.round(x, 4), int(info)"],
        "bicgstab": ["from cuarray import sparse", _SPD, _SB, "x, info = splinalg.bicgstab(a, b)",
                     "cuarray.round(x, 4), int(info)"],
        "gmres": ["from cuarray import sparse", _SPD, _SB, "x, info = splinalg.gmres(a, b)",
                  "cuarray.round(x, 4), int(info)"],
        "minres": ["from cuarray import sparse", _SPD, _SB, "x, info = splinalg.minres(a, b)",
                   "cuarray.round(x, 4), int(info)"],
        "lsqr": ["from cuarray import sparse", _SPD, _SB, "x = splinalg.lsqr(a, b)[0]", "cuarray.round(x, 4)"],
        "lsmr": ["from cuarray import sparse", _SPD, _SB, "x = splinalg.lsmr(a, b)[0]", "cuarray.round(x, 4)"],
        "spsolve_triangular": ["from cuarray import sparse",
                               "a = sparse.csr_matrix(cuarray.array([[2., 0.], [1., 4.]]))",
                               "splinalg.spsolve_triangular(a, cuarray.array([2., 9.]))"],
        "norm": ["from cuarray import sparse", _SPD, "round(float(splinalg.norm(a)), 6)", "splinalg.norm(a, axis=1)"],
        "eigsh": ["from cuarray import sparse", "a = sparse.diags([1., 2., 3., 4., 5., 6.]).tocsr()",
                  "w = splinalg.eigsh(a, k=2, return_eigenvectors=False)", "cuarray.round(cuarray.sort(w), 6)"],
        "svds": ["from cuarray import sparse", "a = sparse.diags([1., 2., 3., 4., 5., 6.]).tocsr()",
                 "s = splinalg.svds(a, k=2, return_singular_vectors=False)", "cuarray.round(cuarray.sort(s), 6)"],
        "LinearOperator": ["op = splinalg.LinearOperator((2, 2), matvec=lambda v: 2 * v)", "op.shape",
                           "op.matvec(cuarray.array([1., 2.]))"],
        "aslinearoperator": ["from cuarray import sparse", _SPD, "op = splinalg.aslinearoperator(a)",
                             "op.matvec(cuarray.array([1., 1.]))"],
        "cgs": ["from cuarray import sparse", _SPD, _SB, "x, info = splinalg.cgs(a, b)",
                "cuarray.round(x, 4), int(info)"],
        "matrix_power": ["from cuarray import sparse", "a = sparse.csr_matrix(cuarray.array([[1., 1.], [0., 1.]]))",
                         "splinalg.matrix_power(a, 3).toarray()"],
        "lobpcg": ["from cuarray import sparse", "a = sparse.diags([1., 2., 3., 4., 5., 6.]).tocsr()",
                   "w, v = splinalg.lobpcg(a, cuarray.ones((6, 1)), tol=1e-8, maxiter=50)",
                   "round(float(w[0]), 4)"],
        "spsolve": ["from cuarray import sparse", _SPD, _SB, "cuarray.round(splinalg.spsolve(a, b), 4)"],
        "factorized": ["from cuarray import sparse", _SPD, _SB, "solve = splinalg.factorized(a.tocsc())",
                       "cuarray.round(solve(b), 4)"],
        "splu": ["from cuarray import sparse", _SPD, _SB, "lu = splinalg.splu(a.tocsc())",
                 "cuarray.round(lu.solve(b), 4)"],
        "spilu": ["from cuarray import sparse", _SPD, _SB, "lu = splinalg.spilu(a.tocsc())",
                  "cuarray.round(lu.solve(b), 4)"],
        "SuperLU": ["from cuarray import sparse", _SPD, "lu = splinalg.splu(a.tocsc())",
                    "isinstance(lu, splinalg.SuperLU)"],
    },
}


def _load_standin():
    """docs/tools/examples_standin.py: `cuarray` standing for NumPy/SciPy, as the test runs it."""
    spec = importlib.util.spec_from_file_location("cuarray_docs_examples_standin",
                                                  os.path.join(ROOT, "docs", "tools", "examples_standin.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


AsNumPy = _load_standin().AsNumPy


def _check_stable(src, ns, text):
    """Warn where the printed answer would change if the GPU's floats differed from the host's by
    a few units in the last place (a value at a rounding boundary of the 8 printed digits)."""
    try:
        value = eval(compile(src, "<example>", "eval"), ns)
    except SyntaxError:
        return
    if isinstance(value, float) and not src.startswith("round("):
        print("float repr (17 digits), round it:", src, file=sys.stderr)
        return
    a = numpy.asarray(value) if isinstance(value, (numpy.ndarray, numpy.generic)) else None
    if a is None or a.dtype.kind not in "fc" or a.size == 0:
        return
    parts = (a.real, a.imag) if a.dtype.kind == "c" else (a,)
    for part in parts:
        # a zero among non-integers may be an exact zero here and 1e-17 (or -0.) on the GPU
        if (part == 0).any() and (part != numpy.round(part)).any() or numpy.signbit(part[part == 0]).any():
            print("check the zeros:", src, repr(a), file=sys.stderr)
    for f in (1 + 4e-15, 1 - 4e-15):
        if repr(a * f) != repr(a):
            print("fragile print:", src, repr(a), file=sys.stderr)
            return


def section(lines, indent="    ", namespace="cuarray"):
    """The Examples section (its lines, indented) with NumPy's (SciPy's) printed output."""
    ns = {"cuarray": AsNumPy("cuarray")}
    out = [indent + "Examples", indent + "--------", indent + ">>> import cuarray"]
    if namespace in HEADS:
        m = re.match(r"from (\S+) import (\w+)(?: as (\w+))?$", HEADS[namespace])
        ns[m[3] or m[2]] = AsNumPy(m[1] + "." + m[2])
        out.append(indent + ">>> " + HEADS[namespace])
    with warnings.catch_warnings(), numpy.printoptions(legacy=False):
        warnings.simplefilter("error")  # a deprecated call has no place in an example
        for src in lines:
            first, *rest = src.split("\n")
            out += [indent + ">>> " + first] + [indent + "... " + ln for ln in rest]
            src += "\n" if rest else ""
            m = re.match(r"from (cuarray\S*) import (\w+)(?: as (\w+))?$", src)
            if m:  # a second namespace's import (sparse.linalg's examples import sparse too)
                ns[m[3] or m[2]] = AsNumPy(m[1] + "." + m[2])
                continue
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                exec(compile(src, "<example>", "single"), ns)
            text = buf.getvalue().rstrip("\n")
            _check_stable(src, ns, text)
            if text:
                out += [indent + (ln.rstrip() or "<BLANKLINE>") for ln in text.split("\n")]
    return out


def write_ufunc_table():
    rows = []
    for name in sorted(UFUNCS):
        body = "\n".join(section(UFUNCS[name]))
        assert '"""' not in body and "\\" not in body, name
        rows.append('    "{}": """\n\n{}\n    """,\n'.format(name, body))
    with open(UFUNC_TABLE, "w") as f:
        f.write('"""The Examples section of each ufunc\'s docstring, by the ufunc\'s name: create_ufunc appends it.\n'
                "Written by `python -m scripts.docstring_examples ufuncs` (the input lines are there, the output is\n"
                'NumPy\'s): edit the lines there and run it, not this file."""\n\nEXAMPLES = {\n')
        f.writelines(rows)
        f.write("}\n")
    print("wrote", os.path.relpath(UFUNC_TABLE, ROOT), len(rows), "ufuncs")


def write_special_ufunc_table():
    rows = []
    for name in sorted(SPECIAL_UFUNCS):
        body = "\n".join(section(SPECIAL_UFUNCS[name], namespace="cuarray.scipy.special"))
        assert '"""' not in body and "\\" not in body, name
        rows.append('    "{}": """\n\n{}\n    """,\n'.format(name, body))
    # two halves, no file over 800 lines (tests/test_rules.py); _ufunc_examples.py merges them
    half = len(rows) // 2
    for part, (which, chunk) in enumerate((("the first half", rows[:half]), ("the second half", rows[half:])), 1):
        path = SPECIAL_UFUNC_TABLE.replace(".py", "_{}.py".format(part))
        with open(path, "w") as f:
            f.write('"""The Examples section of each special ufunc\'s docstring, by the ufunc\'s name ({} of the names,\n'
                    "in order): special_ufunc appends it. Written by `python -m scripts.docstring_examples special-ufuncs`\n"
                    "(the input lines are there, the output is SciPy's): edit the lines there and run it, not this "
                    "file.\"\"\"\n\nEXAMPLES = {{\n".format(which))
            f.writelines(chunk)
            f.write("}\n")
        print("wrote", os.path.relpath(path, ROOT), len(chunk), "ufuncs")


def _docstring_node(obj):
    """The file and the AST node of `obj`'s docstring literal, found by its qualified name (line
    numbers of loaded code go stale as the file is edited)."""
    obj = inspect.unwrap(obj)
    path = inspect.getsourcefile(obj)
    with open(path) as f:
        body = ast.parse(f.read()).body
    node = None
    for part in obj.__qualname__.split("."):
        found = [n for n in body if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name == part]
        if len(found) != 1:
            raise LookupError("{} definitions of {} in {}".format(len(found), obj.__qualname__, path))
        node = found[0]
        body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        return path, body[0]
    raise LookupError("no docstring literal for {}".format(obj.__qualname__))


def insert_routine_sections(names, namespace="cuarray"):
    module = importlib.import_module(namespace)
    table = ROUTINES if namespace == "cuarray" else SCIPY_ROUTINES[namespace]
    done = []
    for name in names:
        obj = getattr(module, name)
        if "\n    Examples\n    --------\n" in (obj.__doc__ or ""):
            continue
        path, expr = _docstring_node(obj)
        with open(path) as f:
            src = f.read().split("\n")
        indent = " " * expr.col_offset
        end = src[expr.end_lineno - 1]
        literal_end = expr.end_col_offset
        assert end[literal_end - 3:literal_end] == '"""', (name, end)
        head = end[:literal_end - 3].rstrip()
        tail = end[literal_end:]
        new = [] if not head.strip() else [head]
        new += [""] + section(table[name], indent, namespace) + [indent + '"""' + tail]
        src[expr.end_lineno - 1:expr.end_lineno] = new
        with open(path, "w") as f:
            f.write("\n".join(src))
        done.append(name)
    print("added", len(done), "sections:", " ".join(done))


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else ""
    if what == "ufuncs":
        write_ufunc_table()
    elif what == "special-ufuncs":
        write_special_ufunc_table()
    elif what == "routines":
        insert_routine_sections(sys.argv[2:] or list(ROUTINES))
    elif what in SCIPY_ROUTINES:  # e.g. `cuarray.scipy.linalg [names]`
        insert_routine_sections(sys.argv[2:] or list(SCIPY_ROUTINES[what]), what)
    else:
        sys.exit(__doc__)
