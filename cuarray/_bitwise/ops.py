"""Bit-wise operations (NumPy "Bit-wise operations": elementwise bit operations).

Shifts by a negative count or by the bit width or more give NumPy's values (0, or -1 for a right
shift of a negative number) instead of C's undefined behaviour. `bitwise_invert`,
`bitwise_left_shift` and `bitwise_right_shift` are NumPy 2's array-API aliases.
"""

from .._core.ufunc import create_ufunc

bitwise_and = create_ufunc("bitwise_and", 2, 1, "out0 = in0 & in1", identity=-1)
bitwise_or = create_ufunc("bitwise_or", 2, 1, "out0 = in0 | in1", identity=0)
bitwise_xor = create_ufunc("bitwise_xor", 2, 1, "out0 = in0 ^ in1", identity=0)
invert = create_ufunc("invert", 1, 1, {"bool": "out0 = !in0", "default": "out0 = ~in0"})
bitwise_not = invert
left_shift = create_ufunc("left_shift", 2, 1, "out0 = cuarray::left_shift(in0, in1)")
right_shift = create_ufunc("right_shift", 2, 1, "out0 = cuarray::right_shift(in0, in1)")
bitwise_count = create_ufunc("bitwise_count", 1, 1, "out0 = cuarray::bitwise_count(in0)")

bitwise_invert = invert
bitwise_left_shift = left_shift
bitwise_right_shift = right_shift
