"""The scipy.linalg names added for issue 50 without a GPU: SciPy's signatures (the installed
SciPy's), the host index tables of convolution_matrix and fiedler_companion against SciPy's
matrices, argument errors raised before any device work, the host-input policy of the host-step
routines."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

sla = pytest.importorskip("scipy.linalg")

from cuarray.scipy import linalg as cla  # noqa: E402
from cuarray.scipy.linalg import _special_more  # noqa: E402

NEW = """bandwidth convolution_matrix dft fiedler fiedler_companion invpascal pascal lu ldl schur rsf2csf
hessenberg polar cossin qz ordqz eigh_tridiagonal eig_banded solve_banded solveh_banded solve_circulant
solve_toeplitz matrix_balance funm signm cosm sinm tanm fractional_matrix_power expm_frechet
cho_solve_banded cholesky_banded subspace_angles lstsq pinv pinvh toeplitz circulant hankel leslie
companion block_diag khatri_rao solve_triangular""".split()


@pytest.mark.parametrize("name", NEW)
def test_signature_is_scipys(name):
    want, got = inspect.signature(getattr(sla, name)), inspect.signature(getattr(cla, name))
    if name == "signm":
        # SciPy 1.18 removed the deprecated `disp` (1.17 still has it): ours is 1.18's (A).
        assert list(got.parameters) == ["A"]
        assert list(want.parameters) in (["A"], ["A", "disp"])
        return
    assert got == want


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("m,n", [(1, 1), (1, 4), (4, 1), (3, 5), (5, 3), (4, 4), (6, 2)])
def test_convolution_index_is_scipys_matrix(mode, m, n):
    a = np.arange(1.0, m + 1)
    idx = _special_more._convolution_index(m, n, mode)
    np.testing.assert_array_equal(np.append(a, 0)[idx], sla.convolution_matrix(a, n, mode))


@pytest.mark.parametrize("size", range(3, 11))
def test_fiedler_companion_index_is_scipys_matrix(size):
    a = np.arange(2.0, size + 2) * np.where(np.arange(size) % 2, -1, 1)
    n = size - 1
    an = a / a[0]
    ext = np.concatenate([-an[1:], [1.0, 0.0]])
    np.testing.assert_array_equal(ext[_special_more._fiedler_companion_index(n)], sla.fiedler_companion(a))


def test_argument_errors_before_device_work():
    with pytest.raises(ValueError):
        cla.dft(3, scale="bad")
    with pytest.raises(ValueError):
        cla.convolution_matrix([1.0], 0)
    with pytest.raises(ValueError):
        cla.pascal(3, kind="diag")
    with pytest.raises(ValueError):
        cla.invpascal(3, kind="diag")


@pytest.mark.parametrize("call", [lambda: cla.schur(np.eye(2)), lambda: cla.hessenberg([[1.0, 2.0], [3.0, 4.0]]),
                                  lambda: cla.eigh_tridiagonal(np.ones(2), np.ones(1)),
                                  lambda: cla.cho_solve_banded((np.ones((2, 2)), False), np.ones(2))])
def test_host_step_routines_refuse_host_data(call):
    with pytest.raises(TypeError, match="cuarray.asarray"):
        call()
