"""LinearOperator and aslinearoperator. See `scipy.sparse.linalg.LinearOperator`.

An operator is a shape, a dtype and a `matvec` (with optional `rmatvec`, `matmat`, `rmatmat`) on
cuarray vectors; subclasses may define `_matvec`/`_rmatvec`/`_matmat` instead, as in SciPy.
"""

from __future__ import annotations

import numpy

from ..._core.ndarray import ndarray
from ..._creation.basic import zeros
from ..._manipulation.joining import stack
from ..._math.arithmetic import add, multiply
from ..._math.complex import conj
from .. import _sputils
from .._base import issparse

__all__ = ["LinearOperator", "aslinearoperator"]


class LinearOperator:
    """See `scipy.sparse.linalg.LinearOperator`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> op = splinalg.LinearOperator((2, 2), matvec=lambda v: 2 * v)
    >>> op.shape
    (2, 2)
    >>> op.matvec(cuarray.array([1., 2.]))
    array([2., 4.])
    """

    ndim = 2

    def __init__(self, shape=None, matvec=None, rmatvec=None, matmat=None, dtype=None, rmatmat=None):
        if shape is None and hasattr(self, "shape"):
            shape = self.shape
        shape = _sputils.check_shape(shape)
        self.shape = shape
        self._f = {"matvec": matvec, "rmatvec": rmatvec, "matmat": matmat, "rmatmat": rmatmat}
        if dtype is None:
            dtype = self._infer_dtype(matvec)
        self.dtype = numpy.dtype(dtype)

    def _infer_dtype(self, matvec):
        """SciPy's rule: the dtype `matvec` returns for an int8 vector of zeros (int8 is the
        smallest type, so the result is the operator's own promotion); int64 if it refuses one."""
        if matvec is None and type(self)._matvec is LinearOperator._matvec and self._f.get("matmat") is None \
                and type(self)._matmat is LinearOperator._matmat:
            return numpy.float64
        try:
            return self.matvec(zeros((self.shape[1],), numpy.int8)).dtype
        except (OverflowError, TypeError, RuntimeError):
            return numpy.dtype(numpy.int64)

    # -- what subclasses (or the functions given) define ------------------------------------------
    def _matvec(self, x):
        f = self._f.get("matvec")
        if f is not None:
            return f(x)
        if type(self)._matmat is not LinearOperator._matmat or self._f.get("matmat") is not None:
            return self.matmat(x.reshape(-1, 1))
        raise NotImplementedError("this LinearOperator defines no matvec")

    def _rmatvec(self, x):
        f = self._f.get("rmatvec")
        if f is None:
            raise NotImplementedError("rmatvec is not defined")
        return f(x)

    def _matmat(self, X):
        f = self._f.get("matmat")
        if f is not None:
            return f(X)
        return stack([self.matvec(X[:, j]).reshape(-1) for j in range(X.shape[1])], axis=1)

    def _rmatmat(self, X):
        f = self._f.get("rmatmat")
        if f is not None:
            return f(X)
        return stack([self.rmatvec(X[:, j]).reshape(-1) for j in range(X.shape[1])], axis=1)

    # -- public calls with SciPy's shape checks ------------------------------------------------
    def matvec(self, x):
        m, n = self.shape
        if x.shape not in ((n,), (n, 1)):
            raise ValueError("dimension mismatch")
        y = self._matvec(x)
        return y.reshape(m, 1) if x.ndim == 2 else y.reshape(m)

    def rmatvec(self, x):
        m, n = self.shape
        if x.shape not in ((m,), (m, 1)):
            raise ValueError("dimension mismatch")
        y = self._rmatvec(x)
        return y.reshape(n, 1) if x.ndim == 2 else y.reshape(n)

    def matmat(self, X):
        if X.ndim != 2 or X.shape[0] != self.shape[1]:
            raise ValueError("dimension mismatch: {} {}".format(self.shape, X.shape))
        return self._matmat(X)

    def rmatmat(self, X):
        if X.ndim != 2 or X.shape[0] != self.shape[0]:
            raise ValueError("dimension mismatch: {} {}".format(self.shape, X.shape))
        return self._rmatmat(X)

    def dot(self, x):
        if isinstance(x, LinearOperator):
            return _ProductOperator(self, x)
        if _sputils.isscalarlike(x):
            return _ScaledOperator(self, x)
        if isinstance(x, ndarray):
            if x.ndim == 1 or (x.ndim == 2 and x.shape[1] == 1):
                return self.matvec(x)
            if x.ndim == 2:
                return self.matmat(x)
        raise ValueError("expected a vector, matrix or LinearOperator, got {!r}".format(type(x)))

    __matmul__ = dot
    __mul__ = dot
    __call__ = dot

    def rdot(self, x):
        """See `scipy.sparse.linalg.LinearOperator.rdot`: x A."""
        if isinstance(x, LinearOperator):
            return _ProductOperator(x, self)
        if _sputils.isscalarlike(x):
            return _ScaledOperator(self, x)
        if isinstance(x, ndarray):
            if x.ndim == 1 or (x.ndim == 2 and x.shape[0] == 1):
                return self.T.matvec(x.reshape(-1)).reshape(x.shape[:-1] + (self.shape[1],))
            if x.ndim == 2:
                return self.T.matmat(x.T).T
        raise ValueError("expected a vector, matrix or LinearOperator, got {!r}".format(type(x)))

    def __rmul__(self, x):
        return self.rdot(x)

    def __rmatmul__(self, x):
        if _sputils.isscalarlike(x):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return self.rdot(x)

    def __truediv__(self, other):
        if not _sputils.isscalarlike(other):
            raise ValueError("Can only divide a linear operator by a scalar.")
        return _ScaledOperator(self, 1.0 / other)

    def __pow__(self, p):
        if _sputils.isscalarlike(p):
            return _PowerOperator(self, p)
        return NotImplemented

    def __neg__(self):
        return _ScaledOperator(self, -1)

    def __add__(self, other):
        if isinstance(other, LinearOperator):
            return _SumOperator(self, other)
        return NotImplemented

    def __sub__(self, other):
        return self + (-other)

    def adjoint(self):
        return _AdjointOperator(self)

    H = property(adjoint)

    def transpose(self):
        return _TransposedOperator(self)

    T = property(transpose)

    def __repr__(self):
        return "<{}x{} {} with dtype={}>".format(self.shape[0], self.shape[1], type(self).__name__, self.dtype)


