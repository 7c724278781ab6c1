"""Bessel functions (SciPy "Bessel functions"): j0, j1, y0, y1, yn (CUDA's, on the host the C
library's), i0, i1 (CUDA's cyl_bessel_i0/i1) and the scaled i0e, i1e (templates/bessel.cuh; their float
loops in float, templates/bessel_float.cuh). The others compute their float loops in double, as
SciPy's do. Real-order iv, ive, kv, kve,
kn and k0, k1, k0e, k1e, and jv, yv, jve, yve, jn by Temme's method (templates/bessel_ik.cuh,
templates/bessel_jy.cuh; SciPy uses AMOS and Cephes); the spherical Bessel functions
spherical_jn/yn/in/kn from them (their complex loops over AMOS: templates/csph_bessel.cuh), and
the Struve functions struve and modstruve (templates/struve.cuh). jve and yve equal jv and yv for
real arguments (their scaling is by the imaginary part). The complex loops of iv, ive, kv, kve, jv,
jve, jn, yv, yve and hankel1, hankel1e, hankel2, hankel2e (real order, complex z) are SciPy's
algorithm, AMOS (templates/cbessel.cuh over templates/amos_*.cuh, ported from xsf). wright_bessel,
Wright's generalized Bessel function, by its series of positive terms (templates/wright.cuh)."""

import numpy

from ..._core.host_input import as_array
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
# i0e and i1e: the float32 loops evaluate in float (templates/bessel_float.cuh: within 2 ulp of
# SciPy's double evaluation; in double they were bound by FP64 throughput at 0.67 of the copy
# rate). I0E_DOUBLE / I1E_DOUBLE are the double evaluations, for scripts/perf/special_float_variants.py.
_HF = ("bessel.cuh", "bessel_float.cuh")
I0E_DOUBLE = "out0 = cuarray_special::i0e((double)in0)"
I1E_DOUBLE = "out0 = cuarray_special::i1e((double)in0)"
i0e = special_ufunc("i0e", 1, 1, _FD, {"f->f": "out0 = cuarray_special::i0e_float(in0)", "d->d": I0E_DOUBLE}, _HF)
i1e = special_ufunc("i1e", 1, 1, _FD, {"f->f": "out0 = cuarray_special::i1e_float(in0)", "d->d": I1E_DOUBLE}, _HF)

_IK = ("bessel_ik.cuh",)
_FFD = ("ff->f", "dd->d")
_IK2 = "out0 = cuarray_special::{}((double)in0, (double)in1)"
# The complex loops (real order, complex z): AMOS, as SciPy's (templates/cbessel.cuh over amos_*.cuh).
_CB = ("cbessel.cuh",)
_FFDC = _FFD + ("fF->F", "dD->D")


def _real_and_complex(name, real_name, headers, complex_name=None):
    """SciPy's loops of a Bessel function of real order: ff, dd (Temme's, `real_name`), fF, dD (AMOS,
    `complex_name`_c)."""
    cplx = "out0 = cuarray_special::{}_c((double)in0, in1)".format(complex_name or name)
    ops = {"ff->f": _IK2.format(real_name), "dd->d": _IK2.format(real_name), "fF->F": cplx, "dD->D": cplx}
    return special_ufunc(name, 2, 1, _FFDC, ops, headers + _CB)


iv = _real_and_complex("iv", "iv", _IK)
ive = _real_and_complex("ive", "ive", _IK)
kv = _real_and_complex("kv", "kv", _IK)
kve = _real_and_complex("kve", "kve", _IK)
kn = special_ufunc("kn", 2, 1, ("ld->d",) + _FFD, _IK2.format("kn"), _IK)
k0 = special_ufunc("k0", 1, 1, _FD, "out0 = cuarray_special::kv(0.0, (double)in0)", _IK)
k1 = special_ufunc("k1", 1, 1, _FD, "out0 = cuarray_special::kv(1.0, (double)in0)", _IK)
k0e = special_ufunc("k0e", 1, 1, _FD, "out0 = cuarray_special::kve(0.0, (double)in0)", _IK)
k1e = special_ufunc("k1e", 1, 1, _FD, "out0 = cuarray_special::kve(1.0, (double)in0)", _IK)

