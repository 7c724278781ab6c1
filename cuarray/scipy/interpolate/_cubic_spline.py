"""`CubicSpline`: the slopes at the knots solve SciPy's tridiagonal system (its rows, its end
conditions) by `_tridiag` (cuSPARSE's gtsv2, every extra column in one call); then the cubic Hermite
coefficients. 'periodic' removes the last unknown as SciPy does: two right-hand sides of the
(n - 2)-row system in one solve, then the last slope from the remaining row."""

from __future__ import annotations

import numpy

from ..._creation.basic import zeros
from ..._logic.truth import all as all_
from ..._manipulation.dims import broadcast_to
from ..._manipulation.joining import concatenate
from ..._math.misc import abs as abs_
from ..._math.sums import sum as sum_
from ..._math.sums_scan import diff as diff_
from . import _inputs
from ._cubic import CubicHermiteSpline, prepare_input
from ._tridiag import solve_tridiagonal

__all__ = ["CubicSpline", "validate_bc"]


def validate_bc(bc_type, y, expected_deriv_shape, axis):
    """SciPy's validation of `bc_type`: ([start, end], y), y complex when a value is complex."""
    if isinstance(bc_type, str):
        if bc_type == "periodic":
            diff = abs_(y[0] - y[-1]) <= 1e-15 + 1e-15 * abs_(y[-1])
            if not bool(all_(diff)):
                raise ValueError(f"The first and last `y` point along axis {axis} must be identical (within "
                                 "machine precision) when bc_type='periodic'.")
        bc_type = (bc_type, bc_type)
    else:
        if len(bc_type) != 2:
            raise ValueError("`bc_type` must contain 2 elements to specify start and end conditions.")
        if "periodic" in bc_type:
            raise ValueError("'periodic' `bc_type` is defined for both curve ends and cannot be used with other "
                             "boundary conditions.")
    out = []
    for bc in bc_type:
        if isinstance(bc, str):
            if bc == "clamped":
                out.append((1, zeros(expected_deriv_shape)))
            elif bc == "natural":
                out.append((2, zeros(expected_deriv_shape)))
            elif bc in ("not-a-knot", "periodic"):
                out.append(bc)
            else:
                raise ValueError(f"bc_type={bc} is not allowed.")
        else:
            try:
                order, value = bc
            except Exception as e:
                raise ValueError("A specified derivative value must be given in the form (order, value).") from e
            if order not in (1, 2):
                raise ValueError("The specified derivative order must be 1 or 2.")
            value = _inputs.param(value)
            if value.shape != expected_deriv_shape:
                raise ValueError(f"`deriv_value` shape {value.shape} is not the expected one "
                                 f"{expected_deriv_shape}.")
            if value.dtype.kind == "c":
                y = y.astype(numpy.complex128)
            out.append((order, value))
    return out, y


def _end_row(bc, x, dx, y2, slope, start):
    """(diagonal, off-diagonal, right-hand side row) of one end condition; y2/slope (n, r)."""
    if bc == "not-a-knot":
        if start:
            d = x[2] - x[0]
            rhs = ((dx[0] + 2 * d) * dx[1] * slope[0] + dx[0] ** 2 * slope[1]) / d
            return dx[1], d, rhs
        d = x[-1] - x[-3]
        rhs = (dx[-1] ** 2 * slope[-2] + (2 * d + dx[-1]) * dx[-2] * slope[-1]) / d
        return dx[-2], d, rhs
    order, value = bc
    value = value.reshape(-1)
    if order == 1:
        return x[0] * 0 + 1, x[0] * 0, broadcast_to(value, slope[0].shape).astype(slope.dtype)
    if start:
        return 2 * dx[0], dx[0], -0.5 * value * dx[0] ** 2 + 3 * (y2[1] - y2[0])
    return 2 * dx[-1], dx[-1], 0.5 * value * dx[-1] ** 2 + 3 * (y2[-1] - y2[-2])


