"""epps_singleton_2samp on the GPU against SciPy: broadcast batches, each axis and None, keepdims,
other `t`, float32, non-finite values, NaNs omitted, SciPy's rank warning. The tolerances are the
CPU tests' (`same`: relative to each slice's covariance condition number, `epps_cond`)."""

from __future__ import annotations

import importlib.util
import pathlib
import warnings

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

sst = pytest.importorskip("scipy.stats")

import cuarray  # noqa: E402
from cuarray.scipy import stats as cst  # noqa: E402

_spec = importlib.util.spec_from_file_location("epps_cpu", pathlib.Path(__file__).parent / "test_stats_epps_cpu.py")
C = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(C)


def _host(res):
    return [cuarray.asnumpy(v) for v in res]


@pytest.mark.parametrize("xs,ys,axis,keepdims", [((20,), (15,), 0, False), ((4, 9), (4, 30), 1, True),
                                                 ((3, 4), (2, 5), None, True), ((2, 3, 9), (3, 6), -1, False)])
def test_as_scipy(xs, ys, axis, keepdims):
    rng = np.random.default_rng()
    x, y = rng.standard_normal(xs), rng.standard_normal(ys) * 1.5 + 0.3
    for t in ((0.4, 0.8), [0.2, 0.5, 1.1]):
        kw = {"t": t, "axis": axis, "keepdims": keepdims}
        got = _host(cst.epps_singleton_2samp(cuarray.asarray(x), cuarray.asarray(y), **kw))
        want = sst.epps_singleton_2samp(x, y, **kw)
        cond = C.epps_cond(x.ravel(), y.ravel(), 0, t) if axis is None else C.epps_cond(x, y, axis, t)
        # cuSOLVER's SVD in pinv: a few times LAPACK's rounding, inside the 100 cond eps of `same`
        C.same(got, want, np.reshape(cond, np.shape(want.statistic)) if keepdims else cond)


def test_float32_non_finite_and_omit():
    rng = np.random.default_rng()
    x, y = rng.standard_normal(30).astype(np.float32), rng.standard_normal(20).astype(np.float32)
    got = _host(cst.epps_singleton_2samp(cuarray.asarray(x), cuarray.asarray(y)))
    assert got[0].dtype == np.float32
    C.same(got, sst.epps_singleton_2samp(x, y), C.epps_cond(x, y), np.finfo(np.float32).eps)
    x, y = rng.standard_normal((3, 12)), rng.standard_normal((3, 10))
    x[0, 3], x[2, 1] = np.inf, np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = _host(cst.epps_singleton_2samp(cuarray.asarray(x), cuarray.asarray(y), axis=1, nan_policy="omit"))
        want = sst.epps_singleton_2samp(x, y, axis=1, nan_policy="omit")
    cond = np.where(np.isnan(want.statistic), 1.0, C.epps_cond(np.where(np.isfinite(x), x, 0.0), y, 1)) * 10
    C.same(got, want, cond)
    with pytest.warns(UserWarning, match="does not have full rank"):
        cst.epps_singleton_2samp(cuarray.asarray(x[1]), cuarray.asarray(y[1]), t=(0.4, 0.4))
