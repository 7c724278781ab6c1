"""least_squares ('trf', 'dogbox', 'lm') and curve_fit on the device against scipy.optimize on fresh
exponential fits. Both solvers stop on ftol/xtol 1e-12 at the same minimizer, which the fits pin
to cond(J) (< 1e3 here) times that: x to rtol 1e-6 (2e-5 with a '2-point' Jacobian, off by
sqrt(eps)), the cost to 1e-9. Iteration counts and the stopping test (ftol vs xtol) follow the
last bits of the device's reductions and the SVD, so only success is compared, never nfev."""

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

TIGHT = {"ftol": 1e-12, "xtol": 1e-12, "gtol": 1e-12}
M = 40


def _data(rng, outliers=0):
    t = np.linspace(0, 4, M)
    truth = np.array([rng.uniform(2, 3), rng.uniform(0.7, 1.5), rng.uniform(-1, 1)])
    y = truth[0] * np.exp(-truth[1] * t) + truth[2] + 0.05 * rng.standard_normal(M)
    y[rng.choice(M, outliers, replace=False)] += 1.0
    return t, y


def _fun(xp):
    def fun(x, t, y):
        return x[0] * xp.exp(-x[1] * t) + x[2] - y
    return fun


def _jac(xp):
    def jac(x, t, y):
        e = xp.exp(-x[1] * t)
        return xp.stack([e, -x[0] * t * e, xp.ones_like(t)], axis=1)
    return jac


def _check(r, ref, rtol):
    assert isinstance(r.x, cuarray.ndarray) and isinstance(r.fun, cuarray.ndarray) and isinstance(r.jac, cuarray.ndarray)
    assert r.success and ref.success, (r.message, ref.message)
    np.testing.assert_allclose(r.x.get(), ref.x, rtol=rtol, atol=1e-9, err_msg="x ({} vs {})".format(r.message, ref.message))
    np.testing.assert_allclose(r.cost, ref.cost, rtol=1e-9, atol=1e-14, err_msg="cost")
    np.testing.assert_allclose(r.fun.get(), ref.fun, rtol=1e-5, atol=1e-8, err_msg="fun")
    np.testing.assert_array_equal(r.active_mask.get(), ref.active_mask)


@pytest.mark.parametrize("method,loss,jac", [
    ("trf", "linear", "callable"), ("trf", "soft_l1", "2-point"), ("trf", "huber", "3-point"),
    ("trf", "cauchy", "callable"), ("trf", "arctan", "cs"), ("lm", "linear", "callable"), ("lm", "linear", "2-point"),
    ("dogbox", "linear", "3-point"), ("dogbox", "soft_l1", "callable"),
])
def test_least_squares(method, loss, jac):
    rng = np.random.default_rng()
    t, y = _data(rng, outliers=0 if loss == "linear" else 3)
    ours_jac, ref_jac = (_jac(cuarray), _jac(np)) if jac == "callable" else (jac, jac)
    kw = dict(TIGHT, method=method, loss=loss, f_scale=float(rng.uniform(0.5, 1.5)))
    r = co.least_squares(_fun(cuarray), [1.0, 1.0, 0.0], jac=ours_jac, args=(cuarray.asarray(t), cuarray.asarray(y)),
                         **kw)
    ref = so.least_squares(_fun(np), [1.0, 1.0, 0.0], jac=ref_jac, args=(t, y), **kw)
    _check(r, ref, 2e-5 if jac == "2-point" else 1e-6)


@pytest.mark.parametrize("method", ["trf", "dogbox"])
@pytest.mark.parametrize("x_scale", [None, "jac"])
def test_least_squares_bounds(method, x_scale):
    rng = np.random.default_rng()
    t, y = _data(rng)
    ref0 = so.least_squares(_fun(np), [1.0, 1.0, 0.0], args=(t, y))
    # the amplitude's upper bound cuts off the unconstrained minimum
    bounds = ([0.0, 0.0, -3.0], [ref0.x[0] - 0.3, 5.0, 3.0])
    x0 = [0.5 * ref0.x[0], 1.0, 0.0]
    kw = dict(TIGHT, method=method, jac="3-point", bounds=bounds, x_scale=x_scale)
    r = co.least_squares(_fun(cuarray), x0, args=(cuarray.asarray(t), cuarray.asarray(y)), **kw)
    ref = so.least_squares(_fun(np), x0, args=(t, y), **kw)
    _check(r, ref, 1e-6)
    assert ref.active_mask[0] == 1


