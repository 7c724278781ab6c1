"""cuarray.scipy.stats argument errors raised before any device work, with SciPy's exception
types (host-backed arrays, cuarray/testing/fake_device.py), and the signatures against the installed SciPy."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

stats = pytest.importorskip("scipy.stats")

from cuarray.testing.fake_device import from_np  # noqa: E402  (tests/ is on sys.path)

from cuarray.scipy import stats as cst  # noqa: E402

X = np.arange(1.0, 6.0)

CASES = {
    "nan_policy": lambda m, c: m.skew(c(X), nan_policy="bogus"),
    "pearsonr-alternative": lambda m, c: m.pearsonr(c(X), c(X), alternative="x"),
    "pearsonr-short": lambda m, c: m.pearsonr(c(X[:1]), c(X[:1])),
    "pearsonr-broadcast": lambda m, c: m.pearsonr(c(X), c(X[:4])),
    # broadcastable, but of different lengths along `axis`: SciPy does not broadcast along it
    "pearsonr-axis-length": lambda m, c: m.pearsonr(c(np.ones((3, 5))), c(np.ones((1, 5)))),
    "pearsonr-axis-int": lambda m, c: m.pearsonr(c(X), c(X), axis=0.5),
    "pearsonr-complex": lambda m, c: m.pearsonr(c(X + 1j), c(X)),
    "pearsonr-method": lambda m, c: m.pearsonr(c(X), c(X), method="exact"),
    "spearmanr-alternative": lambda m, c: m.spearmanr(c(X), c(X), alternative="x"),
    "entropy-base": lambda m, c: m.entropy(c(X), base=-1),
    "entropy-shapes": lambda m, c: m.entropy(c(np.ones((3, 2))), c(np.ones((2, 2)))),
    "entropy-axis": lambda m, c: m.entropy(c(np.ones((3, 2))), axis=2),
    "entropy-axis-qk": lambda m, c: m.entropy(c(np.ones((3, 2))), c(np.ones(2)), axis=-3),
    "entropy-complex-qk": lambda m, c: m.entropy(c(X), c(X + 1j)),
    "trim_mean-too-big": lambda m, c: m.trim_mean(c(np.arange(11.0)), 0.6),
    "rankdata-method": lambda m, c: m.rankdata(c(X), method="x"),
    "pmean-p": lambda m, c: m.pmean(c(X), "1"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_errors_are_scipys(case):
    with pytest.raises(Exception) as ours:
        CASES[case](cst, from_np)
    with pytest.raises(Exception) as theirs:
        CASES[case](stats, np.asarray)
    assert type(ours.value) is type(theirs.value), (ours.value, theirs.value)


NAMES = """entropy zscore zmap trim_mean mode rankdata boxcox_llf gmean hmean pmean kurtosis skew moment describe
pearsonr spearmanr""".split()


@pytest.mark.parametrize("name", NAMES)
def test_signature_is_scipys(name):
    ours = inspect.signature(getattr(cst, name))
    theirs = inspect.signature(getattr(stats, name))
    assert list(ours.parameters) == list(theirs.parameters)
    for p in ours.parameters.values():
        q = theirs.parameters[p.name]
        assert p.kind == q.kind and p.default == q.default, (name, p, q)


def test_p_values_need_no_scipy():
    """The p-values come from cuarray.scipy.special on the device: the module imports no SciPy
    (it did, lazily, for its host p-values)."""
    import ast

    from cuarray.scipy.stats import _correlation

    tree = ast.parse(inspect.getsource(_correlation))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            assert not any(a.name.split(".")[0] == "scipy" for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level > 0 or (node.module or "").split(".")[0] != "scipy", node.module


def _device_like_exp(x):
    """np.exp, but float32 arguments below 1e-7 in magnitude give 1 (the device's expf is within
    2 ulps, not correctly rounded: e^(-4e-8) is 1 there, 0.99999994 from the host's libm)."""
    out = np.exp(x)
    return np.where(np.abs(x) < 1e-7, np.float32(1), out) if x.dtype == np.float32 else out


@pytest.fixture(scope="module")
def descriptive_on_host():
    """cuarray.scipy.stats._descriptive's private copy over NumPy (the elementwise and reduction
    operations its logsumexp uses), float32's exp as loose as the device's."""
    from cuarray.scipy.stats import _descriptive
    from cuarray.testing.fake_device import host_module

    return host_module(_descriptive, dict(abs_=np.abs, exp=_device_like_exp, log=np.log, log1p=np.log1p,
                                          maximum=np.maximum, where=np.where, isfinite=np.isfinite, max_=np.max,
                                          sum_=np.sum))


def test_log_var_is_scipys(descriptive_on_host):
    """boxcox_llf's log variance, SciPy's logsumexp step for step. float32 with lmb=1e-8 hangs on the
    last bit of e^(-4e-8) (0.99999994 from the host, 1 from the device's expf: boxcox_llf was inf on
    the device, SciPy's -46.909424): float32's exp, log and log1p are rounded once through float64.
    NumPy's own float32 exp and log1p are not correctly rounded (exp(7.6e-8) is 1, log1p(6)
    1.9459102), so float32 is compared on the data of the GPU test; float64 over a grid, where
    the shifted form is not finite SciPy taking the plain log of the sum."""
    from scipy.stats._morestats import _log_var

    def check(x, lmb, dtype):
        with np.errstate(all="ignore"):
            logx = (lmb * np.log(np.asarray(x, dtype))).astype(dtype)
            got = descriptive_on_host._log_var(logx, 0)
            want = _log_var(logx, np, 0)
        assert got.dtype == want.dtype, (got.dtype, want.dtype)
        np.testing.assert_array_equal(got.reshape(want.shape), want, err_msg="{} lmb={}".format(x, lmb))

    check([2003, 1950, 1997, 2000, 2009], 1e-8, np.float32)
    check([198.0, 233.0, 233.0, 392.0], -45.0, np.float32)
    rng = np.random.default_rng()
    data = [[2003, 1950, 1997, 2000, 2009], [198.0, 233.0, 233.0, 392.0], rng.uniform(1, 9, (7, 3)), [3.0, 3.0, 3.0],
            [1.0, np.inf, 2.0], [0.0, 0.0, 1.0], [0.0, 0.0]]
    for x in data:
        for lmb in (1e-8, 1e-3, 0.5, 3.0, -45.0):
            check(x, lmb, np.float64)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64, np.int16],
                         ids=lambda d: np.dtype(d).name)