def _row(v):
    return v.reshape((1,) + tuple(v.shape))


def _scalar(v):
    return v.reshape((1,))


def _slopes_open(x, dx, y2, slope, bc):
    n = x.shape[0]
    d0, u0, r0 = _end_row(bc[0], x, dx, y2, slope, True)
    dn, ln, rn = _end_row(bc[1], x, dx, y2, slope, False)
    if n == 3 and bc[0] == "not-a-knot" and bc[1] == "not-a-knot":
        one, zero = x[0] * 0 + 1, x[0] * 0
        d0, u0, r0 = one, one, 2 * slope[0]
        dn, ln, rn = one, one, 2 * slope[1]
    diag = concatenate((_scalar(d0), 2 * (dx[:-1] + dx[1:]), _scalar(dn)))
    upper = concatenate((_scalar(u0), dx[:-1], _scalar(x[0] * 0)))
    lower = concatenate((_scalar(x[0] * 0), dx[1:], _scalar(ln)))
    inner = 3 * (dx[1:, None] * slope[:-1] + dx[:-1, None] * slope[1:])
    rhs = concatenate((_row(r0), inner, _row(rn)))
    return solve_tridiagonal(lower, diag, upper, rhs)


def _slopes_periodic(x, dx, y2, slope):
    n = x.shape[0]
    if n == 3:
        t = sum_(slope / dx[:, None], axis=0) / sum_(1.0 / dx)
        return broadcast_to(t, (n,) + t.shape) + 0 * y2
    # the system of the first n - 2 slopes (SciPy's Ac) with two right-hand sides
    diag = concatenate((_scalar(2 * (dx[-1] + dx[0])), 2 * (dx[:-2] + dx[1:-1])))[: n - 2]
    upper = concatenate((_scalar(dx[-1]), dx[:-2]))[: n - 2]
    lower = dx[: n - 2]
    b = concatenate((_row(3 * (dx[0] * slope[-1] + dx[-1] * slope[0])),
                         3 * (dx[1:, None] * slope[:-1] + dx[:-1, None] * slope[1:])))
    r = slope.shape[1]
    e = zeros((n - 2, 1), dtype=slope.dtype)
    e[0] = -dx[0]
    e[-1] = -dx[-3]
    sols = solve_tridiagonal(lower, diag, upper, concatenate((b[:-1], e), axis=1))
    s1, s2 = sols[:, :r], sols[:, r:]
    s_m1 = ((b[-1] - dx[-2] * s1[0] - dx[-1] * s1[-1])
            / (2 * (dx[-1] + dx[-2]) + dx[-2] * s2[0] + dx[-1] * s2[-1]))
    body = s1 + s_m1[None] * s2
    return concatenate((body, _row(s_m1), body[:1]))


class CubicSpline(CubicHermiteSpline):
    """See `scipy.interpolate.CubicSpline`. The slopes' tridiagonal system is solved on the
    device (`_tridiag`: cuSPARSE's gtsv2 with partial pivoting for a spline's few columns)."""

    def __init__(self, x, y, axis=0, bc_type="not-a-knot", extrapolate=None):
        x, dx, y, axis, _ = prepare_input(x, y, axis)
        n = x.shape[0]
        bc, y = validate_bc(bc_type, y, y.shape[1:], axis)
        if extrapolate is None:
            extrapolate = "periodic" if bc[0] == "periodic" else True
        if y.size == 0:
            s = zeros(y.shape, dtype=y.dtype)
        else:
            y2 = y.reshape((n, -1))
            slope = diff_(y2, axis=0) / dx[:, None]
            if n == 2:
                bc = [(1, slope[0]) if b in ("not-a-knot", "periodic") else b for b in bc]
            if bc[0] == "periodic":
                s = _slopes_periodic(x, dx, y2, slope)
            else:
                s = _slopes_open(x, dx, y2, slope, bc)
            s = s.astype(y.dtype).reshape(y.shape)
        self._set(x, dx, y, s, axis, extrapolate)
