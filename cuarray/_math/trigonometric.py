"""Trigonometric functions (NumPy "Mathematical functions / Trigonometric functions").

The `arc*` names are NumPy's; the C functions are C's (`asin`), for real and complex alike.
`acos`, `asin`, `atan`, `atan2` are NumPy 2's array-API aliases (the same ufunc objects).
"""

from .._core.ufunc import create_ufunc

sin = create_ufunc("sin", 1, 1, "out0 = sin(in0)")
cos = create_ufunc("cos", 1, 1, "out0 = cos(in0)")
tan = create_ufunc("tan", 1, 1, "out0 = tan(in0)")
arcsin = create_ufunc("arcsin", 1, 1, "out0 = asin(in0)")
arccos = create_ufunc("arccos", 1, 1, "out0 = acos(in0)")
arctan = create_ufunc("arctan", 1, 1, "out0 = atan(in0)")
arctan2 = create_ufunc("arctan2", 2, 1, "out0 = atan2(in0, in1)")
hypot = create_ufunc("hypot", 2, 1, "out0 = cuarray::hypot(in0, in1)", identity=0)
deg2rad = create_ufunc("deg2rad", 1, 1, "out0 = cuarray::deg2rad(in0)")
rad2deg = create_ufunc("rad2deg", 1, 1, "out0 = cuarray::rad2deg(in0)")
degrees = create_ufunc("degrees", 1, 1, "out0 = cuarray::rad2deg(in0)")
radians = create_ufunc("radians", 1, 1, "out0 = cuarray::deg2rad(in0)")

asin = arcsin
acos = arccos
atan = arctan
atan2 = arctan2
