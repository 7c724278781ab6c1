"""Elliptic functions and integrals (SciPy "Elliptic functions and integrals"): ellipk, ellipkm1,
ellipe, ellipkinc, ellipeinc and ellipj (templates/ellip.cuh: AGM, Carlson's R_F/R_D, Landen).
Float loops compute in double, as SciPy's do."""

from ._ufunc import special_ufunc

_H = ("ellip.cuh",)
_FD = ("d->d", "f->f")
ellipk = special_ufunc("ellipk", 1, 1, _FD, "out0 = cuarray_special::ellipk((double)in0)", _H)
ellipkm1 = special_ufunc("ellipkm1", 1, 1, _FD, "out0 = cuarray_special::ellipkm1((double)in0)", _H)
ellipe = special_ufunc("ellipe", 1, 1, _FD, "out0 = cuarray_special::ellipe((double)in0)", _H)
ellipkinc = special_ufunc("ellipkinc", 2, 1, ("dd->d", "ff->f"),
                          "out0 = cuarray_special::ellipkinc((double)in0, (double)in1)", _H)
ellipeinc = special_ufunc("ellipeinc", 2, 1, ("dd->d", "ff->f"),
                          "out0 = cuarray_special::ellipeinc((double)in0, (double)in1)", _H)
ellipj = special_ufunc("ellipj", 2, 4, ("dd->dddd", "ff->ffff"),
                       "out0 = cuarray_special::ellipj_ufunc((double)in0, (double)in1, out1, out2, out3)", _H)
