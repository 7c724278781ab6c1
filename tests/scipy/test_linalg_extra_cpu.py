"""The scipy.linalg names added for issue 50, without a GPU (part 1): SciPy 1.18's signatures, and
the device code paths of issymmetric/ishermitian, rq, qr_multiply, diagsvd, cdf2rdf,
matmul_toeplitz and find_best_blas_type run with NumPy standing in for cuarray's routines
(linalg_host_standins.py, beside this file) against scipy.linalg on the host: values, shapes,
dtypes, batches and errors. Batched results are compared slice by slice with SciPy's unbatched
call, so the tests mean the same under SciPy 1.17 (which batches fewer of these) and 1.18."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

sla = pytest.importorskip("scipy.linalg")

import linalg_host_standins as hs  # noqa: E402  (tests/scipy, beside this file)
from cuarray.scipy import linalg as cla  # noqa: E402
from cuarray.scipy.linalg import _blas_lapack, _decomp_forms, _decomp_rq, _structured, _symmetry  # noqa: E402

NEW = """issymmetric ishermitian diagsvd rq qr_multiply qr_update qr_insert qr_delete cdf2rdf eigvals_banded
eigvalsh_tridiagonal matmul_toeplitz solve_sylvester solve_continuous_lyapunov solve_lyapunov solve_discrete_lyapunov
solve_continuous_are solve_discrete_are clarkson_woodruff_transform expm_cond get_blas_funcs get_lapack_funcs
find_best_blas_type""".split()

# SciPy 1.18 made ilp64's default 'preferred' (1.17: False); cuarray follows 1.18.
_ILP64_1_18 = {"get_blas_funcs", "get_lapack_funcs"}


@pytest.mark.parametrize("name", NEW)
def test_signature_is_scipy_1_18s(name):
    want, got = inspect.signature(getattr(sla, name)), inspect.signature(getattr(cla, name))
    if name in _ILP64_1_18:
        assert want.parameters["ilp64"].default in (False, "preferred")
        want = want.replace(parameters=[p.replace(default="preferred") if p.name == "ilp64" else p
                                        for p in want.parameters.values()])
    assert got == want


def test_solve_lyapunov_is_the_continuous_solver():
    assert cla.solve_lyapunov is cla.solve_continuous_lyapunov


@pytest.fixture(scope="module")
def host():
    return hs.copies()


DTYPES = [np.float32, np.float64, np.complex64, np.complex128]
ID = lambda d: np.dtype(d).name  # noqa: E731


def _rand(rng, shape, dtype=np.float64):
    a = rng.normal(size=shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.normal(size=shape)
    return a.astype(dtype)


def _same(got, want, tol=0.0):
    want = np.asarray(want)
    assert isinstance(got, np.ndarray) and got.dtype == want.dtype and got.shape == want.shape, (
        type(got), getattr(got, "dtype", None), want.dtype, getattr(got, "shape", None), want.shape)
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


def _per_slice(fn, batch, *arrays):
    """SciPy's results stacked over `batch`, each slice computed by the unbatched call."""
    outs = [fn(*(np.broadcast_to(a, batch + a.shape[len(a.shape) - nd:])[i] for a, nd in arrays))
            for i in np.ndindex(*batch)]
    if isinstance(outs[0], tuple):
        return tuple(np.stack([o[j] for o in outs]).reshape(batch + outs[0][j].shape) for j in range(len(outs[0])))
    return np.stack(outs).reshape(batch + np.shape(outs[0]))


# -- issymmetric / ishermitian ------------------------------------------------------------------------
SYM_CASES = {
    "symmetric": np.array([[1.0, 2.0], [2.0, 3.0]]),
    "not": np.array([[1.0, 2.0], [2.5, 3.0]]),
    "nan-diagonal": np.array([[np.nan, 1.0], [1.0, 2.0]]),
    "nan-off": np.array([[1.0, np.nan], [np.nan, 2.0]]),
    "inf": np.array([[1.0, np.inf], [np.inf, 2.0]]),
    "complex-symmetric": np.array([[1 + 1j, 3j], [3j, 2.0]]),
    "hermitian": np.array([[1.0, 2 + 3j], [2 - 3j, 4.0]]),
    "complex-diagonal": np.array([[1 + 1e-9j, 2.0], [2.0, 1.0]]),
    "near": np.array([[1.0, 2.0], [2.0 + 1e-9, 3.0]]),
    "int": np.array([[1, 2], [2, 5]]),
    "int-not": np.array([[1, 2], [3, 5]]),
    "bool": np.array([[True, False], [False, True]]),
    "empty": np.empty((0, 0)),
    "one": np.array([[np.nan]]),
}


