"""ArpackError and ArpackNoConvergence: the exceptions of eigs, eigsh and svds. See
`scipy.sparse.linalg.ArpackError`.

cuarray's eigensolvers are its own (no ARPACK), but they keep SciPy's exception contract: an
iteration that runs out of restarts raises ArpackNoConvergence with the converged part of the
answer. What is raised is an instance of a class derived from both cuarray's class and SciPy's
of the same name (where SciPy is installed; built once, on the first raise), so ``except
scipy.sparse.linalg.ArpackNoConvergence`` in a SciPy program catches it too.
"""

from __future__ import annotations

import functools

__all__ = ["ArpackError", "ArpackNoConvergence", "no_convergence"]


class ArpackError(RuntimeError):
    """See `scipy.sparse.linalg.ArpackError`. `infodict` maps `info` to a message.

    Examples
    --------
    >>> from cuarray.sparse import linalg as splinalg
    >>> str(splinalg.ArpackError(-9999, {-9999: "could not build an Arnoldi factorization"}))
    'ARPACK error -9999: could not build an Arnoldi factorization'
    """

    def __init__(self, info, infodict=None):
        msg = (infodict or {}).get(info, "Unknown error")
        # RuntimeError's own __init__, not super(): in the class joined with SciPy's, the next
        # class of the MRO is SciPy's, whose signature differs
        RuntimeError.__init__(self, "ARPACK error {}: {}".format(info, msg))


class ArpackNoConvergence(ArpackError):
    """See `scipy.sparse.linalg.ArpackNoConvergence`: `eigenvalues` and `eigenvectors` hold the
    converged part (cuarray arrays).

    Examples
    --------
    >>> from cuarray.sparse import linalg as splinalg
    >>> err = splinalg.ArpackNoConvergence("No convergence", [], [])
    >>> str(err), err.eigenvalues
    ('ARPACK error -1: No convergence', [])
    """

    def __init__(self, msg, eigenvalues, eigenvectors):
        ArpackError.__init__(self, -1, {-1: msg})
        self.eigenvalues = eigenvalues
        self.eigenvectors = eigenvectors


@functools.cache
def _with_scipy(cls):
    """`cls` joined with SciPy's class of the same name (`cls` itself without SciPy)."""
    try:
        # import time: SciPy only when an eigensolver fails (the optional `cuarray[scipy]`)
        import scipy.sparse.linalg as host
    except ImportError:
        return cls
    return type(cls.__name__, (cls, getattr(host, cls.__name__)), {"__module__": __name__, "__doc__": cls.__doc__})


def no_convergence(msg, eigenvalues, eigenvectors):
    """The ArpackNoConvergence to raise (an instance of SciPy's class too, where SciPy is present)."""
    return _with_scipy(ArpackNoConvergence)(msg, eigenvalues, eigenvectors)


def arpack_error(info, infodict=None):
    """The ArpackError to raise (an instance of SciPy's class too, where SciPy is present)."""
    return _with_scipy(ArpackError)(info, infodict)
