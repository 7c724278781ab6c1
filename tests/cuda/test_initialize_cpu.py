"""cuarray.cuda.initialize without a device: its argument checks, and the clear NoDeviceError."""

from __future__ import annotations

import pytest

import cuarray
from cuarray.cuda import _backend, startup


def test_unknown_libraries_are_named():
    with pytest.raises(ValueError, match="unknown library 'cudnn'.*cublas, cusolver, cusparse, cufft"):
        cuarray.cuda.initialize(libraries=["cublas", "cudnn"])
    with pytest.raises(ValueError, match="unknown libraries 'a', 'b'"):
        cuarray.cuda.initialize(libraries=("a", "b"))


def test_it_is_the_public_name():
    assert cuarray.cuda.initialize is startup.initialize
    assert "initialize" in dir(cuarray.cuda)


@pytest.mark.skipif(_backend.is_available(), reason="checks the machine without a GPU")
def test_without_a_device_it_says_so():
    with pytest.raises(cuarray.cuda.NoDeviceError):
        cuarray.cuda.initialize(libraries="all")
