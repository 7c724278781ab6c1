"""Comparison (NumPy "Logic functions / Comparison"), the elementwise ufuncs.

int64 against uint64 compares the true values (NumPy's 'qQ->?' loops); complex numbers compare
lexicographically with NumPy's NaN rule (ops.cuh).
"""

from .._core.ufunc import create_ufunc

greater = create_ufunc("greater", 2, 1, "out0 = cuarray::greater(in0, in1)")
greater_equal = create_ufunc("greater_equal", 2, 1, "out0 = cuarray::greater_equal(in0, in1)")
less = create_ufunc("less", 2, 1, "out0 = cuarray::less(in0, in1)")
less_equal = create_ufunc("less_equal", 2, 1, "out0 = cuarray::less_equal(in0, in1)")
equal = create_ufunc("equal", 2, 1, "out0 = cuarray::equal(in0, in1)")
not_equal = create_ufunc("not_equal", 2, 1, "out0 = cuarray::not_equal(in0, in1)")