def test_least_squares_bad_input():
    f = _fun(cuarray)
    t, y = cuarray.linspace(0, 1, 5), cuarray.zeros(5)
    with pytest.raises(ValueError, match="Initial guess is outside of provided bounds"):
        co.least_squares(f, [3.0, 1.0, 0.0], bounds=([0, 0, 0], [2, 2, 2]), args=(t, y))
    with pytest.raises(ValueError, match="Method 'lm' doesn't support bounds"):
        co.least_squares(f, [1.0, 1.0, 0.0], bounds=([0, 0, 0], [2, 2, 2]), method="lm", args=(t, y))
    with pytest.raises(ValueError, match="number of residuals is less than the number of variables"):
        co.least_squares(f, [1.0, 1.0, 0.0], method="lm", args=(t[:2], y[:2]))
    with pytest.raises(ValueError, match="`loss` must be one of"):
        co.least_squares(f, [1.0, 1.0, 0.0], loss="l1", args=(t, y))


@pytest.mark.parametrize("method,sigma", [("lm", None), ("trf", "1-D"), ("lm", "2-D")])
def test_curve_fit(method, sigma):
    rng = np.random.default_rng()
    t, y = _data(rng)
    sig = {None: None, "1-D": rng.uniform(0.5, 2, M)}.get(sigma)
    if sigma == "2-D":
        a = rng.standard_normal((M, M))
        sig = a @ a.T / M + np.eye(M)

    def model(xp):
        return lambda t, a, b, c: a * xp.exp(-b * t) + c

    popt, pcov, info, mesg, ier = co.curve_fit(model(cuarray), cuarray.asarray(t), cuarray.asarray(y), p0=[1, 1, 0],
                                               sigma=None if sig is None else cuarray.asarray(sig), method=method,
                                               full_output=True, **TIGHT)
    rp, rc, rinfo, rmesg, rier = so.curve_fit(model(np), t, y, p0=[1, 1, 0], sigma=sig, method=method,
                                              full_output=True, **TIGHT)
    # normwise, as the fits' xtol test: the offset c may be 0.005 with a standard error of 0.02, where
    # two converged fits (costs equal to 1e-13) differ by 1e-5 of c (2 of 300 host runs)
    assert np.linalg.norm(popt.get() - rp) <= 1e-5 * np.linalg.norm(rp), (popt.get(), rp)
    # pcov on the variances' scale; 'lm': SciPy's is from MINPACK's last Jacobian, a step before x
    scale = np.sqrt(np.outer(np.diag(rc), np.diag(rc)))
    np.testing.assert_array_less(np.abs(pcov.get() - rc) / scale, 1e-3)
    assert ier in (1, 2, 3, 4) and rier in (1, 2, 3, 4) and isinstance(mesg, str)


@pytest.mark.parametrize("jac", ["2-point", "callable"])
def test_least_squares_batched(jac):
    """Nielsen-damped LM over 2,000 fits against SciPy on 20 of them: the same minimizers, x normwise to
    rtol 1e-5 (the ftol stop at 1e-12 of the cost leaves x within sqrt(1e-12) * cond(J))."""
    rng = np.random.default_rng()
    batch, t = 2000, np.linspace(0, 4, M)
    p = np.stack([rng.uniform(2, 3, batch), rng.uniform(0.7, 1.5, batch), rng.uniform(-1, 1, batch)], axis=1)
    y = p[:, :1] * np.exp(-p[:, 1:2] * t) + p[:, 2:] + 0.05 * rng.standard_normal((batch, M))

    def fun(x, t, y):
        return x[:, :1] * cuarray.exp(-x[:, 1:2] * t) + x[:, 2:] - y

    def jacf(x, t, y):
        e = cuarray.exp(-x[:, 1:2] * t)
        return cuarray.stack([e, -x[:, :1] * t * e, cuarray.ones_like(e)], axis=2)

    x0 = cuarray.asarray(np.tile([1.0, 1.0, 0.0], (batch, 1)))
    r = co.least_squares_batched(fun, x0, jac=jacf if jac == "callable" else jac,
                                 args=(cuarray.asarray(t), cuarray.asarray(y)), **TIGHT)
    assert r.x.shape == (batch, 3) and bool(r.success.all()), np.bincount(r.status.get())
    x, cost = r.x.get(), r.cost.get()
    for i in rng.choice(batch, 20, replace=False):
        ref = so.least_squares(_fun(np), [1.0, 1.0, 0.0], jac=_jac(np), args=(t, y[i]), **TIGHT)
        # normwise, as test_curve_fit (the offset may sit near 0)
        assert np.linalg.norm(x[i] - ref.x) <= 1e-5 * np.linalg.norm(ref.x), ("fit", i, x[i], ref.x)
        np.testing.assert_allclose(cost[i], ref.cost, rtol=1e-10, err_msg="fit {}".format(i))
