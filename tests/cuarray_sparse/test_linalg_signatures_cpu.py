"""The public signatures of cuarray.sparse.linalg (and the scipy.fft names added beside it) equal
SciPy 1.18.1's, checked without a GPU under both the SciPy this Python has (1.17 or 1.18) and the
reference below, written from SciPy 1.18.1 (`inspect.signature`, annotations aside): a name that
1.17 spells differently is held to 1.18's spelling."""

from __future__ import annotations

import inspect
import types

import pytest
import scipy
import scipy.fft
import scipy.sparse.linalg as sla

import cuarray.scipy.fft as cfft
import cuarray.sparse.linalg as cla

# inspect.signature's text of each public callable of scipy.sparse.linalg 1.18.1 (LinearOperator and
# SuperLU, whose constructors SciPy hides behind *args or keeps private, and the warning class
# MatrixRankWarning, are not compared).
SPARSE_LINALG_1_18 = {
    "ArpackError": "(info, infodict=None)",
    "ArpackNoConvergence": "(msg, eigenvalues, eigenvectors)",
    "LaplacianNd": "(grid_shape, *, boundary_conditions='neumann', dtype=<class 'numpy.int8'>)",
    "aslinearoperator": "(A)",
    "bicg": "(A, b, x0=None, *, rtol=1e-05, atol=0.0, maxiter=None, M=None, callback=None)",
    "bicgstab": "(A, b, x0=None, *, rtol=1e-05, atol=0.0, maxiter=None, M=None, callback=None)",
    "cg": "(A, b, x0=None, *, rtol=1e-05, atol=0.0, maxiter=None, M=None, callback=None)",
    "cgs": "(A, b, x0=None, *, rtol=1e-05, atol=0.0, maxiter=None, M=None, callback=None)",
    "eigs": "(A, k=6, M=None, sigma=None, which='LM', v0=None, ncv=None, maxiter=None, tol=0, return_eigenvectors=True, Minv=None, OPinv=None, OPpart=None, rng=None)",
    "eigsh": "(A, k=6, M=None, sigma=None, which='LM', v0=None, ncv=None, maxiter=None, tol=0, return_eigenvectors=True, Minv=None, OPinv=None, mode='normal', rng=None)",
    "expm": "(A)",
    "expm_multiply": "(A, B, start=None, stop=None, num=None, endpoint=None, traceA=None)",
    "factorized": "(A)",
    "funm_multiply_krylov": "(f, A, b, *, assume_a='general', t=1.0, atol=0.0, rtol=1e-06, restart_every_m=None, max_restarts=20)",
    "gcrotmk": "(A, b, x0=None, *, rtol=1e-05, atol=0.0, maxiter=1000, M=None, callback=None, m=20, k=None, CU=None, discard_C=False, truncate='oldest')",
    "gmres": "(A, b, x0=None, *, rtol=1e-05, atol=0.0, restart=None, maxiter=None, M=None, callback=None, callback_type=None)",
    "inv": "(A)",
    "is_sptriangular": "(A)",
    "lgmres": "(A, b, x0=None, *, rtol=1e-05, atol=0.0, maxiter=1000, M=None, callback=None, inner_m=30, outer_k=3, outer_v=None, store_outer_Av=True, prepend_outer_v=False)",
    "lobpcg": "(A, X, B=None, M=None, Y=None, tol=None, maxiter=None, largest=True, verbosityLevel=0, retLambdaHistory=False, retResidualNormsHistory=False, restartControl=20)",
    "lsmr": "(A, b, damp=0.0, atol=1e-06, btol=1e-06, conlim=100000000.0, maxiter=None, show=False, x0=None)",
    "lsqr": "(A, b, damp=0.0, atol=1e-06, btol=1e-06, conlim=100000000.0, iter_lim=None, show=False, calc_var=False, x0=None)",
    "matrix_power": "(A, power)",
    "minres": "(A, b, x0=None, *, rtol=1e-05, shift=0.0, maxiter=None, M=None, callback=None, show=False, check=False)",
    "norm": "(x, ord=None, axis=None)",
    "onenormest": "(A, t=2, itmax=5, compute_v=False, compute_w=False)",
    "qmr": "(A, b, x0=None, *, rtol=1e-05, atol=0.0, maxiter=None, M1=None, M2=None, callback=None)",
    "spbandwidth": "(A)",
    "spilu": "(A, drop_tol=None, fill_factor=None, drop_rule=None, permc_spec=None, diag_pivot_thresh=None, relax=None, panel_size=None, options=None)",
    "splu": "(A, permc_spec=None, diag_pivot_thresh=None, relax=None, panel_size=None, options=None)",
    "spsolve": "(A, b, permc_spec=None, use_umfpack=True)",
    "spsolve_triangular": "(A, b, lower=True, overwrite_A=False, overwrite_b=False, unit_diagonal=False)",
    "svds": "(A, k=6, ncv=None, tol=0, which='LM', v0=None, maxiter=None, return_singular_vectors=True, solver='arpack', rng=None, options=None, *, random_state=None)",
    "tfqmr": "(A, b, x0=None, *, rtol=1e-05, atol=0.0, maxiter=None, M=None, callback=None, show=False)",
    "use_solver": "(**kwargs)",
}
FFT_1_18 = {
    "set_backend": "(backend, coerce=False, only=False)",
    "skip_backend": "(backend)",
    "set_global_backend": "(backend, coerce=False, only=False, try_last=False)",
    "register_backend": "(backend)",
    "get_workers": "()",
    "set_workers": "(workers)",
    "fftfreq": "(n, d=1.0, *, xp=None, device=None)",
    "rfftfreq": "(n, d=1.0, *, xp=None, device=None)",
}
# SciPy's deprecated submodule aliases (scipy.sparse.linalg.dsolve, ...), not mirrored.
DEPRECATED_MODULES = {"dsolve", "eigen", "interface", "isolve", "matfuncs"}


def _text(fn):
    """The signature's text without annotations."""
    sig = inspect.signature(fn)
    empty = inspect.Parameter.empty
    return str(sig.replace(parameters=[p.replace(annotation=empty) for p in sig.parameters.values()],
                           return_annotation=empty))


@pytest.mark.parametrize("name", sorted(SPARSE_LINALG_1_18))
def test_sparse_linalg_signature_is_scipy_1_18s(name):
    assert _text(getattr(cla, name)) == SPARSE_LINALG_1_18[name]


@pytest.mark.parametrize("name", sorted(FFT_1_18))
def test_fft_signature_is_scipy_1_18s(name):
    assert _text(getattr(cfft, name)) == FFT_1_18[name]


def test_every_scipy_name_exists():
    for name in sla.__all__:
        if name in DEPRECATED_MODULES:
            continue
        assert hasattr(cla, name), name
        if name in SPARSE_LINALG_1_18 and _text(getattr(sla, name)) == SPARSE_LINALG_1_18[name]:
            # where this SciPy agrees with 1.18 (1.17 does on every name here), it equals ours too
            assert _text(getattr(cla, name)) == _text(getattr(sla, name)), name
    assert set(scipy.fft.__all__) <= set(dir(cfft))
    assert not isinstance(cla.eigs, types.ModuleType)


def test_reference_is_this_scipys_when_1_18():
    if not scipy.__version__.startswith("1.18"):
        pytest.skip("SciPy {}: the table is 1.18's".format(scipy.__version__))
    for name, text in SPARSE_LINALG_1_18.items():
        assert _text(getattr(sla, name)) == text, name
    for name, text in FFT_1_18.items():
        assert _text(getattr(scipy.fft, name)) == text, name
