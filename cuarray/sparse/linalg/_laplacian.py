"""LaplacianNd: the grid Laplacian in N dimensions. See `scipy.sparse.linalg.LaplacianNd`.

A LinearOperator whose product is the stencil itself on the device (shifted slices of the grid,
no matrix); `tosparse` builds SciPy's CSR array from Kronecker products of 1-D Laplacians on the
device and `toarray` expands it. The eigenvalues and eigenvectors are known in closed form (a
grid step of 1: -4 sin^2 of the 1-D frequencies, summed over the axes; tensor products of 1-D
sines and cosines); they are evaluated on the host with NumPy and returned as device arrays, in
SciPy's order. For `m` given, the m largest come from the first min(n_i, m) frequencies of each
axis (SciPy cuts the grid by a tuple comparison, the same set wherever that cut holds them).
"""

from __future__ import annotations

import numpy

from ..._core.transfer import from_host
from ..._manipulation.rearranging import roll
from ..._manipulation.transpose import moveaxis
from .._construct import diags_array, eye_array, kron
from ._interface import LinearOperator

__all__ = ["LaplacianNd"]

_CONDITIONS = ("dirichlet", "neumann", "periodic")


def _eigenvalues_1d(j, n, bc):
    if bc == "dirichlet":
        return -4 * numpy.sin(numpy.pi * (j + 1) / (2 * (n + 1))) ** 2
    if bc == "neumann":
        return -4 * numpy.sin(numpy.pi * j / (2 * n)) ** 2
    return -4 * numpy.sin(numpy.pi * numpy.floor((j + 1) / 2) / n) ** 2


def _eigenvector_1d(j, n, bc):
    """The unit eigenvector of index j of the 1-D Laplacian of n points (small entries set to 0,
    exact by symmetry)."""
    i = numpy.arange(n)
    if bc == "dirichlet":
        ev = numpy.sqrt(2.0 / (n + 1.0)) * numpy.sin(numpy.pi * (i + 1) * (j + 1) / (n + 1))
    elif bc == "neumann":
        ev = numpy.sqrt((1.0 if j == 0 else 2.0) / n) * numpy.cos(numpy.pi * (i + 0.5) * j / n)
    elif j == 0:
        ev = numpy.full(n, numpy.sqrt(1.0 / n))
    elif j + 1 == n and n % 2 == 0:
        ev = numpy.sqrt(1.0 / n) * numpy.where(i % 2 == 0, 1.0, -1.0)
    elif (j + 1) % 2 == 0:
        ev = numpy.sqrt(2.0 / n) * numpy.sin(numpy.pi * (i + 0.5) * (j + 1) / n)
    else:
        ev = numpy.sqrt(2.0 / n) * numpy.cos(numpy.pi * (i + 0.5) * j / n)
    ev[numpy.abs(ev) < numpy.finfo(numpy.float64).eps] = 0.0
    return ev


def _laplacian_1d(n, bc):
    """The 1-D Laplacian of n points as an int8 CSR array (SciPy's entries, the degenerate n = 1
    and n = 2 periodic cases included)."""
    main = numpy.full(n, -2, numpy.int8)
    if bc == "neumann":
        main[0] = main[-1] = -1
    diagonals, offsets = [main], [0]
    if bc == "periodic" and n == 1:
        main[0] = -1
    elif n > 1:
        off = 2 if bc == "periodic" and n == 2 else 1
        diagonals += [numpy.full(n - 1, off, numpy.int8)] * 2
        offsets += [-1, 1]
        if bc == "periodic" and n > 2:
            diagonals += [numpy.ones(1, numpy.int8)] * 2
            offsets += [-(n - 1), n - 1]
    return diags_array(diagonals, offsets=offsets, shape=(n, n), dtype=numpy.int8, format="csr")


