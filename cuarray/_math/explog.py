"""Exponents and logarithms (NumPy "Mathematical functions / Exponents and logarithms").

Real loops call CUDA's math library (float loops its single-precision functions); complex loops
call cuarray/complex_math.cuh through the same names.
"""

from .._core.ufunc import create_ufunc

exp = create_ufunc("exp", 1, 1, "out0 = exp(in0)")
expm1 = create_ufunc("expm1", 1, 1, "out0 = expm1(in0)")
exp2 = create_ufunc("exp2", 1, 1, "out0 = exp2(in0)")
log = create_ufunc("log", 1, 1, "out0 = log(in0)")
log10 = create_ufunc("log10", 1, 1, "out0 = log10(in0)")
log2 = create_ufunc("log2", 1, 1, "out0 = log2(in0)")
log1p = create_ufunc("log1p", 1, 1, "out0 = log1p(in0)")
logaddexp = create_ufunc("logaddexp", 2, 1, "out0 = cuarray::logaddexp(in0, in1)", identity=float("-inf"))
logaddexp2 = create_ufunc("logaddexp2", 2, 1, "out0 = cuarray::logaddexp2(in0, in1)", identity=float("-inf"))
