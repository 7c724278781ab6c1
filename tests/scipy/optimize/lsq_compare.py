"""What the least-squares tests share: SciPy's exception for the same call, lsq_linear's random
bounded problems and the comparison of active_mask with SciPy's (CPU and GPU)."""

import numpy as np
import pytest

EXACT, LSMR = 1e-10, 1e-8  # x's agreement with SciPy on the host (see test_lsq_linear_cpu), with a margin


def problem(rng, m, n, kind):
    """A, b and bounds of which some cut off the unconstrained minimum ('active'), or bounds
    around it ('inactive'), or one-sided bounds ('lower')."""
    A = rng.standard_normal((m, n))
    x_true = rng.standard_normal(n)
    b = A @ x_true + 0.3 * rng.standard_normal(m)
    x_lsq = np.linalg.lstsq(A, b, rcond=None)[0]
    if kind == "inactive":
        return A, b, (x_lsq - rng.uniform(0.5, 1, n), x_lsq + rng.uniform(0.5, 1, n))
    if kind == "lower":
        lb = x_lsq + rng.uniform(-0.5, 0.5, n)
        lb[0] = x_lsq[0] + 0.1
        return A, b, (lb, np.inf)
    lb = x_lsq + rng.uniform(-0.6, 0.2, n)
    lb[0] = x_lsq[0] + 0.1  # at least one bound cuts on each side
    ub = lb + rng.uniform(0.3, 1.0, n)
    ub[1] = x_lsq[1] - 0.1
    lb[1] = ub[1] - 0.5
    return A, b, (lb, ub)


def same_active(r, ref, bounds, atol):
    """active_mask flags a variable within 1e-10 of its bound: SciPy's active bounds are ours where
    our x is as close (lsmr's x is only within ~1e-9 of the minimizer), its clearly inactive ones
    (over 1e-6 off) ours."""
    lb, ub = np.broadcast_to(bounds[0], ref.x.shape), np.broadcast_to(bounds[1], ref.x.shape)
    ours = np.asarray(r.active_mask if isinstance(r.active_mask, np.ndarray) else r.active_mask.get())
    gap = np.minimum(np.abs(ref.x - lb), np.abs(ref.x - ub))
    np.testing.assert_array_equal(ours[gap > 1e-6], ref.active_mask[gap > 1e-6])
    x = r.x if isinstance(r.x, np.ndarray) else r.x.get()
    our_gap = np.minimum(np.abs(x - lb), np.abs(x - ub))
    act = ref.active_mask != 0
    assert np.all((ours[act] == ref.active_mask[act]) | (our_gap[act] <= atol)), (ours, ref.active_mask)
    if atol <= EXACT:  # the exact solvers' x agree to 1e-14 on these problems: the same mask
        np.testing.assert_array_equal(ours, ref.active_mask)


def raises_as_scipy(ours, theirs, *args, **kw):
    """`ours(*args, **kw)` raises SciPy's exception type with SciPy's message."""
    with pytest.raises(Exception) as ref:
        theirs(*args, **kw)
    with pytest.raises(ref.type) as got:
        ours(*args, **kw)
    assert str(got.value) == str(ref.value)
