"""eigh/eigvalsh of c I plus subnormal off-diagonal entries (fuzz seed 11 index 31 and 53: NumPy
answers c, cuSOLVER's heevd did not converge on the H200): NumPy's eigenvalues, A V = V diag(w)
with orthonormal V, for one matrix (syevd) and a stack (syevjBatched), every dtype. The retry's
logic on the host: test_check_order_cpu.py."""

from __future__ import annotations

import numpy as np
import pytest

import cuarray as cp

pytestmark = pytest.mark.gpu


def _cases(dt, rng):
    tiny = np.finfo(np.dtype(dt).char.lower()).tiny
    out = []
    for diag in (1e-6, 1e-4, 3.0):
        e = rng.standard_normal((5, 5)) * tiny * 0.5
        if np.dtype(dt).kind == "c":
            e = e + 1j * rng.standard_normal((5, 5)) * tiny * 0.5
        out.append((np.eye(5) * diag + e + np.conj(e).T).astype(dt))
    return out


@pytest.mark.parametrize("dt", ["complex64", "float32", "complex128", "float64"])
def test_eigh_of_subnormal_off_diagonals(dt):
    rng = np.random.default_rng()
    mats = _cases(dt, rng)
    tol = 1e-5 if np.dtype(dt).char in "fF" else 1e-12
    for m in mats + [np.stack(mats[:3])]:
        w_want = np.linalg.eigvalsh(m)
        w, v = cp.linalg.eigh(cp.asarray(m))
        w, v = w.get(), v.get()
        np.testing.assert_allclose(w, w_want, rtol=tol, err_msg=str(m.shape))
        np.testing.assert_allclose(cp.linalg.eigvalsh(cp.asarray(m)).get(), w_want, rtol=tol)
        scale = np.abs(w_want).max()
        np.testing.assert_allclose(m @ v, v * w[..., None, :], atol=10 * tol * scale)
        eye = np.broadcast_to(np.eye(5), v.shape)
        np.testing.assert_allclose(np.conj(v).swapaxes(-1, -2) @ v, eye, atol=10 * tol)
