"""The direct solvers without a GPU: signatures against SciPy's, MatrixRankWarning's kind, and the
ImportError naming `cuarray[cudss]` where cuDSS (its bindings or its library) is missing."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
import scipy.sparse.linalg as sla

import cuarray.scipy.sparse.linalg as csla
import cuarray.sparse.linalg as cla
from cuarray.cuda.libs import _handles, cudss


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
        def get_property(kind):
            raise DynamicLibNotFoundError("Failure finding libcudss.so.0")

        create = get_property

    monkeypatch.setattr(cudss, "_lib", Lib)
    with pytest.raises(ImportError, match=r"cuarray\[cudss\]"):
        cudss._create()


def _fake_handles(monkeypatch, error, version=(0, 8, 0)):
    # cuDSS's handle cache with a library whose cudssCreate raises `error` (no device needed)
    class Lib:
        @staticmethod
        def get_property(kind):
            if isinstance(error, RuntimeError) and "Failure finding" in str(error):
                raise error
            return version[kind]

        @staticmethod
        def create():
            raise error

    monkeypatch.setattr(cudss, "_lib", Lib)
    monkeypatch.setattr(cudss, "_handles", _handles.PerThreadHandle(cudss._create, lambda h: None,
                                                                    activate=lambda d: None))


def test_absent_library_through_the_handle_cache_is_an_importerror(monkeypatch):
    # the GPU tests skip on this: the handle cache must not turn it into LibraryNotFoundError
    class DynamicLibNotFoundError(RuntimeError):
        pass

    _fake_handles(monkeypatch, DynamicLibNotFoundError('Failure finding "libcudss.so.0": No such file'))
    with pytest.raises(ImportError, match=r"cuarray\[cudss\].*libcudss\.so\.0"):
        cudss.handle()
    why = cudss.unavailable_reason()
    assert "cuarray[cudss]" in why and "libcudss.so.0" in why
    assert cudss.available() is False


def test_installed_but_broken_library_raises(monkeypatch):
    # a cuDSS found but older than nvmath's binding (a missing symbol), or failing in cudssCreate, is
    # not "not installed": available() raises instead of letting the GPU tests skip
    class FunctionNotFoundError(RuntimeError):
        pass

    _fake_handles(monkeypatch, FunctionNotFoundError("function cudssCreate is not found"))
    with pytest.raises(RuntimeError, match="cudssCreate is not found") as info:
        cudss.available()
    assert not isinstance(info.value, ImportError)
    _fake_handles(monkeypatch, RuntimeError("CUDSS_STATUS_INTERNAL_ERROR"))
    with pytest.raises(RuntimeError, match="INTERNAL_ERROR"):
        cudss.unavailable_reason()


def test_a_cudss_older_than_the_binding_is_refused(monkeypatch):
    _fake_handles(monkeypatch, AssertionError("cudssCreate must not be called"), version=(0, 7, 1))
    with pytest.raises(RuntimeError, match=r"cuDSS 0\.7 is installed.*>= 0\.8"):
        cudss.available()


@pytest.mark.parametrize("info, npivots, diag, want", [
    (0, 0, None, False),                       # no perturbed pivot: DIAG is not read
    (1, 0, None, True),                        # cuDSS's own error status
    (0, 1, [1.0, 2.2250738585072014e-308], True),   # a zero pivot replaced by the epsilon
    (0, 1, [1.0, -2.2250738585072014e-308], True),
    (0, 1, [1.0, float("nan")], True),
    (0, 2, [1.0, 3.0], None),                  # counted, not on the diagonal: SuperLU's probe decides
    (0, 1, RuntimeError("CUDSS_STATUS_NOT_SUPPORTED"), None),  # no DIAG query: the probe decides
])
def test_singular_rule(info, npivots, diag, want):
    # Factorization.singular's reading of INFO, NPIVOTS and DIAG, without a device
    f = cudss.Factorization.__new__(cudss.Factorization)
    f.n, f.eps = 2, float(np.finfo(np.float64).tiny)
    f.info = lambda: info
    f.npivots = lambda: npivots

    def read_diag():
        if diag is None:
            raise AssertionError("DIAG read without a perturbed pivot")
        if isinstance(diag, Exception):
            raise diag
        return np.array(diag)

    f.diag = read_diag
    assert f.singular() is want


@pytest.mark.parametrize("pivot, want", [(2.0, False), (float(np.finfo(np.float64).tiny), True), (0.0, True)])
def test_probe_solve(pivot, want):
    # the probe SuperLU runs where cuDSS's pivot count and diagonal disagree: a 2 x 2 LU whose
    # second pivot is `pivot` (cuDSS's epsilon stands in for a zero one)
    from cuarray.sparse.linalg import _direct
    from cuarray.testing.fake_device import host_module

    class A:
        shape, nnz = (2, 2), 4
        data = np.array([1.0, 2.0, 2.0, 4.0])

    def solve(f, b, dtype):
        b = np.asarray(b)
        with np.errstate(all="ignore"):
            x1 = (b[1] - 2 * b[0]) / pivot
        return np.array([b[0] - 2 * x1, x1])

    direct = host_module(_direct, {"_solve": solve, "from_host": np.asarray, "to_host": np.asarray})
    assert direct._probe_singular(None, A, np.float64) is want



def test_host_threads(monkeypatch):
    # the reordering's host threads: one without the threading layer, else a usable core each,
    # OMP_NUM_THREADS capping them where set
    import os

    from cuarray.cuda.libs import cudss

    monkeypatch.setattr(cudss, "_threaded", [False])
    assert cudss.host_threads() == 1
    monkeypatch.setattr(cudss, "_threaded", [True])
    cores = len(os.sched_getaffinity(0))
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    assert cudss.host_threads() == cores
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    assert cudss.host_threads() == 1
    monkeypatch.setenv("OMP_NUM_THREADS", str(cores + 5))
    assert cudss.host_threads() == cores
    monkeypatch.setenv("OMP_NUM_THREADS", "4,2")  # a nested-levels list: not a cap cuarray reads
    assert cudss.host_threads() == cores
