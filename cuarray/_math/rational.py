"""Rational routines (NumPy "Mathematical functions / Rational routines"): gcd and lcm of integers.

Both work on |a|, |b| in the unsigned type and wrap back, so the int MIN cases give NumPy's values.
"""

from .._core.ufunc import create_ufunc

gcd = create_ufunc("gcd", 2, 1, "out0 = cuarray::gcd(in0, in1)", identity=0)
lcm = create_ufunc("lcm", 2, 1, "out0 = cuarray::lcm(in0, in1)")
