"""The zeta functions (SciPy "Other special functions" and "Gamma and related functions"): zeta
(Riemann's, or Hurwitz's with `q`), zetac, and polygamma, on templates/zeta.cuh. SciPy's `zeta` and
`polygamma` are Python functions over private ufuncs; so are ours (`scipy.special.zeta(gpu_array)`
reaches `_riemann_zeta`/`_zeta` here by those ufuncs' names)."""

from __future__ import annotations

from ..._core.host_input import as_array
from ._ufunc import special_ufunc

_H = ("zeta.cuh",)
_zeta = special_ufunc("_zeta", 2, 1, ("ff->f", "dd->d"),
                      "out0 = cuarray_special::hurwitz_zeta((double)in0, (double)in1)", _H)
_riemann_zeta = special_ufunc("_riemann_zeta", 1, 1, ("d->d", "f->f"),
                              "out0 = cuarray_special::riemann_zeta((double)in0)", _H)
zetac = special_ufunc("zetac", 1, 1, ("d->d", "f->f"), "out0 = cuarray_special::zetac((double)in0)", _H)
# polygamma as one ufunc: SciPy's where(n == 0, psi(x), (-1)^(n+1) gamma(n+1) zeta(n+1, x)).
_polygamma = special_ufunc("_polygamma", 2, 1, ("ff->f", "dd->d"),
                           "out0 = cuarray_special::polygamma((double)in0, (double)in1)", _H)


def zeta(x, q=None, out=None):
    """See `scipy.special.zeta` (real arguments only).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.zeta(cuarray.array([2., 4.]))
    array([1.64493407, 1.08232323])
    >>> special.zeta(2., cuarray.array([1., 2.]))   # Hurwitz
    array([1.64493407, 0.64493407])
    """
    if q is None:
        return _riemann_zeta(x, out=out)
    return _zeta(x, q, out=out)


def polygamma(n, x):
    """See `scipy.special.polygamma`. Like SciPy, both arguments become arrays first (a Python
    int `n` is int64, so a float32 `x` gives float64).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.polygamma(1, cuarray.array([1., 2.]))
    array([1.64493407, 0.64493407])
    """
    return _polygamma(as_array(n, "polygamma"), as_array(x, "polygamma"))
