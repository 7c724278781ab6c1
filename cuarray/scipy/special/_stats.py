"""The normal distribution (SciPy "Statistical functions"): ndtr, log_ndtr (templates/ndtr.cuh)
and ndtri (CUDA's normcdfinv). ndtr and log_ndtr compute their float loops in double, as SciPy's do."""

from ._ufunc import special_ufunc

_H = ("ndtr.cuh",)
ndtr = special_ufunc("ndtr", 1, 1, ("d->d", "f->f"), "out0 = cuarray_special::ndtr((double)in0)", _H)
log_ndtr = special_ufunc("log_ndtr", 1, 1, ("d->d", "f->f"), "out0 = cuarray_special::log_ndtr((double)in0)", _H)
ndtri = special_ufunc("ndtri", 1, 1, ("f->f", "d->d"), "out0 = cuarray_special::ndtri(in0)", _H)
