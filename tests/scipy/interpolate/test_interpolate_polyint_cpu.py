"""Krogh, barycentric and Floater-Hormann interpolators without a device (NumPy namespace:
conftest.py) against scipy.interpolate, and their signatures (SciPy 1.18's, BarycentricInterpolator's
legacy `random_state` included)."""

import inspect

import numpy as np
import pytest
import scipy.interpolate as si

from cuarray.scipy import interpolate as ci

RNG = np.random.default_rng(5312)
NAMES = ["KroghInterpolator", "krogh_interpolate", "BarycentricInterpolator", "barycentric_interpolate",
         "FloaterHormannInterpolator"]


def close(got, ref, tol=1e-9):
    got, ref = np.asarray(got), np.asarray(ref)
    assert got.shape == ref.shape and got.dtype == ref.dtype, (got.shape, ref.shape, got.dtype, ref.dtype)
    scale = max(1.0, float(np.nanmax(np.abs(ref), initial=0)))
    np.testing.assert_allclose(got, ref, rtol=tol, atol=tol * scale)


@pytest.mark.parametrize("name", NAMES)
def test_signatures(name):
    assert str(inspect.signature(getattr(ci, name))) == str(inspect.signature(getattr(si, name)))


@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_krogh(host_interpolate, axis, dtype):
    xi = np.array([0.0, 0.0, 1.0, 2.0, 2.0, 3.5, 4.0])  # repeated nodes: derivatives
    yi = RNG.normal(size=(7, 3)).astype(dtype) * (1 + 1j if dtype == "complex128" else 1)
    yi = np.moveaxis(yi, 0, axis)
    x = np.linspace(-0.5, 4.5, 13)
    ref, got = si.KroghInterpolator(xi, yi, axis), host_interpolate.KroghInterpolator(xi, yi, axis)
    close(got(x), ref(x))
    close(got.derivative(x, 2), ref.derivative(x, 2), 1e-8)
    close(got.derivatives(x), ref.derivatives(x), 1e-7)
    close(host_interpolate.krogh_interpolate(xi, yi, x, der=[0, 2], axis=axis),
          si.krogh_interpolate(xi, yi, x, der=[0, 2], axis=axis), 1e-8)


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_barycentric(host_interpolate, dtype):
    xi = np.cos(np.linspace(0, np.pi, 12))
    yi = RNG.normal(size=(12, 2)).astype(dtype)
    x = np.concatenate((np.linspace(-1.1, 1.1, 15), xi[:3]))
    ref = si.BarycentricInterpolator(xi, yi, rng=np.random.default_rng(1))
    got = host_interpolate.BarycentricInterpolator(xi, yi, rng=np.random.default_rng(1))
    close(got(x), ref(x))
    close(got.derivative(x, 2), ref.derivative(x, 2), 1e-7)
    close(got.derivatives(x, 3), ref.derivatives(x, 3), 1e-7)
    close(host_interpolate.barycentric_interpolate(xi, yi, x, der=1), si.barycentric_interpolate(xi, yi, x, der=1),
          1e-7)
    more = np.array([0.33, -0.21])
    ref.add_xi(more, RNG.normal(size=(2, 2)).astype(dtype) if False else np.ones((2, 2), dtype))
    got.add_xi(more, np.ones((2, 2), dtype))
    close(got(x), ref(x), 1e-8)


def test_barycentric_rng_spellings(host_interpolate):
    """The weights' product order follows the permutation SciPy draws: `rng=` (a Generator seed),
    `random_state=` (a legacy RandomState seed) give SciPy's weights bit for bit; both is TypeError."""
    xi = np.cos(np.linspace(0, np.pi, 25)) * 3.7
    for kwargs in ({"rng": 11}, {"random_state": 11}, {"random_state": np.random.RandomState(4)}):
        ref_kw = {k: (np.random.RandomState(4) if isinstance(v, np.random.RandomState) else v)
                  for k, v in kwargs.items()}
        got = host_interpolate.BarycentricInterpolator(xi, np.sin(xi), **kwargs)
        np.testing.assert_array_equal(np.asarray(got.wi), si.BarycentricInterpolator(xi, np.sin(xi), **ref_kw).wi)
    for cls in (si.BarycentricInterpolator, host_interpolate.BarycentricInterpolator):
        with pytest.raises(TypeError, match="now known as `rng`"):
            cls(xi, np.sin(xi), rng=1, random_state=1)


def test_floater_hormann(host_interpolate):
    x = np.sort(RNG.uniform(0, 5, 20))
    y = np.sin(x)[:, None] * np.array([1.0, 2.0])
    z = np.concatenate((np.linspace(-1, 6, 21), x[:2], [np.inf]))
    ref, got = si.FloaterHormannInterpolator(x, y, d=2), host_interpolate.FloaterHormannInterpolator(x, y, d=2)
    close(got(z), ref(z))
    with pytest.raises(ValueError):
        host_interpolate.BarycentricInterpolator([0.0, 1.0, 1.0], [1.0, 2.0, 3.0])
