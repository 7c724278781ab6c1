"""RBFInterpolator without a device (NumPy namespace: conftest.py) against SciPy: every kernel,
smoothing, degree, neighbors, complex data, errors."""

import inspect

import numpy as np
import pytest
import scipy.interpolate as si

from cuarray.scipy import interpolate as ci

RNG = np.random.default_rng(5311)
KERNELS = ["linear", "thin_plate_spline", "cubic", "quintic", "multiquadric", "inverse_multiquadric",
           "inverse_quadratic", "gaussian"]


def close(got, ref, tol=1e-8):
    got, ref = np.asarray(got), np.asarray(ref)
    assert got.shape == ref.shape and got.dtype == ref.dtype, (got.shape, ref.shape, got.dtype, ref.dtype)
    scale = max(1.0, float(np.nanmax(np.abs(ref), initial=0)))
    np.testing.assert_allclose(got, ref, rtol=tol, atol=tol * scale)


def test_signature():
    assert str(inspect.signature(ci.RBFInterpolator)) == str(inspect.signature(si.RBFInterpolator))
    assert str(inspect.signature(ci.RBFInterpolator.__call__)) == str(inspect.signature(si.RBFInterpolator.__call__))


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("neighbors", [None, 12])
def test_kernels(host_interpolate, kernel, neighbors):
    y = RNG.uniform(-1, 1, (40, 2))
    d = np.sin(3 * y[:, 0]) + y[:, 1] ** 2
    x = RNG.uniform(-1.2, 1.2, (30, 2))
    kw = dict(kernel=kernel, epsilon=1.5, neighbors=neighbors, smoothing=0.01)
    close(host_interpolate.RBFInterpolator(y, d, **kw)(x), si.RBFInterpolator(y, d, **kw)(x), 1e-6)


@pytest.mark.parametrize("degree", [-1, 0, 1, 3])
def test_degree_and_complex_batches(host_interpolate, degree):
    y = RNG.uniform(-1, 1, (30, 3))
    d = RNG.normal(size=(30, 2, 2)) + 1j * RNG.normal(size=(30, 2, 2))
    x = RNG.uniform(-1, 1, (11, 3))
    kw = dict(degree=degree, kernel="cubic", smoothing=RNG.uniform(0, 0.1, 30))
    close(host_interpolate.RBFInterpolator(y, d, **kw)(x), si.RBFInterpolator(y, d, **kw)(x), 1e-7)


@pytest.mark.parametrize("case", ["y1d", "dlen", "kernel", "epsilon", "few", "xdim"])
def test_errors(host_interpolate, case):
    y, d, kw, x = RNG.uniform(size=(10, 2)), RNG.uniform(size=10), {}, RNG.uniform(size=(3, 2))
    if case == "y1d":
        y = y[:, 0]
    elif case == "dlen":
        d = d[:-1]
    elif case == "kernel":
        kw = {"kernel": "bogus"}
    elif case == "epsilon":
        kw = {"kernel": "gaussian"}
    elif case == "few":
        kw = {"degree": 4}
    else:
        x = x[:, :1]
    with pytest.raises(ValueError) as ref:
        si.RBFInterpolator(y, d, **kw)(x)
    with pytest.raises(ValueError) as got:
        host_interpolate.RBFInterpolator(y, d, **kw)(x)
    if case == "kernel":  # the set of names prints in any order (and SciPy 1.18 says "String `kernel`")
        assert "`kernel` must be one of" in str(got.value)
    elif case == "epsilon":  # (a set of names, printed in hash order)
        assert str(got.value).split("{")[0] == str(ref.value).split("{")[0]
    else:
        assert str(got.value) == str(ref.value)
