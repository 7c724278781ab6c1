"""`dev`: each comparison test runs on the host shim (NumPy for the device, no GPU) and on the GPU.
It equals "host" or "gpu"; `dev.sp` and `dev.cla` are cuarray.sparse and cuarray.sparse.linalg to
call: on the host their private copies (`_host_shim.host_sparse`: nothing of cuarray is patched)."""

import pytest

from ._host_shim import Dev, on_host


@pytest.fixture(params=["host", pytest.param("gpu", marks=pytest.mark.gpu)])
def dev(request, monkeypatch):
    if request.param == "host":
        return on_host(monkeypatch)
    import cuarray.sparse as sp
    import cuarray.sparse.linalg as cla

    return Dev("gpu", sp, cla)
