"""Fixtures shared by the tests of cuarray.scipy (tests/scipy is no package: its helper modules load
by path)."""

import importlib.util
import pathlib
import warnings

import numpy as np
import pytest


@pytest.fixture(scope="session")
def stats_host():
    """{module name: private copy} of cuarray.scipy.stats' test modules on NumPy
    (stats_tests_host.py), made once a session."""
    spec = importlib.util.spec_from_file_location("stats_tests_host", pathlib.Path(__file__).parent / "stats_tests_host.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.host_stats_tests()


@pytest.fixture(scope="session")
def warned():
    """`warned(f, *args, **kw)` -> (f's result, the messages of the RuntimeWarnings the call
    emitted itself): NumPy's floating-point warnings are silenced and left out, the device's
    arithmetic raising none, so what is compared is SciPy's own warnings (too small, ...)."""
    def call(f, *args, **kw):
        with warnings.catch_warnings(record=True) as w, np.errstate(all="ignore"):
            warnings.simplefilter("always")
            out = f(*args, **kw)
        return out, [str(x.message) for x in w if issubclass(x.category, RuntimeWarning)
                     and "encountered" not in str(x.message)]
    return call


@pytest.fixture(scope="session")
def nan_sample():
    """`nan_sample(shape, axis, dtype, first_clean, left)`: fresh normal data with about 15% NaNs
    and the first value NaN; of a 2-D sample tested along axis 1, row 1 keeps only its first
    `left` values; with `first_clean` the first slice has none (SciPy's result dtypes with NaNs
    follow its first slice's)."""
    def make(shape, axis, dtype="float64", first_clean=False, left=0):
        rng = np.random.default_rng()
        a = rng.standard_normal(shape).astype(dtype)
        a[rng.random(shape) < 0.15] = np.nan
        a.flat[0] = np.nan
        if len(shape) == 2 and axis == 1:
            a[1, left:] = np.nan
        if first_clean and len(shape) == 2 and axis is not None:
            np.moveaxis(a, axis, -1)[0] = rng.standard_normal(shape[axis])
        return a
    return make


@pytest.fixture(scope="session")
def distn_host():
    """{module name: private copy} of cuarray.scipy.stats' distribution modules on NumPy
    (stats_distn_host.py), made once a session."""
    spec = importlib.util.spec_from_file_location("stats_distn_host", pathlib.Path(__file__).parent / "stats_distn_host.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.host_stats()
