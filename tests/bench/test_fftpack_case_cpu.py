"""The `fftpack` bench case on the CPU: registered under its id (``--cases fftpack``) with cuarray
and CuPy columns, and a function the peer's fftpack lacks (cupyx has no diff/hilbert) is n/a with
its reason, not an error."""

from __future__ import annotations

import types

import pytest

from cuarray.bench import cases
from cuarray.bench.cases import fftpack as F


def test_registered_with_cupy_as_peer():
    (case,) = cases.select(ids=["fftpack"])
    assert set(case.setups) == {"cuarray", "cupy"}
    assert any("rfft" in p for p in case.params) and any("diff" in p for p in case.params)
    assert case.amount("nbytes", "quick", "rfft f32 2^24") == 2 * 4 * 2**20


def test_missing_function_is_na(monkeypatch):
    fake = types.SimpleNamespace(__name__="cupyx.scipy.fftpack", fft=lambda x: x)
    monkeypatch.setattr(F, "scipy_module", lambda xp, sub: fake)
    with pytest.raises(cases.NotAvailable, match="has no fftpack.diff"):
        F.case.setups["cupy"](types.SimpleNamespace(__name__="cupy"), "quick", "diff f64 2^22")