class LaplacianNd(LinearOperator):
    """See `scipy.sparse.linalg.LaplacianNd`: the product is a stencil on the device; `toarray`,
    `tosparse` (a CSR array), `eigenvalues` and `eigenvectors` return cuarray arrays.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> lap = splinalg.LaplacianNd((2, 3))
    >>> lap.tosparse().toarray()
    array([[-2,  1,  0,  1,  0,  0],
           [ 1, -3,  1,  0,  1,  0],
           [ 0,  1, -2,  0,  0,  1],
           [ 1,  0,  0, -2,  1,  0],
           [ 0,  1,  0,  1, -3,  1],
           [ 0,  0,  1,  0,  1, -2]], dtype=int8)
    >>> lap.eigenvalues(2)
    array([-1.,  0.])
    """

    def __init__(self, grid_shape, *, boundary_conditions="neumann", dtype=numpy.int8):
        if boundary_conditions not in _CONDITIONS:
            raise ValueError("Unknown value {!r} is given for 'boundary_conditions' parameter. The valid options "
                             "are 'dirichlet', 'periodic', and 'neumann' (default).".format(boundary_conditions))
        self.grid_shape = grid_shape
        self.boundary_conditions = boundary_conditions
        n = int(numpy.prod(grid_shape))
        super().__init__(shape=(n, n), dtype=dtype)

    def _ordering(self, m):
        """The eigenvalues ascending and their flat indices in the (cut) grid of frequencies."""
        cut = tuple(self.grid_shape) if m is None else tuple(min(n, m) for n in self.grid_shape)
        values = numpy.zeros(cut)
        for j, n in zip(numpy.indices(cut), self.grid_shape):
            values += _eigenvalues_1d(j, n, self.boundary_conditions)
        flat = values.ravel()
        ind = numpy.argsort(flat)
        if m is not None:
            ind = ind[-m:]
        return flat[ind], ind, cut

    def eigenvalues(self, m=None):
        """See `scipy.sparse.linalg.LaplacianNd.eigenvalues` (closed form on the host)."""
        return from_host(self._ordering(m)[0])

    def eigenvectors(self, m=None):
        """See `scipy.sparse.linalg.LaplacianNd.eigenvectors` (closed form on the host)."""
        _, ind, cut = self._ordering(m)
        columns = []
        for k in zip(*numpy.unravel_index(ind, cut)):
            vec = numpy.ones(1)
            for j, n in zip(k, self.grid_shape):
                vec = numpy.multiply.outer(vec, _eigenvector_1d(int(j), n, self.boundary_conditions)).ravel()
            columns.append(vec)
        return from_host(numpy.column_stack(columns))

    def tosparse(self):
        """See `scipy.sparse.linalg.LaplacianNd.tosparse`: a CSR array built on the device."""
        total = None
        dims = list(self.grid_shape)
        for i, n in enumerate(dims):
            term = _laplacian_1d(n, self.boundary_conditions)
            before, after = int(numpy.prod(dims[:i])), int(numpy.prod(dims[i + 1:]))
            if before > 1:
                term = kron(eye_array(before, dtype=numpy.int8), term, format="csr")
            if after > 1:
                term = kron(term, eye_array(after, dtype=numpy.int8), format="csr")
            total = term if total is None else (total + term).tocsr()
        return total.astype(self.dtype).tocsr()

    def toarray(self):
        """See `scipy.sparse.linalg.LaplacianNd.toarray`."""
        return self.tosparse().toarray()

    def _stencil(self, X):
        """The Laplacian of each column of X (n, k)."""
        grid = tuple(self.grid_shape)
        N = len(grid)
        X = X.reshape(grid + (-1,))
        Y = X * (-2 * N)
        for i in range(N):
            if self.boundary_conditions == "periodic":
                Y = Y + roll(X, 1, axis=i) + roll(X, -1, axis=i)
                continue
            head = (slice(None),) * i
            Y[head + (slice(1, None),)] += X[head + (slice(None, -1),)]
            Y[head + (slice(None, -1),)] += X[head + (slice(1, None),)]
            if self.boundary_conditions == "neumann":
                Y[head + (0,)] += X[head + (0,)]
                Y[head + (-1,)] += X[head + (-1,)]
        return Y.reshape(-1, X.shape[-1])

    def _matvec(self, x):
        # vectors (..., n): one column each (the operator's protocol allows batches of vectors)
        n = x.shape[-1]
        return self._stencil(x.reshape(-1, n).T).T.reshape(x.shape)

    def _matmat(self, x):
        if x.ndim == 2:
            return self._stencil(x)
        n, k = x.shape[-2:]  # a stack (..., n, k): its matrices side by side
        cols = moveaxis(x, -2, 0).reshape(n, -1)
        return moveaxis(self._stencil(cols).reshape((n,) + x.shape[:-2] + (k,)), 0, -2)

    def _rmatvec(self, x):
        return self._matvec(x)

    def _rmatmat(self, x):
        return self._matmat(x)

    def adjoint(self):
        return self

    def transpose(self):
        return self

    H = property(adjoint)
    T = property(transpose)
