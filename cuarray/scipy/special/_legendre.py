"""Legendre functions (SciPy "Legendre functions"): lpmv, the associated Legendre function of
integer order and real degree (templates/legendre.cuh: Zhang & Jin's case structure, with the
order recurrence where their degree recurrence is unstable). Float loops compute in double, as
SciPy's do."""

from ._ufunc import special_ufunc

lpmv = special_ufunc("lpmv", 3, 1, ("fff->f", "ddd->d"),
                     "out0 = cuarray_special::lpmv((double)in0, (double)in1, (double)in2)", ("legendre.cuh",))
