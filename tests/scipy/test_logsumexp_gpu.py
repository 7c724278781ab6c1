"""cuarray.scipy.special.logsumexp on the GPU against scipy.special.logsumexp over the grid of
tests/scipy/logsumexp_cases.py: float16/32/64, complex64/128 (return_sign: a real magnitude and
a complex unit sign, as SciPy's), integers, -inf/+inf/NaN entries, zero and negative weights,
every axis form, keepdims, 0-d and empty input; weights as a host array."""

from __future__ import annotations

import importlib.util
import pathlib
import warnings

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

pytest.importorskip("scipy.special")

import cuarray  # noqa: E402
from cuarray.scipy import special as cs  # noqa: E402


def _load(name):
    spec = importlib.util.spec_from_file_location("lse_gpu_" + name, pathlib.Path(__file__).parent / (name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


cases = _load("logsumexp_cases")


def _host(v):
    return tuple(t.get() for t in v) if isinstance(v, tuple) else v.get()


@pytest.mark.parametrize("dtype", cases.DTYPES, ids=lambda d: np.dtype(d).name)
def test_logsumexp_matches_scipy(dtype):
    rng = np.random.default_rng()
    for a, kw in cases.calls(rng, dtype):
        dkw = {k: (cuarray.asarray(v) if isinstance(v, np.ndarray) else v) for k, v in kw.items()}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = _host(cs.logsumexp(cuarray.asarray(a), **dkw))
        cases.check(got, cases.reference(a, kw), (np.dtype(dtype).name, kw), cases.scale(a))
    a, kw = cases.calls(rng, dtype)[-1]
    b = rng.uniform(0.5, 1, a.shape)  # weights parametrise the sum: a host array is copied
    cases.check(_host(cs.logsumexp(cuarray.asarray(a), axis=1, b=b)), cases.reference(a, dict(axis=1, b=b)),
                "host b", cases.scale(a))
