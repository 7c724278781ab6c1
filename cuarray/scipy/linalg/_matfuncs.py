"""sqrtm and logm without a Schur decomposition (cuSOLVER has none), and cosm/sinm/tanm/coshm/
sinhm/tanhm through expm (SciPy's own formulas). sqrtm and logm: Hermitian matrices through their
eigendecomposition (exact: they are unitarily diagonalisable), every other matrix through the
Schur-free iterations of `_iterative` (Denman-Beavers; inverse scaling and squaring), with the
eigenvalues (cuSOLVER geev) deciding SciPy's real-or-complex result and the branch rotation.
Stacks are batched: every step is a stacked LU, product or reduction."""

from __future__ import annotations

import types

import numpy

import cuarray.linalg as _la  # (the subsystem, by its full name: layers checked in tests/test_layers.py)
from ...cuda.libs import cusolver as _cusolver
from ...linalg import _solve
from ...linalg._matmul import matmul
from ...linalg._util import LinAlgError, as_array, compute_char, stacked_copy
from ..._creation.basic import empty
from ..._creation.from_data import asarray
from ..._creation.matrices import eye
from ..._indexing.inserting import diagonal
from ..._logic.truth import all as all_
from ..._logic.truth import any as any_
from ..._manipulation.dims import broadcast_to
from ..._manipulation.transpose import swapaxes
from ..._math.complex import conj, imag, real
from ..._math.explog import exp, log
from ..._math.misc import abs as abs_
from ..._math.misc import sqrt
from ..._math.sums import sum as sum_
from ..._statistics.order import max as max_
from ._expm import expm
from ._iterative import db_sqrtm, iss_logm, rotation
from ._validate import deprecate_dtypes

__all__ = ["sqrtm", "logm", "cosm", "sinm", "tanm", "coshm", "sinhm", "tanhm"]


def _inv_logabsdet(m):
    """(inverse, log|det|) of each matrix from one LU (cuarray.linalg's getrf/getrs)."""
    char = compute_char(m)
    n, batch = m.shape[-1], m.shape[:-2]
    x = stacked_copy(broadcast_to(eye(n, dtype=char), batch + (n, n)), char, "C")
    f, trans = _solve._factor(m, char, batch)
    # As in cuarray.linalg.inv: the other transpose flag writes inv(A) row-major into x.
    _solve._lu_solve(f, _cusolver.OP_N if trans == _cusolver.OP_T else _cusolver.OP_T, x)
    return x, sum_(log(abs_(diagonal(f.lu, 0, -2, -1))), axis=-1)


# The operations `_iterative` is written over, on the GPU.
CUARRAY = types.SimpleNamespace(eye=eye, matmul=matmul, exp=exp, max=max_, sum=sum_, abs=abs_,
                                host=lambda x: x.get(), inv_logabsdet=_inv_logabsdet, solve=_la.solve)

_COMPLEX = {"f": "F", "d": "D", "F": "F", "D": "D"}


def _square(a, fn, exc, short, nonsquare):
    a = as_array(a, fn)
    deprecate_dtypes(fn, a, stacklevel=4)
    if a.ndim < 2:
        raise exc(short)
    if a.shape[-1] != a.shape[-2]:
        raise exc(nonsquare)
    return a


def _is_hermitian(a) -> bool:
    return bool(all_(a == conj(swapaxes(a, -1, -2))).get())


def _eig_function(a, f, real_input):
    """V f(w) V^H for Hermitian `a`; complex where a real input has a negative eigenvalue (SciPy's
    Schur form of it is that diagonal)."""
    w, v = _la.eigh(a)
    if bool(any_(w < 0).get()):
        w = w.astype(_COMPLEX[w.dtype.char])
    fw = f(w)
    if real_input and fw.dtype.kind == "f":
        return matmul(v * fw[..., None, :], swapaxes(v, -1, -2))
    v = v.astype(numpy.result_type(v.dtype, fw.dtype))
    return matmul(v * fw[..., None, :], conj(swapaxes(v, -1, -2)))


def _rotated(a, lam, real_input):
    """(a or e^(-i theta) a, theta (host, per matrix) or None) from the host eigenvalues `lam`:
    see `_iterative.rotation`."""
    eps = numpy.finfo(a.dtype).eps
    cut, theta = rotation(lam, 0.0 if real_input else 100 * eps)
    if not cut:
        return a, None
    cchar = _COMPLEX[a.dtype.char]
    rot = asarray(numpy.exp(-1j * theta)[..., None, None].astype(cchar))
    return a.astype(cchar) * rot, theta


def sqrtm(A):
    """See `scipy.linalg.sqrtm` (SciPy 1.18's signature: no `disp`, `blocksize`). Hermitian input
    through eigh; other matrices by the scaled Denman-Beavers iteration after one eigenvalue
    computation (geev) that decides the result type (complex when a real matrix has a negative
    real eigenvalue, as SciPy). A singular matrix gives NaN (the iteration inverts A; SciPy warns
    and returns a root where one exists); one device read per iteration.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.sqrtm(cuarray.array([[2., 1.], [1., 2.]]))
    array([[1.3660254, 0.3660254],
           [0.3660254, 1.3660254]])
    """
    a = _square(A, "sqrtm", LinAlgError, "The input array must be at least two-dimensional",
                "Last 2 dimensions of the array must be square")
    char = _work_char(a.dtype, "sqrtm", double=False)
    if a.size == 0:
        return empty(a.shape, dtype=char)
    a = a.astype(char)
    real_input = char in "fd"
    if _is_hermitian(a):
        return _eig_function(a, sqrt, real_input)
    b, theta = _rotated(a, _la.eigvals(a).get(), real_input)
    y = db_sqrtm(CUARRAY, b, numpy.finfo(char).eps)
    if theta is not None:
        y = y * asarray(numpy.exp(0.5j * theta)[..., None, None].astype(y.dtype))
    return y


