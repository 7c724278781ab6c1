"""Array contents (NumPy "Logic functions / Array contents"): isfinite, isinf, isnan.

Integers and bools are always finite; a complex value is NaN (inf) when either part is.
"""

from .._core.ufunc import create_ufunc

isfinite = create_ufunc("isfinite", 1, 1, "out0 = cuarray::isfinite(in0)")
isinf = create_ufunc("isinf", 1, 1, "out0 = cuarray::isinf(in0)")
isnan = create_ufunc("isnan", 1, 1, "out0 = cuarray::isnan(in0)")
