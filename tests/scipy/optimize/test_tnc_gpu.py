"""cuarray.scipy.optimize.minimize(method='TNC') and fmin_tnc on the device: Rosenbrock, fresh
random strictly convex box-constrained quadratics built around a known minimizer (tnc_problems.py),
SciPy's Schittkowski problems with finite differences, fixed variables, callbacks, limits and
SciPy's errors. TNC's Hessian-vector products difference the gradient with a step near sqrt(eps),
which magnifies the device's rounding (reductions in another order than the C code's): results
are compared with the exact minimizer to the accuracy of TNC's stopping tests, never with SciPy's
iterates or counts."""

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
from lsq_compare import raises_as_scipy  # noqa: E402
from tnc_problems import known_box_qp  # noqa: E402

X0 = np.array([1.3, 0.7, 0.8, 1.9, 1.2])  # SciPy's Rosenbrock start, in [1]*5's basin


@pytest.mark.parametrize("jac", ["callable", True])
def test_rosenbrock(jac):
    # ftol = xtol = 0: TNC stops on its projected-gradient test (status 0), |g * (1 + |x0|)| below
    # 1.2e-6; the Hessian's smallest eigenvalue at [1]*5 is ~0.4: |x - 1| <= 3e-6, 1e-5 with margin
    # (or, rarely, on a step that left f unchanged to the last bit: status 1, at the same floor)
    fun = (lambda x: (co.rosen(x), co.rosen_der(x))) if jac is True else co.rosen
    r = co.minimize(fun, cuarray.asarray(X0), method="TNC", jac=True if jac is True else co.rosen_der,
                    options={"maxfun": 5000, "ftol": 0, "xtol": 0})
    assert isinstance(r.x, cuarray.ndarray) and isinstance(r.jac, cuarray.ndarray) and isinstance(r.fun, float)
    assert r.status in (0, 1) and r.success, (r.message, r.nit, r.x.get())
    np.testing.assert_allclose(r.x.get(), np.ones(5), rtol=0, atol=1e-5)
    np.testing.assert_allclose(r.jac.get(), so.rosen_der(r.x.get()), rtol=1e-10, atol=1e-12)
    assert abs(r.fun - so.rosen(r.x.get())) <= 1e-14


@pytest.mark.parametrize("n", [7, 120])
def test_box_qp_known_minimizer(n):
    # the minimizer is known (KKT by construction). At TNC's stop (ftol = xtol = 1e-14) the scaled
    # projected gradient is below 1.2e-6, so |pg| <= 6e-6 (box widths >= 0.2) and, with the Hessian's
    # eigenvalues >= 1, |x - x*| <= 6e-6; or a step changed f by a few ulps (status 1), which on
    # these quadratics (condition <= 10) happens only at the minimizer. 2e-5 leaves a margin of 3
    rng = np.random.default_rng()
    a, c, lo, hi, want = known_box_qp(rng, n)
    ad, cd = cuarray.asarray(a), cuarray.asarray(c)
    x0 = cuarray.asarray(np.concatenate([rng.uniform(-1, 1, n), np.zeros(n)]))[::2]  # strided
    r = co.minimize(lambda x: (0.5 * x @ (ad @ x) - cd @ x, ad @ x - cd), x0, method="TNC", jac=True,
                    bounds=co.Bounds(lo, hi), options={"ftol": 1e-14, "xtol": 1e-14, "maxfun": 100 * n})
    assert r.status in (0, 1), (r.message, r.nit, r.nfev)
    x = r.x.get()
    np.testing.assert_allclose(x, want, rtol=0, atol=2e-5, err_msg="nit {} status {}".format(r.nit, r.status))
    assert np.all(x >= lo) and np.all(x <= hi)
    np.testing.assert_allclose(r.jac.get(), a @ x - c, rtol=1e-10, atol=1e-10)


def _f5(x):
    return cuarray.sin(x[0] + x[1]) + (x[0] - x[1]) ** 2 - 1.5 * x[0] + 2.5 * x[1] + 1.0


def test_finite_differences_schittkowski():
    # SciPy's test_tnc.py problems 1 and 5 with forward differences: SciPy's own tolerance, f within
    # 1e-4 of the minimum (forward differences leave g accurate to ~1e-7 relative)
    r = co.minimize(lambda x: 100.0 * (x[1] - x[0] ** 2) ** 2 + (1.0 - x[0]) ** 2, cuarray.asarray([-2.0, 1.0]),
                    method="TNC", bounds=[(-np.inf, None), (-1.5, None)], options={"maxfun": 200})
    assert r.success and abs(r.fun) <= 1e-4, (r.message, r.fun)
    xopt = np.array([-0.54719755119659763, -1.5471975511965976])
    fopt = np.sin(xopt.sum()) + (xopt[0] - xopt[1]) ** 2 - 1.5 * xopt[0] + 2.5 * xopt[1] + 1.0
    for jac in (None, "2-point", "3-point"):
        r = co.minimize(_f5, cuarray.zeros(2), method="TNC", jac=jac, bounds=[(-1.5, 4), (-3, 3)],
                        options={"maxfun": 200})
        assert r.success and abs(r.fun - fopt) <= 1e-4, (jac, r.message, r.fun, fopt)


def test_fixed_variables_callback_and_fmin_tnc():
    seen = []
    bounds = [(0.2, 0.2), (0, 1), (0, 1), (-1, 2), (0, 3)]
    opts = {"maxfun": 500, "ftol": 0, "xtol": 0}
    r = co.minimize(co.rosen, cuarray.asarray(X0), method="TNC", jac=co.rosen_der, bounds=bounds,
                    callback=seen.append, options=opts)
    ref = so.minimize(so.rosen, X0, method="TNC", jac=so.rosen_der, bounds=bounds, options=opts)
    x = r.x.get()
    assert x[0] == 0.2 and np.isnan(r.jac.get()[0]) and r.success and ref.success, (r.message, ref.message)
    # both stop at the bounded minimizer with a projected gradient ~1e-6: f there to ~1e-12 (it is 3.53)
    assert abs(r.fun - ref.fun) <= 1e-8 * (1 + abs(ref.fun)), (r.fun, ref.fun)
    assert len(seen) == r.nit and all(isinstance(v, cuarray.ndarray) and v.shape == (5,) for v in seen)
    assert float(seen[-1][0].get()) == 0.2
    xf, nfev, rc = co.fmin_tnc(lambda v: (co.rosen(v), co.rosen_der(v)), cuarray.asarray(X0), messages=0, maxfun=25)
    assert isinstance(xf, cuarray.ndarray) and rc == 3 and nfev <= 26
    r = co.minimize(co.rosen, cuarray.asarray(X0), method="TNC", bounds=[(1, 1)] * 5)
    assert r.message == "All independent variables were fixed by bounds." and r.nfev == 1


def test_errors_as_scipy():
    x0 = cuarray.asarray(X0)
    for kw in ({"bounds": [(0, 1)] * 4}, {"bounds": [(2, 1)] * 5}, {"options": {"scale": np.ones(3)}}):
        raises_as_scipy(lambda: co.minimize(co.rosen, x0, method="TNC", **kw),
                        lambda: so.minimize(so.rosen, X0, method="TNC", **kw))
    raises_as_scipy(lambda: co.minimize(co.rosen, x0, method="TNC", bounds=[(2, 3)] * 5),
                    lambda: so.minimize(so.rosen, X0, method="TNC", bounds=[(2, 3)] * 5))
    with pytest.raises(ValueError, match="must only have one dimension"):
        co.minimize(co.rosen, cuarray.ones((2, 2)), method="TNC")