@pytest.mark.parametrize("case", list(SYM_CASES))
@pytest.mark.parametrize("tol", [{}, {"atol": 1e-6}, {"rtol": 1e-6}, {"atol": 0.0}, {"atol": 1e-6, "rtol": 1e-6}])
@pytest.mark.parametrize("fn", ["issymmetric", "ishermitian"])
def test_symmetry_is_scipys(host, case, tol, fn):
    a = SYM_CASES[case]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # bool input (SciPy 1.18 deprecates it)
        got, want = getattr(host[_symmetry], fn)(a, **tol), getattr(sla, fn)(a, **tol)
    assert type(got) is bool and got == want


@pytest.mark.parametrize("fn", ["issymmetric", "ishermitian"])
def test_symmetry_batches_and_views(host, fn):
    rng = np.random.default_rng(1)
    a = _rand(rng, (3, 2, 4, 4), np.complex128)
    a = a + np.swapaxes(a, -1, -2).conj() * (fn == "ishermitian") + np.swapaxes(a, -1, -2) * (fn == "issymmetric")
    a[1, 0, 2, 1] += 1e-7
    got = getattr(host[_symmetry], fn)(a)
    want = _per_slice(getattr(sla, fn), a.shape[:-2], (a, 2))
    assert got.dtype == bool and got.shape == (3, 2)
    np.testing.assert_array_equal(got, want)
    assert not got[1, 0] and got.sum() == 5
    np.testing.assert_array_equal(getattr(host[_symmetry], fn)(a, atol=1e-6), np.ones((3, 2), bool))
    view = a[:, :, ::-1, ::-1].swapaxes(0, 1)  # a non-contiguous view
    np.testing.assert_array_equal(getattr(host[_symmetry], fn)(view), want.T)
    np.testing.assert_array_equal(getattr(host[_symmetry], fn)(np.empty((2, 0, 0))), [True, True])


@pytest.mark.parametrize("bad, err", [(np.ones(3), ValueError), (np.ones((2, 3)), ValueError),
                                      (np.float64(1.0), ValueError), (np.ones((0, 2, 2)), ValueError),
                                      (np.ones((2, 3, 4)), ValueError)])
def test_symmetry_errors_are_scipys(host, bad, err):
    with pytest.raises(err) as got:
        host[_symmetry].issymmetric(bad)
    with pytest.raises(err) as want:
        sla.issymmetric(bad)
    assert str(got.value) == str(want.value)


def test_symmetry_float16(host):
    a = np.eye(2, dtype=np.float16)
    with pytest.warns(DeprecationWarning):
        with pytest.raises(TypeError):  # SciPy's Cython routine has no float16 loop either
            host[_symmetry].issymmetric(a)
    with pytest.warns(DeprecationWarning):
        assert host[_symmetry].ishermitian(a, atol=1e-3) is True


def test_host_data_is_refused_before_device_work():
    for call in (lambda: cla.issymmetric(np.eye(2)), lambda: cla.rq(np.eye(2)), lambda: cla.cdf2rdf(np.ones(2), np.eye(2)),
                 lambda: cla.qr_multiply(np.eye(2), np.eye(2)), lambda: cla.qr_update(np.eye(2), np.eye(2), np.ones(2), np.ones(2)),
                 lambda: cla.expm_cond(np.eye(2)), lambda: cla.clarkson_woodruff_transform(np.eye(2), 1, rng=0),
                 lambda: cla.solve_sylvester(np.eye(2), np.eye(2), np.eye(2)),
                 lambda: cla.eigvals_banded(np.ones((2, 2))), lambda: cla.matmul_toeplitz([1.0, 2.0], np.ones(2))):
        with pytest.raises(TypeError, match="cuarray.asarray"):
            call()


