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
