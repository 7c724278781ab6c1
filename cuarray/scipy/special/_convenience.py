"""Convenience functions (SciPy "Convenience functions"; templates/convenience.cuh). Where SciPy's
float32 loop computes in double and rounds once, ours does too (`double=True`). cbrt, exp2,
exp10, expm1 and log1p are CUDA's functions under SciPy's loops (float32 for float32 and
float16 input, float64 otherwise), which differ from NumPy's ufuncs of the same names (these
have float16 loops): `cuarray.scipy.special.exp2(int8_array)` is float32, like SciPy's. The
complex loops of expm1, log1p, xlogy and xlog1py are SciPy's algorithms
(templates/complex_elementary.cuh)."""

from ._ufunc import real_and_complex_ufunc, special_ufunc

_H = ("convenience.cuh",)
_FD = ("d->d", "f->f")
_FD2 = ("ff->f", "dd->d")


def _unary(name, fn, loops=_FD, double=False):
    arg = "(double)in0" if double else "in0"
    return special_ufunc(name, 1, 1, loops, "out0 = cuarray_special::{}({})".format(fn, arg), _H)


def _binary(name, fn, loops=_FD2, double=False):
    args = "(double)in0, (double)in1" if double else "in0, in1"
    return special_ufunc(name, 2, 1, loops, "out0 = cuarray_special::{}({})".format(fn, args), _H)


expit = _unary("expit", "expit")
logit = _unary("logit", "logit")
log_expit = _unary("log_expit", "log_expit")
_C = ("convenience.cuh", "complex_elementary.cuh")


xlogy = real_and_complex_ufunc("xlogy", 2, ("dd->d", "ff->f"), "out0 = cuarray_special::xlogy(in0, in1)", _C)
xlog1py = real_and_complex_ufunc("xlog1py", 2, ("dd->d", "ff->f"), "out0 = cuarray_special::xlog1py(in0, in1)", _C)
entr = _unary("entr", "entr", ("f->f", "d->d"))
rel_entr = _binary("rel_entr", "rel_entr", double=True)
kl_div = _binary("kl_div", "kl_div", double=True)
huber = _binary("huber", "huber", double=True)
pseudo_huber = _binary("pseudo_huber", "pseudo_huber", double=True)
cbrt = special_ufunc("cbrt", 1, 1, _FD, "out0 = cbrt(in0)", _H)
exp2 = special_ufunc("exp2", 1, 1, _FD, "out0 = exp2(in0)", _H)
exp10 = _unary("exp10", "exp10")
expm1 = real_and_complex_ufunc("expm1", 1, _FD, "out0 = expm1(in0)", _C)
log1p = real_and_complex_ufunc("log1p", 1, _FD, "out0 = log1p(in0)", _C)
cosm1 = _unary("cosm1", "cosm1", double=True)
radian = special_ufunc("radian", 3, 1, ("ddd->d", "fff->f"), "out0 = cuarray_special::radian(in0, in1, in2)", _H)
cosdg = _unary("cosdg", "cosdg", double=True)
sindg = _unary("sindg", "sindg", double=True)
tandg = _unary("tandg", "tandg", double=True)
cotdg = _unary("cotdg", "cotdg", double=True)
round = _unary("round", "round_even", ("f->f", "d->d"))  # noqa: A001 (SciPy's name)
boxcox = _binary("boxcox", "boxcox", double=True)
boxcox1p = _binary("boxcox1p", "boxcox1p", double=True)
inv_boxcox = _binary("inv_boxcox", "inv_boxcox", double=True)
inv_boxcox1p = _binary("inv_boxcox1p", "inv_boxcox1p", double=True)
exprel = _unary("exprel", "exprel", double=True)
