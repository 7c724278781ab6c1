"""LinearOperator's algebra against SciPy's (on the host shim and the GPU): transpose, adjoint,
products, sums, powers, scalar multiples and division, x A from the right, dtype inference from
`matvec`, aslinearoperator of 1-D, 2-D and sparse inputs."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse.linalg as sla

from ._util import D, H, rand_coo


def _pair(dev, dtype="complex128", seed=50):
    h = rand_coo(6, 6, 0.5, dtype=dtype, seed=seed, dups=False).tocsr()
    return dev.cla.aslinearoperator(dev.sp.csr_matrix(h)), sla.aslinearoperator(h), h


def _same(got, want):
    np.testing.assert_allclose(H(got), want, rtol=1e-12, atol=1e-14)


def test_algebra(dev):
    a, ha, h = _pair(dev)
    b, hb, _ = _pair(dev, seed=51)
    x = np.random.default_rng(52).random(6) + 1j
    X = np.random.default_rng(53).random((6, 3))
    for got, want in ((a.T, ha.T), (a.H, ha.H), (a.T.H, ha.T.H), (a * b, ha * hb), (a + b, ha + hb),
                      (a - b, ha - hb), (a ** 3, ha ** 3), (a ** 0, ha ** 0), (2.5 * a, 2.5 * ha),
                      (a * (1 - 2j), ha * (1 - 2j)), (a / 4, ha / 4), (-a, -ha), (a @ b.T, ha @ hb.T)):
        assert got.shape == want.shape and got.dtype == want.dtype
        _same(got.matvec(D(x)), want.matvec(x))
        _same(got.rmatvec(D(x)), want.rmatvec(x))
        _same(got.matmat(D(X)), want.matmat(X))
    dense = h.toarray()  # x A from the right (SciPy 1.18's rdot; 1.17 has none): the dense product
    _same(a.rdot(D(x)), x @ dense)
    _same(a.rdot(D(X.T)), X.T @ dense)
    with pytest.raises(ValueError):
        a / D(x)
    with pytest.raises(ValueError):
        a ** -1


def test_dtype_inference_and_aslinearoperator(dev):
    for f in (lambda v: 2 * v, lambda v: v * 1.5, lambda v: v + 1j):
        op, hop = dev.cla.LinearOperator((3, 3), matvec=f), sla.LinearOperator((3, 3), matvec=f)
        assert op.dtype == hop.dtype, (op.dtype, hop.dtype)
    row = np.arange(4.0)
    op, hop = dev.cla.aslinearoperator(D(row)), sla.aslinearoperator(row)
    assert op.shape == hop.shape == (1, 4)
    _same(op.matvec(D(np.ones(4))), hop.matvec(np.ones(4)))
    # SciPy 1.18 (1.17 raised ValueError): a stack is a batch of operators, products broadcast
    stack = np.random.default_rng(54).random((2, 3, 4))
    op = dev.cla.aslinearoperator(D(stack))
    assert op.shape == (2, 3, 4) and op.ndim == 3
    _same(op.matvec(D(np.arange(4.0))), stack @ np.arange(4.0))
    _same(op.rmatvec(D(np.ones((2, 3)))), np.einsum("bij,bi->bj", stack, np.ones((2, 3))))


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "int64"])
@pytest.mark.parametrize("name", ["lsqr", "lsmr"])
def test_least_squares_dtype_is_scipys(dev, name, dtype):
    import scipy.sparse as ssp

    h = (ssp.random(8, 5, density=0.6, random_state=1) + ssp.eye(8, 5)).astype(dtype).tocsr()
    b = np.arange(8).astype(dtype)
    with np.errstate(all="ignore"):
        want = getattr(sla, name)(h, b)[0]
    got = getattr(dev.cla, name)(dev.sp.csr_matrix(h), D(b))[0]
    assert H(got).dtype == want.dtype


def test_eigsh_k_and_ncv_edges(dev):
    import scipy.sparse as ssp

    h = (ssp.random(8, 8, density=0.5, random_state=3) + ssp.eye(8)).tocsr()
    h = (h + h.T).tocsr()
    a = dev.sp.csr_matrix(h)
    for k, ncv in ((7, None), (5, 8), (1, 2), (6, 8)):
        got = dev.cla.eigsh(a, k=k, ncv=ncv, return_eigenvectors=False)
        want = sla.eigsh(h, k=k, ncv=ncv, return_eigenvectors=False)
        np.testing.assert_allclose(np.sort(H(got)), np.sort(want), rtol=1e-8, atol=1e-10)
    for k, ncv, err in ((0, None, ValueError), (3, 3, ValueError), (8, None, TypeError)):
        with pytest.raises(err), pytest.warns() if k >= 8 else _nothing():
            sla.eigsh(h, k=k, ncv=ncv)
        with pytest.raises(err), pytest.warns() if k >= 8 else _nothing():
            dev.cla.eigsh(a, k=k, ncv=ncv)


def _nothing():
    import contextlib

    return contextlib.nullcontext()


def test_norm_errors_and_2norm(dev):
    import scipy.sparse as ssp

    h = (ssp.random(7, 7, density=0.6, random_state=1) + ssp.eye(7)).tocsr()
    a = dev.sp.csr_matrix(h)
    np.testing.assert_allclose(float(H(dev.cla.norm(a, 2))), sla.norm(h, 2), rtol=1e-8)
    for kw in (dict(axis=2), dict(axis=-3), dict(axis=(0, 1, 2)), dict(axis=()), dict(ord=-2), dict(axis=1.5),
               dict(axis=(0, 0)), dict(ord="nuc"), dict(ord="fro", axis=0), dict(axis=(0, 2))):
        with pytest.raises(Exception) as theirs:
            sla.norm(h, **kw)
        with pytest.raises(Exception) as ours:
            dev.cla.norm(a, **kw)
        assert type(ours.value) is type(theirs.value), (kw, ours.value, theirs.value)
