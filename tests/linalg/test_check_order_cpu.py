"""linalg's checks in NumPy's order, on the host (the module's copy with NumPy stand-ins for the
device reads): eig/eigvals check finiteness before the dtype, so a float16 matrix holding inf
is NumPy's LinAlgError and a finite one its TypeError (roots of float16 coefficients whose
companion row overflows: fuzz seed 11 index 11)."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray.linalg import LinAlgError, _decomp
from cuarray.testing.fake_device import host_module


@pytest.fixture(scope="module")
def host_decomp():
    return host_module(_decomp, {"all_": np.all, "isfinite": np.isfinite, "as_array": lambda a, fn: a})


@pytest.mark.parametrize("fn", ["eig", "eigvals"])
def test_eig_finiteness_before_dtype(host_decomp, fn):
    cases = [np.array([[np.inf, 0], [1, 0]], np.float16), np.array([[1, 0], [1, 0]], np.float16),
             np.zeros((0, 0), np.float16), np.array([[1, np.nan], [1, 0]], np.float16), np.ones((2, 3), np.float16)]
    for a in cases:
        want = got = None
        try:
            getattr(np.linalg, fn)(a)
        except Exception as e:  # noqa: BLE001 - NumPy's exception is the oracle
            want = (type(e).__name__, str(e))
        try:
            getattr(host_decomp, fn)(a)
        except (LinAlgError, TypeError) as e:
            got = (type(e).__name__, str(e))
        assert want is not None and got == want, (a, got, want)


class _Infos:
    def __init__(self, failed):
        self.size, self._v = 1, np.array([int(failed)], np.int32)

    def get(self):
        return self._v


def _fake_syev(char, jobz, uplo, n, c, w):
    """cuSOLVER's syevd as seen on the H200: no convergence where an entry is subnormal (c I plus
    subnormal off-diagonal entries), else LAPACK's answer, c holding conj(V) column-major."""
    mag = np.abs(c)
    if ((mag > 0) & (mag < np.finfo(w.dtype).tiny)).any():
        return _Infos(True)
    ww, vv = np.linalg.eigh(c)
    w[...] = ww
    c[...] = np.conj(vv).swapaxes(-1, -2)
    return _Infos(False)


@pytest.fixture(scope="module")
def host_syev():
    import types

    return host_module(_decomp, {
        "as_array": lambda a, fn: a, "stacked_copy": lambda a, char, order: np.array(a, dtype=char, order=order),
        "empty": lambda shape, dtype: np.empty(shape, dtype), "_syev_run": _fake_syev,
        "_r": types.SimpleNamespace(reduce=lambda name, a, axis, keepdims: np.max(a, axis=axis, keepdims=keepdims)),
        "absolute": np.abs, "maximum": np.maximum, "frexp": np.frexp, "ldexp": np.ldexp, "ones": np.ones,
        "negative": np.negative, "multiply": np.multiply, "less": np.less, "divide": np.divide, "conj": np.conj,
        "copyto_where_unchecked": lambda d, s, m: np.copyto(d, s, where=m)})


@pytest.mark.parametrize("dt", [np.complex64, np.float32, np.complex128, np.float64])
def test_eigh_retries_scaled_without_subnormal_entries(host_syev, dt):
    """Fuzz seed 11 index 31 and 53 (c I plus subnormal off-diagonal entries: 'did not converge' on
    the GPU, NumPy's answer c): again scaled by a power of 2, entries below eps zeroed."""
    rng = np.random.default_rng()
    tiny = np.finfo(np.dtype(dt).char.lower()).tiny
    mats = []
    for diag in (1e-6, 1e-4, 3.0, 1e30 if np.dtype(dt).itemsize >= 8 and dt != np.complex64 else 1e20):
        e = rng.standard_normal((5, 5)) * tiny * 0.5
        if np.dtype(dt).kind == "c":
            e = e + 1j * rng.standard_normal((5, 5)) * tiny * 0.5
        m = np.diag(rng.uniform(1, 2, 5) * diag) + e + np.conj(e).T
        mats.append(m.astype(dt))
    mats.append((rng.standard_normal((5, 5)) * tiny * 4).astype(dt))  # subnormal and tiny entries only
    mats[-1] = (mats[-1] + np.conj(mats[-1]).T) / 2
    for m in mats + [np.stack(mats[:3])]:
        for fn in ("eigh", "eigvalsh"):
            got = getattr(host_syev, fn)(m)
            want = getattr(np.linalg, fn)(m)
            gw, ww = (got[0], want[0]) if fn == "eigh" else (got, want)
            assert gw.dtype == ww.dtype
            np.testing.assert_allclose(gw, ww, rtol=1e-5, atol=8 * tiny, err_msg=fn)
            if fn == "eigh":
                v = got[1]
                np.testing.assert_allclose(m @ v, v * gw[..., None, :], rtol=1e-4, atol=1e-5 * np.abs(ww).max())
