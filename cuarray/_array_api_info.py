"""`cuarray.__array_namespace_info__()`: the Array API inspection namespace. See the Array API
2025.12 "Inspection" section and `numpy.__array_namespace_info__`.

Devices are `cuarray.cuda.Device` objects; the default device is the calling thread's current
device (NumPy's is the string "cpu"). The default dtypes are NumPy's (float64, complex128, int64,
intp): cuarray creates arrays with NumPy's default dtypes.
"""

from __future__ import annotations

import numpy

from .cuda import device as _device

__all__ = ["__array_namespace_info__"]

_KINDS = {
    "bool": ("bool",),
    "signed integer": ("int8", "int16", "int32", "int64"),
    "unsigned integer": ("uint8", "uint16", "uint32", "uint64"),
    "real floating": ("float32", "float64"),
    "complex floating": ("complex64", "complex128"),
}
_KINDS["integral"] = _KINDS["signed integer"] + _KINDS["unsigned integer"]
_KINDS["numeric"] = _KINDS["integral"] + _KINDS["real floating"] + _KINDS["complex floating"]


def _check_device(device):
    if device is not None and not isinstance(device, _device.Device):
        raise ValueError("device must be None or a cuarray.cuda.Device, got {!r}".format(device))


class __array_namespace_info__:  # noqa: N801  (the standard's name)
    """The inspection namespace: `cuarray.__array_namespace_info__().dtypes()`, ..."""

    __module__ = "cuarray"

    def capabilities(self) -> dict:
        """Boolean indexing and data-dependent shapes are supported (they synchronise to learn
        the result's size); NumPy's limit of 64 dimensions holds."""
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}

    def default_device(self):
        """The current device of the calling thread."""
        return _device.Device()

    def default_dtypes(self, *, device=None) -> dict:
        _check_device(device)
        return {"real floating": numpy.dtype(numpy.float64), "complex floating": numpy.dtype(numpy.complex128),
                "integral": numpy.dtype(numpy.int64), "indexing": numpy.dtype(numpy.intp)}

    def dtypes(self, *, device=None, kind=None) -> dict:
        """The Array API dtypes cuarray supports (float16 is supported too, but not an Array API
        dtype, so it is not listed), by canonical name."""
        _check_device(device)
        if kind is None:
            names = ("bool",) + _KINDS["numeric"]
        else:
            kinds = (kind,) if isinstance(kind, str) else tuple(kind)
            names = []
            for k in kinds:
                if k not in _KINDS:
                    raise ValueError("unsupported dtype kind {!r}".format(k))
                names.extend(n for n in _KINDS[k] if n not in names)
        return {n: numpy.dtype(n) for n in names}

    def devices(self) -> tuple:
        """Every CUDA device the driver sees (a tuple, as 2025.12 requires; empty with no driver)."""
        return tuple(_device.Device(i) for i in range(_device.get_device_count()))
