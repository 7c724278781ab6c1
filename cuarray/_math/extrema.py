"""Extrema finding (NumPy "Mathematical functions / Extrema finding"), elementwise forms.

`maximum`/`minimum` propagate NaN; `fmax`/`fmin` ignore it. Complex values compare
lexicographically. (`max`, `amax`, `nanmax`... are reductions: the reductions issue.)
"""

from .._core.ufunc import create_ufunc
from .extrema_nan import first_nan

maximum = create_ufunc("maximum", 2, 1, "out0 = cuarray::maximum(in0, in1)", reduce_finish=first_nan)
minimum = create_ufunc("minimum", 2, 1, "out0 = cuarray::minimum(in0, in1)", reduce_finish=first_nan)
fmax = create_ufunc("fmax", 2, 1, "out0 = cuarray::fmax(in0, in1)")
fmin = create_ufunc("fmin", 2, 1, "out0 = cuarray::fmin(in0, in1)")
