"""scipy.stats.qmc's discrepancy and scale on the GPU against SciPy: every method, iterative or
not, a sample past one block of pairs; scale both ways."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

sq = pytest.importorskip("scipy.stats.qmc")

import cuarray  # noqa: E402
from cuarray.scipy.stats import qmc as cq  # noqa: E402

G = cuarray.asarray


@pytest.mark.parametrize("method", ["CD", "WD", "MD", "L2-star"])
def test_discrepancy_as_scipy(method):
    rng = np.random.default_rng()
    # 1500 x 1500 x 3 pair factors: two blocks of 2^22
    for n, d in ((1, 1), (40, 5), (1500, 3)):
        s = rng.random((n, d))
        for iterative in (False, True):
            got = cq.discrepancy(G(s), iterative=iterative, method=method)
            want = sq.discrepancy(s, iterative=iterative, method=method)
            assert got.shape == () and got.dtype == np.float64
            # sums of <= n^2 products of d factors below 2 in another order: ~n^2 eps 2^d / n^2
            np.testing.assert_allclose(float(got), want, rtol=0, atol=1e-11 * 2.0 ** d, err_msg=str((n, d, iterative)))
    with pytest.raises(ValueError, match="Sample is not in unit hypercube"):
        cq.discrepancy(G(s + 1), method=method)


def test_scale_as_scipy():
    rng = np.random.default_rng()
    s = rng.random((20, 3))
    lo, hi = [-2, 0, 1], [6, 5, 1.5]
    got = cuarray.asnumpy(cq.scale(G(s), lo, hi))
    np.testing.assert_allclose(got, sq.scale(s, lo, hi), rtol=1e-15, atol=1e-15)
    back = cuarray.asnumpy(cq.scale(G(got), G(np.array(lo, dtype=float)), hi, reverse=True))
    np.testing.assert_allclose(back, sq.scale(got, lo, hi, reverse=True), rtol=1e-14, atol=1e-15)
    with pytest.raises(ValueError, match="Sample is out of bounds"):
        cq.scale(G(s * 10 + 7), lo, hi, reverse=True)
