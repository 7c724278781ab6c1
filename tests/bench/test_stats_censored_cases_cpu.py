"""The censored-data stats bench cases on the CPU: registered in group `stats` for cuarray and
SciPy (the numpy column); the host setups are SciPy's calls on right-censored weibull_min(1.5)
values with ties."""

from __future__ import annotations

import numpy as np
import scipy.stats as sst

from cuarray.bench import cases
from cuarray.bench.cases import stats_censored as S


def test_registered():
    for cid in ("stats-ecdf-censored", "stats-fit-censored"):
        (case,) = cases.select(ids=[cid])
        assert case.group == "stats" and case.timing == "host"
        assert set(case.setups) == {"cuarray", "numpy"}


def test_host_setups_are_scipys_calls():
    x, c = S._sample(np, 2000, 61)
    assert 0.1 < c.mean() < 0.4 and np.all(x[c] == S.CENSOR_AT) and np.unique(x).size < x.size
    got = S.ecdf_km.setups["numpy"](np, 2000, None)()
    np.testing.assert_array_equal(got, sst.ecdf(sst.CensoredData.right_censored(x, c)).sf.probabilities)
    x, c = S._sample(np, 2000, 62)
    got = S.fit_censored.setups["numpy"](np, 2000, None)()
    assert got == sst.weibull_min.fit(sst.CensoredData.right_censored(x, c), floc=0)
