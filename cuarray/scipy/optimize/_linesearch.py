"""SciPy's Wolfe line searches along a device direction: the scalar searches (MINPACK's DCSRCH,
then the strong-Wolfe zoom as the fallback) are SciPy's own host routines on host scalars;
each trial point, value and gradient stays on the device.

Host reads: one per trial step of DCSRCH (the value and the slope g.p read together, since
DCSRCH always asks for both at the same step), and in the fallback one per value and one per
slope it asks for. These scalars are what the search decides on; nothing else is read."""

import warnings

from ..._core.transfer import to_host
from ..._manipulation.joining import stack
from ...linalg._products import vdot

__all__ = ["LineSearchError", "line_search_wolfe12"]


class LineSearchError(RuntimeError):
    pass


def _scalar_searches():
    # optional dependency: the scalar searches are SciPy's (host work on a few floats)
    from scipy.optimize._linesearch import (LineSearchWarning, scalar_search_wolfe1,  # noqa: PLC0415
                                            scalar_search_wolfe2)

    return scalar_search_wolfe1, scalar_search_wolfe2, LineSearchWarning


def line_search_wolfe12(obj, xk, pk, gfk, old_fval, old_old_fval, c1=1e-4, c2=0.9, amin=1e-8, amax=50,
                        extra_condition=None, amax2=None):
    """SciPy's `_line_search_wolfe12` (DCSRCH's `amin`/`amax`; the fallback's `amax2`, which SciPy
    passes only where its caller gave `amax`): (alpha, fval, old_fval, gradient at the new point
    or None, the new point xk + alpha pk)."""
    wolfe1, wolfe2, warning = _scalar_searches()
    points = {}

    def point(a):
        # DCSRCH's steps are NumPy float64 scalars: as Python floats they keep a float32 iterate float32
        a = float(a)
        if a not in points:
            points[a] = xk + a * pk
        return points[a]

    derphi0 = float(to_host(vdot(gfk, pk)))
    gval, slopes = [gfk], {}

    def phi1(a):
        x = point(a)
        f, g = obj.fun(x), obj.grad(x)
        # one read: the value and the slope at this step
        both = to_host(stack([f.astype(g.dtype), vdot(g, pk)]))
        slopes[a] = (g, float(both[1]))
        return float(both[0])

    def derphi1(a):
        if a not in slopes:
            phi1(a)
        gval[0] = slopes[a][0]
        return slopes[a][1]

    alpha, fval, old_fval = wolfe1(phi1, derphi1, old_fval, old_old_fval, derphi0, c1=c1, c2=c2, amax=amax,
                                   amin=amin, xtol=1e-14)
    gnew = gval[0]
    if alpha is not None and extra_condition is not None:
        if not extra_condition(alpha, point(alpha), fval, gnew):
            alpha = None
    if alpha is None:
        gval2, gval_alpha = [None], [None]

        def phi2(a):
            return float(to_host(obj.fun(point(a))))  # one read: the value

        def derphi2(a):
            gval2[0], gval_alpha[0] = obj.grad(point(a)), a
            return float(to_host(vdot(gval2[0], pk)))  # one read: the slope

        extra2 = None
        if extra_condition is not None:
            def extra2(a, phi):
                if gval_alpha[0] != a:
                    derphi2(a)
                return extra_condition(a, point(a), phi, gval2[0])

        with warnings.catch_warnings():  # as SciPy's: the fallback's failure is the caller's status
            warnings.simplefilter("ignore", warning)
            alpha, fval, old_fval, derphi_star = wolfe2(phi2, derphi2, old_fval, old_old_fval, derphi0, c1, c2,
                                                        amax2, extra2, maxiter=10)
        gnew = None if derphi_star is None else gval2[0]
    if alpha is None:
        raise LineSearchError()
    return float(alpha), fval, old_fval, gnew, point(alpha)
