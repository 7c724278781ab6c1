"""Array contents (NumPy "Logic functions / Array contents"): isfinite, isinf, isnan, isnat.

Integers and bools are always finite; a complex value is NaN (inf) when either part is.
isnat takes datetime64/timedelta64 only (its loops are cuarray/_core/datetimes.py's, as are
isfinite's and isinf's on those dtypes).
"""

from .._core.ufunc import create_ufunc

isfinite = create_ufunc("isfinite", 1, 1, "out0 = cuarray::isfinite(in0)")
isinf = create_ufunc("isinf", 1, 1, "out0 = cuarray::isinf(in0)")
isnan = create_ufunc("isnan", 1, 1, "out0 = cuarray::isnan(in0)")
isnat = create_ufunc("isnat", 1, 1, "out0 = cuarray::dt::isnat(in0)")
