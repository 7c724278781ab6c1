"""`dev`: each comparison test runs on the host shim (NumPy for the device, no GPU) and on the GPU."""

import pytest

from . import _host_shim


@pytest.fixture(params=["host", pytest.param("gpu", marks=pytest.mark.gpu)])
def dev(request, monkeypatch):
    if request.param == "host":
        _host_shim.install(monkeypatch)
    return request.param
