"""What the cuSOLVER-backed linalg routines decide before any launch, checked without a GPU:
NumPy's dtype rule (which inputs are accepted, which precision), the shape checks and their
exception types and messages, argument validation, the svd algorithm table, and that importing
cuarray.linalg loads no math library. Arrays are host-backed cuarray views (tests/linalg/_host_fake)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import cuarray.linalg as la
from cuarray.linalg import _svd, _util

from . import _host_fake as hf

ALL = [np.dtype(c) for c in "?bhilqBHILQefdFD"]


@pytest.mark.parametrize("dt", ALL, ids=str)
def test_compute_dtype_follows_numpy_result_kind(dt):
    a = np.ones((2, 2), dt)
    if dt.char == "e":
        with pytest.raises(TypeError, match="unsupported in linalg"):
            np.linalg.inv(a)
        with pytest.raises(TypeError, match="unsupported in linalg"):
            _util.compute_char(a)
        return
    want = np.linalg.inv(a + np.eye(2, dtype=dt) if dt != bool else np.eye(2, dtype=dt)).dtype
    assert _util.compute_char(a) == want.char


@pytest.mark.parametrize("pair", [("f", "d"), ("f", "F"), ("F", "d"), ("i", "f"), ("f", "f"), ("F", "F")])
def test_compute_dtype_of_two_operands(pair):
    a, b = np.ones((2, 2), pair[0]), np.ones(2, pair[1])
    assert _util.compute_char(a, b) == np.linalg.solve(a + np.eye(2, dtype=pair[0]), b).dtype.char


def _raises_like_numpy(fn, *args, **kw):
    host_args = [hf.to_np(a) if isinstance(a, la.__dict__.get("ndarray", type(None))) else a for a in args]
    with pytest.raises(Exception) as ours:
        getattr(la, fn)(*args, **kw)
    with pytest.raises(Exception) as theirs:
        getattr(np.linalg, fn)(*[hf.to_np(a) if hasattr(a, "data") and hasattr(a, "_shape") else a
                                 for a in host_args], **kw)
    assert type(ours.value) is type(theirs.value), (ours.value, theirs.value)
    assert str(ours.value) == str(theirs.value)


SQUARE_FNS = ["solve", "inv", "det", "slogdet", "cholesky", "eigh", "eigvalsh", "eig", "eigvals"]


@pytest.mark.parametrize("fn", SQUARE_FNS + ["qr", "svd", "svdvals", "pinv", "matrix_norm"])
def test_one_dimensional_input_is_linalgerror(fn):
    x = hf.from_np(np.arange(1.0, 4.0))
    args = (x, x) if fn == "solve" else (x,)
    _raises_like_numpy(fn, *args)


@pytest.mark.parametrize("fn", SQUARE_FNS)
def test_non_square_is_linalgerror(fn):
    x = hf.from_np(np.ones((2, 3, 4)))
    args = (x, hf.from_np(np.ones((2, 3, 1)))) if fn == "solve" else (x,)
    _raises_like_numpy(fn, *args)


@pytest.mark.parametrize("fn", SQUARE_FNS + ["qr", "svd", "pinv"])
def test_float16_is_typeerror(fn):
    x = hf.from_np(np.ones((3, 3), np.float16))
    args = (x, x) if fn == "solve" else (x,)
    with pytest.raises(TypeError, match="array type float16 is unsupported in linalg"):
        getattr(la, fn)(*args)


def test_host_arrays_are_refused():
    with pytest.raises(TypeError, match="asarray"):
        la.solve(np.eye(2), np.ones(2))
    with pytest.raises(TypeError, match="asarray"):
        la.norm([1.0, 2.0])


@pytest.mark.parametrize("fn", ["eigh", "eigvalsh"])
def test_bad_uplo(fn):
    _raises_like_numpy(fn, hf.from_np(np.eye(3)), UPLO="X")


def test_qr_bad_mode():
    _raises_like_numpy("qr", hf.from_np(np.eye(3)), mode="bogus")


@pytest.mark.parametrize("kw", [dict(ord="nuc", axis=0), dict(ord="fro", axis=1), dict(ord=3, axis=(0, 1)),
                                dict(axis=(0, 0)), dict(axis=(0, 1, 2)), dict(axis="a")])
def test_norm_argument_errors(kw):
    _raises_like_numpy("norm", hf.from_np(np.ones((2, 3, 4))), **kw)


def test_solve_core_dimension_mismatch():
    a, b = hf.from_np(np.eye(3)), hf.from_np(np.ones((4, 2)))
    with pytest.raises(ValueError):
        la.solve(a, b)
    with pytest.raises(ValueError):
        np.linalg.solve(np.eye(3), np.ones((4, 2)))


def test_lstsq_incompatible():
    _raises_like_numpy("lstsq", hf.from_np(np.ones((3, 2))), hf.from_np(np.ones(4)))


def test_pinv_rtol_and_rcond_both_set():
    _raises_like_numpy("pinv", hf.from_np(np.ones((3, 2))), rcond=0.1, rtol=0.1)


def test_tensorinv_bad_ind():
    _raises_like_numpy("tensorinv", hf.from_np(np.ones((4, 2, 2))), ind=0)


@pytest.mark.parametrize("rows,cols,full", [(4096, 4096, True), (4096, 4096, False), (8192, 1024, True),
                                            (8192, 1024, False), (20, 10, True), (5, 5, False)])
def test_svd_algorithm_table(rows, cols, full):
    algo = _svd.choose_algorithm(rows, cols, full, True)
    assert algo in _svd.ALGORITHMS
    if cols <= 32:
        assert algo == "gesvdj"


def test_import_loads_no_math_library():
    code = "import sys, cuarray, cuarray.linalg; print(any(m.startswith('nvmath') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
