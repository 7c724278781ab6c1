"""expm, inv, onenormest, expm_multiply, funm_multiply_krylov, LaplacianNd, spbandwidth,
is_sptriangular, use_solver and the ARPACK exception classes against scipy.sparse.linalg (on the
host shim, with a NumPy stand-in for cuDSS where a factorisation is needed, and on the GPU)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.linalg as sl
import scipy.sparse as ssp
import scipy.sparse.linalg as sla

from ._util import D, H, rand_coo


def _rel(got, want):
    want = np.asarray(want.toarray() if hasattr(want, "toarray") else want)
    got = H(got.toarray() if hasattr(got, "toarray") else got)
    return np.abs(got - want).max() / max(np.abs(want).max(), 1e-300)


@pytest.mark.parametrize("scale", [1e-3, 0.3, 2.0, 40.0])
@pytest.mark.parametrize("n", [6, 60, 220])
def test_expm_sparse(ddev, n, scale):
    h = (rand_coo(n, n, 4.0 / n, seed=80, dups=False) * scale).tocsr()
    got = ddev.cla.expm(ddev.sp.csr_matrix(h))
    assert got.format == "csr" and type(got).__name__ == "csr_matrix"
    assert _rel(got, sla.expm(h.tocsc())) < 1e-12


@pytest.mark.parametrize("scale", [0.001, 0.01, 0.1, 0.3, 1.0])  # SciPy's Pade degree 3, 5, 7, 9, 13
def test_expm_every_pade_degree(ddev, scale):
    a = np.random.default_rng(0).standard_normal((6, 6)) * scale
    got = ddev.cla.expm(ddev.sp.csr_matrix(ssp.csr_matrix(a)))
    assert _rel(got, sla.expm(a)) < 1e-12
    assert _rel(ddev.cla.expm(D(a)), sla.expm(a)) < 1e-12


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128", "int64"])
def test_expm_dtypes_formats_and_dense(ddev, dtype):
    rng = np.random.default_rng(81)
    a = rng.integers(-2, 3, (8, 8)).astype(dtype)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.integers(-2, 3, (8, 8))
    h = ssp.csc_array(a)
    got, want = ddev.cla.expm(ddev.sp.csc_array(h)), sla.expm(h)
    assert type(got).__name__ == type(want).__name__ == "csc_array"
    assert got.dtype == want.dtype
    assert _rel(got, want) < (1e-5 if want.dtype in (np.float32, np.complex64) else 1e-12)
    dense = ddev.cla.expm(D(a))
    assert H(dense).dtype == sla.expm(a).dtype
    assert _rel(dense, sla.expm(a)) < (1e-5 if want.dtype in (np.float32, np.complex64) else 1e-12)


def test_expm_edges(ddev):
    one = ddev.cla.expm(ddev.sp.csr_array(ssp.csr_array(np.array([[3.0]]))))
    np.testing.assert_allclose(H(one.toarray()), [[np.exp(3.0)]])
    assert ddev.cla.expm(ddev.sp.csr_array(ssp.csr_array((0, 0)))).shape == (0, 0)
    np.testing.assert_array_equal(H(ddev.cla.expm(ddev.sp.csr_matrix(ssp.csr_matrix((5, 5)))).toarray()), np.eye(5))
    with pytest.raises(ValueError, match="square"):
        ddev.cla.expm(ddev.sp.csr_matrix(ssp.random(3, 4, density=0.5, format="csr")))
    upper = np.triu(np.random.default_rng(82).random((10, 10))) * 3
    assert _rel(ddev.cla.expm(ddev.sp.csr_matrix(ssp.csr_matrix(upper))), sla.expm(ssp.csc_matrix(upper))) < 1e-12


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_inv(ddev, fmt):
    h = (rand_coo(30, 30, 0.15, seed=83, dups=False) + ssp.eye(30) * 3).asformat(fmt)
    a = getattr(ddev.sp, "{}_array".format(fmt))(ssp.csr_array(h).asformat(fmt))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SciPy's and cuarray's efficiency warnings differ by format
        got, want = ddev.cla.inv(a), sla.inv(ssp.csr_array(h).asformat(fmt))
    assert type(got).__name__ == type(want).__name__
    assert _rel(got, want) < 1e-12
    with pytest.raises(TypeError):
        ddev.cla.inv(D(h.toarray()))
    with pytest.raises(RuntimeError, match="singular"):
        ddev.cla.inv(ddev.sp.csc_matrix(ssp.csc_matrix(np.array([[1.0, 2.0], [2.0, 4.0]]))))


@pytest.mark.parametrize("t", [1, 2, 4])
def test_onenormest(dev, t):
    for seed, dtype in [(84, "float64"), (85, "complex128"), (86, "int64")]:
        h = rand_coo(40, 40, 0.1, dtype=dtype, seed=seed, dups=False).tocsr()
        exact = np.abs(h.toarray()).sum(axis=0).max()
        est = dev.cla.onenormest(dev.sp.csr_matrix(h), t=t)
        assert isinstance(est, np.floating)
        assert est <= exact * (1 + 1e-12)
        assert est >= sla.onenormest(h, t=t) * (1 - 1e-12) or est >= 0.9 * exact
    est, v, w = dev.cla.onenormest(dev.sp.csr_matrix(h), t=t, compute_v=True, compute_w=True)
    np.testing.assert_allclose(np.abs(H(w)).sum(), est, rtol=1e-12)   # w = A v, |w|_1 = est
    np.testing.assert_allclose(h @ H(v), H(w), rtol=1e-12)
    assert len(dev.cla.onenormest(dev.sp.csr_matrix(h), compute_w=True)) == 2


def test_onenormest_exact_and_errors(dev):
    h = ssp.csc_array(np.array([[1.0, 0.0, 0.0], [5.0, 8.0, 2.0], [0.0, -1.0, 0.0]]))
    assert dev.cla.onenormest(dev.sp.csc_array(h)) == sla.onenormest(h) == 9.0   # t >= n: exact
    big = dev.sp.csr_matrix(ssp.random(20, 20, density=0.2, format="csr", random_state=87))
    with pytest.raises(ValueError, match="iterations"):
        dev.cla.onenormest(big, itmax=1)
    with pytest.raises(ValueError, match="column"):
        dev.cla.onenormest(big, t=0)
    with pytest.raises(ValueError, match="square"):
        dev.cla.onenormest(dev.sp.csr_matrix(ssp.random(3, 4, density=0.5, format="csr")))


@pytest.mark.parametrize("kwargs", [{}, {"start": 0, "stop": 1, "num": 5, "endpoint": True},
                                    {"start": 0, "stop": 3, "num": 4}, {"start": 0.5, "stop": 10, "num": 30},
                                    {"start": 1, "stop": 2, "num": 7, "endpoint": False}])
@pytest.mark.parametrize("bshape", [(50,), (50, 3)])
def test_expm_multiply(dev, kwargs, bshape):
    h = (rand_coo(50, 50, 0.1, seed=88, dups=False) * 0.3 - ssp.eye(50)).tocsr()
    b = np.random.default_rng(89).random(bshape)
    got, want = dev.cla.expm_multiply(dev.sp.csr_matrix(h), D(b), **kwargs), sla.expm_multiply(h, b, **kwargs)
    assert H(got).shape == want.shape and H(got).dtype == want.dtype
    np.testing.assert_allclose(H(got), want, rtol=1e-12, atol=1e-14 * np.abs(want).max())


def test_expm_multiply_inputs_and_errors(dev):
    h = (rand_coo(30, 30, 0.1, seed=90, dtype="complex128", dups=False) * 0.5).tocsr()
    b = np.random.default_rng(91).random(30)
    want = sla.expm_multiply(h, b)
    np.testing.assert_allclose(H(dev.cla.expm_multiply(D(h.toarray()), D(b))), want, rtol=1e-12)
    a = dev.sp.csr_matrix(h)
    op = dev.cla.LinearOperator(h.shape, matvec=lambda x: a @ x, rmatvec=lambda x: a.H @ x, dtype=h.dtype)
    with pytest.warns(UserWarning, match="Trace of LinearOperator"):
        got = dev.cla.expm_multiply(op, D(b))
    np.testing.assert_allclose(H(got), want, rtol=1e-10)
    np.testing.assert_allclose(H(dev.cla.expm_multiply(op, D(b), traceA=h.diagonal().sum())), want, rtol=1e-12)
    z = dev.cla.expm_multiply(dev.sp.csr_matrix(ssp.csr_matrix((30, 30))), D(b))   # A = 0: B itself
    np.testing.assert_allclose(H(z), b)
    with pytest.raises(ValueError, match="incompatible"):
        dev.cla.expm_multiply(a, D(np.ones(29)))
    with pytest.raises(ValueError, match="square"):
        dev.cla.expm_multiply(dev.sp.csr_matrix(ssp.random(3, 4, density=0.5, format="csr")), D(np.ones(4)))
    with pytest.raises(ValueError, match="two time points"):
        dev.cla.expm_multiply(a, D(b), start=0, stop=1, num=1)


@pytest.mark.parametrize("assume_a", ["general", "her"])
@pytest.mark.parametrize("m", [None, 4])
def test_funm_multiply_krylov(dev, assume_a, m):
    h = (rand_coo(40, 40, 0.1, seed=92, dups=False) * 0.4).tocsr()
    if assume_a == "her":
        h = (h + h.T).tocsr()
    b = np.random.default_rng(93).random(40)
    ref = sl.expm(0.5 * h.toarray()) @ b

    def f(X):  # on the host shim X is NumPy's; on the GPU a cuarray array, sent to SciPy's expm by value
        return D(sl.expm(H(X)))

    y = dev.cla.funm_multiply_krylov(f, dev.sp.csr_matrix(h), D(b), assume_a=assume_a, t=0.5, restart_every_m=m,
                                     rtol=1e-12)
    np.testing.assert_allclose(H(y), ref, rtol=1e-10)
    ys = sla.funm_multiply_krylov(sl.expm, h, b, assume_a=assume_a, t=0.5, restart_every_m=m, rtol=1e-12)
    np.testing.assert_allclose(H(y), ys, rtol=1e-10)


def test_funm_multiply_krylov_polynomial_breakdown_and_errors(dev):
    h = ssp.csr_array(np.array([[3.0, 2.0, 0.0], [1.0, -1.0, 0.0], [0.0, 5.0, 1.0]]))
    b = np.array([2.0, 4.0, -1.0])
    y = dev.cla.funm_multiply_krylov(lambda X: X @ X @ X - X, dev.sp.csr_array(h), D(b))
    np.testing.assert_allclose(H(y), [132.0, 24.0, 70.0], rtol=1e-12)
    eye = dev.sp.csr_matrix(ssp.identity(6, format="csr"))  # an exact breakdown at the first step
    y = dev.cla.funm_multiply_krylov(lambda X: 2 * X, eye, D(np.arange(1.0, 7.0)))
    np.testing.assert_allclose(H(y), 2 * np.arange(1.0, 7.0), rtol=1e-12)
    assert not H(dev.cla.funm_multiply_krylov(lambda X: X, eye, D(np.zeros(6)))).any()
    for kwargs in [{"assume_a": "sym"}, {"restart_every_m": 0}, {"max_restarts": 0}]:
        with pytest.raises(ValueError):
            dev.cla.funm_multiply_krylov(lambda X: X, eye, D(np.ones(6)), **kwargs)
    with pytest.raises(ValueError, match="1D"):
        dev.cla.funm_multiply_krylov(lambda X: X, eye, D(np.ones((6, 1))))


@pytest.mark.parametrize("bc", ["neumann", "dirichlet", "periodic"])
@pytest.mark.parametrize("grid", [(5,), (3, 4), (2, 3, 4), (2, 1)])
def test_laplacian_nd(dev, bc, grid):
    lap = dev.cla.LaplacianNd(grid, boundary_conditions=bc)
    ref = sla.LaplacianNd(grid, boundary_conditions=bc)
    n = int(np.prod(grid))
    assert lap.shape == (n, n) and lap.dtype == ref.dtype == np.int8
    sp_ = lap.tosparse()
    assert type(sp_).__name__ == "csr_array" and sp_.dtype == np.int8
    if 1 not in grid:  # (SciPy's toarray and matvec disagree on a length-1 axis; the product is followed)
        np.testing.assert_array_equal(H(sp_.toarray()), ref.tosparse().toarray())
        np.testing.assert_array_equal(H(lap.toarray()), ref.toarray())
    x = np.random.default_rng(94).random((n, 2))
    np.testing.assert_allclose(H(lap.matvec(D(x[:, 0]))), ref.matvec(x[:, 0]), atol=1e-12)
    np.testing.assert_allclose(H(lap.matmat(D(x))), ref.matmat(x), atol=1e-12)
    np.testing.assert_allclose(H(lap.H.matvec(D(x[:, 1]))), ref.H.matvec(x[:, 1]), atol=1e-12)
    assert lap.T is lap and lap.H is lap
    for m in (None, 1, 3):
        np.testing.assert_allclose(H(lap.eigenvalues(m)), ref.eigenvalues(m), atol=1e-12)
        vec, vref = H(lap.eigenvectors(m)), ref.eigenvectors(m)
        assert vec.shape == vref.shape
        A = ref.toarray().astype(float) if 1 not in grid else None
        if A is not None:   # eigenpairs, whatever the order of equal eigenvalues
            np.testing.assert_allclose(A @ vec, vec * H(lap.eigenvalues(m)), atol=1e-10)
    assert H(dev.cla.LaplacianNd(grid, boundary_conditions=bc, dtype=np.float32).tosparse().toarray()).dtype \
        == np.float32


def test_laplacian_nd_errors(dev):
    with pytest.raises(ValueError, match="boundary_conditions"):
        dev.cla.LaplacianNd((3, 3), boundary_conditions="robin")


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "dia"])
def test_bandwidth_and_triangular(dev, fmt):
    rng = np.random.default_rng(95)
    for a in [np.tril(rng.random((6, 6))), np.triu(rng.random((6, 6)), 2), np.diag(rng.random(6)),
              rng.random((4, 7)), np.zeros((3, 3)) + np.diag([1.0, 0, 2])]:
        h = ssp.csr_array(a).asformat(fmt)
        got = getattr(dev.sp, "{}_array".format(fmt))(h)
        assert dev.cla.spbandwidth(got) == sla.spbandwidth(h)
        assert dev.cla.is_sptriangular(got) == sla.is_sptriangular(h)
    assert dev.cla.spbandwidth(dev.sp.csr_array(ssp.csr_array((3, 3)))) == (0, 0)
    assert dev.cla.is_sptriangular(dev.sp.csr_array(ssp.csr_array((3, 3)))) == (True, True)


def test_use_solver_and_arpack_errors(dev):
    assert dev.cla.use_solver(useUmfpack=False, assumeSortedIndices=True, other=1) is None
    dev.cla.use_solver(useUmfpack=True)
    err = dev.cla.ArpackError(1, {1: "Maximum number of iterations taken."})
    assert str(err) == str(sla.ArpackError(1, {1: "Maximum number of iterations taken."}))
    assert isinstance(err, RuntimeError)
    assert str(dev.cla.ArpackError(-9999)) == "ARPACK error -9999: Unknown error"
    nc = dev.cla.ArpackNoConvergence("msg", [1.0], [[1.0]])
    assert isinstance(nc, dev.cla.ArpackError) and nc.eigenvalues == [1.0] and str(nc) == "ARPACK error -1: msg"