def test_zscore_zmap_are_scipys_steps(stats_host, dtype):
    """zscore and zmap on the host copy as SciPy's, float16's rounding too (the variance as the
    mean of squared deviations in the dtype, times n / (n - ddof): NumPy's var rounds otherwise,
    one float16 ulp of std); a slice whose spread is below eps |mean| is NaN in zscore (SciPy's
    like-zscore rule), a constant row and one of 3, 3 + 1 ulp, ...; NaNs propagated or omitted."""
    D = stats_host["_descriptive"]
    rng = np.random.default_rng()
    x = rng.uniform(0, 10, (5, 6)).astype(dtype)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.uniform(0, 10, (5, 6)).astype(dtype)
    x[4] = 3
    if np.dtype(dtype).kind != "i":
        # 3 (3 + 3j): exact means; 3, 3 + 1 ulp, ...: a deviation of 0.7 ulp(3) = 1.4 eps, below 3 eps
        c = np.array(3 + 3j if np.dtype(dtype).kind == "c" else 3, dtype)
        x[3], x[3, ::2] = c, np.nextafter(c.real, np.inf) + (c - c.real)
        y = x.copy()
        y[1, 2], y[2, :5] = np.nan, np.nan
    rtol = 1e-14 if dtype == np.float64 else 1e-6  # the same operations in the same order
    calls = [(x, dict(axis=a, ddof=d)) for a in (0, 1, -1, None) for d in (0, 1)]
    if np.dtype(dtype).kind != "i":
        calls += [(y, dict(axis=a, ddof=d, nan_policy="omit")) for a in (0, 1, None) for d in (0, 5)]
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for a, kw in calls:
            s = a[:, :2] if kw["axis"] in (1, -1) else a[:2]
            for got, want in ((D.zscore(a, **kw), stats.zscore(a, **kw)), (D.zmap(s, a, **kw), stats.zmap(s, a, **kw))):
                got = np.asarray(got)
                assert (got.dtype, got.shape) == (want.dtype, want.shape), kw
                np.testing.assert_allclose(got, want, rtol=rtol, atol=0, equal_nan=True, err_msg=str(kw))
