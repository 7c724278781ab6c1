"""cuarray.scipy.special.logsumexp without a GPU: its module run with NumPy standing in for the
cuarray routines it composes (`fake_device.numpy_standins`), against scipy.special.logsumexp over
the grid of tests/scipy/logsumexp_cases.py (complex input with return_sign: a real magnitude and
a complex unit sign; zero weights; infinities; every axis form)."""

import importlib.util
import pathlib
import warnings

import numpy as np
import pytest

from cuarray.scipy.special import _logsumexp
from cuarray.testing.fake_device import host_module, numpy_standins


def _load(name):
    spec = importlib.util.spec_from_file_location("lse_" + name, pathlib.Path(__file__).parent / (name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


cases = _load("logsumexp_cases")


@pytest.fixture(scope="module")
def host():
    return host_module(_logsumexp, numpy_standins(_logsumexp, "cuarray.scipy.special._logsumexp"))


@pytest.mark.parametrize("dtype", cases.DTYPES, ids=lambda d: np.dtype(d).name)
def test_logsumexp_matches_scipy(host, dtype):
    rng = np.random.default_rng()
    for a, kw in cases.calls(rng, dtype):
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            got = host.logsumexp(a, **kw)
        cases.check(got, cases.reference(a, kw), (np.dtype(dtype).name, kw), cases.scale(a))