# -- rq -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES, ids=ID)
@pytest.mark.parametrize("shape", [(3, 5), (5, 3), (4, 4), (1, 3), (3, 1), (1, 1)])
@pytest.mark.parametrize("mode", ["full", "economic", "r"])
def test_rq_is_lapacks_gerqf(host, dtype, shape, mode):
    a = _rand(np.random.default_rng(2), shape, dtype)
    got, want = host[_decomp_rq].rq(a, mode=mode), sla.rq(a, mode=mode)
    tol = 1e-4 if np.dtype(dtype).char in "fF" else 1e-12
    for g, w in zip(got if mode != "r" else (got,), want if mode != "r" else (want,)):
        _same(g, w, tol)  # the factors themselves, signs included (gerqf's are geqrf's of J A^H J)


def test_rq_batches_views_and_dtypes(host):
    rq = host[_decomp_rq].rq
    a = _rand(np.random.default_rng(3), (2, 3, 4, 6))[..., ::2, ::-1]  # (2, 3, 2, 6) view
    for mode in ("full", "economic", "r"):
        got = rq(a, mode=mode)
        want = _per_slice(lambda x: sla.rq(x, mode=mode), a.shape[:-2], (a, 2))
        for g, w in zip(got if mode != "r" else (got,), want if mode != "r" else (want,)):
            _same(g, w, 1e-12)
    for dt, want in ((np.int8, np.float32), (np.int64, np.float64), (np.uint16, np.float32)):
        assert rq(np.eye(3, dtype=dt))[0].dtype == want == sla.rq(np.eye(3, dtype=dt))[0].dtype
    with pytest.warns(DeprecationWarning):
        assert rq(np.eye(2, dtype=np.float16))[1].dtype == np.float32


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (0, 0), (2, 0, 3)])
@pytest.mark.parametrize("mode", ["full", "economic", "r"])
def test_rq_empty_is_scipys(host, shape, mode):
    a = np.ones(shape, dtype=np.int64)
    got = host[_decomp_rq].rq(a, mode=mode)
    want = _per_slice(lambda x: sla.rq(x, mode=mode), shape[:-2], (a, 2)) if len(shape) > 2 else sla.rq(a, mode=mode)
    for g, w in zip(got if mode != "r" else (got,), want if mode != "r" else (want,)):
        assert g.shape == w.shape and g.dtype == w.dtype
        if w.size and mode == "full":
            np.testing.assert_array_equal(g[..., -w.shape[-1]:, :], w)  # Q: the identity


@pytest.mark.parametrize("bad, kw, err", [(np.ones(3), {}, ValueError), (np.eye(2), {"mode": "raw"}, ValueError),
                                          (np.full((2, 2), np.inf), {}, ValueError),
                                          (np.ones((0, 2, 2)), {}, ValueError)])
def test_rq_errors_are_scipys(host, bad, kw, err):
    with pytest.raises(err) as got:
        host[_decomp_rq].rq(bad, **kw)
    with pytest.raises(err) as want:
        sla.rq(bad, **kw)
    assert str(got.value) == str(want.value)


def test_rq_nonfinite_unchecked_is_computed(host):
    r, q = host[_decomp_rq].rq(np.full((2, 2), np.nan), check_finite=False)
    assert r.shape == q.shape == (2, 2)


# -- qr_multiply --------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES, ids=ID)
@pytest.mark.parametrize("m, n", [(5, 3), (3, 5), (4, 4)])
@pytest.mark.parametrize("mode", ["left", "right"])
@pytest.mark.parametrize("conjugate", [False, True])
@pytest.mark.parametrize("pivoting", [False, True])
def test_qr_multiply_is_scipys(host, dtype, m, n, mode, conjugate, pivoting):
    rng = np.random.default_rng([m, n, conjugate, pivoting])
    a = _rand(rng, (m, n), dtype)
    c = _rand(rng, (min(m, n), 3) if mode == "left" else (2, m), dtype)
    got = host[_decomp_rq].qr_multiply(a, c, mode, pivoting, conjugate)
    want = sla.qr_multiply(a, c, mode, pivoting, conjugate)
    tol = 1e-4 if np.dtype(dtype).char in "fF" else 1e-12
    assert len(got) == len(want)
    for g, w in zip(got, want):
        _same(g, w, tol)


