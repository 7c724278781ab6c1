"""cuarray.scipy.integrate's Radau and BDF (their real Newton iterations, controllers and dense
output, NumPy standing in for the device routines and SciPy's LU for cuSOLVER's) against
scipy.integrate's on stiff problems: the solutions at t_eval agree within what rtol allows (not step for step), the
Jacobian may be a callable, an array or finite differences; bad input gets SciPy's exceptions."""

import importlib.util
import pathlib

import numpy as np
import pytest
import scipy.integrate as si


def _load(name):
    spec = importlib.util.spec_from_file_location("integrate_" + name, pathlib.Path(__file__).parent / (name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


P, A = _load("stiff_problems").problems(np)
RTOL, ATOL = 1e-6, 1e-9
METHODS = ["Radau", "BDF"]


@pytest.fixture(scope="module")
def H():
    return _load("_ivp_host").host_integrate()


def close(res, ref, tol=1e3):
    """Both solutions within `tol` times the local error allowance of each other: rounding (a
    different LU, another order of sums) may change the steps, not the accuracy."""
    assert res.status == ref.status == 0 and res.success
    np.testing.assert_array_equal(res.t, ref.t)
    np.testing.assert_allclose(res.y, ref.y, rtol=tol * RTOL, atol=tol * ATOL)


@pytest.mark.parametrize("with_jac", [False, True])
@pytest.mark.parametrize("name", list(P))
@pytest.mark.parametrize("method", METHODS)
def test_stiff_problems_match_scipy(H, method, name, with_jac):
    fun, jac, t_span, y0, t_eval, exact = P[name]
    kw = dict(method=method, rtol=RTOL, atol=ATOL, t_eval=t_eval, jac=jac if with_jac else None)
    res = H.solve_ivp(fun, t_span, np.array(y0), **kw)
    ref = si.solve_ivp(fun, t_span, np.array(y0), **kw)
    close(res, ref)
    assert res.njev >= 1 and res.nlu >= 2 and res.nfev > 0
    if exact is not None:  # the global error: a few hundred steps of local errors below rtol
        np.testing.assert_allclose(res.y, exact(t_eval), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("method", METHODS)
def test_constant_jac_dense_output_events_backward(H, method):
    fun, _, t_span, y0, _, exact = P["linear"]
    y0 = np.array(y0)

    def event(t, y):
        return y[0] - 0.5
    event.terminal = True
    for mod_kw in (dict(jac=A, dense_output=True, events=event), dict(jac=A, dense_output=True)):
        res = H.solve_ivp(fun, t_span, y0, method=method, rtol=RTOL, atol=ATOL, **mod_kw)
        ref = si.solve_ivp(fun, t_span, y0, method=method, rtol=RTOL, atol=ATOL, **mod_kw)
        assert res.status == ref.status and res.njev == ref.njev == 0
        tq = np.random.default_rng().uniform(0, min(res.t[-1], ref.t[-1]), 9)
        np.testing.assert_allclose(res.sol(tq), exact(tq), rtol=1e-4, atol=1e-6)
        np.testing.assert_allclose(res.sol(tq), ref.sol(tq), rtol=1e-4, atol=1e-6)
        if "events" in mod_kw:
            np.testing.assert_allclose(res.t_events[0], ref.t_events[0], rtol=1e-6)
            np.testing.assert_allclose(res.y_events[0], ref.y_events[0], rtol=1e-5, atol=1e-8)
    y3 = exact(np.array([3.0]))[:, 0]
    back = H.solve_ivp(fun, [3, 0], y3, method=method, rtol=1e-8, atol=1e-10, jac=A, t_eval=[3.0, 2.9])
    np.testing.assert_allclose(back.y, exact(np.array([3.0, 2.9])), rtol=1e-5, atol=1e-9)


@pytest.mark.parametrize("method", METHODS)
def test_solver_class_and_args(H, method):
    fun, jac, t_span, y0, _, _ = P["robertson"]
    ours = getattr(H, method)(fun, 0.0, np.array(y0), 1.0, rtol=RTOL, atol=ATOL, jac=jac)
    theirs = getattr(si, method)(fun, 0.0, np.array(y0), 1.0, rtol=RTOL, atol=ATOL, jac=jac)
    while ours.status == "running":
        ours.step()
    while theirs.status == "running":
        theirs.step()
    np.testing.assert_allclose(ours.y, theirs.y, rtol=1e3 * RTOL, atol=1e3 * ATOL)
    assert type(ours.dense_output()).__name__ == method.capitalize() + "DenseOutput"
    k = np.random.default_rng().uniform(1, 3)
    res = H.solve_ivp(lambda t, y, k: -k * y, [0, 1], np.array([1.0, 2.0]), method=method, args=(k,),
                      vectorized=True, atol=np.array([1e-9, 1e-9]), rtol=RTOL)
    np.testing.assert_allclose(res.y[:, -1], np.array([1.0, 2.0]) * np.exp(-k), rtol=1e-4)


@pytest.mark.parametrize("method", METHODS)
def test_bad_input(H, method):
    fun, _, _, y0, _, _ = P["linear"]
    y0 = np.array(y0)
    cases = [(dict(jac=np.eye(2)), ValueError, "`jac` is expected to have shape"),
             (dict(jac=lambda t, y: np.eye(4)), ValueError, "`jac` is expected to have shape"),
             (dict(first_step=-1.0), ValueError, "first_step"),
             (dict(rtol=np.full(3, 1e-3)), ValueError, "truth value")]
    for kw, exc, text in cases:
        for mod in (H, si):
            with pytest.raises(exc, match=text):
                mod.solve_ivp(fun, [0, 1], y0, method=method, **kw)
    for mod in (H, si):
        if method == "Radau":
            with pytest.raises(ValueError, match="complex"):
                mod.solve_ivp(fun, [0, 1], y0 + 1j, method=method)
        with pytest.warns(UserWarning, match="no effect"):
            mod.solve_ivp(fun, [0, 1], y0, method=method, min_step=1.0)


def test_bdf_complex(H):
    """BDF takes complex y (Radau does not): a stiff complex linear system against its solution."""
    lam = np.array([-1 + 10j, -1e3 + 1j, -5e3])
    y0 = np.random.default_rng().normal(size=3) + 1j

    def fun(t, y):
        return lam * y if y.ndim == 1 else lam[:, None] * y
    t_eval = np.linspace(0, 2, 5)
    for jac in (None, np.diag(lam)):
        res = H.solve_ivp(fun, [0, 2], y0, method="BDF", rtol=RTOL, atol=ATOL, t_eval=t_eval, jac=jac)
        ref = si.solve_ivp(fun, [0, 2], y0, method="BDF", rtol=RTOL, atol=ATOL, t_eval=t_eval, jac=jac)
        assert res.y.dtype == np.complex128
        close(res, ref)
        np.testing.assert_allclose(res.y, y0[:, None] * np.exp(lam[:, None] * t_eval), rtol=1e-4, atol=1e-5)


def heat(n):
    """The method-of-lines heat equation (tridiagonal Jacobian), vectorized."""
    d2 = (n + 1) ** 2

    def fun(t, y):
        z = np.zeros((1,) + y.shape[1:])
        p = np.concatenate([z, y, z])
        return (p[:-2] - 2 * p[1:-1] + p[2:]) * d2 + np.sin(t)
    J = (np.eye(n, k=-1) - 2 * np.eye(n) + np.eye(n, k=1)) * d2
    return fun, J


@pytest.fixture(scope="module")
def H_dense():
    """The package's host copy as where cuDSS is not installed."""
    return _load("_ivp_host").host_integrate(sparse_lu=False)


@pytest.mark.parametrize("sparse_lu", [True, False])
@pytest.mark.parametrize("method", METHODS)
def test_jac_sparsity_and_sparse_jac(H, H_dense, method, sparse_lu):
    """`jac_sparsity` groups the difference columns (a few groups for a tridiagonal structure, not
    n shifted states) and a sparse `jac` is taken: both reach SciPy's solution. With a sparse LU
    (cuDSS; SuperLU here) the Jacobian and the iteration matrices stay sparse, as SciPy's; without
    it too, the tridiagonal iteration matrices solved as banded (gtsv2; LAPACK's gbsv here)."""
    import scipy.sparse
    from scipy.optimize._numdiff import group_columns

    host = H if sparse_lu else H_dense
    n = 40
    fun, J = heat(n)
    # y away from 0: the differences' increments are sqrt(eps) |y|, so their rounding error in J is at
    # most ~eps |f| / (sqrt(eps) |y|) ~ 1e-4 of J's 1681 (it reached 3% of it at y ~ 1e-3)
    y0 = np.random.default_rng().uniform(0.5, 1, n)
    t_eval = np.linspace(0, 0.2, 5)
    calls = []

    def counted(t, y):
        calls.append(y.shape)
        return fun(t, y)
    kw = dict(method=method, rtol=RTOL, atol=ATOL, t_eval=t_eval)
    ref = si.solve_ivp(fun, [0, 0.2], y0, jac=J, **kw)
    for jkw in (dict(jac_sparsity=scipy.sparse.csc_array(J != 0), vectorized=True),
                dict(jac_sparsity=(J != 0), vectorized=True), dict(jac=scipy.sparse.csc_array(J)),
                dict(jac=lambda t, y: scipy.sparse.csr_array(J))):
        calls.clear()
        res = host.solve_ivp(counted, [0, 0.2], y0, **kw, **jkw)
        close(res, ref)
        if "jac_sparsity" in jkw:
            k = group_columns(J != 0).max() + 1  # SciPy's greedy grouping: 5 groups here
            assert k < n // 4 and (n, k) in set(calls) and (n, n) not in set(calls), set(calls)
        else:
            assert all(c == (n,) for c in calls)
        solver = getattr(host, method)(fun, 0, y0, 0.2, **{k: v for k, v in jkw.items() if k != "vectorized"})
        assert scipy.sparse.issparse(solver.J) and solver.J.shape == (n, n)
        assert solver.sparse_lu_kind == ("cudss" if sparse_lu else "tridiagonal")
        np.testing.assert_allclose(solver.J.toarray(), J, rtol=1e-5, atol=1e-3)


def banded_problem(n, rng):
    """A linear problem y' = J y + 1 with a pentadiagonal J (bands 2 below and above): a negative
    diagonal of -4..-2 and off-diagonal entries of at most 0.3 in size, so J is strictly diagonally
    dominant (its eigenvalues' real parts are at most -2 + 4 * 0.3 < 0: a decaying, well-conditioned
    problem, the iteration matrices I - c J as well)."""
    J = np.diag(rng.uniform(-4, -2, n))
    for k in (-2, -1, 1, 2):
        J += np.diag(rng.uniform(-0.3, 0.3, n - abs(k)), k)
    return (lambda t, y: J @ y + (1.0 if y.ndim == 1 else np.ones((n, 1)))), J


@pytest.mark.parametrize("method", METHODS)
def test_without_cudss_a_banded_jacobian_is_factorised_dense(H_dense, method):
    """Without cuDSS a sparse Jacobian that is not tridiagonal (small) is factorised by the dense
    LU and reaches SciPy's solution (SuperLU), for `jac` sparse, a callable returning one, and
    `jac_sparsity`."""
    import scipy.sparse

    rng = np.random.default_rng()
    n = 12
    fun, J = banded_problem(n, rng)
    y0 = rng.uniform(-1, 1, n)
    kw = dict(method=method, rtol=RTOL, atol=ATOL, t_eval=np.linspace(0, 1, 4))
    for jkw in (dict(jac=scipy.sparse.csc_array(J)), dict(jac=lambda t, y: scipy.sparse.csr_array(J)),
                dict(jac_sparsity=J != 0, vectorized=True)):
        close(H_dense.solve_ivp(fun, [0, 1], y0, **kw, **jkw), si.solve_ivp(fun, [0, 1], y0, **kw, **jkw))
        solver = getattr(H_dense, method)(fun, 0, y0, 1, **{k: v for k, v in jkw.items() if k != "vectorized"})
        assert solver.sparse_lu_kind == "dense" and scipy.sparse.issparse(solver.J)


@pytest.mark.parametrize("method", METHODS)
def test_without_cudss_a_large_jacobian_is_refused_before_allocating(H_dense, method):
    """Without cuDSS a sparse Jacobian past DENSE_MAX_ROWS rows that is not tridiagonal raises
    ImportError naming the extra and the dense copy's size, before any n x n allocation (it used to
    expand it: 7.28 TiB at n = 1e6) and, with `jac_sparsity`, before the differences."""
    import scipy.sparse

    n = 10**6
    band = scipy.sparse.diags([1.0, 1.0, -4.0, 1.0, 1.0], [-2, -1, 0, 1, 2], shape=(n, n), format="csc")
    calls = []

    def fun(t, y):
        calls.append(np.shape(y))
        return -y
    y0 = np.ones(n)
    with pytest.raises(ImportError, match=r"1000000 x 1000000.*8,000,000,000,000 bytes.*pip install 'cuarray\[cudss\]'"):
        getattr(H_dense, method)(fun, 0, y0, 1, jac=band)
    with pytest.raises(ImportError, match=r"pip install 'cuarray\[cudss\]'"):
        getattr(H_dense, method)(fun, 0, y0, 1, jac=lambda t, y: band)
    m = 20000  # past DENSE_MAX_ROWS (16384); a smaller pattern keeps `host_pattern` cheap
    calls.clear()
    with pytest.raises(ImportError, match=r"20000 x 20000.*pip install 'cuarray\[cudss\]'"):
        getattr(H_dense, method)(fun, 0, np.ones(m), 1, jac_sparsity=band[:m, :m])
    assert all(c == (m,) for c in calls), set(calls)  # no difference was taken


@pytest.mark.parametrize("method", METHODS)
def test_without_cudss_a_large_tridiagonal_jacobian_is_solved(H_dense, method):
    """Without cuDSS a tridiagonal Jacobian of any size stays sparse and its iteration matrices are
    solved as banded (O(n)): the heat equation's first mode, y0 = sin(pi x) at n = 2e5 points,
    decays as exp(lam t) with the second difference's eigenvalue lam; a few steps at rtol 1e-6 stay
    within 1e-4 of it (the BDF/Radau local errors are held to about rtol |y| a step)."""
    import scipy.sparse

    n = 200_000
    x = np.arange(1, n + 1) / (n + 1)
    d2 = (n + 1) ** 2
    J = scipy.sparse.diags([d2, -2.0 * d2, d2], [-1, 0, 1], shape=(n, n), format="csc")
    lam = -4 * d2 * np.sin(np.pi / (2 * (n + 1))) ** 2
    solver = getattr(H_dense, method)(lambda t, y: J @ y, 0, np.sin(np.pi * x), 1, jac=J, rtol=RTOL, atol=ATOL)
    assert solver.sparse_lu_kind == "tridiagonal"
    for _ in range(3):
        solver.step()
        assert solver.status == "running"
    np.testing.assert_allclose(solver.y, np.sin(np.pi * x) * np.exp(lam * solver.t), rtol=1e-4, atol=1e-9)


def test_sparse_differences_are_scipys():
    """The Jacobian by differences on a random pattern (columns with no entries, full rows, stored
    zeros, an increment that must be retried) is SciPy's sparse one, entry for entry: the same
    pattern, groups, increments and retry rule (SciPy's `num_jac` with `sparsity`)."""
    import scipy.sparse
    from scipy.integrate._ivp.common import num_jac as scipy_num_jac
    from scipy.optimize._numdiff import group_columns

    copies = _load("_ivp_host").host_copies()
    implicit, sparse_jac = copies["_implicit"], copies["_sparse_jac"]
    rng = np.random.default_rng()
    n = 30
    pattern = (rng.uniform(size=(n, n)) < 0.12) | np.eye(n, dtype=bool)
    pattern[:, 3] = False  # a column with no entries
    pattern[5, :] = True   # a full row
    a = rng.standard_normal((n, n)) * pattern
    a[:, 7] *= 1e-12       # small differences: its increment is retried
    a[:, 9] = 0            # entries in the pattern, differences exactly 0 (SciPy's argmax rule for them)
    pattern[[2, 4], 9] = True
    calls = []

    def fun(t, y):  # vectorized: y is (n, k); f about 10, so a column's rounding (matrix-vector and
        calls.append(np.shape(y))  # matrix-matrix products) stays far below the retry threshold
        return a @ np.sin(y) + 10 + np.cos(t)
    y = rng.uniform(-1, 1, n)
    f = fun(0.0, y)
    sp = scipy.sparse.csc_matrix(pattern.astype(float))
    ours_pattern = sparse_jac.host_pattern(sp)
    groups = sparse_jac.group_columns(ours_pattern)
    np.testing.assert_array_equal(groups, group_columns(sp))
    calls.clear()
    want, want_factor = scipy_num_jac(fun, 0.0, y, f, 1e-9, None, (sp, group_columns(sp)))
    want_calls = list(calls)
    calls.clear()
    got, got_factor = implicit.num_jac(fun, 0.0, y, f, 1e-9, None, (ours_pattern, groups))
    assert len(calls) == 2 and calls == want_calls, (calls, want_calls)  # the groups, then the retried columns' groups
    assert scipy.sparse.issparse(got)
    np.testing.assert_array_equal(got.indptr, want.indptr)
    np.testing.assert_array_equal(got.indices, want.indices)
    np.testing.assert_allclose(got.data, want.data, rtol=1e-12, atol=0)
    np.testing.assert_allclose(got_factor, want_factor, rtol=1e-15)


def test_group_columns_is_scipys():
    from scipy.optimize._numdiff import group_columns

    from cuarray.scipy.integrate._sparse_jac import group_columns as ours
    from cuarray.scipy.integrate._sparse_jac import host_pattern

    rng = np.random.default_rng()
    for n in (1, 7, 30):
        a = rng.uniform(size=(n, n)) < 0.15
        np.testing.assert_array_equal(ours(host_pattern(a)), group_columns(a))


@pytest.mark.parametrize("method", METHODS)
def test_empty_zero_interval_and_step_bounds(H, method):
    def f(t, y):
        return -y
    for t_span, y in (([0, 1], np.empty(0)), ([1, 1], np.ones(2))):
        res = H.solve_ivp(f, t_span, y, method=method, dense_output=True)
        ref = si.solve_ivp(f, t_span, y, method=method, dense_output=True)
        assert (res.status, res.nfev, res.njev, res.nlu) == (ref.status, ref.nfev, ref.njev, ref.nlu)
        assert np.shape(res.y) == np.shape(ref.y)
    res = H.solve_ivp(f, [0, 1], np.ones(2), method=method, max_step=0.01, first_step=1e-3)
    ref = si.solve_ivp(f, [0, 1], np.ones(2), method=method, max_step=0.01, first_step=1e-3)
    assert np.diff(res.t).max() <= 0.01 * (1 + 1e-12) and res.t[1] == 1e-3  # (differences of sums of steps)
    np.testing.assert_allclose(res.y[:, -1], ref.y[:, -1], rtol=1e-6)


def test_pattern_is_scipys_find():
    """`jac_sparsity`'s pattern is SciPy's `find`: duplicates summed (cancelling ones dropped),
    stored zeros dropped, by column then row; dense input as its nonzeros."""
    import scipy.sparse

    from cuarray.scipy.integrate._sparse_jac import host_pattern

    rng = np.random.default_rng()
    for _ in range(20):
        n, k = int(rng.integers(1, 15)), int(rng.integers(0, 40))
        r, c = rng.integers(0, n, k), rng.integers(0, n, k)
        v = rng.choice([0.0, 1.0, -1.0, 2.5], k)
        a = scipy.sparse.coo_matrix((v, (r, c)), shape=(n, n))
        want_r, want_c, _ = scipy.sparse.find(a)
        order = np.lexsort((want_r, want_c))
        for form in (a, a.tocsr(), a.toarray()):
            shape, indptr, rows = host_pattern(form)
            assert shape == (n, n)
            np.testing.assert_array_equal(rows, want_r[order])
            np.testing.assert_array_equal(np.repeat(np.arange(n), np.diff(indptr)), want_c[order])