class _AdjointOperator(LinearOperator):
    def __init__(self, A):
        self.A = A
        super().__init__((A.shape[1], A.shape[0]), matvec=A.rmatvec, rmatvec=A.matvec, dtype=A.dtype)


class _TransposedOperator(LinearOperator):
    """A^T: conj(A^H conj(x))."""

    def __init__(self, A):
        self.A = A
        super().__init__((A.shape[1], A.shape[0]), matvec=lambda x: conj(A.rmatvec(conj(x))),
                         rmatvec=lambda x: conj(A.matvec(conj(x))), dtype=A.dtype)


class _PowerOperator(LinearOperator):
    """A^p for a square A and an integer p >= 0, applied p times."""

    def __init__(self, A, p):
        if A.shape[0] != A.shape[1]:
            raise ValueError("square core-dimensions of LinearOperator expected, got {!r}".format(A))
        if not _sputils.isintlike(p) or p < 0:
            raise ValueError("non-negative integer expected as p")
        p = int(p)

        def power(f, x):
            out = x.copy()
            for _ in range(p):
                out = f(out)
            return out

        super().__init__(A.shape, matvec=lambda x: power(A.matvec, x), rmatvec=lambda x: power(A.rmatvec, x),
                         dtype=A.dtype)


class _ProductOperator(LinearOperator):
    def __init__(self, A, B):
        if A.shape[1] != B.shape[0]:
            raise ValueError("cannot multiply {} and {}: shape mismatch".format(A, B))
        super().__init__((A.shape[0], B.shape[1]), matvec=lambda x: A.matvec(B.matvec(x)),
                         rmatvec=lambda x: B.rmatvec(A.rmatvec(x)), dtype=numpy.result_type(A.dtype, B.dtype))


class _SumOperator(LinearOperator):
    def __init__(self, A, B):
        if A.shape != B.shape:
            raise ValueError("cannot add {} and {}: shape mismatch".format(A, B))
        super().__init__(A.shape, matvec=lambda x: add(A.matvec(x), B.matvec(x)),
                         rmatvec=lambda x: add(A.rmatvec(x), B.rmatvec(x)),
                         dtype=numpy.result_type(A.dtype, B.dtype))


class _ScaledOperator(LinearOperator):
    def __init__(self, A, alpha):
        super().__init__(A.shape, matvec=lambda x: multiply(A.matvec(x), alpha),
                         rmatvec=lambda x: multiply(A.rmatvec(x), numpy.conj(alpha)),
                         dtype=numpy.result_type(A.dtype, numpy.asarray(alpha).dtype))


class MatrixLinearOperator(LinearOperator):
    """A sparse matrix or a 2-D cuarray array as an operator."""

    def __init__(self, A):
        self.A = A
        self._AH = None
        super().__init__(A.shape, matvec=lambda x: A @ x, matmat=lambda X: A @ X, dtype=A.dtype)

    def _rmatvec(self, x):
        if self._AH is None:
            self._AH = self.A.conj().T if not issparse(self.A) else self.A.H
        return self._AH @ x

    def _rmatmat(self, X):
        return self._rmatvec(X)


class IdentityOperator(LinearOperator):
    def __init__(self, shape, dtype=None):
        super().__init__(shape, matvec=lambda x: x, rmatvec=lambda x: x, matmat=lambda x: x,
                         dtype=numpy.float64 if dtype is None else dtype)


def aslinearoperator(A) -> LinearOperator:
    """See `scipy.sparse.linalg.aslinearoperator`: LinearOperators pass; sparse matrices and 2-D
    cuarray arrays are wrapped; objects with `shape` and `matvec` are adapted.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> from cuarray import sparse
    >>> a = sparse.csr_matrix(cuarray.array([[4., 1.], [1., 3.]]))
    >>> op = splinalg.aslinearoperator(a)
    >>> op.matvec(cuarray.array([1., 1.]))
    array([5., 4.])
    """
    if isinstance(A, LinearOperator):
        return A
    if isinstance(A, ndarray):
        if A.ndim > 2:
            raise ValueError("array must have ndim <= 2")
        return MatrixLinearOperator(A.reshape((1,) * (2 - A.ndim) + A.shape))  # SciPy's atleast_2d
    if issparse(A):
        return MatrixLinearOperator(A)
    if hasattr(A, "shape") and hasattr(A, "matvec"):
        return LinearOperator(A.shape, A.matvec, rmatvec=getattr(A, "rmatvec", None),
                              dtype=getattr(A, "dtype", None))
    raise TypeError("type not understood: {!r}".format(type(A)))
