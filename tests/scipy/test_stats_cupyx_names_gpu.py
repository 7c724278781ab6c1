"""The statistics cupyx.scipy.stats has (entropy, trim_mean, boxcox_llf, zmap, zscore) on the GPU
against scipy.stats over CuPy's grids and their edges: every dtype (result dtypes equal), 0-d
samples, empty slices of N-D arrays, axis None and negative, pk/qk promoted and broadcast
together, negative and zero probabilities, integer input, Python lists, extreme Box-Cox powers in
float32 and float16 (SciPy's logarithmic variance)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

stats = pytest.importorskip("scipy.stats")

import cuarray  # noqa: E402
from cuarray.scipy import stats as cst  # noqa: E402
from cuarray.scipy.stats import _distributions  # noqa: E402

G = cuarray.asarray
DTYPES = [np.float16, np.float32, np.float64, np.int8, np.int64, np.uint8, np.bool_]


def _same(got, want, what, rtol=None):
    want = np.asarray(want)
    got_h = got.get() if isinstance(got, cuarray.ndarray) else np.asarray(got)
    assert got_h.dtype == want.dtype and got_h.shape == want.shape, (what, got_h.dtype, want.dtype, got_h.shape,
                                                                     want.shape)
    tol = rtol or {np.dtype(np.float16): 3e-3, np.dtype(np.float32): 2e-5, np.dtype(np.complex64): 2e-5}.get(
        want.dtype, 1e-12)
    np.testing.assert_allclose(got_h, want, rtol=tol, atol=tol, equal_nan=True, err_msg=what)


def _sample(shape, dtype, seed):
    x = np.random.default_rng(seed).random(shape) * 5
    return (x + 1).astype(dtype) if np.dtype(dtype).kind != "b" else x > 2


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_entropy_grid(dtype):
    """CuPy's TestEntropy grid (shapes, base, axis, qk, normalised or not) and more dtypes."""
    for shape in ((64,), (16, 15), (14, 4, 10)):
        for axis in (None, 0, -1):
            for base in (None, 10):
                for use_qk in (False, True):
                    pk = _sample(shape, dtype, 1)
                    qk = _sample(shape, dtype, 2) if use_qk else None
                    with np.errstate(all="ignore"):
                        want = stats.entropy(pk, qk=qk, base=base, axis=axis)
                    got = cst.entropy(G(pk), qk=None if qk is None else G(qk), base=base, axis=axis)
                    # (float16 input is normalised in float16: sums rounded otherwise than NumPy's)
                    _same(got, want, "{} axis={} base={} qk={}".format(shape, axis, base, use_qk),
                          rtol=5e-3 if dtype == np.float16 else None)
    p = G(_sample((6, 5), np.float64, 3))
    _same(_distributions._normalize(p, 0).sum(axis=0), np.ones(5), "cupyx's _normalize")


ENTROPY_EDGES = {
    "0-d": lambda m, c: m.entropy(c(np.float64(0.5))),
    "0-d qk": lambda m, c: m.entropy(c(np.float64(0.5)), c(np.float64(0.2))),
    "empty": lambda m, c: m.entropy(c(np.array([]))),
    "empty 2-D": lambda m, c: m.entropy(c(np.ones((0, 3)))),
    "empty 2-D axis 1": lambda m, c: m.entropy(c(np.ones((0, 3))), axis=1),
    "one": lambda m, c: m.entropy(c(np.array([3.0]))),
    "negative": lambda m, c: m.entropy(c(np.array([-0.2, 0.5, 0.7]))),
    "negative qk": lambda m, c: m.entropy(c(np.array([0.2, 0.3, 0.5])), c(np.array([-0.2, 0.5, 0.7]))),
    "zero qk": lambda m, c: m.entropy(c(np.array([[0.1, 0.2], [0.6, 0.3], [0.3, 0.5]])),
                                      c(np.array([[0.0, 0.1], [0.3, 0.6], [0.5, 0.3]]))),
    "zero sum": lambda m, c: m.entropy(c(np.zeros(3))),
    "broadcast qk column": lambda m, c: m.entropy(c(np.arange(1.0, 7.0).reshape(3, 2)), c(np.array([[1.0], [2.0], [4.0]]))),
    "broadcast pk row axis 0": lambda m, c: m.entropy(c(np.array([1.0, 2.0, 3.0])), c(np.arange(1.0, 7.0).reshape(2, 3))),
    "broadcast axis 1": lambda m, c: m.entropy(c(np.array([1.0, 2.0, 3.0])), c(np.arange(1.0, 7.0).reshape(2, 3)), axis=1),
    "f32 with int qk": lambda m, c: m.entropy(c(np.array([0.2, 0.3, 0.5], np.float32)), c(np.array([1, 2, 3]))),
    "f16 with f32 qk": lambda m, c: m.entropy(c(np.array([0.2, 0.3, 0.5], np.float16)),
                                              c(np.array([0.1, 0.6, 0.3], np.float32))),
    "int and int": lambda m, c: m.entropy(c(np.array([1, 2, 3])), c(np.array([3, 2, 1]))),
    "keepdims": lambda m, c: m.entropy(c(np.arange(1.0, 7.0).reshape(3, 2)), keepdims=True),
    "keepdims axis None": lambda m, c: m.entropy(c(np.arange(1.0, 7.0).reshape(3, 2)), axis=None, keepdims=True),
    "base 1": lambda m, c: m.entropy(c(np.array([0.2, 0.3, 0.5])), base=1),
    "nan": lambda m, c: m.entropy(c(np.array([np.nan, 1.0, 2.0]))),
    "nan omit": lambda m, c: m.entropy(c(np.array([np.nan, 1.0, 2.0])), nan_policy="omit"),
    "list": lambda m, c: m.entropy([1, 2, 3], [3.0, 2.0, 1.0]),
}


