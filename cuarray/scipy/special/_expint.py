"""Exponential integrals (SciPy "Other special functions"): exp1 and expi, real loops, written in
templates/expint.cuh (float loops compute in double, as SciPy's do)."""

from ._ufunc import special_ufunc

_H = ("expint.cuh",)
exp1 = special_ufunc("exp1", 1, 1, ("f->f", "d->d"), "out0 = cuarray_special::exp1((double)in0)", _H)
expi = special_ufunc("expi", 1, 1, ("f->f", "d->d"), "out0 = cuarray_special::expi((double)in0)", _H)
