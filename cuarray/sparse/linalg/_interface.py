"""LinearOperator and aslinearoperator. See `scipy.sparse.linalg.LinearOperator`.

SciPy's protocol, as SciPy 1.18 defines it: ``LinearOperator(shape, matvec, ...)`` builds an
operator from functions (the class is then a factory of `_CustomLinearOperator`); a subclass
defines `_matvec` or `_matmat` (each gives the other), optionally `_rmatvec`, `_rmatmat` or
`_adjoint` (each gives the others), and calls ``super().__init__(dtype, shape)``: as in SciPy 1.18,
an instance whose ``__init__`` never ran has no `ndim`, and its products, its algebra and the
solvers refuse it with an AttributeError (its `shape`, `dtype` and repr still read). Shapes may
carry leading batch dimensions (SciPy 1.18); the solvers take 2-D operators.
"""

from __future__ import annotations

import operator
import warnings

import numpy

from ..._core.host_input import as_array
from ..._creation.basic import zeros
from ..._manipulation.joining import stack
from ..._manipulation.transpose import swapaxes
from ..._math.complex import conj
from .._sputils import issparse

__all__ = ["LinearOperator", "aslinearoperator"]


def _isscalar(x) -> bool:
    """SciPy's scalar test of operator arithmetic: a Python or NumPy scalar (not an array)."""
    return numpy.isscalar(x)


def _swapped(shape):
    return (*shape[:-2], shape[-1], shape[-2])


def _batch(*shapes):
    return numpy.broadcast_shapes(*[tuple(s) for s in shapes])


