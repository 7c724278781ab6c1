"""The resampling stats bench case on the CPU: registered in group `stats` for cuarray and SciPy
(the numpy column); the host setup is SciPy's bootstrap call."""

from __future__ import annotations

import numpy as np
import scipy.stats as sst

from cuarray.bench import cases
from cuarray.bench.cases import stats_resampling as S


def test_registered():
    (case,) = cases.select(ids=["stats-bootstrap-mean"])
    assert case.group == "stats" and case.timing == "host"
    assert set(case.setups) == {"cuarray", "numpy"}


def test_host_setup_is_scipys_call():
    got = S.bootstrap_mean.setups["numpy"](np, 100, None)()
    x = cases.random_array(np, 100, "float64", seed=63)
    want = sst.bootstrap((x,), S._mean, n_resamples=S.N_RESAMPLES, batch=S.BATCH, method="percentile",
                         rng=0).confidence_interval
    assert got == want
