"""The base of every sparse matrix and array: shape and dtype, conversions, operators.

See `scipy.sparse`. A format class defines its storage, `tocoo`/`tocsr`/`tocsc`, `_with_data`
(same pattern, new values) and `nnz`; everything else is written here once, computing in CSR
(the format cuSPARSE serves best) and returning SciPy's result format. `spmatrix` and `sparray`
differ only in operator meaning (`*` and `**` are matrix products for spmatrix, elementwise for
sparray) and in the shape of reductions (2-D for spmatrix, 1-D for sparray).

GPU differences: dense results are cuarray arrays (`todense()` is not a `numpy.matrix`, and
`sum(axis=...)` of a matrix is a 2-D cuarray array); scalar results (`sum()`, `A[i, j]`) are 0-d
cuarray arrays, read with `float()`/`.item()` (a synchronisation).
"""

from __future__ import annotations

import numpy

from .._core.ndarray import ndarray
from .._indexing.inserting import take
from .._logic.comparison import not_equal
from .._math.arithmetic import add, floor_divide, multiply as multiply_, negative, remainder, subtract, true_divide
from .._math.complex import conj as conj_
from .._math.extrema import maximum as maximum_, minimum as minimum_
from .._math.misc import absolute
from .._math.rounding import around
from .._sorting.counting import count_nonzero as count_nonzero_
from .._sorting.searching_nonzero import flatnonzero
from . import _sputils
from ._sputils import issparse
from ._reduce import sparse_argminmax, sparse_mean, sparse_minmax, sparse_sum
from ._binop import compare, multiply_dense, union_binop

__all__ = ["_spbase", "spmatrix", "sparray", "isspmatrix", "container", "register"]

_CLASSES: dict = {}  # (format, is_array) -> class


def register(cls):
    """Class decorator: make `cls` the container for its (format, matrix/array kind)."""
    _CLASSES[(cls._format, issubclass(cls, sparray))] = cls
    return cls


def container(fmt: str, is_array: bool):
    """The class of format `fmt` of the same kind (matrix or array)."""
    return _CLASSES[(fmt, is_array)]


def isspmatrix(x) -> bool:
    """See `scipy.sparse.isspmatrix`: a sparse matrix (not a sparse array).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> sparse.isspmatrix(sparse.csr_matrix(cuarray.eye(2))), sparse.isspmatrix(cuarray.eye(2))
    (True, False)
    """
    return isinstance(x, spmatrix)


def _is_host_sparse(x) -> bool:
    return type(x).__module__.startswith("scipy.sparse")


