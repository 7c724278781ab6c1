"""The Lambert W function (SciPy "Other special functions"): lambertw(z, k=0, tol=1e-8), complex,
over SciPy's private ufunc _lambertw (loops 'Dld->D', 'Flf->F': z, the branch k as int64, tol;
templates/lambertw.cuh: SciPy's initial guesses and Halley's iteration)."""

import numpy

from ..._core.host_input import as_array
from ._ufunc import special_ufunc

_lambertw = special_ufunc("_lambertw", 3, 1, ("Dld->D", "Flf->F"),
                          "out0 = cuarray_special::lambertw(in0, (long long)in1, (double)in2)", ("lambertw.cuh",))


def lambertw(z, k=0, tol=1e-8):
    """See `scipy.special.lambertw`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.lambertw(cuarray.array([1., 2.])).real   # complex, real for z >= -1/e
    array([0.56714329, 0.8526055 ])
    """
    # SciPy: numpy.asarray(k, dtype=long) (a float branch truncates)
    return _lambertw(z, as_array(k, "lambertw").astype(numpy.int64), tol)
