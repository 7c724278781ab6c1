"""The sparse-bsr-spmv bench case on the CPU: registered for cuarray and SciPy (the numpy column),
its host setup is SciPy's BSR product, equal to the same matrix's CSR product."""

from __future__ import annotations

import numpy as np
import scipy.sparse as ssp

from cuarray.bench import cases
from cuarray.bench.cases import sparse as S


def test_registered_against_scipy():
    (case,) = cases.select(ids=["sparse-bsr-spmv"])
    assert case.group == "sparse" and set(case.setups) == {"cuarray", "numpy"}


def test_host_setup_is_scipys_bsr_product():
    n = 2 * 10**4
    got = S.bsr_spmv.setups["numpy"](np, n, None)()
    data, cols, indptr = S._host_bsr(S.ROWS, n, 4, 9)
    assert data.shape == (n // 16, 4, 4) and np.all(np.diff(indptr) >= 0)
    csr = ssp.bsr_array((data, cols, indptr), shape=(S.ROWS, S.ROWS)).tocsr()
    x = np.random.default_rng(10).random(S.ROWS)
    np.testing.assert_allclose(got, csr @ x, rtol=1e-12)
