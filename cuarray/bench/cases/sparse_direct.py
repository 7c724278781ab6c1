"""The sparse direct solvers (group `sparse-direct`): spsolve of the 2-D Poisson matrix (5-point
stencil) with 10^6 unknowns, cuarray on cuDSS against cupyx.scipy.sparse.linalg.spsolve and
SciPy's spsolve (SuperLU) on the host; "n/a" for cuarray where cuDSS is not installed."""

from __future__ import annotations

from . import NotAvailable, register
from cuarray.cuda.libs import cudss


def _poisson(side):
    import numpy
    import scipy.sparse as ssp

    t = ssp.diags([-numpy.ones(side - 1), 4 * numpy.ones(side), -numpy.ones(side - 1)], [-1, 0, 1])
    i = ssp.eye(side)
    off = ssp.diags([-numpy.ones(side - 1), -numpy.ones(side - 1)], [-1, 1])
    return (ssp.kron(i, t) + ssp.kron(off, i)).tocsr()


spsolve = register(
    "sparse-direct-spsolve", group="sparse-direct",
    description="spsolve(A, b), A the 2-D Poisson matrix of a side x side grid (float64)",
    size=1000, quick=300, timing="host", size_label=lambda s: "{}^2 unknowns".format(s),
)


@spsolve.setup("cuarray", "cupy", "numpy")
def _(xp, side, param):
    import numpy

    h = _poisson(side)
    b = numpy.random.default_rng(8).random(side * side)
    name = getattr(xp, "__name__", "")
    if name == "numpy":
        import scipy.sparse.linalg as sla
        return lambda: sla.spsolve(h, b)
    if name == "cuarray":
        sp, solve = xp.sparse, xp.sparse.linalg.spsolve
        if not cudss.available():
            raise NotAvailable("cuDSS not installed (pip install 'cuarray[cudss]')")
        a = sp.csr_matrix(h)
    else:
        import cupyx.scipy.sparse as sp
        from cupyx.scipy.sparse.linalg import spsolve as solve
        a = sp.csr_matrix(h)
    bd = xp.asarray(b)
    return lambda: solve(a, bd)
