"""`fit`, `nnlf` and `fit_loc_scale` of cuarray.scipy.stats' distributions on the GPU against
scipy.stats on seeded samples: SciPy's closed forms and likelihood-equation solutions by their
parameters (the device's sums differ from NumPy's in the last bits only), the Nelder-Mead fits
by the negative log-likelihood reached (ours at most SciPy's + 1e-6 relative: both stop within
fmin's tolerances of the same optimum), fixed parameters, "MM", float32/2-D/strided data and
SciPy's errors."""

from __future__ import annotations

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


def _quiet(fn, *args, **kw):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


def _sample(name, seed, n=200):
    r = np.random.default_rng(seed)
    return {"norm": lambda: r.normal(1.5, 2.0, n), "expon": lambda: 0.5 + r.exponential(2.0, n),
            "uniform": lambda: r.uniform(-1.0, 3.0, n), "laplace": lambda: r.laplace(0.3, 1.5, n),
            "lognorm": lambda: 1.0 + r.lognormal(0.2, 0.6, n), "gamma": lambda: r.gamma(2.5, 1.5, n),
            "rayleigh": lambda: r.rayleigh(1.5, n) + 0.5, "gumbel_r": lambda: r.gumbel(0.5, 2.0, n),
            "gumbel_l": lambda: -r.gumbel(0.5, 2.0, n), "pareto": lambda: r.pareto(3.0, n) * 2 + 1.5,
            "logistic": lambda: r.logistic(1.0, 0.7, n), "t": lambda: r.standard_t(6.0, n) * 2 + 1,
            "cauchy": lambda: r.standard_cauchy(n) * 0.5 + 1, "weibull_min": lambda: r.weibull(1.8, n) * 2.0,
            "beta": lambda: r.beta(2.0, 5.0, n)}[name]()


def _nll(name, params, x):
    return float(_quiet(getattr(sst, name).nnlf, params, x))


# closed forms: the same formulas on the device's sums (1e-8); likelihood equations solved by
# Brent's method to 1e-12..1e-14 on rounding-different sums, or by SciPy's MINPACK (xtol 1.5e-8,
# logistic, beta) where ours takes Newton's steps to 1e-12..1e-13 (1e-6)
CLOSED = [("norm", {}, 1e-8), ("norm", {"floc": 1.0}, 1e-8), ("expon", {}, 1e-8), ("uniform", {"fscale": 5.0}, 1e-8),
          ("laplace", {}, 1e-8), ("lognorm", {"floc": 0.0}, 1e-8), ("lognorm", {}, 1e-6), ("gamma", {"floc": 0.0}, 1e-8),
          ("gamma", {"method": "MM"}, 1e-8), ("rayleigh", {}, 1e-6), ("gumbel_r", {}, 1e-6),
          ("gumbel_l", {"floc": -0.5}, 1e-6), ("pareto", {}, 1e-6), ("weibull_min", {"method": "MM"}, 1e-6),
          ("logistic", {}, 1e-6), ("beta", {"floc": 0.0, "fscale": 1.0}, 1e-6)]


@pytest.mark.parametrize("name,kw,rtol", CLOSED)
def test_closed_form_fits(name, kw, rtol):
    x = _sample(name, 11)
    got = getattr(cst, name).fit(cuarray.asarray(x), **kw)
    want = _quiet(getattr(sst, name).fit, x, **kw)
    assert isinstance(got, tuple) and all(isinstance(v, (float, int)) for v in got), (name, got)
    np.testing.assert_allclose(np.array(got, float), np.array(want, float), rtol=rtol, atol=1e-10,
                               err_msg="{} {}: ours {} SciPy {}".format(name, kw, got, want))


OPTIMIZED = [("t", {}), ("cauchy", {}), ("gamma", {}), ("weibull_min", {"floc": 0.0}),
             ("beta", {}), ("t", {"f0": 6.0})]


@pytest.mark.parametrize("name,kw", OPTIMIZED)
def test_nelder_mead_fits(name, kw):
    x = _sample(name, 12)
    got = _quiet(getattr(cst, name).fit, cuarray.asarray(x), **kw)
    want = _quiet(getattr(sst, name).fit, x, **kw)
    assert len(got) == len(want) and all(isinstance(v, (float, int)) for v in got), (name, got)
    g, w = _nll(name, got, x), _nll(name, want, x)
    assert g <= w + 1e-6 * abs(w), "{} {}: our fit {} reaches nnlf {}, SciPy's {} reaches {}".format(
        name, kw, got, g, want, w)
    for k, v in kw.items():
        assert got[{"floc": -2, "fscale": -1}.get(k, 0)] == v, (name, k, got)


def test_data_layouts_and_mm():
    x = _sample("t", 13, 240)
    want = _nll("t", _quiet(sst.t.fit, x), x)
    for d in (cuarray.asarray(x.reshape(12, 20)), cuarray.asarray(np.repeat(x, 2))[::2],
              cuarray.asarray(x.astype(np.float32))):
        got = _quiet(cst.t.fit, d)
        ref_x, w = x, want
        if d.dtype == np.float32:  # SciPy on the same float32 values
            ref_x = x.astype(np.float32).astype(float)
            w = _nll("t", _quiet(sst.t.fit, ref_x), ref_x)
        g = _nll("t", got, ref_x)
        assert g <= w + 1e-6 * abs(w), (d.shape, d.dtype, got, g, w)
    y = _sample("norm", 14)
    got, ref = _quiet(cst.norm.fit, cuarray.asarray(y), method="MM"), _quiet(sst.norm.fit, y, method="MM")
    np.testing.assert_allclose(got, ref, rtol=1e-3, atol=1e-3, err_msg="norm MM")


def test_nnlf_and_fit_loc_scale():
    x = _sample("gamma", 15)
    d = cuarray.asarray(x)
    got = cst.gamma.nnlf((2.0, 0.1, 1.5), d)
    assert isinstance(got, cuarray.ndarray) and got.shape == ()
    np.testing.assert_allclose(float(got), float(sst.gamma.nnlf((2.0, 0.1, 1.5), x)), rtol=1e-10)
    assert float(cst.gamma.nnlf((2.0, 5.0, 1.5), d)) == np.inf  # data below loc
    assert float(cst.gamma.nnlf((2.0, 0.0, -1.0), d)) == np.inf
    np.testing.assert_allclose(cst.t.fit_loc_scale(d, 4.0), _quiet(sst.t.fit_loc_scale, x, 4.0), rtol=1e-10)


@pytest.mark.parametrize("name,kw,exc,match", [
    ("t", {"f0": 3.0, "floc": 0.0, "fscale": 1.0}, ValueError, "All parameters fixed"),
    ("norm", {"floc": 0.0, "fscale": 1.0}, ValueError, "All parameters fixed"),
    ("t", {"method": "bad"}, ValueError, "Method 'bad' not available"),
    ("expon", {"floc": 10.0}, ValueError, "Invalid values in `data`"),
])
def test_errors(name, kw, exc, match):
    d = cuarray.asarray(_sample("gamma", 16, 30))
    with pytest.raises(exc, match=match):
        getattr(cst, name).fit(d, **kw)


def test_non_finite_and_host_data():
    for bad in (np.nan, np.inf):
        with pytest.raises(ValueError, match="The data contains non-finite values."):
            cst.t.fit(cuarray.asarray([1.0, bad, 2.0, 3.0]))
    with pytest.raises(TypeError):
        cst.norm.fit(np.ones(4))