@pytest.mark.parametrize("mode, cshape", [("left", (3,)), ("right", (5,)), ("left", (5, 2)), ("right", (1, 5))])
def test_qr_multiply_vectors_and_overwrite_c(host, mode, cshape):
    rng = np.random.default_rng(4)
    a, c = rng.normal(size=(5, 3)), rng.normal(size=cshape)
    over = mode == "left" and cshape == (5, 2)  # all of Q's M columns apply, as SciPy's ormqr does
    for conjugate in (False, True):
        got = host[_decomp_rq].qr_multiply(a, c, mode, conjugate=conjugate, overwrite_c=over)
        want = sla.qr_multiply(a, c.copy(), mode, conjugate=conjugate, overwrite_c=over)
        for g, w in zip(got, want):
            _same(g, w, 1e-12)


@pytest.mark.parametrize("adt, cdt", [(np.float32, np.float64), (np.float64, np.float32), (np.float64, np.complex128),
                                      (np.complex64, np.float64), (np.int64, np.int64), (np.float32, np.int64)])
def test_qr_multiply_dtypes_are_scipys(host, adt, cdt):
    rng = np.random.default_rng(5)
    a, c = _rand(rng, (5, 3), adt) if adt != np.int64 else rng.integers(-5, 5, (5, 3)), _rand(rng, (3, 2), cdt)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        got, want = host[_decomp_rq].qr_multiply(a, c, "left"), sla.qr_multiply(a, c, "left")
    tol = 1e-4 if np.dtype(adt).char in "fF" else 1e-12
    for g, w in zip(got, want):
        _same(g, w, tol)


def test_qr_multiply_batches(host):
    rng = np.random.default_rng(6)
    a, c = rng.normal(size=(2, 1, 5, 3)), rng.normal(size=(3, 3, 2))
    got = host[_decomp_rq].qr_multiply(a, c, "left", pivoting=True)
    want = _per_slice(lambda x, y: sla.qr_multiply(x, y, "left", pivoting=True), (2, 3), (a, 2), (c, 2))
    for g, w in zip(got, want):
        _same(g, w, 1e-12)
    v = rng.normal(size=5)  # a 1-d c: one vector for every matrix of the stack
    got = host[_decomp_rq].qr_multiply(a[:, 0], v, "right")
    want = _per_slice(lambda x: sla.qr_multiply(x, v, "right"), (2,), (a[:, 0], 2))
    for g, w in zip(got, want):
        _same(g, w, 1e-12)


def test_qr_multiply_empty_c_is_scipys(host):
    a, c = np.ones((4, 3)), np.ones((3, 0), dtype=np.int64)
    got, want = host[_decomp_rq].qr_multiply(a, c, "left"), sla.qr_multiply(a, c, "left")
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype


@pytest.mark.parametrize("args, kw", [((np.ones((4, 3)), np.ones((4, 2))), {"mode": "left"}),
                                      ((np.ones((4, 3)), np.ones((2, 3))), {}),
                                      ((np.ones((4, 3)), np.ones((3, 2))), {"mode": "middle"}),
                                      ((np.ones((4, 3)), np.full((3, 2), np.nan)), {"mode": "left"}),
                                      ((np.full((4, 3), np.inf), np.ones((3, 2))), {"mode": "left"}),
                                      ((np.ones((0, 4, 3)), np.ones((3, 2))), {"mode": "left"})])
def test_qr_multiply_errors_are_scipys(host, args, kw):
    with pytest.raises(ValueError) as got:
        host[_decomp_rq].qr_multiply(*args, **kw)
    with pytest.raises(ValueError) as want:
        sla.qr_multiply(*args, **kw)
    if args[0].ndim == 2:  # (SciPy 1.17 does not batch: its error for the stack differs)
        assert str(got.value) == str(want.value)


# -- diagsvd, cdf2rdf -------------------------------------------------------------------------------
@pytest.mark.parametrize("s, m, n", [(np.array([3.0, 2.0]), 2, 4), (np.array([3.0, 2.0]), 4, 2),
                                     (np.arange(3), 3, 3), (np.ones(0), 0, 2), (np.ones(2, np.float32), 2, 2)])