_JY = ("bessel_jy.cuh",)
jv = _real_and_complex("jv", "jv", _JY)
yv = _real_and_complex("yv", "yv", _JY)
jve = _real_and_complex("jve", "jv", _JY)
yve = _real_and_complex("yve", "yv", _JY)
_HK = ("fF->F", "dD->D")
hankel1 = special_ufunc("hankel1", 2, 1, _HK, "out0 = cuarray_special::hankel1_c((double)in0, in1)", _CB)
hankel1e = special_ufunc("hankel1e", 2, 1, _HK, "out0 = cuarray_special::hankel1e_c((double)in0, in1)", _CB)
hankel2 = special_ufunc("hankel2", 2, 1, _HK, "out0 = cuarray_special::hankel2_c((double)in0, in1)", _CB)
hankel2e = special_ufunc("hankel2e", 2, 1, _HK, "out0 = cuarray_special::hankel2e_c((double)in0, in1)", _CB)
jn = _real_and_complex("jn", "jv", _JY, "jv")

# SciPy's private ufuncs behind spherical_jn / spherical_yn (same names: SciPy's functions called
# on cuarray arrays reach them through __array_ufunc__). The real loops here (bessel_jy.cuh,
# bessel_ik.cuh); the complex ones SciPy 1.18's (templates/csph_bessel.cuh: xsf's formulas over
# AMOS, with the reflection on the negative real axis).
_SPH = ("ld->d", "lD->D", "lf->f", "lF->F")  # SciPy 1.17's order (1.18: lf, ld, lF, lD)
_SPH_C = ("csph_bessel.cuh",)


def _spherical(name, real_headers):
    ops = {"ld->d": _IK2.format(name), "lf->f": _IK2.format(name),
           "lD->D": "out0 = cuarray_special::{}_c(in0, in1)".format(name)}
    ops["lF->F"] = ops["lD->D"]
    return special_ufunc("_" + name, 2, 1, _SPH, ops, real_headers + _SPH_C)


_spherical_jn = _spherical("spherical_jn", _JY)
_spherical_yn = _spherical("spherical_yn", _JY)
_spherical_jn_d = _spherical("spherical_jn_d", _JY)
_spherical_yn_d = _spherical("spherical_yn_d", _JY)
_spherical_in = _spherical("spherical_in", _IK)
_spherical_kn = _spherical("spherical_kn", _IK)
_spherical_in_d = _spherical("spherical_in_d", _IK)
_spherical_kn_d = _spherical("spherical_kn_d", _IK)


def _order(n):
    # SciPy: numpy.asarray(n, dtype=long) (floats truncate)
    return as_array(n, "spherical_jn").astype(numpy.int64)


def spherical_jn(n, z, derivative=False):
    """See `scipy.special.spherical_jn`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> x = cuarray.array([1., 2.])
    >>> special.spherical_jn(1, x)
    array([0.30116868, 0.43539777])
    >>> special.spherical_jn(1, x, derivative=True)
    array([0.23913363, 0.01925094])
    >>> special.spherical_jn(1, cuarray.array([1. + 1.j]))
    array([0.3950658+0.26208507j])
    """
    return (_spherical_jn_d if derivative else _spherical_jn)(_order(n), z)


def spherical_yn(n, z, derivative=False):
    """See `scipy.special.spherical_yn`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.spherical_yn(1, cuarray.array([1., 2.]))
    array([-1.38177329, -0.350612  ])
    >>> special.spherical_yn(1, cuarray.array([1. + 1.j]))
    array([-0.4722619+0.74861185j])
    """
    return (_spherical_yn_d if derivative else _spherical_yn)(_order(n), z)


def spherical_in(n, z, derivative=False):
    """See `scipy.special.spherical_in`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.spherical_in(1, cuarray.array([1., 2.]))
    array([0.36787944, 0.97438274])
    >>> special.spherical_in(1, cuarray.array([1. + 1.j]))
    array([0.26208507+0.3950658j])
    """
    return (_spherical_in_d if derivative else _spherical_in)(_order(n), z)


def spherical_kn(n, z, derivative=False):
    """See `scipy.special.spherical_kn`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.spherical_kn(1, cuarray.array([1., 2.]))
    array([1.15572735, 0.15943812])
    >>> special.spherical_kn(1, cuarray.array([1. + 1.j]))
    array([-0.33014498-0.55534883j])
    """
    return (_spherical_kn_d if derivative else _spherical_kn)(_order(n), z)

wright_bessel = special_ufunc("wright_bessel", 3, 1, ("ddd->d", "fff->f"),
                              "out0 = cuarray_special::wright_bessel((double)in0, (double)in1, (double)in2)",
                              ("wright.cuh",))

# Struve functions (templates/struve.cuh: SciPy's three evaluations with error estimates)
_ST = ("struve.cuh",)
struve = special_ufunc("struve", 2, 1, ("dd->d", "ff->f"), _IK2.format("struve_h"), _ST)
modstruve = special_ufunc("modstruve", 2, 1, ("dd->d", "ff->f"), _IK2.format("struve_l"), _ST)