class LinearOperator:
    """See `scipy.sparse.linalg.LinearOperator` (SciPy 1.18's protocol: the factory call with
    functions, subclasses defining `_matvec`/`_matmat` and `_rmatvec`/`_rmatmat`/`_adjoint`,
    ``__init__(dtype, shape)``, dtype inference from an int8 product, the operator algebra).
    Vectors and matrices are cuarray arrays; `xp` is accepted and not used.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> op = splinalg.LinearOperator((2, 2), matvec=lambda v: 2 * v)
    >>> op.shape
    (2, 2)
    >>> op.matvec(cuarray.array([1., 2.]))
    array([2., 4.])
    >>> class Double(splinalg.LinearOperator):
    ...     def __init__(self, n):
    ...         super().__init__(cuarray.float64, (n, n))
    ...     def _matvec(self, x):
    ...         return 2 * x
    >>> (Double(2) @ cuarray.array([1., 2.])).tolist()
    [2.0, 4.0]
    """

    def __new__(cls, *args, **kwargs):
        if cls is LinearOperator:
            # called with functions: SciPy's factory of the operator they define
            return super().__new__(_CustomLinearOperator)
        obj = super().__new__(cls)
        if type(obj)._matvec == LinearOperator._matvec and type(obj)._matmat == LinearOperator._matmat:
            warnings.warn("LinearOperator subclass should implement at least one of _matvec and _matmat.",
                          category=RuntimeWarning, stacklevel=2)
        return obj

    def __init__(self, dtype, shape, xp=None):
        if dtype is not None:
            dtype = numpy.dtype(dtype)
        shape = tuple(shape)
        if len(shape) < 2:
            raise ValueError("invalid shape {!r} (must be at least 2-d)".format(shape))
        try:
            shape = tuple(operator.index(s) for s in shape)
        except TypeError:
            raise ValueError("invalid shape {!r}".format(shape)) from None
        if any(s < 0 for s in shape):
            raise ValueError("invalid shape {!r}".format(shape))
        self.dtype = dtype
        self.shape = shape
        self.ndim = len(shape)

    def _initialised(self):
        """`ndim`, which only `__init__` sets: SciPy 1.18's products and algebra read such state,
        so a subclass that never calls `__init__` is refused there with an AttributeError."""
        return self.ndim

    def _init_dtype(self):
        """SciPy's dtype when none was given: that of `matvec` on an int8 vector of zeros (int8 is
        the smallest type, so the result is the operator's own promotion); int64 where the
        function refuses one."""
        if self.dtype is None:
            v = zeros((self.shape[-1],), numpy.int8)
            try:
                self.dtype = numpy.dtype(self.matvec(v).dtype)
            except (OverflowError, TypeError, RuntimeError):
                self.dtype = numpy.dtype(numpy.int64)

    # -- what a subclass defines (each of a pair gives the other) --------------------------------
    def _matmat(self, X, /):
        """A X, column by column through `_matvec` (a user's matvec need not take batches)."""
        return stack([self._matvec(X[..., :, i]) for i in range(X.shape[-1])], axis=-1)

    def _matvec(self, x):
        """A x through `_matmat` on one column."""
        return self._matmat(x[..., None])[..., 0]

    def _rmatvec(self, x):
        """A^H x: `_rmatmat` on one column, or the adjoint's `_matvec`."""
        if type(self)._adjoint == LinearOperator._adjoint:
            if type(self)._rmatmat != LinearOperator._rmatmat:
                return self._rmatmat(x[..., None])[..., 0]
            raise NotImplementedError
        return self.H._matvec(x)

    def _rmatmat(self, X, /):
        """A^H X: `_rmatvec` column by column, or the adjoint's `_matmat`."""
        if type(self)._adjoint == LinearOperator._adjoint:
            return stack([self._rmatvec(X[..., :, i]) for i in range(X.shape[-1])], axis=-1)
        return self.H._matmat(X)

    def _adjoint(self):
        self._initialised()
        return _AdjointLinearOperator(self)

    def _transpose(self):
        self._initialised()
        return _TransposedLinearOperator(self)

    # -- the public products, with SciPy's shape rules ---------------------------------------------
    def _shared_matvec(self, x, adjoint=False):
        self._initialised()
        name = "rmatvec" if adjoint else "matvec"
        x = as_array(x, "LinearOperator." + name)
        *outer_batch, m, n = self.shape
        inner, outer = (m, n) if adjoint else (n, m)
        column = x.shape == (inner, 1)
        row = not column and x.ndim >= 1 and x.shape[-1] == inner
        if column:
            warnings.warn("Calling `{0}` on 'column vectors' of shape `({1}, 1)` was deprecated in SciPy 1.18.0 "
                          "and will no longer be possible in SciPy 1.20.0. Please call `{2}` instead for identical "
                          "behaviour.".format(name, inner, "rmatmat" if adjoint else "matmat"),
                          FutureWarning, stacklevel=3)
            x = x.reshape(inner)
        elif not row:
            raise ValueError("Dimension mismatch: `x` must have a shape ending in `({0},)`, or shape `({0}, 1)`. "
                             "Given shape: {1}".format(inner, x.shape))
        y = self._rmatvec(x) if adjoint else self._matvec(x)
        shape = _batch(outer_batch, x.shape[:-1] if row else ()) + (outer,) + (() if row else (1,))
        return y if y.shape == shape else y.reshape(shape)

    def matvec(self, x):
        """See `scipy.sparse.linalg.LinearOperator.matvec`: A x for x of shape (..., N)."""
        return self._shared_matvec(x)

    def rmatvec(self, x):
        """See `scipy.sparse.linalg.LinearOperator.rmatvec`: A^H x for x of shape (..., M)."""
        return self._shared_matvec(x, adjoint=True)

    def _shared_matmat(self, X, adjoint=False):
        self._initialised()
        sparse = issparse(X)
        if not sparse:
            X = as_array(X, "LinearOperator." + ("rmatmat" if adjoint else "matmat"))
        if X.ndim < 2:
            raise ValueError("Expected at least 2-d ndarray or matrix, not {}-d".format(X.ndim))
        if X.shape[-2] != (self.shape[-2] if adjoint else self.shape[-1]):
            raise ValueError("Dimension mismatch: {}, {}".format(self.shape, X.shape))
        try:
            return self._rmatmat(X) if adjoint else self._matmat(X)
        except Exception as e:
            if sparse:
                raise TypeError("Multipliying LinearOperator with a sparse matrix failed. Try wrapping the matrix "
                                "with `aslinearoperator` first, or ensuring the operator's `matmat` function supports "
                                "sparse input.") from e
            raise

    def matmat(self, X):
        """See `scipy.sparse.linalg.LinearOperator.matmat`: A X for X of shape (..., N, K)."""
        return self._shared_matmat(X)

    def rmatmat(self, X):
        """See `scipy.sparse.linalg.LinearOperator.rmatmat`: A^H X for X of shape (..., M, K)."""
        return self._shared_matmat(X, adjoint=True)

    def __call__(self, x):
        return self @ x

    def __mul__(self, x):
        return self.dot(x)

    def __truediv__(self, other):
        if not _isscalar(other):
            raise ValueError("Can only divide a linear operator by a scalar.")
        self._initialised()
        return _ScaledLinearOperator(self, 1.0 / other)

    def dot(self, x):
        """See `scipy.sparse.linalg.LinearOperator.dot`: an operator gives the product operator, a
        scalar the scaled one, a vector (N,) `matvec`, a matrix (..., N, K) `matmat`."""
        self._initialised()
        if isinstance(x, LinearOperator):
            return _ProductLinearOperator(self, x)
        if _isscalar(x):
            return _ScaledLinearOperator(self, x)
        if not issparse(x):
            x = as_array(x, "LinearOperator.dot")
        n = self.shape[-1]
        if x.shape == (n,):
            return self.matvec(x)
        if x.ndim >= 2 and x.shape[-2] == n:
            return self.matmat(x)
        raise ValueError("Dimension mismatch: array input `x` must have shape `({0},)` or a shape ending in "
                         "`({0}, K)` for some integer `K`. Given shape: {1}".format(n, x.shape))

    def __matmul__(self, other):
        if _isscalar(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return self.__mul__(other)

    def __rmatmul__(self, other):
        if _isscalar(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return self.__rmul__(other)

    def __rmul__(self, x):
        return self.rdot(x)

    def rdot(self, x):
        """See `scipy.sparse.linalg.LinearOperator.rdot`: x A (a vector (M,) or matrices (..., K, M))."""
        self._initialised()
        if isinstance(x, LinearOperator):
            return _ProductLinearOperator(x, self)
        if _isscalar(x):
            return _ScaledLinearOperator(self, x)
        if not issparse(x):
            x = as_array(x, "LinearOperator.rdot")
        m = self.shape[-2]
        if x.shape == (m,):
            return self.T.matvec(x)
        if x.ndim >= 2 and x.shape[-1] == m:
            return swapaxes(self.T.matmat(swapaxes(x, -1, -2)), -1, -2)
        raise ValueError("Dimension mismatch: `x` must have shape `({0},)` or a shape ending in `(K, {0})` for "
                         "some integer `K`. Given shape: {1}.".format(m, x.shape))

    def __pow__(self, p):
        self._initialised()
        if _isscalar(p):
            return _PowerLinearOperator(self, p)
        return NotImplemented

    def __add__(self, x):
        self._initialised()
        if isinstance(x, LinearOperator):
            return _SumLinearOperator(self, x)
        return NotImplemented

    def __neg__(self):
        self._initialised()
        return _ScaledLinearOperator(self, -1)

    def __sub__(self, x):
        return self.__add__(-x)

    def __repr__(self):
        dt = "unspecified dtype" if self.dtype is None else "dtype=" + str(self.dtype)
        return "<{} {} with {}>".format("x".join(str(d) for d in self.shape), type(self).__name__, dt)

    def adjoint(self):
        """See `scipy.sparse.linalg.LinearOperator.adjoint`: the Hermitian adjoint A^H."""
        return self._adjoint()

    @property
    def H(self):
        return self.adjoint()

    def transpose(self):
        """See `scipy.sparse.linalg.LinearOperator.transpose`."""
        return self._transpose()

    @property
    def T(self):
        return self.transpose()


class _CustomLinearOperator(LinearOperator):
    """The operator of `LinearOperator(shape, matvec, rmatvec, matmat, dtype, rmatmat)`."""

    def __init__(self, shape, matvec, rmatvec=None, matmat=None, dtype=None, rmatmat=None, xp=None):
        super().__init__(dtype, shape)
        self.args = ()
        self.__matvec_impl = matvec
        self.__rmatvec_impl = rmatvec
        self.__rmatmat_impl = rmatmat
        self.__matmat_impl = matmat
        self._init_dtype()

    def _matmat(self, X):
        if self.__matmat_impl is not None:
            return self.__matmat_impl(X)
        return super()._matmat(X)

    def _matvec(self, x):
        return self.__matvec_impl(x)

    def _rmatvec(self, x):
        if self.__rmatvec_impl is None:
            raise NotImplementedError("rmatvec is not defined")
        return self.__rmatvec_impl(x)

    def _rmatmat(self, X):
        if self.__rmatmat_impl is not None:
            return self.__rmatmat_impl(X)
        return super()._rmatmat(X)

    def _adjoint(self):
        return _CustomLinearOperator(shape=_swapped(self.shape), matvec=self.__rmatvec_impl,
                                     rmatvec=self.__matvec_impl, matmat=self.__rmatmat_impl,
                                     rmatmat=self.__matmat_impl, dtype=self.dtype)


class _AdjointLinearOperator(LinearOperator):
    def __init__(self, A):
        super().__init__(A.dtype, _swapped(A.shape))
        self.A = A
        self.args = (A,)

    def _matvec(self, x):
        return self.A._rmatvec(x)

    def _rmatvec(self, x):
        return self.A._matvec(x)

    def _matmat(self, x):
        return self.A._rmatmat(x)

    def _rmatmat(self, x):
        return self.A._matmat(x)


class _TransposedLinearOperator(LinearOperator):
    """A^T = conj(A^H conj(.))."""

    def __init__(self, A):
        super().__init__(A.dtype, _swapped(A.shape))
        self.A = A
        self.args = (A,)

    def _matvec(self, x):
        return conj(self.A._rmatvec(conj(x)))

    def _rmatvec(self, x):
        return conj(self.A._matvec(conj(x)))

    def _matmat(self, x):
        return conj(self.A._rmatmat(conj(x)))

    def _rmatmat(self, x):
        return conj(self.A._matmat(conj(x)))


def _get_dtype(operators, values=()):
    """NumPy 2's promotion of the operators' dtypes and of the scalars (weak Python scalars)."""
    dtypes = [op.dtype for op in operators if getattr(op, "dtype", None) is not None]
    return numpy.result_type(*dtypes, *values)


class _SumLinearOperator(LinearOperator):
    def __init__(self, A, B):
        if not isinstance(A, LinearOperator) or not isinstance(B, LinearOperator):
            raise ValueError("both operands have to be a LinearOperator")
        if tuple(A.shape[-2:]) != tuple(B.shape[-2:]):
            raise ValueError("cannot add {} and {}: shape mismatch".format(A, B))
        self.args = (A, B)
        super().__init__(_get_dtype([A, B]), _batch(A.shape[:-2], B.shape[:-2]) + tuple(A.shape[-2:]))

    def _matvec(self, x):
        return self.args[0].matvec(x) + self.args[1].matvec(x)

    def _rmatvec(self, x):
        return self.args[0].rmatvec(x) + self.args[1].rmatvec(x)

    def _rmatmat(self, x):
        return self.args[0].rmatmat(x) + self.args[1].rmatmat(x)

    def _matmat(self, x):
        return self.args[0].matmat(x) + self.args[1].matmat(x)

    def _adjoint(self):
        A, B = self.args
        return A.H + B.H


class _ProductLinearOperator(LinearOperator):
    def __init__(self, A, B):
        if not isinstance(A, LinearOperator) or not isinstance(B, LinearOperator):
            raise ValueError("both operands have to be a LinearOperator")
        if A.shape[-1] != B.shape[-2]:
            raise ValueError("cannot multiply {} and {}: shape mismatch".format(A, B))
        super().__init__(_get_dtype([A, B]), _batch(A.shape[:-2], B.shape[:-2]) + (A.shape[-2], B.shape[-1]))
        self.args = (A, B)

    def _matvec(self, x):
        return self.args[0].matvec(self.args[1].matvec(x))

    def _rmatvec(self, x):
        return self.args[1].rmatvec(self.args[0].rmatvec(x))

    def _rmatmat(self, x):
        return self.args[1].rmatmat(self.args[0].rmatmat(x))

    def _matmat(self, x):
        return self.args[0].matmat(self.args[1].matmat(x))

    def _adjoint(self):
        A, B = self.args
        return B.H @ A.H


class _ScaledLinearOperator(LinearOperator):
    def __init__(self, A, alpha):
        if not isinstance(A, LinearOperator):
            raise ValueError("LinearOperator expected as A")
        if not _isscalar(alpha):
            raise ValueError("scalar expected as alpha")
        if isinstance(A, _ScaledLinearOperator):
            A, inner = A.args
            alpha = alpha * inner  # a new scalar: the operator scaled before keeps its own
        super().__init__(_get_dtype([A], [alpha]), A.shape)
        self.args = (A, alpha)

    def _matvec(self, x):
        return self.args[1] * self.args[0].matvec(x)

    def _rmatvec(self, x):
        return self.args[1].conjugate() * self.args[0].rmatvec(x)

    def _rmatmat(self, x):
        return self.args[1].conjugate() * self.args[0].rmatmat(x)

    def _matmat(self, x):
        return self.args[1] * self.args[0].matmat(x)

    def _adjoint(self):
        A, alpha = self.args
        return A.H * alpha.conjugate()


class _PowerLinearOperator(LinearOperator):
    def __init__(self, A, p):
        if not isinstance(A, LinearOperator):
            raise ValueError("LinearOperator expected as A")
        if A.shape[-2] != A.shape[-1]:
            raise ValueError("square core-dimensions of LinearOperator expected, got {!r}".format(A))
        try:
            p = operator.index(p)
        except TypeError:
            p = -1
        if p < 0:
            raise ValueError("non-negative integer expected as p")
        super().__init__(_get_dtype([A]), A.shape)
        self.args = (A, p)

    def _power(self, fun, x):
        res = x.copy()
        for _ in range(self.args[1]):
            res = fun(res)
        return res

    def _matvec(self, x):
        return self._power(self.args[0].matvec, x)

    def _rmatvec(self, x):
        return self._power(self.args[0].rmatvec, x)

    def _rmatmat(self, x):
        return self._power(self.args[0].rmatmat, x)

    def _matmat(self, x):
        return self._power(self.args[0].matmat, x)

    def _adjoint(self):
        A, p = self.args
        return A.H ** p


class MatrixLinearOperator(LinearOperator):
    """A sparse matrix or a cuarray array (a stack too) as an operator."""

    def __init__(self, A):
        super().__init__(A.dtype, A.shape)
        self.A = A
        self.__adj = None
        self.args = (A,)

    def _matmat(self, X):
        return self.A @ X

    def _matvec(self, x):
        # one vector: the matrix-vector product itself (SpMV / GEMV, not a one-column SpMM / GEMM)
        return self.A @ x if x.ndim == 1 and len(self.shape) == 2 else super()._matvec(x)

    def _adjoint(self):
        if self.__adj is None:
            self.__adj = _AdjointMatrixOperator(self.A)
        return self.__adj


class _AdjointMatrixOperator(MatrixLinearOperator):
    def __init__(self, A):
        super().__init__(conj(swapaxes(A, -1, -2)) if not issparse(A) else A.T.conj())
        self.args = (A,)

    def _adjoint(self):
        return MatrixLinearOperator(self.args[0])


class IdentityOperator(LinearOperator):
    def __init__(self, shape, dtype=None):
        super().__init__(dtype, shape)

    def _matvec(self, x):
        return x

    def _rmatvec(self, x):
        return x

    def _rmatmat(self, x):
        return x

    def _matmat(self, x):
        return x

    def _adjoint(self):
        return self


def aslinearoperator(A) -> LinearOperator:
    """See `scipy.sparse.linalg.aslinearoperator`: LinearOperators pass; sparse matrices and
    cuarray arrays (at least 2-D, as SciPy 1.18: a stack is a batch of operators) are wrapped;
    objects with `shape` and `matvec` are adapted.

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
    if issparse(A):
        return MatrixLinearOperator(A)
    if hasattr(A, "shape") and hasattr(A, "matvec"):
        return LinearOperator(A.shape, A.matvec, rmatvec=getattr(A, "rmatvec", None),
                              rmatmat=getattr(A, "rmatmat", None), dtype=getattr(A, "dtype", None))
    if _isscalar(A):
        raise TypeError("type not understood")
    A = as_array(A, "aslinearoperator")  # a host array: TypeError naming cuarray.asarray
    if A.ndim < 2:
        A = A.reshape((1,) * (2 - A.ndim) + A.shape)  # SciPy's atleast_nd(A, 2)
    return MatrixLinearOperator(A)
