"""bicg, qmr, tfqmr, lgmres, gcrotmk against scipy.sparse.linalg (on the host shim and on the GPU):
dtypes, CSR/CSC/operator inputs, preconditioners, x0, callbacks, SciPy's info codes for
convergence, exhausted iterations and each breakdown, the zero right-hand side, bad arguments,
and the in-place recycling lists of lgmres (`outer_v`) and gcrotmk (`CU`)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as ssp
import scipy.sparse.linalg as sla

from ._util import D, H, rand_coo

SOLVERS = ["bicg", "qmr", "tfqmr", "lgmres", "gcrotmk"]
TOL = {"float32": 1e-4, "complex64": 1e-4, "float64": 1e-10, "complex128": 1e-10}


def _system(n, dtype, seed):
    h = (rand_coo(n, n, 0.05, dtype=dtype, seed=seed, dups=False) + ssp.eye(n) * 4).tocsr().astype(dtype)
    b = np.random.default_rng(seed + 1).random(n).astype(dtype)
    if np.dtype(dtype).kind == "c":
        b = b + 1j * np.random.default_rng(seed + 2).random(n).astype(dtype)
    return h, b


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_solves_like_scipy(dev, solver, dtype):
    n = 70
    h, b = _system(n, dtype, 60)
    rtol = 1e-5 if dtype in ("float32", "complex64") else 1e-10
    seen = []
    x, info = getattr(dev.cla, solver)(dev.sp.csr_matrix(h), D(b), rtol=rtol, callback=lambda xk: seen.append(1))
    xs, infos = getattr(sla, solver)(h, b, rtol=rtol)
    assert info == infos == 0
    assert seen
    assert H(x).dtype == xs.dtype == np.dtype(dtype)
    assert np.linalg.norm(h @ H(x) - b) <= 1.5 * rtol * np.linalg.norm(b)
    np.testing.assert_allclose(H(x), xs, rtol=30 * TOL[dtype], atol=30 * TOL[dtype])


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("kind", ["csc", "operator", "dense"])
def test_inputs_x0_and_preconditioner(dev, solver, kind):
    n = 50
    h, b = _system(n, "float64", 61)
    a = dev.sp.csr_matrix(h)
    A = {"csc": dev.sp.csc_matrix(h.tocsc()), "dense": D(h.toarray()),
         "operator": dev.cla.LinearOperator(h.shape, matvec=lambda v: a @ v, rmatvec=lambda v: a.H @ v,
                                            dtype=h.dtype)}[kind]
    m = dev.sp.diags(D(1.0 / h.diagonal()), 0, format="csr")
    x0 = np.random.default_rng(62).random(n)
    kwargs = {"M1": m} if solver == "qmr" else {"M": m}
    x, info = getattr(dev.cla, solver)(A, D(b), x0=D(x0), rtol=1e-10, **kwargs)
    assert info == 0
    np.testing.assert_allclose(H(x), ssp.linalg.spsolve(h.tocsc(), b), rtol=1e-8, atol=1e-9)


@pytest.mark.parametrize("solver", SOLVERS)
def test_maxiter_info_as_scipy(dev, solver):
    h, b = _system(80, "float64", 63)
    small = {"lgmres": {"inner_m": 2}, "gcrotmk": {"m": 2}}.get(solver, {})  # two short cycles
    x, info = getattr(dev.cla, solver)(dev.sp.csr_matrix(h), D(b), rtol=1e-14, maxiter=2, **small)
    xs, infos = getattr(sla, solver)(h, b, rtol=1e-14, maxiter=2, **small)
    assert info == infos == 2
    if solver in ("bicg", "qmr", "tfqmr"):  # two steps of the same recurrences: SciPy's iterate
        np.testing.assert_allclose(H(x), xs, rtol=1e-10, atol=1e-12)


# Small systems where each method breaks down (found against SciPy 1.17 and 1.18): SciPy's codes.
BREAKDOWNS = [
    (np.array([[0., 1.], [-1., 0.]]), np.array([1., 0.]), {"bicg": -11, "qmr": -14, "tfqmr": -1}),
    (np.array([[1., 2., 0.], [0., 0., 1.], [1., 0., 0.]]), np.array([1., 0., 0.]), {"bicg": -10, "qmr": -13}),
    (np.zeros((2, 2)), np.array([1., 1.]), {"bicg": -11, "qmr": -14, "tfqmr": -1, "lgmres": 20, "gcrotmk": 20}),
]


@pytest.mark.parametrize("case", range(len(BREAKDOWNS)))
def test_breakdown_codes(dev, case):
    A, b, codes = BREAKDOWNS[case]
    with np.errstate(all="ignore"):  # the host shim's NumPy warns where the device computes inf/nan quietly
        _check_codes(dev, A, b, codes)


def _check_codes(dev, A, b, codes):
    for solver, code in codes.items():
        x, info = getattr(dev.cla, solver)(dev.sp.csr_matrix(ssp.csr_matrix(A)), D(b), maxiter=20)
        assert info == getattr(sla, solver)(ssp.csr_matrix(A), b, maxiter=20)[1] == code, solver
        assert np.isfinite(H(x)).all()


@pytest.mark.parametrize("solver", SOLVERS)
def test_zero_rhs_and_bad_arguments(dev, solver):
    h, _ = _system(6, "float64", 64)
    a = dev.sp.csr_matrix(h)
    x, info = getattr(dev.cla, solver)(a, D(np.zeros(6)))
    assert info == 0 and not H(x).any()
    for atol in (-1.0, None, "legacy"):
        with pytest.raises(ValueError, match="atol"):
            getattr(dev.cla, solver)(a, D(np.ones(6)), atol=atol)
    with pytest.raises(ValueError):
        getattr(dev.cla, solver)(a, D(np.ones(5)))
    with pytest.raises(ValueError):
        getattr(dev.cla, solver)(dev.sp.csr_matrix(ssp.random(3, 4, density=0.5, format="csr")), D(np.ones(3)))
    with pytest.raises(TypeError, match="x0"):  # a list, not an AttributeError from inside
        getattr(dev.cla, solver)(a, D(np.ones(6)), x0=[0.0] * 6)
    if dev == "gpu":  # the host-input policy (the host shim's arrays are NumPy's)
        with pytest.raises(TypeError):
            getattr(dev.cla, solver)(a, np.ones(6))


@pytest.mark.parametrize("solver", ["lgmres", "gcrotmk"])
def test_non_finite_rhs(dev, solver):
    h, _ = _system(6, "float64", 65)
    with pytest.raises(ValueError, match="finite"):
        getattr(dev.cla, solver)(dev.sp.csr_matrix(h), D(np.array([1, np.nan, 0, 0, 0, 0.])))


def test_lgmres_outer_v_reused(dev):
    h, b = _system(60, "float64", 66)
    a = dev.sp.csr_matrix(h)
    outer = []
    x, info = dev.cla.lgmres(a, D(b), rtol=1e-10, outer_v=outer, inner_m=5, outer_k=2)
    outer_s = []
    xs, infos = sla.lgmres(h, b, rtol=1e-10, outer_v=outer_s, inner_m=5, outer_k=2)
    assert info == infos == 0
    assert len(outer) == len(outer_s) and 0 < len(outer) <= 2
    z, az = outer[-1]
    np.testing.assert_allclose(H(a @ z), H(az), atol=1e-10)    # (dx, A dx) pairs, scaled alike
    x2, info2 = dev.cla.lgmres(a, D(b[::-1].copy()), rtol=1e-10, outer_v=outer, inner_m=5, outer_k=2,
                               store_outer_Av=False, prepend_outer_v=True)
    assert info2 == 0
    np.testing.assert_allclose(H(x2), ssp.linalg.spsolve(h.tocsc(), b[::-1].copy()), rtol=1e-8, atol=1e-9)


@pytest.mark.parametrize("truncate", ["oldest", "smallest"])
@pytest.mark.parametrize("discard_C", [False, True])
def test_gcrotmk_cu_recycled(dev, truncate, discard_C):
    h, b = _system(80, "float64", 67)
    a = dev.sp.csr_matrix(h)
    CU = []
    x, info = dev.cla.gcrotmk(a, D(b), rtol=1e-10, m=4, k=3, CU=CU, truncate=truncate, discard_C=discard_C)
    CUs = []
    xs, infos = sla.gcrotmk(h, b, rtol=1e-10, m=4, k=3, CU=CUs, truncate=truncate, discard_C=discard_C)
    assert info == infos == 0
    assert len(CU) == len(CUs)
    assert CU[-1][0] is None and CUs[-1][0] is None
    np.testing.assert_allclose(H(CU[-1][1]), xs, rtol=1e-7)
    assert all((c is None) == (cs is None) for (c, _), (cs, _) in zip(CU, CUs))
    b2 = np.random.default_rng(68).random(80)
    x2, info2 = dev.cla.gcrotmk(a, D(b2), rtol=1e-10, m=4, k=3, CU=CU, truncate=truncate)
    assert info2 == 0
    np.testing.assert_allclose(H(x2), ssp.linalg.spsolve(h.tocsc(), b2), rtol=1e-7, atol=1e-9)
    with pytest.raises(ValueError, match="truncate"):
        dev.cla.gcrotmk(a, D(b), truncate="newest")


def test_tfqmr_show_prints(dev, capsys):
    h, b = _system(30, "float64", 69)
    dev.cla.tfqmr(dev.sp.csr_matrix(h), D(b), show=True)
    assert "TFQMR: Linear solve converged" in capsys.readouterr().out
    dev.cla.tfqmr(dev.sp.csr_matrix(h), D(b), show=True, maxiter=1, rtol=1e-14)
    assert "not converged" in capsys.readouterr().out


def test_qmr_needs_rmatvec(dev):
    h, b = _system(10, "float64", 70)
    a = dev.sp.csr_matrix(h)
    op = dev.cla.LinearOperator(h.shape, matvec=lambda v: a @ v, dtype=h.dtype)
    with pytest.raises(NotImplementedError):
        dev.cla.qmr(op, D(b))
    with pytest.raises(NotImplementedError):
        dev.cla.bicg(op, D(b))
