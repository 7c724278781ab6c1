"""Exponential integrals (SciPy "Other special functions"): exp1, expi, expn, sici and shichi, real
loops, written in templates/expint.cuh (float loops compute in double, as SciPy's do)."""

from ._ufunc import special_ufunc

_H = ("expint.cuh",)
exp1 = special_ufunc("exp1", 1, 1, ("f->f", "d->d"), "out0 = cuarray_special::exp1((double)in0)", _H)
expi = special_ufunc("expi", 1, 1, ("f->f", "d->d"), "out0 = cuarray_special::expi((double)in0)", _H)
expn = special_ufunc("expn", 2, 1, ("ld->d", "ff->f", "dd->d"),
                     "out0 = cuarray_special::expn((double)in0, (double)in1)", _H)
sici = special_ufunc("sici", 1, 2, ("f->ff", "d->dd"), "out0 = cuarray_special::sici_ufunc((double)in0, out1)", _H)
shichi = special_ufunc("shichi", 1, 2, ("f->ff", "d->dd"),
                       "out0 = cuarray_special::shichi_ufunc((double)in0, out1)", _H)
