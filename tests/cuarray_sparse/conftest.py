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


@pytest.fixture(params=["host", pytest.param("gpu", marks=pytest.mark.gpu)])
def ddev(request, monkeypatch):
    """`dev` where the direct solvers work: on the host with `_host_cudss`'s NumPy factorisation,
    on the GPU with cuDSS (skipped where cuDSS is not installed)."""
    from ._host_cudss import direct_standins

    if request.param == "host":
        return on_host(monkeypatch, "direct", direct_standins())
    from cuarray.cuda.libs import cudss

    why = cudss.unavailable_reason()
    if why is not None:
        pytest.skip("cuDSS is not installed (pip install 'cuarray[cudss]'): {}".format(why.splitlines()[0]))
    import cuarray.sparse as sp
    import cuarray.sparse.linalg as cla

    return Dev("gpu", sp, cla)
