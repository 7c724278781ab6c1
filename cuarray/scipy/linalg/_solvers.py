"""Matrix equation solvers: Sylvester, Lyapunov (continuous and discrete), algebraic Riccati
(continuous and discrete), as host steps through SciPy.

Each is built on a Schur or QZ decomposition (Bartels-Stewart with LAPACK trsyl; ordered QZ of
the Hamiltonian/symplectic pencil), which cuSOLVER lacks and cuarray computes on the host (see
`schur`, `ordqz`). The other steps are O(n^3) products and solves on the same small matrices, so
moving them to the device would add transfers without shortening the host-bound critical path:
the device operands are copied to the host, SciPy solves (its balancing, `e`/`s` arguments,
batching, dtypes, warnings and errors: LinAlgError where no stabilising solution is found), and the
solution is copied back. Host data arrays are refused as everywhere in cuarray."""

from __future__ import annotations

from ._host_lapack import _on_host

__all__ = ["solve_sylvester", "solve_continuous_lyapunov", "solve_lyapunov", "solve_discrete_lyapunov",
           "solve_continuous_are", "solve_discrete_are"]


def solve_sylvester(a, b, q):
    """See `scipy.linalg.solve_sylvester`. One host step through SciPy (Bartels-Stewart: LAPACK
    gees and trsyl; see the module's notes); the solution is copied to the device.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> a = cuarray.array([[2., 0.], [0., 3.]])
    >>> linalg.solve_sylvester(a, cuarray.array([[1.]]), cuarray.array([[3.], [8.]]))
    array([[1.],
           [2.]])
    """
    return _on_host("solve_sylvester", a, b, q)


def solve_continuous_lyapunov(a, q):
    """See `scipy.linalg.solve_continuous_lyapunov`. One host step through SciPy (Schur form and
    LAPACK trsyl; see the module's notes); the solution is copied to the device.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.solve_continuous_lyapunov(cuarray.array([[-1., 0.], [0., -2.]]), cuarray.array([[-2., 0.], [0., -4.]]))
    array([[1., 0.],
           [0., 1.]])
    """
    return _on_host("solve_continuous_lyapunov", a, q)


solve_lyapunov = solve_continuous_lyapunov  # SciPy's alias: the same function


def solve_discrete_lyapunov(a, q, method=None):
    """See `scipy.linalg.solve_discrete_lyapunov`. One host step through SciPy ('direct': the
    Kronecker system, SciPy's choice below order 10; 'bilinear': the continuous equation of the
    bilinear transform); the solution is copied to the device.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.solve_discrete_lyapunov(cuarray.array([[0.5, 0.], [0., 0.5]]), cuarray.array([[3., 0.], [0., 3.]]))
    array([[4., 0.],
           [0., 4.]])
    """
    return _on_host("solve_discrete_lyapunov", a, q, method=method)


def solve_continuous_are(a, b, q, r, e=None, s=None, balanced=True):
    """See `scipy.linalg.solve_continuous_are`. One host step through SciPy (the ordered QZ of
    the Hamiltonian pencil; see the module's notes); the solution is copied to the device.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> one = cuarray.array([[1.]])
    >>> linalg.solve_continuous_are(cuarray.array([[0.]]), one, one, one)
    array([[1.]])
    """
    return _on_host("solve_continuous_are", a, b, q, r, e, s, balanced=balanced)


def solve_discrete_are(a, b, q, r, e=None, s=None, balanced=True):
    """See `scipy.linalg.solve_discrete_are`. One host step through SciPy (the ordered QZ of the
    symplectic pencil; see the module's notes); the solution is copied to the device.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> one = cuarray.array([[1.]])
    >>> linalg.solve_discrete_are(cuarray.array([[0.]]), one, one, one)
    array([[1.]])
    """
    return _on_host("solve_discrete_are", a, b, q, r, e, s, balanced=balanced)
