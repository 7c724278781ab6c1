"""NumPy stand-ins for the cuarray routines cuarray.polynomial's modules import, over host
arrays, so the CPU tests run the series modules' own source against numpy.polynomial (see
shadow_package)."""

from __future__ import annotations

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


def routine_standins(module, xp):
    """{name: xp's routine of that name} for each cuarray routine `module` imports from outside
    cuarray.polynomial (bound under NumPy's name, or with a trailing `_` where it would hide a
    builtin or a local name: `max_`)."""
    out = {}
    for name, value in vars(module).items():
        origin = getattr(value, "__module__", None) or ""
        if name.startswith("__") or isinstance(value, types.ModuleType) or not origin.startswith("cuarray") \
                or origin.startswith("cuarray.polynomial"):
            continue
        key = name[:-1] if name.endswith("_") else name
        if hasattr(xp, key):
            out[name] = getattr(xp, key)
    return out


_PACKAGES: dict = {}


def shadow_package(name="shadow_polynomial", xp=None):
    """A private copy of cuarray.polynomial (`cuarray.testing.fake_device.host_packages`: nothing
    of cuarray is patched) whose modules call `xp`'s routines (default: this module's) for the
    cuarray routines they import; `name` keys the copy."""
    if name not in _PACKAGES:
        import importlib
        import pkgutil

        import cuarray.polynomial as polynomial
        from cuarray.testing.fake_device import host_packages

        xp = xp if xp is not None else sys.modules[__name__]
        modules = [importlib.import_module(i.name)
                   for i in pkgutil.iter_modules(polynomial.__path__, polynomial.__name__ + ".")]
        standins = {m: routine_standins(m, xp) for m in modules}
        # *val's one-kernel path is device code (checked by NVRTC and the GPU tests): here every
        # evaluation takes the whole-array path
        standins[sys.modules["cuarray.polynomial._kernels"]]["evaluate"] = lambda basis, x, c: None
        _PACKAGES[name] = host_packages([polynomial], standins)[polynomial]
    return _PACKAGES[name]
