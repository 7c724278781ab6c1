"""cgs and matrix_power against scipy.sparse.linalg (on the host shim and on the GPU)."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
import scipy.sparse as ssp
import scipy.sparse.linalg as sla

from ._util import D, H, rand_coo


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_cgs(dev, dtype):
    n = 60
    h = (rand_coo(n, n, 0.05, dtype=dtype, seed=47, dups=False) + ssp.eye(n) * 4).tocsr()
    b = np.random.default_rng(48).random(n).astype(dtype)
    a = dev.sp.csr_matrix(h)
    seen = []
    x, info = dev.cla.cgs(a, D(b), rtol=1e-8, callback=lambda xk: seen.append(1))
    xs, infos = sla.cgs(h, b, rtol=1e-8)
    assert info == infos == 0 and seen
    assert H(x).dtype == np.dtype(dtype)
    np.testing.assert_allclose(H(x), xs, rtol=1e-6, atol=1e-8)
    m = dev.sp.diags(D(1.0 / h.diagonal()), 0, format="csr")
    x, info = dev.cla.cgs(a, D(b), x0=D(np.ones(n, dtype)), M=m, rtol=1e-8)
    assert info == 0
    np.testing.assert_allclose(H(x), xs, rtol=1e-6, atol=1e-8)
    x, info = dev.cla.cgs(a, D(b), maxiter=2)
    assert info == sla.cgs(h, b, maxiter=2)[1] == 2


def test_cgs_zero_rhs(dev):
    a = dev.sp.csr_matrix(ssp.eye(5).tocsr())
    x, info = dev.cla.cgs(a, D(np.zeros(5)))
    assert info == 0 and not H(x).any()


@pytest.mark.parametrize("power", [0, 1, 2, 5])
def test_matrix_power(dev, power):
    h = rand_coo(8, 8, 0.3, seed=49, dups=False).tocsr()
    got = dev.cla.matrix_power(dev.sp.csr_matrix(h), power)
    np.testing.assert_allclose(H(got.toarray()), sla.matrix_power(h, power).toarray(), rtol=1e-12)


def test_matrix_power_errors_and_signatures(dev):
    a = dev.sp.csr_matrix(ssp.eye(3).tocsr())
    with pytest.raises(TypeError):
        dev.cla.matrix_power(dev.sp.csr_matrix(ssp.random(2, 3, density=0.5, format="csr")), 2)
    with pytest.raises(ValueError):
        dev.cla.matrix_power(a, -1)
    with pytest.raises(ValueError):
        dev.cla.matrix_power(a, 2.5)
    for name in ("cgs", "matrix_power"):
        assert inspect.signature(getattr(dev.cla, name)) == inspect.signature(getattr(sla, name))
