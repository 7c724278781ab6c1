"""`host_elementwise` / `host_differentiate`: cuarray.scipy.optimize.elementwise and
cuarray.scipy.differentiate with NumPy in place of the cuarray routines their modules import, so
the real algorithms (the loop, Chandrupatla's steps, the bracket expansion, the finite
differences) run on the host against SciPy."""

import pytest

from cuarray.testing.fake_device import host_packages

from elementwise_host import standins


@pytest.fixture(scope="session")
def host_scipy():
    """{"optimize": copy, "differentiate": copy} of the two packages on NumPy."""
    import cuarray.scipy.differentiate as differentiate
    import cuarray.scipy.optimize as optimize
    from cuarray.scipy import _elementwise_loop
    from cuarray.scipy.differentiate import _differentiate
    from cuarray.scipy.optimize import _bracket, _chandrupatla

    group = {m: standins(m) for m in (_elementwise_loop, _bracket, _chandrupatla, _differentiate)}
    copies = host_packages([optimize, differentiate], group)
    return {"optimize": copies[optimize], "differentiate": copies[differentiate]}


@pytest.fixture(scope="session")
def host_elementwise(host_scipy):
    return host_scipy["optimize"].elementwise


@pytest.fixture(scope="session")
def host_differentiate(host_scipy):
    return host_scipy["differentiate"]
