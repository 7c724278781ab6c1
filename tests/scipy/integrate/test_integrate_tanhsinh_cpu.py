"""cuarray.scipy.integrate.tanhsinh run as the real code with NumPy standing in for the device
routines (conftest.host_integrate), against scipy.integrate.tanhsinh: every result field of
batches of finite, semi-infinite, infinite, reversed, equal and NaN limits, log scale, complex
integrands, float32, levels, tolerances, preserve_shape, kwargs and the bad inputs."""

import inspect

import numpy as np
import pytest
import scipy.integrate as si

FIELDS = ["integral", "error", "success", "status", "nfev", "maxlevel"]

pytestmark = pytest.mark.skipif(not hasattr(si, "tanhsinh"), reason="SciPy without tanhsinh")


def same(got, want, rtol=1e-12, err_rtol=1e-12):
    for key in FIELDS:
        g, w = np.asarray(got[key]), np.asarray(want[key])
        assert g.shape == w.shape, (key, g.shape, w.shape)
        assert g.dtype == w.dtype, (key, g.dtype, w.dtype)
        if key == "integral" or (key == "error" and g.dtype.itemsize >= 8):
            np.testing.assert_allclose(g, w, rtol=rtol if key == "integral" else err_rtol, atol=0, equal_nan=True,
                                       err_msg=key)
        elif key == "error":  # float32: SciPy sums the compressed batch, NumPy's pairwise order moves the
            # last bits of the estimates, whose differences the error estimate amplifies
            np.testing.assert_allclose(g, w, rtol=1e-2, atol=0, equal_nan=True, err_msg=key)
        else:
            np.testing.assert_array_equal(g, w, err_msg=key)


def run(host, *args, **kw):
    with np.errstate(all="ignore"):
        return host.tanhsinh(*args, **kw), si.tanhsinh(*args, **kw)


def gauss(x, c):
    return np.exp(-c * x ** 2)


def test_batch_of_limits(host_integrate):
    rng = np.random.default_rng()
    a = np.array([0, -np.inf, 1, 0, 2.0, -np.inf, np.nan, 0.0, 3.0])
    b = np.array([1, np.inf, 1, np.inf, -1.0, 0.5, 1.0, 2.0, np.inf])
    c = rng.random(a.size) + 0.5
    same(*run(host_integrate, gauss, a, b, args=(c,)))
    same(*run(host_integrate, gauss, a.reshape(3, 3), b.reshape(3, 3), args=(c.reshape(3, 3),)))
    same(*run(host_integrate, gauss, 0.0, 1.0, args=(1.5,)))  # 0-d


@pytest.mark.parametrize("kw", [dict(minlevel=0), dict(minlevel=1), dict(minlevel=0, maxlevel=3), dict(maxlevel=2),
                                dict(minlevel=4, maxlevel=6), dict(rtol=1e-4), dict(atol=1e-3), dict(maxlevel=0),
                                dict(minlevel=5, maxlevel=3)])
def test_levels_and_tolerances(host_integrate, kw):
    rng = np.random.default_rng()
    a, b = rng.random(4) - 1, rng.random(4) * 3
    same(*run(host_integrate, lambda x: np.sqrt(np.abs(x)) * np.cos(7 * x), a, b, **kw))


def test_singularities_nonconvergence_and_nan(host_integrate):
    # endpoint singularities (the d4 bookkeeping and the nearest-finite-value substitution), a
    # divergent integral (value error), one that does not converge in 10 levels, NaN values
    same(*run(host_integrate, lambda x: x ** -0.5, 0.0, np.array([1.0, 2.0])))
    same(*run(host_integrate, lambda x: 1 / x, 0.0, np.array([1.0, 2.0])))
    same(*run(host_integrate, lambda x: np.sin(50 * x) ** 2 / np.abs(x - 0.3) ** 0.9, 0.0, 1.0))
    same(*run(host_integrate, lambda x: np.where(x > 0.5, np.nan, x), 0.0, np.array([0.4, 1.0])))


def test_log_scale(host_integrate):
    rng = np.random.default_rng()
    c = rng.random(3) + 0.5
    # the log of an error estimate: our logsumexp rounds other than scipy.special's, by an ulp the
    # estimate's differences amplify
    same(*run(host_integrate, lambda x, c: -c * x ** 2, np.array([0.0, -np.inf, 1.0]), np.array([1.0, np.inf, 0.0]),
              args=(c,), log=True), err_rtol=1e-9)
    same(*run(host_integrate, lambda x: np.log(x + 2), 0.0, 1.0, log=True, atol=-20.0), err_rtol=1e-9)


def test_dtypes(host_integrate):
    rng = np.random.default_rng()
    c = rng.random(3) + 0.5
    same(*run(host_integrate, lambda x, c: np.exp(1j * c * x), 0.0, np.array([1.0, 2.0, 3.0]), args=(c,)))
    got, want = run(host_integrate, gauss, np.float32(0), np.float32([1, 2, np.inf]), args=(np.float32(1.5),))
    same(got, want, rtol=1e-5)
    same(*run(host_integrate, gauss, 0, np.array([1, 2]), args=(2,)))  # integer limits


def test_kwargs_and_preserve_shape(host_integrate):
    rng = np.random.default_rng()
    c = rng.random(4) + 0.5
    with np.errstate(all="ignore"):  # SciPy 1.17 has no kwargs: the oracle passes c as an arg
        got = host_integrate.tanhsinh(lambda x, c=1.0: gauss(x, c), 0.0, 1.0, kwargs={"c": c})
    same(got, si.tanhsinh(gauss, 0.0, 1.0, args=(c,)))

    def vector(x):  # a (2,)-vector integrand of one interval: its last axis are the abscissae
        return np.stack([np.sin(x), np.cos(2 * x)])

    same(*run(host_integrate, vector, 0.0, 1.0, preserve_shape=True))


def test_bad_input(host_integrate):
    for args, kw in [((1.0, 0, 1), {}), ((gauss, 0, 1), dict(log=2)), ((gauss, 0, 1), dict(atol=-1)),
                     ((gauss, 0, 1), dict(rtol=np.inf)), ((gauss, 0, 1), dict(maxlevel=1.5)),
                     ((gauss, 0, 1), dict(minlevel=-1)), ((gauss, 0j, 1), {}), ((gauss, 0, 1), dict(atol=np.inf, log=True)),
                     ((gauss, 0, 1), dict(preserve_shape=3)), ((gauss, 0, 1), dict(callback=3)),
                     ((lambda x: x[..., :1], np.zeros(3), 1), {})]:
        kw = dict(kw, args=(1.0,)) if args[0] is gauss else kw
        with pytest.raises(ValueError) as want:
            si.tanhsinh(*args, **kw)
        with pytest.raises(ValueError, match=str(want.value)[:20].replace("(", r"\(")):
            host_integrate.tanhsinh(*args, **kw)


def test_signature():
    from cuarray.scipy import integrate

    ours, theirs = inspect.signature(integrate.tanhsinh), inspect.signature(si.tanhsinh)
    if "kwargs" not in theirs.parameters:  # added in SciPy 1.18, whose signature ours is
        ours = ours.replace(parameters=[p for p in ours.parameters.values() if p.name != "kwargs"])
    assert ours == theirs