def logm(A):
    """See `scipy.linalg.logm` (SciPy 1.18's signature: no `disp`). Computed in double precision,
    the result's dtype as SciPy's. Hermitian input through eigh; other matrices by inverse scaling
    and squaring (Denman-Beavers square roots, then a Pade approximant), after one eigenvalue
    computation (geev) that picks the branch; a real input whose result has negligible imaginary
    part is returned real (SciPy's rule, one device read). A float32/float16 matrix with a
    non-real eigenvalue gives complex128, as SciPy's (its single-precision Schur form leaves an
    imaginary part above that rule's double-precision tolerance). A singular matrix gives
    -inf/NaN where SciPy perturbs it and warns.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.logm(cuarray.array([[2., 1.], [1., 2.]]))
    array([[0.54930614, 0.54930614],
           [0.54930614, 0.54930614]])
    """
    a = _square(A, "logm", ValueError, "expected a square matrix", "expected a square matrix")
    char = _work_char(a.dtype, "logm", double=True)
    if a.size == 0:
        return empty(a.shape, dtype=char)
    single_real = a.dtype.kind == "f" and a.dtype.itemsize < 8
    a = a.astype(char)
    real_input = char == "d"
    if _is_hermitian(a):
        return _eig_function(a, log, real_input)
    lam = _la.eigvals(a).get()
    complex_result = single_real and bool(numpy.any(numpy.imag(lam) != 0))
    b, theta = _rotated(a, lam, real_input)
    f = iss_logm(CUARRAY, b, numpy.finfo(char).eps)
    if theta is not None:
        n = a.shape[-1]
        f = f + asarray((1j * theta)[..., None, None].astype(f.dtype)) * eye(n, dtype=f.dtype)
    if complex_result:
        return f.astype(numpy.complex128)
    # SciPy's _maybe_real: a real input's result loses an imaginary part below 1e6 eps.
    tol = 1e6 * numpy.finfo(numpy.float64).eps
    if theta is not None and real_input and float(max_(abs_(imag(f))).get()) <= tol:
        return real(f).copy()
    return f


def _work_char(dt, fn, double):
    """SciPy's working dtype: integers and bools float64; float16 float32 (sqrtm) or float64
    (logm, which always works in double); float32/complex64 stay single in sqrtm."""
    if dt.kind in "biu":
        return "d"
    if dt.kind == "f":
        return "d" if double or dt.itemsize >= 8 else "f"
    if dt.kind == "c":
        return "D" if double or dt.itemsize >= 16 else "F"
    raise TypeError("scipy.linalg.{} is not supported for the data type {}".format(fn, dt))


# -- trigonometric and hyperbolic functions through expm (SciPy's own formulas) ------------------
def _trig_input(A, fn):
    a = as_array(A, fn)
    deprecate_dtypes(fn, a, stacklevel=4)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError("expected square array_like input")
    return a.astype(numpy.float32) if a.dtype == numpy.float16 else a


def cosm(A):
    """See `scipy.linalg.cosm` (stacks): Re expm(iA) for real A.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.cosm(cuarray.array([[2., 1.], [1., 2.]]))
    array([[-0.2248451, -0.7651474],
           [-0.7651474, -0.2248451]])
    """
    a = _trig_input(A, "cosm")
    if a.dtype.kind == "c":
        return (expm(1j * a) + expm(-1j * a)) * 0.5
    return real(expm(1j * a)).copy()


def sinm(A):
    """See `scipy.linalg.sinm` (stacks): Im expm(iA) for real A.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.sinm(cuarray.array([[2., 1.], [1., 2.]]))
    array([[ 0.4912955 , -0.35017549],
           [-0.35017549,  0.4912955 ]])
    """
    a = _trig_input(A, "sinm")
    if a.dtype.kind == "c":
        return (expm(1j * a) - expm(-1j * a)) * -0.5j
    return imag(expm(1j * a)).copy()


def tanm(A):
    """See `scipy.linalg.tanm` (stacks): cosm(A)^-1 sinm(A).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.tanm(cuarray.array([[0.5, 0.25], [0.25, 0.5]]))
    array([[0.59346919, 0.33812727],
           [0.33812727, 0.59346919]])
    """
    a = _trig_input(A, "tanm")
    return _la.solve(cosm(a), sinm(a))


def coshm(A):
    """See `scipy.linalg.coshm` (stacks).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.coshm(cuarray.array([[2., 1.], [1., 2.]]))
    array([[5.80537132, 4.26229068],
           [4.26229068, 5.80537132]])
    """
    a = _trig_input(A, "coshm")
    return (expm(a) + expm(-a)) * 0.5


def sinhm(A):
    """See `scipy.linalg.sinhm` (stacks).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.sinhm(cuarray.array([[2., 1.], [1., 2.]]))
    array([[5.59653806, 4.42133687],
           [4.42133687, 5.59653806]])
    """
    a = _trig_input(A, "sinhm")
    return (expm(a) - expm(-a)) * 0.5


def tanhm(A):
    """See `scipy.linalg.tanhm` (stacks): coshm(A)^-1 sinhm(A).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.tanhm(cuarray.array([[2., 1.], [1., 2.]]))
    array([[0.87832445, 0.1167303 ],
           [0.1167303 , 0.87832445]])
    """
    a = _trig_input(A, "tanhm")
    return _la.solve(coshm(a), sinhm(a))
