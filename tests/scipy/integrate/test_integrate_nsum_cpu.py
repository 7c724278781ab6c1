"""cuarray.scipy.integrate.nsum run as the real code with NumPy standing in for the device routines
(conftest.host_integrate) against scipy.integrate.nsum and closed forms: a batch that takes every
branch (direct, right-infinite, left-infinite, two-sided, invalid, empty), args, log=True,
maxterms too small (status -2), float32, and SciPy's errors."""

import inspect
import math
import warnings

import numpy as np
import pytest
import scipy.integrate as si

RNG = np.random.default_rng()


def agree(got, want, exact=None, rtol=1e-7):
    for key in ("status", "success"):
        np.testing.assert_array_equal(got[key], want[key], err_msg=key)
    s, w = np.asarray(got["sum"]), np.asarray(want["sum"])
    assert s.shape == w.shape and s.dtype == w.dtype, (s.shape, w.shape, s.dtype, w.dtype)
    np.testing.assert_allclose(s, w, rtol=rtol, equal_nan=True)
    if exact is not None:
        np.testing.assert_allclose(s, exact, rtol=rtol)
    # the evaluation count follows the probed terms and tanhsinh's levels: SciPy's on this host
    np.testing.assert_array_equal(got["nfev"], want["nfev"])


def run(host, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return host.nsum(*args, **kw), si.nsum(*args, **kw)


def test_every_branch_in_one_batch(host_integrate):
    c = RNG.uniform(0.5, 2.0, 6)
    a = np.array([1.0, 1.0, 5.0, np.nan, -np.inf, -np.inf])
    b = np.array([np.inf, 10.0, 2.0, 3.0, -1.0, np.inf])
    step = np.array([1.0, 1.0, 1.0, 1.0, 1.0, 1.0])
    got, want = run(host_integrate, lambda k, c: c * np.exp(-np.abs(k) / 3), a, b, step=step, args=(c,))
    agree(got, want)


def test_closed_forms(host_integrate):
    p = RNG.uniform(2.0, 4.0, 3)
    got, want = run(host_integrate, lambda k, p: k ** -p, 1, np.inf, args=(p,))
    from scipy.special import zeta

    agree(got, want, exact=zeta(p))
    got, want = run(host_integrate, lambda k: np.exp(-k * k), -np.inf, np.inf)
    agree(got, want, exact=1.7726372048266521)  # theta_3(0, e^-1)
    got, want = run(host_integrate, lambda k: 2.0 ** -k, 0, np.inf, step=np.array([1.0, 2.0]))
    agree(got, want, exact=[2.0, 4 / 3])


def test_log_float32_and_maxterms(host_integrate):
    got, want = run(host_integrate, lambda k: -2 * np.log(k), 1, np.inf, log=True)
    agree(got, want, exact=math.log(math.pi ** 2 / 6))
    got, want = run(host_integrate, lambda k: 1 / k ** 2, np.float32(1), np.float32(np.inf))
    assert np.asarray(got["sum"]).dtype == np.float32
    agree(got, want, rtol=1e-5)
    got, want = run(host_integrate, lambda k: 1 / k, 1, np.inf, maxterms=1000)
    agree(got, want)
    assert got["status"] == -2 and not got["success"]


def test_bad_input(host_integrate):
    f = lambda k: 1 / k ** 2  # noqa: E731
    for args, kw in [((f, 1j, 3), {}), ((f, 1, 3), dict(log=2)), ((f, 1, 3), dict(maxterms=1.5)),
                     ((f, 1, 3), dict(tolerances=dict(atol=-1))), ((f, 1, 3), dict(tolerances=dict(rtol=np.inf), log=True)),
                     ((3, 1, 3), {}), ((lambda k: 1j * k, 1, 3), {})]:
        with pytest.raises(ValueError) as want:
            si.nsum(*args, **kw)
        with pytest.raises(ValueError) as got:
            host_integrate.nsum(*args, **kw)
        assert str(got.value) == str(want.value)


def test_signature():
    from cuarray.scipy import integrate

    ours, theirs = inspect.signature(integrate.nsum), inspect.signature(si.nsum)
    if "kwargs" not in theirs.parameters:  # added in SciPy 1.18, whose signature ours is
        ours = ours.replace(parameters=[p for p in ours.parameters.values() if p.name != "kwargs"])
    assert ours == theirs
