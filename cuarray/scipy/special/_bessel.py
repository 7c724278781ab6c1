"""Bessel functions (SciPy "Bessel functions"): j0, j1, y0, y1, yn (CUDA's, on the host the C
library's), i0, i1 (CUDA's cyl_bessel_i0/i1) and the scaled i0e, i1e (templates/bessel.cuh).
All but i0/i1 compute their float loops in double, as SciPy's do."""

from ._ufunc import special_ufunc

_H = ("bessel.cuh",)
_FD = ("d->d", "f->f")
j0 = special_ufunc("j0", 1, 1, _FD, "out0 = cuarray_special::j0((double)in0)", _H)
j1 = special_ufunc("j1", 1, 1, _FD, "out0 = cuarray_special::j1((double)in0)", _H)
y0 = special_ufunc("y0", 1, 1, _FD, "out0 = cuarray_special::y0((double)in0)", _H)
y1 = special_ufunc("y1", 1, 1, _FD, "out0 = cuarray_special::y1((double)in0)", _H)
yn = special_ufunc("yn", 2, 1, ("ld->d", "ff->f", "dd->d"), {
    "ld->d": "out0 = cuarray_special::yn(in0, in1)",
    "default": "out0 = cuarray_special::yn_real((double)in0, (double)in1)",
}, _H)
i0 = special_ufunc("i0", 1, 1, _FD, "out0 = cuarray_special::i0(in0)", _H)
i1 = special_ufunc("i1", 1, 1, _FD, "out0 = cuarray_special::i1(in0)", _H)
i0e = special_ufunc("i0e", 1, 1, _FD, "out0 = cuarray_special::i0e((double)in0)", _H)
i1e = special_ufunc("i1e", 1, 1, _FD, "out0 = cuarray_special::i1e((double)in0)", _H)
