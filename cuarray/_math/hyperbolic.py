"""Hyperbolic functions (NumPy "Mathematical functions / Hyperbolic functions").

`asinh`, `acosh`, `atanh` are NumPy 2's array-API aliases of the `arc*` ufuncs.
"""

from .._core.ufunc import create_ufunc

sinh = create_ufunc("sinh", 1, 1, "out0 = sinh(in0)")
cosh = create_ufunc("cosh", 1, 1, "out0 = cosh(in0)")
tanh = create_ufunc("tanh", 1, 1, "out0 = tanh(in0)")
arcsinh = create_ufunc("arcsinh", 1, 1, "out0 = asinh(in0)")
arccosh = create_ufunc("arccosh", 1, 1, "out0 = acosh(in0)")
arctanh = create_ufunc("arctanh", 1, 1, "out0 = atanh(in0)")

asinh = arcsinh
acosh = arccosh
atanh = arctanh
