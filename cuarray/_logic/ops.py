"""Logical operations (NumPy "Logic functions / Logical operations").

Any value is true when non-zero (complex: either part non-zero; NaN is true), as in NumPy.
"""

from .._core.ufunc import create_ufunc

logical_and = create_ufunc("logical_and", 2, 1, "out0 = cuarray::cast<bool>(in0) && cuarray::cast<bool>(in1)",
                           identity=True)
logical_or = create_ufunc("logical_or", 2, 1, "out0 = cuarray::cast<bool>(in0) || cuarray::cast<bool>(in1)",
                          identity=False)
logical_xor = create_ufunc("logical_xor", 2, 1, "out0 = cuarray::cast<bool>(in0) != cuarray::cast<bool>(in1)",
                           identity=False)
logical_not = create_ufunc("logical_not", 1, 1, "out0 = !cuarray::cast<bool>(in0)")
