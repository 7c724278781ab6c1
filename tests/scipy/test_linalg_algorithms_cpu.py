"""cuarray.scipy.linalg's own algorithms, run on the CPU: the pivoted QR (`_qr_pivoted.geqp3`) and
the Schur-free matrix square root and logarithm (`_iterative`) are written over a NumPy-named
namespace, so the very code the GPU runs is checked here with NumPy against SciPy (LAPACK's geqp3,
SciPy's Schur-based sqrtm/logm). Also the argument errors raised before any device work, with
SciPy's exception types, on host-backed arrays (cuarray.testing.fake_device)."""

from __future__ import annotations

import types
import zlib

import numpy as np
import pytest

sla = pytest.importorskip("scipy.linalg")

from cuarray.testing.fake_device import from_np  # noqa: E402  (tests/ is on sys.path)

from cuarray.scipy import linalg as cla  # noqa: E402
from cuarray.scipy.linalg._iterative import db_sqrtm, iss_logm, rotation  # noqa: E402
from cuarray.scipy.linalg._qr_pivoted import geqp3  # noqa: E402


def _rng(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def _inv_logabsdet(m):
    # cuSOLVER's getrs does not stop at a zero pivot: a singular matrix gives non-finite values.
    try:
        return np.linalg.inv(m), np.linalg.slogdet(m)[1]
    except np.linalg.LinAlgError:
        return np.full_like(m, np.nan), np.full(m.shape[:-2], -np.inf)


NP = types.SimpleNamespace(eye=np.eye, matmul=np.matmul, exp=np.exp, max=np.max, sum=np.sum, abs=np.abs,
                           host=lambda x: x, inv_logabsdet=_inv_logabsdet, solve=np.linalg.solve,
                           zeros=np.zeros, arange=np.arange, real=np.real, imag=np.imag, conj=np.conj, argmax=np.argmax,
                           copysign=np.copysign, sqrt=np.sqrt, where=np.where)


# -- pivoted QR ----------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (8, 8), (1, 4), (4, 1), (1, 1), (40, 30)])
def test_geqp3_is_lapacks(dtype, shape):
    rng = _rng("qp3", dtype, shape)
    a = rng.normal(size=shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.normal(size=shape)
    a = a.astype(dtype)
    h = np.asfortranarray(a.copy())
    tau, jpvt = geqp3(NP, h)
    (wh, wtau), _, wp = sla.qr(a, mode="raw", pivoting=True)
    assert jpvt.dtype == wp.dtype == np.int32
    np.testing.assert_array_equal(jpvt, wp)
    tol = 1e-4 if np.dtype(dtype).char in "fF" else 1e-12
    assert h.dtype == wh.dtype and tau.dtype == wtau.dtype
    np.testing.assert_allclose(h, wh, atol=tol * np.abs(a).max())
    np.testing.assert_allclose(tau, wtau, atol=tol)


def test_geqp3_rank_deficient_and_zero_columns():
    rng = _rng("qp3-rank")
    a = rng.normal(size=(9, 3)) @ rng.normal(size=(3, 7))  # rank 3
    a[:, 2] = 0
    h = np.asfortranarray(a.copy())
    tau, jpvt = geqp3(NP, h)
    (wh, wtau), _, wp = sla.qr(a, mode="raw", pivoting=True)
    np.testing.assert_array_equal(jpvt[:3], wp[:3])  # the trailing pivots tie at rounding level
    r = np.triu(h[:7])
    assert np.all(np.abs(np.diag(r)[3:]) < 1e-12 * np.abs(r[0, 0]))  # rank revealed


# -- sqrtm / logm iterations -----------------------------------------------------------------------
def _cases():
    rng = _rng("matfun")
    out = []
    for n in (1, 2, 5, 30):
        a = rng.normal(size=(n, n))
        out.append(("spd", a @ a.T + np.eye(n)))
        out.append(("shifted", a + 3 * np.sqrt(n) * np.eye(n)))  # eigenvalues in the right half plane
        out.append(("general", 2 * a))  # complex pairs and negative real eigenvalues
        out.append(("complex", a + 1j * rng.normal(size=(n, n)) + 2 * np.sqrt(n) * np.eye(n)))
    return out


def _through_rotation(fn, a, eps, log):
    """What `_matfuncs` does: rotate when an eigenvalue is on the cut, iterate, rotate back."""
    real_input = not np.iscomplexobj(a)
    cut, theta = rotation(np.linalg.eigvals(a), 0.0 if real_input else 100 * eps)
    if not cut:
        return fn(NP, a, eps)
    th = theta[..., None, None]
    f = fn(NP, a * np.exp(-1j * th), eps)
    return f + 1j * th * np.eye(a.shape[-1]) if log else f * np.exp(0.5j * th)


@pytest.mark.parametrize("kind,a", _cases(), ids=lambda x: x if isinstance(x, str) else str(x.shape[-1]))
def test_db_sqrtm_is_scipys(kind, a):
    got = _through_rotation(db_sqrtm, a, np.finfo(np.float64).eps, False)
    want = sla.sqrtm(a)
    n = a.shape[-1]
    np.testing.assert_allclose(got, want, atol=1e-11 * n * np.abs(want).max())
    np.testing.assert_allclose(got @ got, a, atol=1e-11 * n * np.abs(a).max())


@pytest.mark.parametrize("kind,a", _cases(), ids=lambda x: x if isinstance(x, str) else str(x.shape[-1]))
def test_iss_logm_is_scipys(kind, a):
    got = _through_rotation(iss_logm, a, np.finfo(np.float64).eps, True)
    want = sla.logm(a)
    n = a.shape[-1]
    np.testing.assert_allclose(got, want, atol=1e-10 * n * max(1.0, np.abs(want).max()))


@pytest.mark.filterwarnings("ignore:logm result may be inaccurate")
def test_iterations_are_batched():
    rng = _rng("batch")
    a = rng.normal(size=(3, 6, 6)) + 4 * np.eye(6)
    a[1] *= 5  # a matrix that needs more square roots than the others
    np.testing.assert_allclose(db_sqrtm(NP, a, 2.2e-16), sla.sqrtm(a), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(iss_logm(NP, a, 2.2e-16), sla.logm(a), rtol=1e-9, atol=1e-11)


def test_db_sqrtm_float32():
    rng = _rng("f32")
    a = (rng.normal(size=(12, 12)) + 8 * np.eye(12)).astype(np.float32)
    got = db_sqrtm(NP, a, np.finfo(np.float32).eps)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, sla.sqrtm(a.astype(np.float64)), rtol=1e-4, atol=1e-5)


@pytest.mark.filterwarnings("ignore:invalid value")
def test_db_sqrtm_singular_is_nan():
    a = np.array([[0.0, 1.0], [0.0, 0.0]])  # no square root exists
    assert np.isnan(db_sqrtm(NP, a, 2.2e-16)).all()


def test_rotation():
    cut, theta = rotation(np.array([[1.0 + 0j, 2.0]]))
    assert not cut and theta.tolist() == [0.0]
    cut, theta = rotation(np.array([[-1.0 + 0j, 2.0]]))
    assert cut and theta[0] == pytest.approx(np.pi / 4)
    # a lower-half-plane eigenvalue 0.2 rad above the cut's lower side bounds the rotation
    lam = np.array([-1.0 + 0j, np.exp(1j * (-np.pi + 0.2))])
    cut, theta = rotation(lam)
    assert cut and theta == pytest.approx(0.1)
    # within rtol of the cut counts as on it (upper side), and bounds nothing
    cut, theta = rotation(np.array([-1.0 - 1e-17j, 3.0]), rtol=1e-14)
    assert cut and theta == pytest.approx(np.pi / 4)
    cut, theta = rotation(np.array([-1.0 - 1e-17j, 3.0]), rtol=0.0)
    assert not cut


# -- argument errors before any device work: SciPy's exception types -------------------------------
def _same_error(ours, theirs):
    with pytest.raises(Exception) as e1:
        ours()
    with pytest.raises(Exception) as e2:
        theirs()
    assert type(e1.value) is type(e2.value), (e1.value, e2.value)


V = np.arange(1.0, 4.0)
R = np.ones((2, 3))
S = np.eye(3)
ERRORS = {
    "sqrtm-1d": (lambda m: m.sqrtm(V)),
    "sqrtm-rect": (lambda m: m.sqrtm(R)),
    "logm-1d": (lambda m: m.logm(V)),
    "logm-rect": (lambda m: m.logm(R)),
    "expm-1d": (lambda m: m.expm(V)),
    "expm-rect": (lambda m: m.expm(R)),
    "inv-1d": (lambda m: m.inv(V)),
    "inv-rect": (lambda m: m.inv(R)),
    "inv-assume": (lambda m: m.inv(S, assume_a="nonsense")),
    "det-1d": (lambda m: m.det(V)),
    "det-rect": (lambda m: m.det(R)),
    "solve-rect": (lambda m: m.solve(R, V)),
    "solve-b": (lambda m: m.solve(S, V[:2])),
    "solve-assume": (lambda m: m.solve(S, V, assume_a="nonsense")),
    "qr-1d": (lambda m: m.qr(V)),
    "qr-mode": (lambda m: m.qr(R, mode="reduced")),
    "solve_banded-l+u": (lambda m: m.solve_banded((1, 1), R, V)),
    "solve_banded-b": (lambda m: m.solve_banded((1, 1), np.ones((3, 4)), V)),
    "eigh-rect": (lambda m: m.eigh(R)),
    "eigh-both-subsets": (lambda m: m.eigh(S, subset_by_index=(0, 1), subset_by_value=(0, 1))),
    "eigh-type": (lambda m: m.eigh(S, S, type=4)),
    "eigh-index": (lambda m: m.eigh(S, subset_by_index=(2, 5))),
    "svd-1d": (lambda m: m.svd(V)),
    "svd-driver": (lambda m: m.svd(S, lapack_driver="gesvdx")),
    "svdvals-1d": (lambda m: m.svdvals(V)),
    "lu-1d": (lambda m: m.lu(V)),
    "cho_factor-rect": (lambda m: m.cho_factor(R)),
    "cho_solve-b": (lambda m: m.cho_solve((S, False), V[:2])),
    "solve_triangular-rect": (lambda m: m.solve_triangular(R, V[:2])),
    "solve_triangular-b": (lambda m: m.solve_triangular(S, V[:2])),
    "null_space-1d": (lambda m: m.null_space(V)),
    "orth-1d": (lambda m: m.orth(V)),
    "procrustes-shapes": (lambda m: m.orthogonal_procrustes(S, R)),
    "leslie-lengths": (lambda m: m.leslie(V, V)),
    "leslie-short": (lambda m: m.leslie(V[:1], V[:0])),
    "companion-short": (lambda m: m.companion(V[:1])),
    "khatri_rao-1d": (lambda m: m.khatri_rao(V, V)),
    "khatri_rao-cols": (lambda m: m.khatri_rao(R, np.ones((2, 4)))),
}


class _OnHost:
    """cuarray.scipy.linalg with every NumPy argument made a host-backed cuarray array (the
    checks under test run before any device work)."""

    def __getattr__(self, name):
        fn = getattr(cla, name)

        def conv(x):
            if isinstance(x, np.ndarray):
                return from_np(x)
            if isinstance(x, tuple):
                return tuple(conv(y) for y in x)
            return x

        return lambda *args, **kw: fn(*[conv(a) for a in args], **kw)


@pytest.mark.filterwarnings("ignore::FutureWarning")
@pytest.mark.parametrize("case", sorted(ERRORS))
def test_argument_errors_are_scipys(case):
    _same_error(lambda: ERRORS[case](_OnHost()), lambda: ERRORS[case](sla))


def test_new_names_are_exported():
    for name in ("qr", "solve_banded", "sqrtm", "logm", "cosm", "sinm", "tanm", "coshm", "sinhm", "tanhm",
                 "cholesky", "eigvalsh", "eig", "eigvals", "polar", "pinv", "norm", "lstsq", "solveh_banded"):
        assert callable(getattr(cla, name))
    assert issubclass(cla.LinAlgWarning, RuntimeWarning) and cla.LinAlgError is np.linalg.LinAlgError


# SciPy 1.18 drops sqrtm's `disp`/`blocksize` and logm's `disp` (deprecated in 1.16): 1.18's here.
SIGNATURE_NAMES = sorted(set(n for n in dir(cla) if not n.startswith("_") and callable(getattr(cla, n))
                             and hasattr(sla, n) and not isinstance(getattr(cla, n), type)) - {"sqrtm", "logm"})


def _scipy_version():
    import re

    import scipy

    return tuple(int(x) for x in re.match(r"(\d+)\.(\d+)", scipy.__version__).groups())


_SENTINEL = object()  # stands for a bare-object() default (SciPy's _NoValue) in the table below

# Signatures that SciPy 1.18 changed (read from its source, scipy/linalg/_decomp.py and
# _decomp_qr.py at v1.18.1): cuarray follows 1.18, so under an older SciPy these are the reference.
SIGNATURES_1_18 = {
    "signm": [("A", None)],
    "eigvals": [("a", None), ("b", None), ("overwrite_a", False), ("overwrite_b", False),
                ("check_finite", True), ("homogeneous_eigvals", False)],
    "qr": [("a", None), ("overwrite_a", False), ("lwork", _SENTINEL), ("mode", "full"), ("pivoting", False),
           ("check_finite", True)],
    # scipy/linalg/blas.py and lapack.py at v1.18.1: ilp64's default is 'preferred' (1.17: False)
    "get_blas_funcs": [("names", None), ("arrays", ()), ("dtype", None), ("ilp64", "preferred")],
    "get_lapack_funcs": [("names", None), ("arrays", ()), ("dtype", None), ("ilp64", "preferred")],
}


def _same_default(ours, theirs):
    # SciPy 1.18's deprecation sentinel is a bare object(): any other bare object() stands for it.
    if type(ours) is object and type(theirs) is object:
        return True
    return ours == theirs


@pytest.mark.parametrize("name", SIGNATURE_NAMES)
def test_signature_is_scipys(name):
    import inspect

    ours = inspect.signature(getattr(cla, name))
    if name in SIGNATURES_1_18 and _scipy_version() < (1, 18):
        want = SIGNATURES_1_18[name]
        params = list(ours.parameters.values())
        assert [p.name for p in params] == [n for n, _ in want]
        assert params[0].default is inspect.Parameter.empty
        for p, (_, d) in zip(params[1:], want[1:]):
            assert p.kind == p.POSITIONAL_OR_KEYWORD and _same_default(p.default, d), (name, p, d)
        return
    theirs = inspect.signature(getattr(sla, name))
    assert list(ours.parameters) == list(theirs.parameters)
    for p in ours.parameters.values():
        q = theirs.parameters[p.name]
        assert p.kind == q.kind and _same_default(p.default, q.default), (name, p, q)


def test_qr_lwork_is_deprecated_as_in_scipy_1_18():
    # SciPy 1.18: lwork <= M (other than None/-1) raises ValueError before any work; other values warn.
    a = np.ones((4, 3))
    with pytest.raises(ValueError, match="lwork"):
        cla.qr(from_np(a), lwork=2)
    if _scipy_version() >= (1, 18):
        with pytest.raises(ValueError, match="lwork"):
            sla.qr(a, lwork=2)


def test_sqrtm_logm_signatures_are_scipy_1_18s():
    import inspect

    assert list(inspect.signature(cla.sqrtm).parameters) == ["A"]
    assert list(inspect.signature(cla.logm).parameters) == ["A"]


MORE_ERRORS = {
    "cosm-rect": (lambda m: m.cosm(R)),
    "tanhm-1d": (lambda m: m.tanhm(V)),
    "cholesky-rect": (lambda m: m.cholesky(R)),
    "polar-side": (lambda m: m.polar(S, side="up")),
    "polar-1d": (lambda m: m.polar(V)),
    "solveh_banded-b": (lambda m: m.solveh_banded(np.ones((2, 4)), V)),
    "eigvalsh-rect": (lambda m: m.eigvalsh(R)),
    "eig-rect": (lambda m: m.eig(R)),
    "eigvals-1d": (lambda m: m.eigvals(V)),
    "pinv-1d": (lambda m: m.pinv(V)),
    "pinv-atol": (lambda m: m.pinv(S, atol=-1.0)),
    "lstsq-1d": (lambda m: m.lstsq(V, V)),
    "lstsq-rows": (lambda m: m.lstsq(S, V[:2])),
    "lstsq-driver": (lambda m: m.lstsq(S, V, lapack_driver="gelsx")),
}


@pytest.mark.parametrize("case", sorted(MORE_ERRORS))
def test_more_argument_errors_are_scipys(case):
    _same_error(lambda: MORE_ERRORS[case](_OnHost()), lambda: MORE_ERRORS[case](sla))


# Zero-size batches: SciPy (1.17 and 1.18) raises ValueError "... does not support zero-size
# batches." where some operand has batch dimensions and their broadcast has no element; cuarray
# returned an empty result for these five (an empty core, `n == 0` with no batch, stays allowed).
ZERO_BATCHES = {
    "toeplitz": (lambda m: m.toeplitz(np.ones((0, 3)))),
    "solve_toeplitz": (lambda m: m.solve_toeplitz(np.ones((0, 3)), V)),
    "expm_frechet": (lambda m: m.expm_frechet(np.ones((0, 2, 2)), np.ones((0, 2, 2)))),
    "lu_solve": (lambda m: m.lu_solve((np.ones((0, 2, 2)), np.zeros((0, 2), np.int32)), V[:2])),
    "solve_banded": (lambda m: m.solve_banded((1, 1), np.ones((0, 3, 3)), V)),
}


@pytest.mark.parametrize("case", sorted(ZERO_BATCHES))
def test_zero_size_batches_raise_as_scipy(case):
    _same_error(lambda: ZERO_BATCHES[case](_OnHost()), lambda: ZERO_BATCHES[case](sla))
    with pytest.raises(ValueError, match="`{}` does not support zero-size batches".format(case)):
        ZERO_BATCHES[case](_OnHost())


def test_solve_banded_tridiagonal_route():
    # one tridiagonal matrix of 3 rows or more takes cuSPARSE's gtsv2 (its smallest system, 32-bit
    # sizes); other bands, stacks and 2 rows the dense LU
    from cuarray.scipy.linalg._banded_tridiagonal import GTSV_MIN_ROWS, use_gtsv

    assert GTSV_MIN_ROWS == 3
    assert use_gtsv(1, 1, 3, False) and use_gtsv(1, 1, 10**8, False)
    assert not use_gtsv(1, 1, 2, False)
    assert not use_gtsv(1, 2, 10**5, False) and not use_gtsv(2, 1, 10**5, False) and not use_gtsv(1, 1, 10**5, True)
    assert not use_gtsv(1, 1, 2**31 - 1, False)
    assert use_gtsv(1, 1, 1000, False, 64) and not use_gtsv(1, 1, 1000, False, 65)  # ~7.5 us a column
    assert use_gtsv(1, 1, 16385, False, 1000)  # past the dense path's n x n
    assert not use_gtsv(1, 1, 2**30, False, 2) and use_gtsv(1, 1, 2**30 - 1, False, 2)  # 32-bit sizes


def test_bandwidth_refuses_a_numpy_matrix():
    """The matrix is bandwidth's data (docs/scipy.md, "Host inputs"): a NumPy array raises the
    one TypeError before any device work, where cupyx copies it (docs/differences.md)."""
    with pytest.raises(TypeError, match=r"bandwidth: unsupported input of type numpy\.ndarray.*cuarray\.asarray\(\)"):
        cla.bandwidth(np.eye(3))
