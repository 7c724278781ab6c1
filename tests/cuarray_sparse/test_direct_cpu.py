"""The direct solvers without a GPU: signatures against SciPy's, MatrixRankWarning's kind, and the
ImportError naming `cuarray[cudss]` where cuDSS (its bindings or its library) is missing."""

from __future__ import annotations

import inspect

import pytest
import scipy.sparse.linalg as sla

import cuarray.scipy.sparse.linalg as csla
import cuarray.sparse.linalg as cla
from cuarray.cuda.libs import cudss


@pytest.mark.parametrize("name", ["spsolve", "splu", "spilu", "factorized"])
def test_signature_is_scipys(name):
    assert inspect.signature(getattr(cla, name)) == inspect.signature(getattr(sla, name))
    assert getattr(csla, name) is getattr(cla, name)


def test_warning_and_superlu_surface():
    assert issubclass(cla.MatrixRankWarning, UserWarning)
    for name in ("solve", "L", "U", "perm_r", "perm_c", "nnz", "shape"):
        assert hasattr(sla.SuperLU, name) and (hasattr(cla.SuperLU, name) or name == "shape")


def test_missing_bindings_name_the_extra(monkeypatch):
    def missing(name):
        raise ImportError("No module named 'nvmath.bindings.cudss'")

    monkeypatch.setattr(cudss, "_lib", None)
    monkeypatch.setattr(cudss, "nvmath_bindings", missing)
    with pytest.raises(ImportError, match=r"cuarray\[cudss\]"):
        cudss.bindings()


def test_missing_library_names_the_extra(monkeypatch):
    class DynamicLibNotFoundError(RuntimeError):
        pass

    class Lib:
        @staticmethod
        def create():
            raise DynamicLibNotFoundError("Failure finding libcudss.so.0")

    monkeypatch.setattr(cudss, "_lib", Lib)
    with pytest.raises(ImportError, match=r"cuarray\[cudss\]"):
        cudss._create()