def test_diagsvd_is_scipys(host, s, m, n):
    _same(host[_decomp_forms].diagsvd(s, m, n), sla.diagsvd(s, m, n))


def test_diagsvd_batches(host):
    s = np.arange(6.0).reshape(2, 3)
    _same(host[_decomp_forms].diagsvd(s, 5, 3), _per_slice(lambda x: sla.diagsvd(x, 5, 3), (2,), (s, 1)))


@pytest.mark.parametrize("s, m, n", [(np.ones(3), 2, 3), (np.ones(3), 3, 2), (np.ones(2), 3, 3),
                                     (np.float64(1.0), 1, 1)])
def test_diagsvd_errors_are_scipys(host, s, m, n):
    with pytest.raises(ValueError) as got:
        host[_decomp_forms].diagsvd(s, m, n)
    with pytest.raises(ValueError) as want:
        sla.diagsvd(s, m, n)
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("dtype", DTYPES, ids=ID)
@pytest.mark.parametrize("n", [1, 2, 5, 8])
def test_cdf2rdf_is_scipys_bit_for_bit(host, dtype, n):
    rng = np.random.default_rng(n)
    a = rng.normal(size=(n, n))
    # a real matrix's complex-conjugate pairs; for a real dtype, a symmetric matrix's real eigenvalues
    w, v = np.linalg.eig(a) if np.dtype(dtype).kind == "c" else np.linalg.eigh(a + a.T)
    w, v = w.astype(dtype), v.astype(dtype)
    got, want = host[_decomp_forms].cdf2rdf(w, v), sla.cdf2rdf(w, v)
    for g, x in zip(got, want):
        assert g.dtype == x.dtype and g.shape == x.shape
        np.testing.assert_array_equal(g, x)


def test_cdf2rdf_stacks_and_pairs_apart(host):
    rng = np.random.default_rng(7)
    w, v = np.linalg.eig(rng.normal(size=(3, 6, 6)))
    w, v = w[..., ::-1], v[..., ::-1]
    w2 = np.array([1 + 2j, 5.0, 1 - 2j])  # a pair with a real eigenvalue between
    v2 = _rand(rng, (3, 3), np.complex128)
    for args in ((w, v), (w2, v2), (w.real, v.real), (np.array([]), np.empty((0, 0)))):
        got, want = host[_decomp_forms].cdf2rdf(*args), sla.cdf2rdf(*args)
        for g, x in zip(got, want):
            assert g.dtype == x.dtype and g.shape == x.shape
            np.testing.assert_array_equal(g, x)


@pytest.mark.parametrize("w, v", [(np.array([1 + 1j, 2.0]), np.eye(2)), (np.float64(1.0), np.eye(1)),
                                  (np.ones(2), np.ones(2)), (np.ones(2), np.ones((2, 2, 2))), (np.ones(2), np.ones((2, 3))),
                                  (np.ones(3), np.eye(2)), (np.array([np.nan, 1.0]), np.eye(2))])
def test_cdf2rdf_errors_are_scipys(host, w, v):
    with pytest.raises(ValueError) as got:
        host[_decomp_forms].cdf2rdf(w, v)
    with pytest.raises(ValueError) as want:
        sla.cdf2rdf(w, v)
    assert str(got.value) == str(want.value)


# -- matmul_toeplitz ---------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128, np.int64], ids=ID)
@pytest.mark.parametrize("nc, nr, xshape", [(5, 5, (5,)), (6, 4, (4, 3)), (3, 7, (7, 2)), (1, 1, (1,)), (4, 4, (4, 0))])
@pytest.mark.parametrize("tuple_", [True, False])
def test_matmul_toeplitz_is_scipys(host, dtype, nc, nr, xshape, tuple_):
    rng = np.random.default_rng([nc, nr, len(xshape), tuple_])
    c, r, x = (_rand(rng, s, dtype) if dtype != np.int64 else rng.integers(-9, 9, s) for s in ((nc,), (nr,), xshape))
    if not tuple_:
        if nc != nr:
            pytest.skip("c alone makes a square matrix")
        cr = c
    else:
        cr = (c, r)
    got, want = host[_structured].matmul_toeplitz(cr, x), sla.matmul_toeplitz(cr, x)
    _same(got, want, 1e-10 * max(1.0, float(np.abs(want).max(initial=0))))


