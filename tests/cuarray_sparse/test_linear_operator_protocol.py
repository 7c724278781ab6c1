"""SciPy's LinearOperator protocol (on the host shim and the GPU): subclasses that define only
`_matvec` or `_matmat` (with `_rmatvec`, `_rmatmat` or `_adjoint` for the adjoint) and call
``super().__init__(dtype, shape)`` or pass ``dtype=None`` (inferred); each kind through the public
products, the algebra, and every solver of sparse.linalg, whose answers are checked against the
exact ones (SciPy runs the same classes on the host arrays). A subclass that never calls
``__init__`` is refused as SciPy 1.18 refuses it (1.17 accepted it)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy
import scipy.linalg as hla
import scipy.sparse.linalg as sla

from . import _host_shim
from ._util import D, H

N = 12


def _classes(base, A, AH):
    """Three user operators over the matrix A (a device or host array) and its adjoint AH."""

    class WithMatvec(base):  # SciPy's documented form
        def __init__(self):
            super().__init__(A.dtype, A.shape)

        def _matvec(self, x):
            return A @ x

        def _rmatvec(self, x):
            return AH @ x

    class WithMatmat(base):  # dtype None, then inferred from an int8 product
        def __init__(self, a=A, ah=AH):
            self.a, self.ah = a, ah
            super().__init__(None, a.shape)
            self._init_dtype()  # SciPy: "called from subclasses at the end of the __init__ routine"

        def _matmat(self, X):
            return self.a @ X

        def _adjoint(self):
            return WithMatmat(self.ah, self.a)

    class NoInit(base):  # attributes set, __init__ never called (SciPy 1.17 and CuPy accept it)
        def __init__(self):
            self.dtype = A.dtype
            self.shape = A.shape

        def _matvec(self, x):
            return A @ x

        def _rmatmat(self, X):
            return AH @ X

    return {"matvec": WithMatvec, "matmat": WithMatmat, "noinit": NoInit}


def _problem(seed=70, dtype=np.float64):
    rng = np.random.default_rng(seed)
    a = rng.normal(size=(N, N)) + (1j * rng.normal(size=(N, N)) if np.dtype(dtype).kind == "c" else 0)
    spd = (a @ a.conj().T / N + 4 * np.eye(N)).astype(dtype)
    b = rng.normal(size=N).astype(dtype)
    return spd, b


def _ops(dev, kind, dtype=np.float64, seed=70):
    spd, b = _problem(seed, dtype)
    ours = _classes(dev.cla.LinearOperator, D(spd), D(spd.conj().T))[kind]()
    theirs = _classes(sla.LinearOperator, spd, spd.conj().T)[kind]()
    return ours, theirs, spd, b


KINDS = ["matvec", "matmat"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype", [np.float32, np.complex128])
def test_products_and_attributes_as_scipy(dev, kind, dtype):
    op, hop, a, b = _ops(dev, kind, dtype)
    assert op.shape == hop.shape == (N, N) and op.ndim == 2
    assert op.dtype == hop.dtype == np.dtype(dtype), (op.dtype, hop.dtype)
    assert repr(op) == repr(hop).replace(type(hop).__name__, type(op).__name__)
    X = np.random.default_rng(71).normal(size=(N, 3)).astype(dtype)
    tol = 1e-5 if np.dtype(dtype).char in "fF" else 1e-12
    for name, arg in (("matvec", b), ("rmatvec", b), ("matmat", X), ("rmatmat", X), ("dot", b), ("dot", X),
                      ("__matmul__", X), ("__call__", b)):
        got, want = getattr(op, name)(D(arg)), getattr(hop, name)(arg)
        assert H(got).shape == want.shape, name
        np.testing.assert_allclose(H(got), want, rtol=tol, atol=tol, err_msg=name)
    for got, want in ((op.H, hop.H), (op.T, hop.T), (2 * op + op.H, 2 * hop + hop.H), (op @ op, hop @ hop),
                      (op ** 2, hop ** 2), (-op / 3, -hop / 3)):
        # SciPy 1.18's dtypes: a Python scalar is weak (1.17 made 2 * float32 float64)
        assert got.shape == want.shape and got.dtype == np.dtype(dtype)
        np.testing.assert_allclose(H(got.matvec(D(b))), want.matvec(b), rtol=tol, atol=tol)
        np.testing.assert_allclose(H(got.rmatvec(D(b))), want.rmatvec(b), rtol=tol, atol=tol)


def test_factory_checks_and_warnings(dev):
    op = dev.cla.LinearOperator((3, 4), matvec=lambda v: D(np.ones(3)) * v.sum())
    assert isinstance(op, dev.cla.LinearOperator) and type(op).__name__ == "_CustomLinearOperator"
    assert op.dtype == np.float64 and op.shape == (3, 4)
    with pytest.raises(NotImplementedError):
        op.rmatvec(D(np.ones(3)))
    with pytest.raises(ValueError, match="Dimension mismatch"):
        op.matvec(D(np.ones(3)))
    with pytest.raises(ValueError):
        op.matmat(D(np.ones(4)))
    with pytest.raises(ValueError, match="Scalar operands"):
        op @ 2.0
    with pytest.raises(ValueError, match="invalid shape"):
        dev.cla.LinearOperator((3,), matvec=lambda v: v)
    with pytest.warns(FutureWarning, match="column vectors"):  # SciPy 1.18
        col = op.matvec(D(np.ones((4, 1))))
    assert H(col).shape == (3, 1)

    class Nothing(dev.cla.LinearOperator):
        pass

    with pytest.warns(RuntimeWarning, match="at least one of _matvec and _matmat"):
        Nothing(np.float64, (2, 2))
    # an operator that refuses an int8 vector: SciPy's int64 (the default integer)
    refuses = dev.cla.LinearOperator((2, 2), matvec=lambda v: (_ for _ in ()).throw(TypeError("no ints")))
    assert refuses.dtype == np.int64


SOLVE = ["cg", "cgs", "bicg", "bicgstab", "gmres", "lgmres", "gcrotmk", "minres", "qmr", "tfqmr"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("solver", SOLVE)
def test_krylov_solvers_take_subclasses(dev, kind, solver):
    op, hop, a, b = _ops(dev, kind)
    x, info = getattr(dev.cla, solver)(op, D(b), rtol=1e-10)
    xs, infos = getattr(sla, solver)(hop, b, rtol=1e-10)
    assert info == infos == 0
    exact = np.linalg.solve(a, b)
    np.testing.assert_allclose(H(x), exact, rtol=1e-7, atol=1e-8)
    np.testing.assert_allclose(H(x), xs, rtol=1e-7, atol=1e-8)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("solver", ["lsqr", "lsmr"])
def test_least_squares_take_subclasses(dev, kind, solver):
    op, hop, a, b = _ops(dev, kind)
    x = getattr(dev.cla, solver)(op, D(b), atol=1e-12, btol=1e-12)[0]
    np.testing.assert_allclose(H(x), np.linalg.solve(a, b), rtol=1e-7, atol=1e-8)


@pytest.fixture
def lob(dev, monkeypatch):
    if dev == "host":  # lobpcg's own host stand-ins too (test_lobpcg's)
        from .test_lobpcg import _host_lobpcg

        return _host_lobpcg(monkeypatch)
    return dev


@pytest.mark.parametrize("kind", KINDS)
def test_eigensolvers_take_subclasses(lob, kind):
    op, hop, a, b = _ops(lob, kind)
    w = np.linalg.eigvalsh(a)
    got = lob.cla.eigsh(op, k=2, which="LA", return_eigenvectors=False)
    np.testing.assert_allclose(np.sort(H(got)), w[-2:], rtol=1e-10)
    got = lob.cla.eigs(op, k=2, which="LM", return_eigenvectors=False)
    np.testing.assert_allclose(np.sort(H(got).real), w[-2:], rtol=1e-10)
    s = lob.cla.svds(op, k=2, return_singular_vectors=False)
    np.testing.assert_allclose(np.sort(H(s)), w[-2:], rtol=1e-10)
    X = np.random.default_rng(72).normal(size=(N, 2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # 12 < 5 k: SciPy's dense path, its warning
        lam = lob.cla.lobpcg(op, D(X), largest=True)[0]
        want = sla.lobpcg(hop, X, largest=True)[0]
    np.testing.assert_allclose(H(lam), want, rtol=1e-10)
    np.testing.assert_allclose(H(lam), w[::-1][:2], rtol=1e-10)


def _expm(dev):
    """The expm that funm_multiply_krylov's f is on `dev`: f gets the projected matrix as a cuarray
    array (NumPy's on the host shim), so on the GPU it is cuarray's (SciPy's refuses a device array)."""
    if dev == "host":
        return hla.expm
    import cuarray.scipy.linalg as cla

    return cla.expm


@pytest.mark.parametrize("kind", KINDS)
def test_matrix_functions_take_subclasses(dev, kind):
    op, hop, a, b = _ops(dev, kind)
    scaled = a / 8
    small = _classes(dev.cla.LinearOperator, D(scaled), D(scaled.T))[kind]()
    want = hla.expm(scaled) @ b
    np.testing.assert_allclose(H(dev.cla.expm_multiply(small, D(b), traceA=float(np.trace(scaled)))), want,
                               rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(H(dev.cla.funm_multiply_krylov(_expm(dev), small, D(b), assume_a="her")), want,
                               rtol=1e-8, atol=1e-10)
    assert float(H(dev.cla.onenormest(op, t=N))) == pytest.approx(np.abs(a).sum(axis=0).max(), rel=1e-12)


def test_host_shim_is_used(dev):
    """The host variant runs the copies (a guard against a test silently running nothing)."""
    assert (dev == "host") == _host_shim.active


@pytest.mark.parametrize("bc", ["neumann", "periodic"])
def test_batched_vectors_give_each_product(dev, bc):
    """SciPy 1.18 lets matvec take (..., N) and matmat (..., N, K): each vector's own product
    (SciPy's own LaplacianNd mixes the vectors of a batch; cuarray's does not)."""
    lap = dev.cla.LaplacianNd((3, 4), boundary_conditions=bc, dtype=np.float64)
    dense = H(lap.toarray()).astype(np.float64)
    rng = np.random.default_rng(73)
    x, X = rng.normal(size=(2, 12)), rng.normal(size=(2, 12, 3))
    a = _problem()[0]
    op = dev.cla.aslinearoperator(D(a))
    for got, want in ((lap.matvec(D(x)), x @ dense.T), (lap.matmat(D(X)), dense @ X), (lap.matvec(D(x[0])), dense @ x[0]),
                      (op.matvec(D(x)), x @ a.T), (op.rmatvec(D(x)), x @ a), (op.matmat(D(X)), a @ X)):
        assert H(got).shape == want.shape
        np.testing.assert_allclose(H(got), want, rtol=1e-12, atol=1e-12)


SCIPY_118 = tuple(int(p) for p in scipy.__version__.split(".")[:2]) >= (1, 18)


def _refusals(cla, op, b, X, x0):
    """What a subclass that never called ``__init__`` meets: each entry a call that SciPy 1.18
    refuses with an AttributeError (its products, algebra and solvers read state `__init__` sets)."""
    return {
        "ndim": lambda: op.ndim, "matvec": lambda: op.matvec(b), "rmatvec": lambda: op.rmatvec(b),
        "matmat": lambda: op.matmat(X), "rmatmat": lambda: op.rmatmat(X), "dot": lambda: op.dot(b),
        "matmul": lambda: op @ X, "call": lambda: op(b), "rdot": lambda: op.rdot(b), "H": lambda: op.H,
        "T": lambda: op.T, "add": lambda: op + op, "scale": lambda: 2 * op, "neg": lambda: -op,
        "div": lambda: op / 3, "pow": lambda: op ** 2, "cg": lambda: cla.cg(op, b),
        "gmres": lambda: cla.gmres(op, b), "lsqr": lambda: cla.lsqr(op, b),
        "eigsh": lambda: cla.eigsh(op, k=2), "lobpcg": lambda: cla.lobpcg(op, x0),
        "expm_multiply": lambda: cla.expm_multiply(op, b, traceA=1.0), "onenormest": lambda: cla.onenormest(op),
    }


def test_subclass_without_init_is_refused_as_scipy(lob):
    """SciPy 1.18: a subclass that never calls ``__init__`` keeps its shape, dtype and repr, and
    aslinearoperator passes it, but every product, the algebra and the solvers raise AttributeError
    (the installed SciPy is checked to agree where it is 1.18 or newer; 1.17 accepted such a class)."""
    op, hop, a, b = _ops(lob, "noinit")
    assert op.shape == hop.shape and op.dtype == hop.dtype
    assert repr(op) == repr(hop)
    assert lob.cla.aslinearoperator(op) is op
    X = np.random.default_rng(74).normal(size=(N, 2))
    ours = _refusals(lob.cla, op, D(b), D(X), D(X))
    theirs = _refusals(sla, hop, b, X, X)
    assert ours.keys() == theirs.keys()
    for name, call in ours.items():
        with pytest.raises(AttributeError, match="'NoInit' object has no attribute"):
            call()
        if SCIPY_118:
            with pytest.raises(AttributeError, match="'NoInit' object has no attribute"):
                theirs[name]()
