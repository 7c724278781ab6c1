"""cuarray.scipy.linalg without a GPU: the pieces of host logic (LAPACK pivots -> permutation),
the namespace, and the argument errors raised before any device work."""

from __future__ import annotations

import numpy as np
import pytest

sla = pytest.importorskip("scipy.linalg")

from cuarray.scipy import linalg as cla  # noqa: E402
from cuarray.scipy.linalg._decomp_lu import permutation_from_pivots  # noqa: E402

NAMES = """lu lu_factor lu_solve cho_factor cho_solve solve_triangular solve inv det eigh svd svdvals expm
block_diag toeplitz circulant hankel hadamard helmert hilbert invhilbert leslie companion tri khatri_rao kron
null_space orth orthogonal_procrustes""".split()


@pytest.mark.parametrize("name", NAMES)
def test_namespace(name):
    assert callable(getattr(cla, name))


# SciPy removed `tri` and `kron` in 1.13 (numpy.tri / numpy.kron); cuarray keeps them.
@pytest.mark.parametrize("name", sorted(set(NAMES) - {"tri", "kron"}))
def test_names_are_scipys(name):
    # Our names are SciPy's own (`invhilbert`, never a guessed short form).
    assert callable(getattr(sla, name))


@pytest.mark.parametrize("n", [1, 2, 5, 17])
def test_permutation_from_pivots_is_scipys(n):
    rng = np.random.default_rng(n)
    a = rng.normal(size=(n, n))
    lu, piv = sla.lu_factor(a)
    rows = permutation_from_pivots(piv)
    low = np.tril(lu, -1) + np.eye(n)
    up = np.triu(lu)
    np.testing.assert_allclose(a[rows], low @ up, atol=1e-12)
    p, l2, u2 = sla.lu(a)
    pm = np.zeros((n, n))
    pm[rows, np.arange(n)] = 1  # P[rows[i], i] = 1, so P @ L @ U = A
    np.testing.assert_array_equal(pm, p)


def test_permutation_from_pivots_stacked():
    rng = np.random.default_rng(0)
    a = rng.normal(size=(3, 4, 4))
    piv = np.stack([sla.lu_factor(m)[1] for m in a])
    rows = permutation_from_pivots(piv)
    for k in range(3):
        np.testing.assert_array_equal(rows[k], permutation_from_pivots(piv[k]))
