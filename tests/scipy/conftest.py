"""Fixtures shared by the tests of cuarray.scipy (tests/scipy is no package: its helper modules load
by path)."""

import importlib.util
import pathlib

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
def distn_host():
    """{module name: private copy} of cuarray.scipy.stats' distribution modules on NumPy
    (stats_distn_host.py), made once a session."""
    spec = importlib.util.spec_from_file_location("stats_distn_host", pathlib.Path(__file__).parent / "stats_distn_host.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.host_stats()
