"""LSODA's band (solve_ivp's `lband`/`uband`, odeint's `ml`/`mu`): the Jacobian kept in LSODA's
packed rows (`_lsoda_core.Band`), its differences, row sums and LU equal to the dense ones, and the
solutions of banded stiff problems against the exact ones and SciPy's LSODA with the same band, with
NumPy standing in for the device routines. At most tridiagonal, no n x n matrix is made."""

import importlib.util
import pathlib

import numpy as np
import pytest
import scipy.integrate as si

from cuarray.scipy.integrate import _lsoda_core


def _load(name):
    spec = importlib.util.spec_from_file_location("integrate_" + name, pathlib.Path(__file__).parent / (name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


LP = _load("lsoda_problems")
packed, banded, exact, BANDS = LP.packed, LP.banded, LP.exact_linear, LP.BANDS
RTOL, ATOL = 1e-7, 1e-10


@pytest.fixture(scope="module")
def copies():
    return _load("_ivp_host").host_copies()


@pytest.mark.parametrize("ml, mu", BANDS)
def test_band_differences_row_sums_and_lu_are_the_dense_ones(copies, ml, mu):
    """Band's differences are the dense differences on the band (the same products), its row sums
    DFNORM's, and its LU's solve the dense solve of I + M (a diagonally dominant matrix, so
    1e-12 is far above its rounding)."""
    core = copies["_lsoda_core"]
    rng = np.random.default_rng()
    for n in (1, 2, 7):
        band = core.Band(ml, mu, n)
        ng = min(ml + mu + 1, n)
        F, savf, scale = rng.standard_normal((n, ng)), rng.standard_normal(n), rng.standard_normal(n)
        g = np.arange(n) % (ml + mu + 1)
        i, j = np.arange(n)[:, None], np.arange(n)[None, :]
        inside = (i - j <= ml) & (j - i <= mu)
        M = np.where(inside, (F[:, g] - savf[:, None]) * scale[None, :], 0.0)
        ab = band.differences(F, savf, scale)
        np.testing.assert_array_equal(ab, packed(M, ml, mu))
        np.testing.assert_array_equal(core.unpack_banded(ab, ml, mu, n), M)
        w = rng.uniform(0.5, 2, n)
        np.testing.assert_allclose(band.row_sums(ab, w), np.sum(np.abs(M) / w, axis=1), rtol=1e-14)
        A = np.where(inside, rng.uniform(-0.1, 0.1, (n, n)), 0.0)  # I + A: diagonally dominant
        P = band.lu(packed(A, ml, mu))
        b = rng.standard_normal(n)
        x = P.solve(b) if isinstance(P, core.TridiagonalLU) else np.linalg.solve(P, b)
        assert isinstance(P, core.TridiagonalLU) == (ml <= 1 and mu <= 1)
        np.testing.assert_allclose(x, np.linalg.solve(np.eye(n) + A, b), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("ml, mu", BANDS)
def test_banded_lsoda_and_odeint_match_scipy(copies, ml, mu):
    """A stiff banded linear problem by solve_ivp's LSODA (lband/uband; differences and a packed
    `jac`) and odeint (ml/mu, Dfun packed): LSODA switches to BDF and forms banded Jacobians; each
    solution is within LSODA's error bound (nst local errors of rtol |y| + atol: the flow
    contracts) of the exact one, as SciPy's with the same band is."""
    H = copies[""]
    rng = np.random.default_rng()
    n = 8
    J = banded(n, ml, mu, rng)
    b = rng.uniform(-1, 1, n)
    y0 = rng.uniform(-1, 1, n)
    t = np.linspace(0, 4, 5)
    want = exact(J, b, y0, t)

    def check(y, nst):
        bound = nst * (RTOL * np.max(np.abs(want), axis=1) + ATOL)
        err = np.max(np.abs(y - want), axis=1)
        assert np.all(err <= bound), (err / bound).max()

    def f(s, y):
        return J @ y + (b if y.ndim == 1 else b[:, None])
    kw = dict(method="LSODA", t_eval=t, rtol=RTOL, atol=ATOL, lband=ml, uband=mu)
    for jkw in (dict(vectorized=True), dict(jac=lambda s, y: packed(J, ml, mu))):
        for mod in (H, si):
            res = mod.solve_ivp(f, (0, 4), y0, **kw, **jkw)
            assert res.success and res.njev > 0, res.message
            check(res.y, res.nfev)  # at least one evaluation a step
    for Dfun in (None, lambda y, s: packed(J, ml, mu)):
        for mod in (H, si):
            y, info = mod.odeint(lambda y, s: f(s, y), y0, t, Dfun=Dfun, ml=ml, mu=mu, rtol=RTOL, atol=ATOL,
                                 full_output=True, mxstep=5000)
            assert info["message"] == "Integration successful."
            assert info["nje"][-1] > 0
            if Dfun is None:  # ml + mu + 1 calls of func a Jacobian, not n
                assert info["nfe"][-1] - (ml + mu + 1) * info["nje"][-1] <= 4 * info["nst"][-1]
            check(y.T, info["nst"][-1])


def test_a_large_tridiagonal_band_makes_no_dense_matrix(copies):
    """The heat equation's first mode at n = 1e5 points with lband = uband = 1 (a dense Jacobian
    would take 80 GB): LSODA reaches the exact decay exp(lam t) within its error bound, and
    SciPy's banded LSODA the same."""
    H = copies[""]
    n = 100_000
    d2 = float((n + 1) ** 2)
    x = np.arange(1, n + 1) / (n + 1)

    def f(t, y):
        z = np.zeros((1,) + y.shape[1:])
        p = np.concatenate([z, y, z])
        return (p[:-2] - 2 * p[1:-1] + p[2:]) * d2
    lam = -4 * d2 * np.sin(np.pi / (2 * (n + 1))) ** 2
    res = H.solve_ivp(f, (0, 0.01), np.sin(np.pi * x), method="LSODA", lband=1, uband=1, rtol=1e-6, atol=1e-9,
                      vectorized=True)
    assert res.success and res.njev > 0
    err = np.abs(res.y[:, -1] - np.sin(np.pi * x) * np.exp(lam * 0.01)).max()
    assert err <= len(res.t) * 1e-6, err  # steps x rtol max|y|: the flow contracts


def test_first_step_convergence_failure_is_reported(copies):
    """A corrector that never converges on the first step (fun is NaN past t0) ends with LSODA's
    istate -5 and its IMXER (the component of largest weighted correction), as ODEPACK reports
    it, instead of an AttributeError from a correction that was never stored."""
    H = copies[""]

    def f(t, y):
        return -y if t == 0 else y * np.nan
    with pytest.warns(Warning, match="Repeated convergence failures"):  # cuarray's ODEintWarning
        y, info = H.odeint(lambda y, t: f(t, y), np.ones(2), [0, 1], full_output=True)
    assert info["message"].startswith("Repeated convergence failures") and 1 <= info["imxer"] <= 2
    with pytest.warns(UserWarning, match=r"^lsoda: Repeated convergence failures \(perhaps bad Jacobian"):
        res = H.solve_ivp(f, (0, 1), np.ones(2), method="LSODA")
    assert not res.success and res.status == -1 and res.message == "Unexpected istate in LSODA."