def test_matmul_toeplitz_batches(host):
    rng = np.random.default_rng(8)
    c, r, x = rng.normal(size=(2, 1, 5)), rng.normal(size=(3, 4)), rng.normal(size=(4, 2))
    got = host[_structured].matmul_toeplitz((c, r), x)
    want = _per_slice(lambda cc, rr: sla.matmul_toeplitz((cc, rr), x), (2, 3), (c, 1), (r, 1))
    _same(got, want, 1e-12)
    xb = rng.normal(size=(3, 4))  # 2-d x is one (4, 3) matrix for every (c, r), as SciPy's '1|2' rule
    got = host[_structured].matmul_toeplitz((c[:, 0], r[0]), xb.T)
    _same(got, _per_slice(lambda cc: sla.matmul_toeplitz((cc, r[0]), xb.T), (2,), (c[:, 0], 1)), 1e-12)


@pytest.mark.parametrize("args, err", [(((np.ones(3), np.ones(4)), np.ones(3)), ValueError),
                                       ((np.ones(3), None), ValueError), ((np.float64(1.0), np.ones(1)), IndexError),
                                       ((np.ones(3), np.full(3, np.nan), True), ValueError)])
def test_matmul_toeplitz_errors_are_scipys(host, args, err):
    with pytest.raises(err):
        host[_structured].matmul_toeplitz(*args)
    if args[1] is not None:  # (SciPy 1.17's batching wrapper fails on x=None with AttributeError)
        with pytest.raises(err):
            sla.matmul_toeplitz(*args)


# -- find_best_blas_type, get_blas_funcs, get_lapack_funcs -------------------------------------------
BLAS_ARRAYS = [(), (np.ones(3),), (np.ones((2, 3)),), (np.ones((2, 3)).T,), (np.ones(2, np.int8),),
               (np.ones(2, np.complex64), np.ones(2)), (np.ones((2, 2), np.complex64).T, np.ones(2, np.float32)),
               (np.ones(2, np.float32), np.ones((2, 2), np.complex128).T), (np.ones(2, bool),), (np.ones(2, object),),
               [np.ones(2, np.float16)], (np.ones(2, np.longdouble),), (np.ones(2, np.clongdouble),)]


@pytest.mark.parametrize("arrays", BLAS_ARRAYS, ids=range(len(BLAS_ARRAYS)))
@pytest.mark.parametrize("dtype", [None, "F", np.int8, "O", np.float64])
def test_find_best_blas_type_is_scipys(arrays, dtype):
    assert _blas_lapack.find_best_blas_type(arrays, dtype) == sla.find_best_blas_type(arrays, dtype)


def test_find_best_blas_type_reads_layout_flags():
    class Dev:  # a device array as find_best_blas_type sees one: a dtype and NumPy-style flags
        def __init__(self, dtype, fortran):
            self.dtype, self.flags = np.dtype(dtype), {"FORTRAN": fortran}

    assert cla.find_best_blas_type((Dev("f", True),)) == ("s", np.dtype("float32"), True)
    assert cla.find_best_blas_type((Dev("d", False), Dev("F", True))) == ("z", np.dtype("complex128"), True)


@pytest.mark.parametrize("fn, names, hint", [("get_blas_funcs", "gemm", "gemm -> a @ b"),
                                             ("get_lapack_funcs", ("getrf", "gesdd"), "gesdd -> cuarray.scipy.linalg.svd"),
                                             ("get_lapack_funcs", ["potrf"], "potrf -> cuarray.scipy.linalg.cholesky"),
                                             ("get_blas_funcs", "no_such_routine", "scipy.linalg.get_blas_funcs on host")])
def test_get_funcs_name_what_to_use(fn, names, hint):
    with pytest.raises(NotImplementedError, match="host") as e:
        getattr(cla, fn)(names, ())
    assert hint in str(e.value)
