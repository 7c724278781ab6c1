"""least_squares(tr_solver='lsmr') on the device ('trf' and 'dogbox'), checked against the exact
minimizer of fresh random problems (see test_least_squares_lsmr_cpu for the problems and the
bounds): f(x) = A x + c tanh(x) (zero-padded to m = 3n) - b, A Gaussian / sqrt(m), kept where
J(x*)'s smallest singular value is over 0.3; b = f(x_true) (zero residual, minimizer x_true), or a
bound that cuts x_true off (the minimizer that of the reduced problem with the bound held)."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

so = pytest.importorskip("scipy.optimize")

import cuarray  # noqa: E402
import cuarray.scipy.optimize as co  # noqa: E402
from test_least_squares_lsmr_cpu import bounded_case, draw  # noqa: E402  (tests/scipy/optimize on sys.path)

TIGHT = {"ftol": 1e-12, "xtol": 1e-12, "gtol": 1e-12}


def _problem(rng, c):
    A, b, fun_h, jac_h, x_true = draw(rng, c)
    m, n = A.shape
    Ad, bd, pad = cuarray.asarray(A), cuarray.asarray(b), cuarray.zeros(m - n)

    def fun_d(x):
        return Ad @ x + c * cuarray.concatenate([cuarray.tanh(x), pad]) - bd

    def jac_d(x):
        d = cuarray.diag(1 / cuarray.cosh(x) ** 2)
        return Ad + c * cuarray.concatenate([d, cuarray.zeros((m - n, n))])

    return fun_h, jac_h, fun_d, jac_d, x_true


@pytest.mark.parametrize("method,tr_options,loss", [("trf", {}, "linear"), ("trf", {"regularize": False}, "soft_l1"),
                                                    ("trf", {"damp": 0.1, "maxiter": 200}, "linear"),
                                                    ("dogbox", {}, "linear"), ("dogbox", {"atol": 1e-10}, "soft_l1")])
def test_zero_residual_minimizer(method, tr_options, loss):
    rng = np.random.default_rng()
    fun_h, _, fun_d, jac_d, x_true = _problem(rng, 0.2)
    r = co.least_squares(fun_d, np.zeros(x_true.size), jac=jac_d, method=method, tr_solver="lsmr",
                         tr_options=tr_options, loss=loss, **TIGHT)
    assert r.success and isinstance(r.x, cuarray.ndarray), r.message
    x = r.x.get()
    res = np.linalg.norm(fun_h(x))
    # near x_true, |x - x_true| <= |f(x)| / sigma_min with sigma_min > 0.3 (a factor 2 for the curvature)
    assert np.linalg.norm(x - x_true) <= 2 * res / 0.3 + 1e-12, (np.linalg.norm(x - x_true), res)
    # and the run converged: the step test (xtol) bounds neither |x - x_true| nor |f|; with soft_l1,
    # SciPy's own lsmr runs of these problems stop on it at |f| up to ~2e-8 |f(x0)| (the host copy
    # follows SciPy's path there), so 1e-6 only tells a converged run from a stalled one
    assert res <= 1e-6 * np.linalg.norm(fun_h(np.zeros(x_true.size))), res


@pytest.mark.parametrize("method,x_scale", [("trf", None), ("trf", "jac"), ("dogbox", None)])
def test_bounded_minimizer(method, x_scale):
    fun_h, jac_h, fun_d, jac_d, x_true, lb, ub, x_star = bounded_case(np.random.default_rng(), _problem)
    n = x_true.size
    x0 = np.clip(np.zeros(n), lb + 0.1, ub - 0.1)
    r = co.least_squares(fun_d, x0, jac=jac_d, method=method, bounds=(lb, ub), x_scale=x_scale, tr_solver="lsmr",
                         **TIGHT)
    assert r.success, r.message
    x = r.x.get()
    g = jac_h(x).T @ fun_h(x)
    # the a posteriori bound of strongly convex box problems (see test_least_squares_lsmr_cpu)
    bound = 124 * np.linalg.norm(x - np.clip(x - g, lb, ub)) + 1e-13
    err = np.linalg.norm(x - x_star)
    assert err <= bound and err <= 1e-5, (err, bound)


def test_lsmr_options_errors():
    rng = np.random.default_rng()
    _, _, fun_d, jac_d, x_true = _problem(rng, 0.2)
    with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
        co.least_squares(fun_d, np.zeros(x_true.size), jac=jac_d, tr_solver="lsmr", tr_options={"bogus": 1})
    with pytest.warns(UserWarning, match="The keyword 'regularize' in `tr_options` is not relevant for 'dogbox'"):
        r = co.least_squares(fun_d, np.zeros(x_true.size), jac=jac_d, method="dogbox", tr_solver="lsmr",
                             tr_options={"regularize": True})
    assert r.success
