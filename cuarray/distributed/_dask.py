"""cuarray arrays as Dask array chunks: the registrations Dask's chunk-type contract asks for.

`register()` (idempotent; run by `cuarray.distributed.register_dask()` and by the backend entry
point) makes Dask treat `cuarray.ndarray` as a chunk type: the dispatch tables Dask consults for
concatenate/take/tensordot/einsum/empty/percentile/numel/nannumel, `to_numpy` (a host copy),
`sizeof` (device bytes, for Dask's memory accounting), a token that copies nothing to the host,
and, where distributed is installed, its serializers (`serialization.py`: device frames for
transports that carry device memory, a host copy otherwise). Dask is imported here only, never at
`import cuarray`.

Meta arrays: Dask describes chunks with zero-size arrays (`x[(slice(0, 0),) * ndim]`). cuarray
builds zero-size arrays and their views without touching a device, so graphs over cuarray meta
build on a machine with no GPU.
"""

from __future__ import annotations

import threading
import uuid

import numpy

from .._core.ndarray import ndarray
from .._creation.basic import empty
from .._creation.from_data import asarray
from .._indexing.inserting import take
from .._manipulation.joining import concatenate
from ..linalg._einsum import einsum
from ..linalg._products import tensordot
from . import serialization

__all__ = ["register", "register_backend", "to_cuarray_dispatch"]

_lock = threading.Lock()
_done = False
to_cuarray_dispatch = None  # Dask's Dispatch for Array.to_backend("cuarray"), made by register()


def _einsum(*operands, **kwargs):
    return einsum(*operands, **kwargs)


def _token(x):
    # Hashing device memory would copy it to the host (or cost a kernel and a sync per graph);
    # a fresh uuid is what Dask itself falls back to for objects it cannot hash: never stale
    # after an in-place update, at the price of no deduplication of the same array.
    return "cuarray.ndarray", x.shape, x.dtype.str, uuid.uuid4().hex


def register() -> None:
    """Register cuarray.ndarray with Dask (and distributed, when installed). Safe to call again."""
    global _done, to_cuarray_dispatch
    if _done:
        return
    with _lock:
        if _done:
            return
        from dask.array import backends as da_backends
        from dask.array import dispatch
        from dask.array.chunk_types import register_chunk_type
        from dask.base import normalize_token
        from dask.sizeof import sizeof
        from dask.utils import Dispatch

        register_chunk_type(ndarray)
        dispatch.concatenate_lookup.register(ndarray, concatenate)
        dispatch.take_lookup.register(ndarray, take)
        dispatch.tensordot_lookup.register(ndarray, tensordot)
        dispatch.einsum_lookup.register(ndarray, _einsum)
        dispatch.empty_lookup.register(ndarray, empty)
        # Dask's own generic implementations: they call numpy functions, which NEP 18 sends here.
        dispatch.percentile_lookup.register(ndarray, da_backends.percentile)
        dispatch.numel_lookup.register(ndarray, da_backends._numel_arraylike)
        dispatch.nannumel_lookup.register(ndarray, da_backends._nannumel)
        dispatch.to_numpy_dispatch.register(ndarray, lambda data, **kwargs: data.get())

        to_cuarray = Dispatch("to_cuarray_dispatch")
        to_cuarray.register(numpy.ndarray, lambda data, **kwargs: asarray(data, **kwargs))
        to_cuarray.register(ndarray, lambda data, **kwargs: data)
        to_cuarray_dispatch = to_cuarray

        sizeof.register(ndarray, lambda x: int(x.nbytes))
        normalize_token.register(ndarray, _token)
        try:
            import distributed.protocol  # noqa: F401  (optional: Dask alone has no serializers)
        except ImportError:
            pass
        else:
            serialization.register()
        _done = True


def register_backend() -> None:
    """`register()`, and the "cuarray" array backend for a process where cuarray is not
    installed (so Dask's entry point cannot find it, e.g. a source tree on PYTHONPATH)."""
    from dask.array.backends import array_creation_dispatch

    from .dask_backend import CuarrayBackendEntrypoint  # optional dependency: it subclasses dask's class

    register()
    if "cuarray" not in array_creation_dispatch._lookup:
        array_creation_dispatch.register_backend("cuarray", CuarrayBackendEntrypoint())