@pytest.mark.parametrize("case", sorted(ENTROPY_EDGES))
def test_entropy_edges(case):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = ENTROPY_EDGES[case](stats, np.asarray)
        got = ENTROPY_EDGES[case](cst, G)
    _same(got, want, case)


@pytest.mark.parametrize("dtype", DTYPES + [np.complex64], ids=lambda d: np.dtype(d).name)
def test_trim_mean_zmap_zscore(dtype):
    a = _sample((6, 4, 3), dtype, 5)
    for axis in (0, 1, -1, None):
        _same(cst.trim_mean(G(a), 2 / 6.0, axis=axis), stats.trim_mean(a, 2 / 6.0, axis=axis), "trim_mean {}".format(axis))
        if np.dtype(dtype).kind != "b":
            _same(cst.zscore(G(a), axis=axis, ddof=1), stats.zscore(a, axis=axis, ddof=1), "zscore {}".format(axis))
            b = _sample((6, 4, 3), dtype, 6)
            _same(cst.zmap(G(a), G(b), axis=axis), stats.zmap(a, b, axis=axis), "zmap {}".format(axis))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _same(cst.trim_mean(G(np.array(3, dtype=dtype)), 2 / 6.0), stats.trim_mean(np.array(3, dtype=dtype), 2 / 6.0),
              "trim_mean 0-d")
        _same(cst.trim_mean(G(np.ones((0, 3), dtype)), 0.1), stats.trim_mean(np.ones((0, 3), dtype), 0.1), "trim empty")
        _same(cst.trim_mean(G(np.ones((0,), dtype)), 0.6), stats.trim_mean(np.ones((0,), dtype), 0.6), "trim empty 1-D")
        if np.dtype(dtype).kind != "b":
            _same(cst.zmap(G(np.array([], dtype)), G(np.array([1, 3, 5], dtype))),
                  stats.zmap(np.array([], dtype), np.array([1, 3, 5], dtype)), "zmap empty")


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int16, np.complex128],
                         ids=lambda d: np.dtype(d).name)
def test_boxcox_llf(dtype):
    for shape, lmb in (((10,), 4.0), ((3, 8), 6.0), ((10, 3, 4), 3.0), ((9, 14), 0.0), ((3, 5), -3.0)):
        data = (np.arange(np.prod(shape)).reshape(shape) % 13 + 1).astype(dtype)
        _same(cst.boxcox_llf(lmb, G(data)), stats.boxcox_llf(lmb, data), "{} lmb={}".format(shape, lmb),
              rtol=0.1 if dtype == np.float16 else None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for data in (np.ones((0,), dtype), np.ones((0, 3), dtype), np.array(3, dtype)):
            _same(cst.boxcox_llf(3.0, G(data)), stats.boxcox_llf(3.0, data), "edge {}".format(data.shape))
    if dtype in (np.float32, np.float64):  # a large negative power: the variance in logarithms
        data = np.array([198.0, 233.0, 233.0, 392.0], dtype)
        _same(cst.boxcox_llf(-45, G(data)), stats.boxcox_llf(-45, data), "lmb -45")
        data = np.array([2003, 1950, 1997, 2000, 2009], dtype)
        _same(cst.boxcox_llf(1e-8, G(data)), stats.boxcox_llf(1e-8, data), "lmb 1e-8", rtol=1e-6)
        data = np.full((4, 2), 3.0, dtype)  # constant: zero variance, SciPy's inf
        with np.errstate(divide="ignore"):
            _same(cst.boxcox_llf(2.0, G(data)), stats.boxcox_llf(2.0, data), "constant")
    _same(cst.boxcox_llf(2.0, [1.0, 2.0, 3.0]), stats.boxcox_llf(2.0, [1.0, 2.0, 3.0]), "a list")
    with pytest.raises(TypeError, match="cuarray.asarray"):
        cst.boxcox_llf(2.0, np.ones(3))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64], ids=lambda d: np.dtype(d).name)
def test_zscore_spread_below_eps_is_nan(dtype):
    """zscore's slices whose deviation is at most eps |mean| are NaN, as SciPy's (a constant row
    and one of 3, 3 + 1 ulp, ...); the other rows as SciPy's; zmap keeps them (SciPy's
    rule is zscore's only). The variance is SciPy's mean of squared deviations in the dtype
    (the CPU test checks float16's rounding on the host copy)."""
    x = _sample((4, 6), dtype, 7)
    # 3 (3 + 3j): exact means; 3, 3 + 1 ulp, ...: a deviation of 0.7 ulp(3) = 1.4 eps, below 3 eps
    c = np.array(3 + 3j if np.dtype(dtype).kind == "c" else 3, dtype)
    x[3], x[3, ::2] = c, np.nextafter(c.real, np.inf) + (c - c.real)
    x[2] = c
    for axis, ddof in ((1, 0), (1, 1), (-1, 2)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = stats.zscore(x, axis=axis, ddof=ddof)
            got = cst.zscore(G(x), axis=axis, ddof=ddof)
        assert np.isnan(want[2:]).all() and not np.isnan(want[:2]).any()
        _same(got, want, "zscore {} {}".format(axis, ddof))
        _same(cst.zmap(G(x[:2]), G(x), axis=0), stats.zmap(x[:2], x, axis=0), "zmap")
