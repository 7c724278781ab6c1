"""Dask's array backend "cuarray": `dask.config.set({"array.backend": "cuarray"})` makes
`da.ones/zeros/empty/full/arange/random` build cuarray chunks, and `Array.to_backend("cuarray")`
converts a collection. Found by Dask through the `dask.array.backends` entry point (pyproject)
or registered by `cuarray.distributed.register_dask()`.
"""

from __future__ import annotations

from dask import config
from dask.array.backends import ArrayBackendEntrypoint

from .._core.ndarray import ndarray
from .._creation.basic import empty
from ..random import Philox, RandomState
from . import _dask
from ._dask import register

__all__ = ["CuarrayBackendEntrypoint"]


def _meta(ndim=1, dtype=float):
    return empty((0,) * ndim, dtype)  # zero-size: made without touching a device


def _with_meta(name, *args, meta=None, **kwargs):
    import dask.array as da

    with config.set({"array.backend": "numpy"}):
        return getattr(da, name)(*args, meta=_meta() if meta is None else meta, **kwargs)


class CuarrayBackendEntrypoint(ArrayBackendEntrypoint):
    """Dask array creation with cuarray chunks (see `dask.array.backends.ArrayBackendEntrypoint`)."""

    def __init__(self):
        register()

    @classmethod
    def to_backend_dispatch(cls):
        _dask.register()
        return _dask.to_cuarray_dispatch

    @classmethod
    def to_backend(cls, data, **kwargs):
        if isinstance(data._meta, ndarray):
            return data
        # meta given, so Dask need not call the conversion on a sample to find it
        return data.map_blocks(cls.to_backend_dispatch(), dtype=data.dtype, meta=_meta(data.ndim, data.dtype),
                               **kwargs)

    @property
    def RandomState(self):
        return RandomState

    @property
    def default_bit_generator(self):
        return Philox

    @staticmethod
    def ones(*args, **kwargs):
        return _with_meta("ones", *args, **kwargs)

    @staticmethod
    def zeros(*args, **kwargs):
        return _with_meta("zeros", *args, **kwargs)

    @staticmethod
    def empty(*args, **kwargs):
        return _with_meta("empty", *args, **kwargs)

    @staticmethod
    def full(*args, **kwargs):
        return _with_meta("full", *args, **kwargs)

    @staticmethod
    def arange(*args, like=None, **kwargs):
        import dask.array as da

        with config.set({"array.backend": "numpy"}):
            return da.arange(*args, like=_meta() if like is None else like, **kwargs)
