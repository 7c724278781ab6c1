"""A NumPy stand-in for cuarray/polynomial/_xp.py: the same names over host arrays, so the CPU
tests run the series modules' own source against numpy.polynomial (see shadow_package)."""

from __future__ import annotations

import importlib.util
import os
import sys
import types

import numpy
from numpy import (absolute, arange, concatenate, convolve, cos, cumprod, cumsum, dot, empty, exp, flip,  # noqa: F401
                   full, linspace, max, min, moveaxis, ndarray, ones, sin, sort, sqrt, take, zeros)
from numpy.linalg import eigvals, eigvalsh, lstsq  # noqa: F401

from cuarray._polynomial.routines import check_fit_points  # noqa: F401  (shapes only: no device)


def as_array(x, fn):
    if isinstance(x, (list, tuple)):
        raise TypeError("cuarray.{}: host sequences are refused".format(fn))
    return numpy.asarray(x)


def as_parameter(x, fn):
    return numpy.asarray(x)


def array(x):
    return numpy.array(x)


def to_host(a):
    return numpy.asarray(a)


def shadow_package(name="shadow_polynomial", xp=None):
    """cuarray/polynomial's modules loaded as package `name` with `xp` (default: this module) as
    their `_xp`."""
    if name in sys.modules:
        return sys.modules[name]
    here = os.path.dirname(os.path.abspath(__file__))
    src = os.path.join(here, "..", "..", "cuarray", "polynomial")
    spec = importlib.util.spec_from_file_location(name, os.path.join(src, "__init__.py"),
                                                  submodule_search_locations=[src])
    pkg = importlib.util.module_from_spec(spec)
    sys.modules[name] = pkg
    sys.modules[name + "._xp"] = xp if xp is not None else sys.modules[__name__]
    # *val's one-kernel path is device code (checked by NVRTC and the GPU tests): here every
    # evaluation takes the whole-array path
    kernels = types.ModuleType(name + "._kernels")
    kernels.evaluate = lambda basis, x, c: None
    sys.modules[name + "._kernels"] = kernels
    spec.loader.exec_module(pkg)
    return pkg
