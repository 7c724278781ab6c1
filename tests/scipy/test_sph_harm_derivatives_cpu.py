"""sph_harm_y's derivatives (diff_n 1, 2): cuarray's ladder-relation formulas
(`_sph_harm.derivatives`) run with NumPy and SciPy's harmonics against SciPy's own gradient and
Hessian, over orders past the degree, the poles and broadcast shapes (no GPU)."""

import types

import numpy as np
import pytest

scipy_special = pytest.importorskip("scipy.special")

from cuarray.scipy.special._sph_harm import derivatives  # noqa: E402

NP = types.SimpleNamespace(exp=np.exp, sqrt=np.sqrt, maximum=np.maximum, stack=np.stack)


def _ours(n, m, theta, phi, diff_n):
    y = scipy_special.sph_harm_y(n, m, theta, phi)
    grad, hess = derivatives(lambda k: scipy_special.sph_harm_y(n, k, theta, phi), NP, n, m, phi, y, diff_n)
    return (y, grad) if hess is None else (y, grad, hess)


@pytest.mark.parametrize("diff_n", [1, 2])
def test_derivatives_are_scipys(diff_n):
    rng = np.random.default_rng(7)
    n = rng.integers(0, 9, 400)
    m = rng.integers(-10, 11, 400)  # |m| > n too: zero harmonics and derivatives
    theta = rng.uniform(0, np.pi, 400)
    theta[:20] = 0.0
    theta[20:40] = np.pi  # the poles
    phi = rng.uniform(0, 2 * np.pi, 400)
    got, want = _ours(n, m, theta, phi, diff_n), scipy_special.sph_harm_y(n, m, theta, phi, diff_n=diff_n)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-10 * max(1.0, np.abs(w).max()))


def test_derivatives_broadcast_and_float32():
    n, m = np.arange(4)[:, None], np.array([-1, 0, 1])
    theta, phi = np.float32(0.4), np.linspace(0, 6, 3, dtype=np.float32)
    got, want = _ours(n, m, theta, phi, 2), scipy_special.sph_harm_y(n, m, theta, phi, diff_n=2)
    for g, w in zip(got, want):
        assert g.shape == w.shape
        np.testing.assert_allclose(g, w.astype(g.dtype), rtol=2e-5, atol=2e-5)