class _spbase(_sputils.SparseRoot):
    """Common sparse behaviour; see the module docstring."""

    __array_priority__ = 10.1
    _format = None
    ndim = 2

    # -- storage-independent attributes ----------------------------------------------------
    @property
    def shape(self) -> tuple:
        return self._shape

    @property
    def format(self) -> str:
        return self._format

    @property
    def dtype(self) -> numpy.dtype:
        return self.data.dtype

    @property
    def size(self) -> int:
        return self.nnz

    @property
    def _is_array(self) -> bool:
        return isinstance(self, sparray)

    def _container(self, fmt):
        return container(fmt, self._is_array)

    def __len__(self):
        raise TypeError("sparse array length is ambiguous; use getnnz() or shape[0]")

    def __bool__(self):
        if self.shape == (1, 1):
            return self.nnz != 0 and bool(self.tocsr().data.any())
        raise ValueError("The truth value of an array with more than one element is ambiguous. "
                         "Use a.any() or a.all().")

    def __array__(self, *args, **kwargs):
        raise TypeError("cuarray sparse matrices do not convert to NumPy implicitly; call .get() for a "
                        "scipy.sparse matrix or .toarray().get() for a dense NumPy array")

    def __repr__(self):
        kind = "sparse array" if self._is_array else "sparse matrix"
        return "<{} {} of dtype '{}' with {} stored elements and shape {}>".format(
            self._format.upper(), kind, self.dtype, self.nnz, self.shape)

    def getnnz(self, axis=None):
        """Stored entries (explicit zeros included), in all or per row/column."""
        if axis is None:
            return self.nnz
        return self.tocsr()._getnnz_axis(axis)

    def count_nonzero(self, axis=None):
        """Nonzero stored values (duplicates summed first, as SciPy does)."""
        c = self.tocsr(copy=True)
        c.sum_duplicates()
        if axis is None:
            return int(count_nonzero_(c.data))
        c.eliminate_zeros()
        return c._getnnz_axis(axis)

    # -- conversions ------------------------------------------------------------------------
    def asformat(self, format, copy=False):  # noqa: A002
        """See `scipy.sparse.sparray.asformat`."""
        if format is None or format == self._format:
            return self.copy() if copy else self
        return getattr(self, "to" + format)(copy=copy)

    def todia(self, copy=False):
        return self.tocoo(copy=False).todia(copy=copy)

    def tobsr(self, blocksize=None, copy=False):
        """See `scipy.sparse.sparray.tobsr` (through CSR)."""
        return self.tocsr(copy=False).tobsr(blocksize=blocksize, copy=copy)

    def todense(self, order=None, out=None) -> ndarray:
        """A dense cuarray array (not a numpy.matrix)."""
        return self.toarray(order=order, out=out)

    def toarray(self, order=None, out=None) -> ndarray:
        return self.tocoo(copy=False).toarray(order=order, out=out)

    def get(self, stream=None):
        """This matrix as a scipy.sparse matrix or array on the host (a synchronisation)."""
        import scipy.sparse as host

        cls = getattr(host, "{}_{}".format(self._format, "array" if self._is_array else "matrix"))
        return cls(self._host_args(), shape=self.shape)

    def copy(self):
        return self._with_data(self.data.copy(), copy=True)

    def astype(self, dtype, casting="unsafe", copy=True):
        """See `scipy.sparse.sparray.astype`."""
        dt = _sputils.check_dtype(dtype)
        if dt == self.dtype:
            return self.copy() if copy else self
        return self._with_data(self.data.astype(dt, casting=casting), copy=True)

    def nonzero(self) -> tuple:
        """(row, col) device arrays of the nonzero stored entries, in storage order (duplicates
        not summed, as SciPy)."""
        coo = self.tocoo()
        keep = flatnonzero(not_equal(coo.data, 0))
        return take(coo.row, keep), take(coo.col, keep)

    def reshape(self, *shape, order="C", copy=False):
        """See `scipy.sparse.sparray.reshape` (2-D results; COO entries renumbered, then this
        format)."""
        shape = shape[0] if len(shape) == 1 and isinstance(shape[0], tuple) else shape
        m, n = self.shape
        shape = list(shape)
        if shape.count(-1) == 1:
            rest = int(numpy.prod([s for s in shape if s != -1])) if len(shape) > 1 else 1
            if rest == 0 or (m * n) % rest:
                raise ValueError("cannot reshape array of size {} into shape {}".format(m * n, tuple(shape)))
            shape[shape.index(-1)] = (m * n) // rest
        shape = _sputils.check_shape(shape)
        if shape[0] * shape[1] != m * n:
            raise ValueError("cannot reshape array of size {} into shape {}".format(m * n, shape))
        if shape == self.shape:
            return self.copy() if copy else self
        if order not in ("C", "F"):
            raise ValueError("'order' must be 'C' or 'F'")
        coo = self.tocoo()
        r, c = coo.row.astype(numpy.int64), coo.col.astype(numpy.int64)
        p, q = shape
        if order == "C":
            flat = add(multiply_(r, n), c)
            nr, nc = floor_divide(flat, q), remainder(flat, q)
        else:
            flat = add(multiply_(c, m), r)
            nr, nc = remainder(flat, p), floor_divide(flat, p)
        idt = _sputils.get_index_dtype(maxval=max(p, q))
        out = coo._from_parts(coo.data.copy(), nr.astype(idt), nc.astype(idt), shape)
        out._dedup = coo._dedup
        return out.asformat(self._format)

    # -- transposes ---------------------------------------------------------------------------
    @property
    def T(self):
        return self.transpose()

    def conjugate(self, copy=True):
        if self.dtype.kind == "c":
            return self._with_data(conj_(self.data), copy=copy)
        return self.copy() if copy else self

    conj = conjugate

    @property
    def real(self):
        """The real parts of the stored values, in a matrix of this format; its values are a view
        (a write reaches this matrix), as SciPy's. See `scipy.sparse.csr_array.real`."""
        return self._with_data(self.data.real, copy=True)

    @property
    def imag(self):
        """The imaginary parts of the stored values (zeros for a real dtype: the structure is
        kept), in a matrix of this format. See `scipy.sparse.csr_array.imag`."""
        return self._with_data(self.data.imag, copy=True)

    @property
    def H(self):
        return self.conjugate().transpose()

    def adjoint(self):
        return self.H

    # -- reductions ----------------------------------------------------------------------------
    def sum(self, axis=None, dtype=None, out=None):
        """See `scipy.sparse.sparray.sum`: 0-d for axis=None; per row/column otherwise."""
        return sparse_sum(self, axis, dtype, out)

    def mean(self, axis=None, dtype=None, out=None):
        return sparse_mean(self, axis, dtype, out)

    def max(self, axis=None, out=None, *, explicit=False):
        return sparse_minmax(self, maximum_, axis, explicit)

    def min(self, axis=None, out=None, *, explicit=False):
        return sparse_minmax(self, minimum_, axis, explicit)

    def argmax(self, axis=None, out=None, *, explicit=False):
        """See `scipy.sparse.sparray.argmax`: a Python int for axis=None, a dense array per axis."""
        return sparse_argminmax(self, maximum_, axis, explicit)

    def argmin(self, axis=None, out=None, *, explicit=False):
        return sparse_argminmax(self, minimum_, axis, explicit)

    def diagonal(self, k=0) -> ndarray:
        return self.tocsr()._diagonal(k)

    def trace(self, offset=0):
        return self.diagonal(k=offset).sum()

    def setdiag(self, values, k=0):
        """Set the k-th diagonal in place (inserts entries; the matrix becomes canonical CSR data
        converted back to this format)."""
        from ._extract import setdiag_coo  # cycle: the format modules import _base

        new = setdiag_coo(self.tocoo(), values, k).asformat(self._format)
        self._replace(new)

    # -- arithmetic ------------------------------------------------------------------------------
    def _binop_sparse(self, other, op, drop_zeros=True):
        if other.shape != self.shape:
            raise ValueError("inconsistent shapes ({} and {})".format(self.shape, other.shape))
        out = union_binop(self.tocsr(), other.tocsr(), op, drop_zeros)
        if self._format == "csc" and other._format == "csc":
            return out.tocsc()
        return out

    def _add(self, other, negate_other=False, negate_self=False):
        op = subtract if negate_other else add
        if _sputils.isscalarlike(other):
            if other != 0:
                raise NotImplementedError("adding a nonzero scalar to a sparse array is not supported")
            return -self if negate_self else self.copy()
        if issparse(other):
            res = self._binop_sparse(other, op)
            return -res if negate_self else res
        if isinstance(other, ndarray):
            d = self.toarray()
            if negate_self:
                d = -d
            return op(d, other) if not negate_self else add(d, other)
        return NotImplemented

    def __add__(self, other):
        return self._add(other)

    def __radd__(self, other):
        return self._add(other)

    def __sub__(self, other):
        return self._add(other, negate_other=True)

    def __rsub__(self, other):
        return self._add(other, negate_self=True)

    def __neg__(self):
        if self.dtype.kind == "b":
            raise NotImplementedError("negating a boolean sparse array is not supported")
        return self._with_data(negative(self.data), copy=True)

    def __pos__(self):
        return self.copy()

    def _mul_scalar(self, s):
        return self._with_data(multiply_(self.data, s), copy=True)

    def multiply(self, other):
        """Elementwise product (sparse result). See `scipy.sparse.sparray.multiply`."""
        if _sputils.isscalarlike(other):
            return self._mul_scalar(other)
        if issparse(other):
            return self._binop_sparse(other, multiply_)
        if isinstance(other, ndarray):
            return multiply_dense(self.tocsr(), other)
        raise TypeError("multiply: unsupported operand of type {}".format(type(other).__name__))

    def maximum(self, other):
        if issparse(other):
            return self._binop_sparse(other, maximum_)
        if _sputils.isscalarlike(other) and other <= 0:
            c = self.tocsr(copy=True)
            return c._with_data(maximum_(c.data, other))._pruned()
        raise NotImplementedError("maximum with a positive scalar or dense array gives a dense result; "
                                  "use cuarray.maximum(A.toarray(), x)")

    def minimum(self, other):
        if issparse(other):
            return self._binop_sparse(other, minimum_)
        if _sputils.isscalarlike(other) and other >= 0:
            c = self.tocsr(copy=True)
            return c._with_data(minimum_(c.data, other))._pruned()
        raise NotImplementedError("minimum with a negative scalar or dense array gives a dense result; "
                                  "use cuarray.minimum(A.toarray(), x)")

    def _divide(self, other, rdivide=False):
        if _sputils.isscalarlike(other):
            if rdivide:
                raise NotImplementedError("dividing a scalar by a sparse array gives a dense result")
            # SciPy's rule: a dtype that casts safely to float64 divides in float64 (a float32
            # matrix / 2 is float64), a complex one in its own type
            data = self.data.astype(numpy.float64) if numpy.can_cast(self.dtype, numpy.float64) else self.data
            return self._with_data(true_divide(data, other), copy=True)
        if isinstance(other, ndarray):
            d = self.toarray()
            return true_divide(other, d) if rdivide else true_divide(d, other)
        if issparse(other):
            raise NotImplementedError("sparse / sparse is not supported (the result is dense with NaNs); "
                                      "divide dense arrays")
        return NotImplemented

    def __truediv__(self, other):
        return self._divide(other)

    def __rtruediv__(self, other):
        return self._divide(other, rdivide=True)

    def __matmul__(self, other):
        if _sputils.isscalarlike(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        from ._matmul import matmul  # cycle: the format modules import _base

        return matmul(self, other)

    def __rmatmul__(self, other):
        if _sputils.isscalarlike(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        from ._matmul import rmatmul  # cycle: the format modules import _base

        return rmatmul(self, other)

    def dot(self, other):
        if _sputils.isscalarlike(other):
            return self._mul_scalar(other)
        return self.__matmul__(other)

    def power(self, n, dtype=None):
        """Elementwise power of the stored values (`n` a scalar). See `scipy.sparse.sparray.power`."""
        if not _sputils.isscalarlike(n):
            raise NotImplementedError("input is not scalar")
        if n == 0:
            raise NotImplementedError("zero power is not supported as it would densify the matrix; "
                                      "use cuarray.ones(A.shape, dtype=A.dtype)")
        data = self._deduped_data()
        data = data if dtype is None else data.astype(dtype)
        # the operator, as SciPy's `data ** n`: NumPy's square for n = 2 (a bool matrix squared is
        # int8, power's int64)
        return self._with_data(data ** n, copy=True)

    def _deduped_data(self):
        """The stored values with duplicate entries summed first (in place, as SciPy's): a function
        that is not linear (power, abs, round, sqrt, sign, ...) is of each cell's value, not of the
        parts a COO (or non-canonical CSR) matrix stores for it."""
        if not (self._dedup if self._format == "coo" else getattr(self, "_canon", True)):
            self.sum_duplicates()
        return self.data

    def __abs__(self):
        return self._with_data(absolute(self._deduped_data()), copy=True)

    def __round__(self, ndigits=0):
        return self._with_data(around(self._deduped_data(), decimals=ndigits), copy=True)

    # -- comparisons (sparse bool results; see _binop.compare) ------------------------------------
    __hash__ = None  # mutable and compared elementwise, as SciPy's

    def _compare(self, other, name):
        return compare(self, other, name)

    def __lt__(self, other):
        return self._compare(other, "lt")

    def __gt__(self, other):
        return self._compare(other, "gt")

    def __le__(self, other):
        return self._compare(other, "le")

    def __ge__(self, other):
        return self._compare(other, "ge")

    def __eq__(self, other):
        return self._compare(other, "eq")

    def __ne__(self, other):
        return self._compare(other, "ne")

    def _pruned(self):
        self.eliminate_zeros()
        return self


class spmatrix:
    """Marker of the sparse *matrix* classes: `*` and `**` are matrix products, reductions 2-D.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> isinstance(sparse.csr_matrix(cuarray.eye(2)), sparse.spmatrix)
    True
    """

    def __mul__(self, other):
        if _sputils.isscalarlike(other):
            return self._mul_scalar(other)
        return self.__matmul__(other)

    def __rmul__(self, other):
        if _sputils.isscalarlike(other):
            return self._mul_scalar(other)
        return self.__rmatmul__(other)

    def __pow__(self, n):
        from ._matmul import matrix_power  # cycle: the format modules import _base

        return matrix_power(self, n)

    def getformat(self):
        return self.format

    def getnnz(self, axis=None):
        return _spbase.getnnz(self, axis)

    def getH(self):
        return self.H

    def get_shape(self):
        return self.shape

    def getrow(self, i):
        """Row i as a (1, n) sparse matrix (CSR)."""
        return self.tocsr()[[_sputils.normalize_index(i, self.shape[0], "row index")], :]

    def getcol(self, j):
        """Column j as an (m, 1) sparse matrix (CSC)."""
        return self.tocsc()[:, [_sputils.normalize_index(j, self.shape[1], "column index")]]

    def __iter__(self):
        for i in range(self.shape[0]):
            yield self.getrow(i)


class sparray:
    """Marker of the sparse *array* classes: `*` and `**` are elementwise.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> isinstance(sparse.csr_array(cuarray.eye(2)), sparse.sparray)
    True
    """

    def __mul__(self, other):
        return self.multiply(other)

    def __rmul__(self, other):
        return self.multiply(other)

    def __pow__(self, n):
        return self.power(n)
