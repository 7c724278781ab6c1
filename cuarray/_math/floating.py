"""Floating point routines (NumPy "Mathematical functions / Floating point routines").

float16 `nextafter` and `spacing` step through float16's own values (ops.cuh works on the half's
bits); the other float16 loops compute in float and round once, as NumPy does.
"""

from .._core.ufunc import create_ufunc

signbit = create_ufunc("signbit", 1, 1, "out0 = signbit(in0)")
copysign = create_ufunc("copysign", 2, 1, "out0 = copysign(in0, in1)")
nextafter = create_ufunc("nextafter", 2, 1, {
    "ee->e": "out0 = cuarray::nextafter_half(in0, in1)",
    "default": "out0 = cuarray::nextafter(in0, in1)",
})
spacing = create_ufunc("spacing", 1, 1, {
    "e->e": "out0 = cuarray::spacing_half(in0)",
    "default": "out0 = cuarray::spacing(in0)",
})
modf = create_ufunc("modf", 1, 2, "out0 = cuarray::modf(in0, out1)")
ldexp = create_ufunc("ldexp", 2, 1, "out0 = cuarray::ldexp(in0, in1)")
frexp = create_ufunc("frexp", 1, 2, "out0 = cuarray::frexp(in0, out1)")
