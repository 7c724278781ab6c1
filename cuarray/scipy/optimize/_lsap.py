"""`linear_sum_assignment` on the device: the costs become benefits (negated, shifted to
[-range, 0], a rectangular matrix transposed to have fewer rows than columns) and Bertsekas'
auction with eps-scaling (`_auction`) solves the square problem padded with zero-benefit dummy
rows.

Why the answer is exact. The auction ends with every person holding an object within eps of its
best at the final prices (eps-complementary slackness), so the assignment's total is within m*eps
of the optimum (m persons, dummies included). Integer (and bool, and integer-valued float) costs
are scaled by K = 16 (m + 1) and perturbed by a deterministic r_ij in [0, 16) that breaks ties
(identical rows otherwise bid for the same object one round after another); the last phase runs
at eps = 1, so the scaled total is within m of the perturbed optimum, and since the perturbation
moves any total by less than 16 n, the cost differs from the optimal cost by less than
(m + 16 n) / K < 1, and both are integers: equal. All of it is exact in float64 while
64 K * range < 2**53 (with inf entries, range is a forbidden pair's m * range + 1); past that,
and for float costs, the eps schedule ends at tol = 2**-42 * range, a rounding-level bound
m * tol on the total (still below one unit of integer costs while m * range < 2**42). Either
way the schedule stops earlier where the Bellman-Ford certificate (`_auction.certified`) finds
prices at which every person holds an object within tol of its best (tol = 1 scaled unit for
integers, which keeps the bound above under one cost unit: optimal exactly).

Infinite costs are forbidden pairs: they get benefit -M with M > m * range, so an assignment
that uses one is worse than every assignment that does not, and the problem is infeasible
exactly when the auction's optimum uses one."""

import numpy

from ..._core.host_input import as_array
from ..._core.transfer import to_host
from ..._creation.basic import empty
from ..._creation.from_data import ascontiguousarray
from ..._creation.ranges import arange
from ..._indexing.inserting import take_along_axis
from ..._logic.content import isinf, isnan
from ..._logic.truth import all as all_, any as any_
from ..._manipulation.joining import stack
from ..._math.rounding import floor
from ..._sorting.searching import where
from ..._sorting.sorting import argsort
from ..._statistics.order import max as max_, min as min_
from ._auction import THETA, auction

__all__ = ["linear_sum_assignment"]

FN = "scipy.optimize.linear_sum_assignment"
# tie-breaking perturbation of integer benefits: r_ij in [0, PERTURB)
PERTURB = 16
# float64 holds every integer below 2**53; prices and bids stay within a few times the range
EXACT_LIMIT = 2.0 ** 53 / 64


def _tie_breaks(n, m):
    """A deterministic pseudo-random r_ij in [0, PERTURB) (the top bits of a squared 32-bit
    hash of i and j): the same ties are broken the same way on every call."""
    i = arange(n, dtype=numpy.uint64)[:, None]
    j = arange(m, dtype=numpy.uint64)[None, :]
    h = (i * numpy.uint64(2654435761) + j * numpy.uint64(2246822519) + numpy.uint64(374761393)) \
        % numpy.uint64(1 << 32)
    return ((h * h) % numpy.uint64(1 << 32)) // numpy.uint64((1 << 32) // PERTURB)


def _stats(c):
    """(has NaN or -inf, has +inf, min and max of the finite costs, whether the finite costs
    minus their min are all integers): one read."""
    bad = isnan(c) | (c == -numpy.inf)
    forbidden = isinf(c) & ~bad
    off = bad | forbidden
    low = min_(where(off, numpy.inf, c))
    # integral after the shift: 0.5, 1.5, ... too (masked on both sides: inf - inf warns on NumPy)
    shifted = where(off, 0.0, c) - where(off, 0.0, low)
    s = to_host(stack([x.astype(numpy.float64) for x in (
        any_(bad), any_(forbidden), low, max_(where(off, -numpy.inf, c)), all_(shifted == floor(shifted)))]))
    return bool(s[0]), bool(s[1]), float(s[2]), float(s[3]), bool(s[4])


def _benefits(c, forbidden, cmin, rng, integer):
    """The benefit matrix, its range, eps0, the final eps, the certificate's tol."""
    n, m = c.shape
    if integer:
        k = PERTURB * (m + 1)
        r = max(rng, 1.0)
        big = m * r + 1
        a = (cmin - c) * k + _tie_breaks(n, m)
        if forbidden:
            a = where(isinf(c), -big * k, a)
        top = (big if forbidden else r) * k
        return a, top, max(1.0, float(top // (4 * THETA))), 1.0, 1.0
    r = rng if rng > 0 else 1.0
    big = (m + 1) * r
    a = cmin - c
    if forbidden:
        a = where(isinf(c), -big, a)
    top = big if forbidden else r
    tol = top * 2.0 ** -42
    return a, top, top / (4 * THETA), tol, tol


def _as_costs(cost_matrix):
    c = as_array(cost_matrix, FN)
    if not numpy.can_cast(c.dtype, numpy.float64, "safe"):
        raise TypeError(f"Cannot cast array data from {c.dtype!r} to dtype('float64') according to the rule 'safe'")
    if c.ndim != 2:
        raise ValueError(f"expected a matrix (2-D array), got a {c.ndim} array")
    return c


def linear_sum_assignment(cost_matrix, maximize=False):
    """See `scipy.optimize.linear_sum_assignment`. ``cost_matrix`` is a device array; the indices
    come back as int64 device arrays. Solved by Bertsekas' auction algorithm with eps-scaling on
    the device rather than SciPy's Jonker-Volgenant: the total cost is optimal (exactly for
    integer, bool and integer-valued costs of range below ``2**42 / max(shape)``; for other
    float costs within
    ``max(shape) * 2**-42 * (max - min of the finite costs)``, rounding level), but where several
    assignments are optimal the one returned may differ from SciPy's. Host reads: one per
    Jacobi bidding round (a phase's last bids run in one kernel launch).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.optimize import linear_sum_assignment
    >>> cost = cuarray.array([[4, 1, 3], [2, 0, 5], [3, 2, 2]])
    >>> row_ind, col_ind = linear_sum_assignment(cost)
    >>> int(cost[row_ind, col_ind].sum())
    5
    """
    c = _as_costs(cost_matrix)
    transposed = c.shape[0] > c.shape[1]
    if transposed:
        c = c.T
    n, m = c.shape
    if n == 0:
        return empty(0, dtype=numpy.int64), empty(0, dtype=numpy.int64)
    integral_dtype = c.dtype.kind in "biu"
    c = c.astype(numpy.float64)
    if maximize:
        c = -c
    bad, forbidden, cmin, cmax, integral = _stats(c)
    if bad:
        raise ValueError("matrix contains invalid numeric entries")
    if cmin > cmax:  # every entry is +inf
        raise ValueError("cost matrix is infeasible")
    rng = cmax - cmin
    # the largest scaled benefit magnitude: a forbidden pair's when there is one
    span = (m * max(rng, 1.0) + 1) if forbidden else max(rng, 1.0)
    integer = (integral_dtype or integral) and span * PERTURB * (m + 1) < EXACT_LIMIT
    if m == 1:
        col = arange(1)
    else:
        a, top, eps0, eps_min, tol = _benefits(c, forbidden, cmin, rng, integer)
        col = auction(ascontiguousarray(a), eps0, eps_min, tol, top, integer)
    if forbidden and bool(to_host(any_(isinf(take_along_axis(c, col[:, None], axis=1))))):
        raise ValueError("cost matrix is infeasible")
    if not transposed:
        return arange(n), col
    order = argsort(col)
    return col[order], order
