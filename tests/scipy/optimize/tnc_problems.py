"""What the TNC tests share (CPU and GPU): strictly convex box-constrained quadratics built around
a known minimizer."""

import numpy as np


def known_box_qp(rng, n):
    """(A, c, lo, hi, x*): x'Ax/2 - c'x on the box [lo, hi] with the minimizer x* chosen first.
    A's eigenvalues lie in [1, 10]; the box's widths in [0.2, 3] (some sides infinite); about a
    third of x* sits on a lower bound and a third on an upper one, with multipliers in [0.5, 2]
    (strict complementarity: the active set is well determined); c = A x* - g* makes the gradient
    there g* (0 on the free variables, the multipliers' signs on the bounds): the KKT conditions,
    which a strictly convex problem's unique minimizer alone satisfies."""
    q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    a = (q * rng.uniform(1, 10, n)) @ q.T
    kind = rng.integers(0, 3, n)  # 0 free, 1 on the lower bound, 2 on the upper bound
    lo = rng.uniform(-1.5, -0.1, n)
    hi = rng.uniform(0.1, 1.5, n)
    x = np.where(kind == 1, lo, np.where(kind == 2, hi, rng.uniform(0.5, 1, n) * np.where(
        rng.random(n) < 0.5, lo, hi)))
    mult = rng.uniform(0.5, 2, n)
    g = np.where(kind == 1, mult, np.where(kind == 2, -mult, 0.0))
    # sides that no variable rests on may be infinite
    lo = np.where((kind != 1) & (rng.random(n) < 0.2), -np.inf, lo)
    hi = np.where((kind != 2) & (rng.random(n) < 0.2), np.inf, hi)
    return a, a @ x - g, lo, hi, x
