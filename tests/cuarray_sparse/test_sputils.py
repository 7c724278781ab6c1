"""SciPy's dtype, index-dtype and shape rules (pure logic, no GPU), checked against SciPy."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as ssp

from cuarray.sparse import _sputils


@pytest.mark.parametrize("dtype", "?bBhHiIlLqQfdFD")
def test_supported_dtypes_match_scipy(dtype):
    assert _sputils.check_dtype(dtype) == np.dtype(dtype)
    ssp.csr_matrix(np.ones((2, 2), dtype))  # SciPy takes it too


@pytest.mark.parametrize("dtype", ["float16", "longdouble", "object", "datetime64[s]"])
def test_unsupported_dtypes_raise_value_error(dtype):
    with pytest.raises(ValueError, match="does not support dtype"):
        _sputils.check_dtype(dtype)
    if dtype in ("float16", "object"):
        with pytest.raises(ValueError):
            ssp.csr_matrix(np.ones((2, 2), dtype))


@pytest.mark.parametrize("maxval,want", [(0, np.int32), (2**31 - 1, np.int32), (2**31, np.int64)])
def test_index_dtype_by_maxval(maxval, want):
    assert _sputils.get_index_dtype(maxval=maxval) == want


def test_index_dtype_by_arrays():
    assert _sputils.get_index_dtype((np.int32, np.int16)) == np.int32
    assert _sputils.get_index_dtype((np.int32, np.int64)) == np.int64


def test_scipy_keeps_int32_for_small_int64_indices():
    # The rule get_index_dtype(maxval=max(shape + nnz)) reproduces without reading the device.
    h = ssp.csr_matrix((np.ones(2), np.array([0, 3], np.int64), np.array([0, 1, 2], np.int64)), shape=(2, 4))
    assert h.indices.dtype == np.int32


@pytest.mark.parametrize("shape", [(2, 3), (0, 0), (np.int64(4), 5)])
def test_check_shape(shape):
    assert _sputils.check_shape(shape) == tuple(int(s) for s in shape)


@pytest.mark.parametrize("shape,exc", [((2, -1), ValueError), ((2, 3, 4), ValueError), ((2.5, 3), TypeError)])
def test_check_shape_errors(shape, exc):
    with pytest.raises(exc):
        _sputils.check_shape(shape)


@pytest.mark.parametrize("dtype", "?bBhHiIlLqQfdFD")
def test_sum_dtype_is_numpys(dtype):
    assert _sputils.sum_dtype(dtype) == np.ones(2, dtype).sum().dtype


def test_scalar_and_int_tests():
    assert _sputils.isintlike(3) and _sputils.isintlike(np.int8(3))
    assert not _sputils.isintlike(True) and not _sputils.isintlike(2.0)
    assert _sputils.isscalarlike(2.0) and _sputils.isscalarlike(np.float32(1)) and not _sputils.isscalarlike([1])
    assert _sputils.isshape((2, 3)) and not _sputils.isshape((2, 3, 4)) and not _sputils.isshape((2.0, 3))
    assert _sputils.normalize_index(-1, 5) == 4
    with pytest.raises(IndexError):
        _sputils.normalize_index(5, 5)


def test_import_is_cheap():
    import subprocess
    import sys

    code = "import sys, cuarray, cuarray.sparse.linalg; print('nvmath' in sys.modules or 'cuda.core' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


@pytest.mark.parametrize("name", ["axpy2", "xpby"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_solver_kernels_compile(name, dtype):
    """The fused solver updates compile with NVRTC for sm_90 (no GPU needed)."""
    from cuarray.cuda import compiler
    from cuarray.sparse.linalg import _kernels

    dt = np.dtype(dtype)
    nin, nout = (2, 2) if name == "axpy2" else (1, 1)
    d = _kernels.definition(name, dt, (dt,) * nin, (dt,) * nout)
    src = d.source("flat", 1, np.int32)[1]
    compiler.compile_cubin(src, arch="sm_90")
