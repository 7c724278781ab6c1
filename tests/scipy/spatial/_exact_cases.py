"""Point sets where the expanded form |a|^2 + |b|^2 - 2 a.b cancels and SciPy's direct formula is
exact or nearly so: shared by the host build's test of sqdist_exact.cuh, the host shim's test of
cdist/pdist and the GPU test."""

from __future__ import annotations

import numpy as np


def integer_grid(rng, m=80, k=2):
    """Integer points in a small box, so many repeat (pdist's duplicates: exact 0 in SciPy) and every
    squared distance is an exact small integer."""
    return rng.integers(0, 7, size=(m, k)).astype(np.float64)


def near_pairs(rng, m=40, k=3, offset=0.0, eps=1e-9):
    """Pairs of rows that differ by `eps` in one coordinate, at `offset` (1e6: the expanded form's
    cancellation is then eps^2 against 1e12), plus exact copies."""
    X = offset + rng.standard_normal((m, k))
    Y = X.copy()
    Y[: m // 2, 0] += eps
    return np.vstack([X, Y])


CASES = {
    "grid": lambda rng: integer_grid(rng),
    "grid5d": lambda rng: integer_grid(rng, 60, 5),
    "near": lambda rng: near_pairs(rng),
    "near_offset": lambda rng: near_pairs(rng, offset=1e6),
    "offset_grid": lambda rng: 1e6 + integer_grid(rng, 50, 3),
    "near8_offset": lambda rng: near_pairs(rng, 30, 8, offset=1e6),
}


def metric_cases(rng, k):
    """(metric, keywords) of every metric that goes through the expanded form, keywords SciPy takes."""
    w, V = rng.random(k) + 0.1, rng.random(k) + 0.5
    Q = rng.standard_normal((k, k))
    VI = Q @ Q.T + k * np.eye(k)  # well conditioned: eigenvalues in [k, k + |Q|^2]
    return [("euclidean", {}), ("sqeuclidean", {}), ("minkowski", {"p": 2}), ("seuclidean", {"V": V}),
            ("euclidean", {"w": w}), ("sqeuclidean", {"w": w}), ("mahalanobis", {"VI": VI})]


def check(cdist, pdist, dev, X, rtol, where=""):
    """cdist/pdist (device functions; `dev` moves host data there; results have .get()) of X's halves
    and of X against SciPy's: the zeros exactly where SciPy's are, every entry within rtol (atol 0).
    The parameters are host arrays, as SciPy takes them."""
    from scipy.spatial import distance as sd

    rng = np.random.default_rng(X.shape[0] * 7 + X.shape[1])
    A, B = X[::2], X[1::2]
    for metric, kw in metric_cases(rng, X.shape[1]):
        # seuclidean's and mahalanobis's C loops sum two terms at a time where SciPy was built with
        # SSE2, so even the direct formula's order differs from theirs: a few ulps (k <= 16 terms,
        # VI well conditioned)
        tol = max(rtol, 1e-14) if metric in ("seuclidean", "mahalanobis") else rtol
        for got, want, what in ((cdist(dev(A), dev(B), metric, **kw), sd.cdist(A, B, metric, **kw), "cdist"),
                                (pdist(dev(X), metric, **kw), sd.pdist(X, metric, **kw), "pdist")):
            got = np.asarray(got.get())
            msg = "{} {} {} {}: {} of {} entries past rtol {}".format(where, what, metric, sorted(kw), int(
                (~np.isclose(got, want, rtol=tol, atol=0)).sum()), want.size, tol)
            np.testing.assert_array_equal(got == 0, want == 0, err_msg=msg + " (zeros differ)")
            np.testing.assert_allclose(got, want, rtol=tol, atol=0, err_msg=msg)
