"""SciPy's "Statistical functions": the normal distribution - ndtr, log_ndtr (templates/ndtr.cuh)
and ndtri (CUDA's normcdfinv) - and the distribution functions built on the incomplete gamma
function (gdtr*, chdtr*, pdtr*: templates/igam.cuh) and the incomplete beta function (bdtr*,
fdtr*, nbdtr*, stdtr*: templates/incbet.cuh), and kolmogorov, smirnov and their inverses
(templates/kolmogorov.cuh), and Owen's T function owens_t (templates/owens.cuh). All but ndtri
compute their float loops in double, as SciPy's do. The integer-count loops ('dld->d', 'lld->d', 'ld->d') are SciPy's; its float loops truncate k and n to
integers, and so do ours."""

from ._ufunc import real_and_complex_ufunc, special_ufunc

_H = ("ndtr.cuh",)
_HC = ("ndtr.cuh", "faddeeva.cuh")  # the complex loops: on the Faddeeva function
ndtr = real_and_complex_ufunc("ndtr", 1, ("d->d", "f->f"), "out0 = cuarray_special::ndtr((double)in0)", _HC)
log_ndtr = real_and_complex_ufunc("log_ndtr", 1, ("d->d", "f->f"), "out0 = cuarray_special::log_ndtr((double)in0)", _HC)
ndtri = special_ufunc("ndtri", 1, 1, ("f->f", "d->d"), "out0 = cuarray_special::ndtri(in0)", _H)

_2 = "out0 = cuarray_special::{}((double)in0, (double)in1)"
_3 = "out0 = cuarray_special::{}((double)in0, (double)in1, (double)in2)"
_FF = ("ff->f", "dd->d")
_FFF = ("fff->f", "ddd->d")

_I = ("igam.cuh",)
gdtr = special_ufunc("gdtr", 3, 1, _FFF, _3.format("gdtr"), _I)
gdtrc = special_ufunc("gdtrc", 3, 1, _FFF, _3.format("gdtrc"), _I)
chdtr = special_ufunc("chdtr", 2, 1, _FF, _2.format("chdtr"), _I)
chdtrc = special_ufunc("chdtrc", 2, 1, _FF, _2.format("chdtrc"), _I)
chdtri = special_ufunc("chdtri", 2, 1, _FF, _2.format("chdtri"), _I)
pdtr = special_ufunc("pdtr", 2, 1, _FF, _2.format("pdtr"), _I)
pdtrc = special_ufunc("pdtrc", 2, 1, _FF, _2.format("pdtrc"), _I)
pdtri = special_ufunc("pdtri", 2, 1, ("ld->d",) + _FF, _2.format("pdtri"), _I)

_IB = ("incbet.cuh",)
_BD = ("fff->f", "dld->d", "ddd->d")
bdtr = special_ufunc("bdtr", 3, 1, _BD, _3.format("bdtr"), _IB)
bdtrc = special_ufunc("bdtrc", 3, 1, _BD, _3.format("bdtrc"), _IB)
bdtri = special_ufunc("bdtri", 3, 1, _BD, _3.format("bdtri"), _IB)
fdtr = special_ufunc("fdtr", 3, 1, _FFF, _3.format("fdtr"), _IB)
fdtrc = special_ufunc("fdtrc", 3, 1, _FFF, _3.format("fdtrc"), _IB)
fdtri = special_ufunc("fdtri", 3, 1, _FFF, _3.format("fdtri"), _IB)
_NB = ("lld->d", "fff->f", "ddd->d")
nbdtr = special_ufunc("nbdtr", 3, 1, _NB, _3.format("nbdtr"), _IB)
nbdtrc = special_ufunc("nbdtrc", 3, 1, _NB, _3.format("nbdtrc"), _IB)
nbdtri = special_ufunc("nbdtri", 3, 1, _NB, _3.format("nbdtri"), _IB)
stdtr = special_ufunc("stdtr", 2, 1, _FF, _2.format("stdtr"), _IB)
stdtrit = special_ufunc("stdtrit", 2, 1, _FF, _2.format("stdtrit"), _IB)

_K = ("kolmogorov.cuh",)
kolmogorov = special_ufunc("kolmogorov", 1, 1, ("f->f", "d->d"), "out0 = cuarray_special::kolmogorov((double)in0)", _K)
smirnov = special_ufunc("smirnov", 2, 1, ("ld->d",) + _FF, _2.format("smirnov"), _K)
kolmogi = special_ufunc("kolmogi", 1, 1, ("f->f", "d->d"), "out0 = cuarray_special::kolmogi((double)in0)", _K)
smirnovi = special_ufunc("smirnovi", 2, 1, ("ld->d",) + _FF, _2.format("smirnovi"), _K)

owens_t = special_ufunc("owens_t", 2, 1, _FF, _2.format("owens_t"), ("owens.cuh",))
