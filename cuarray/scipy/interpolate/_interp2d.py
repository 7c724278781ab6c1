"""`interp2d`: removed from SciPy in 1.14; SciPy 1.18 keeps the name as a class whose constructor
raises NotImplementedError with the migration advice, and so does cuarray."""

from __future__ import annotations

__all__ = ["interp2d"]

_REMOVED = """`interp2d` has been removed in SciPy 1.14.0.

For legacy code, nearly bug-for-bug compatible replacements are
`RectBivariateSpline` on regular grids, and `bisplrep`/`bisplev` for
scattered 2D data.

In new code, for regular grids use `RegularGridInterpolator` instead.
For scattered data, prefer `LinearNDInterpolator` or
`CloughTocher2DInterpolator`.

For more details see
https://scipy.github.io/devdocs/tutorial/interpolate/interp_transition_guide.html
"""


class interp2d:  # noqa: N801 (SciPy's name)
    """See `scipy.interpolate.interp2d`: removed (SciPy 1.14); constructing one raises
    NotImplementedError, as SciPy 1.18 does. Use `RectBivariateSpline` or
    `RegularGridInterpolator` on grids, `bisplrep`/`bisplev`, `LinearNDInterpolator` or
    `CloughTocher2DInterpolator` for scattered data."""

    def __init__(self, x, y, z, kind="linear", copy=True, bounds_error=False, fill_value=None):
        raise NotImplementedError(_REMOVED)
