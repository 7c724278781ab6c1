"""The stats-distributions bench case on the CPU: registered in group `stats` for cuarray, SciPy
(the numpy column) and torch; the host setup is SciPy's call on n/HOST_SPLIT values, repeated."""

from __future__ import annotations

import types

import numpy as np
import pytest
import scipy.stats as sst

from cuarray.bench import cases
from cuarray.bench.cases import stats as S


def test_registered():
    (case,) = cases.select(ids=["stats-distributions"])
    assert case.group == "stats" and case.params == ("norm.cdf", "t.ppf", "gamma.logpdf")
    assert set(case.setups) == {"cuarray", "numpy", "torch"}


@pytest.mark.parametrize("op", S._OPS)
def test_host_setup_is_scipys_call(op):
    got = S.dist.setups["numpy"](np, 10**4, op)()
    x = cases.random_array(np, 10**4 // S.HOST_SPLIT, "float64", seed=41) - 0.5
    name, method = op.split(".")
    args = {"norm": (), "t": (7.0,), "gamma": (2.5,)}[name]
    np.testing.assert_array_equal(got, getattr(getattr(sst, name), method)(x, *args))
    assert np.all((x > 0) & (x < 1))


def test_torch_has_no_student_t_icdf():
    with pytest.raises(cases.NotAvailable, match="StudentT"):
        S.dist.setups["torch"](types.SimpleNamespace(__name__="torch", distributions=None, from_numpy=np.asarray,
                                                     tensor=np.asarray), 10, "t.ppf")
