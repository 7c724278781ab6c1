"""NCCL through nccl4py's low-level bindings (`nccl.bindings.nccl`): the only importer of nccl.

Thin on purpose: raw pointers, counts and NCCL's enum values in, NCCL's errors out as
`NcclError`. The array-level API (dtype mapping, argument checks, teardown) is
`cuarray.distributed.Communicator`. nccl4py's high-level `nccl.core` is not used: resolving a
buffer there imported torch and cupy on the first collective (2.5 s on the first call, measured
with nccl4py 0.6.0; 31 us a call after it).

nccl4py is optional: importing this module needs nothing; the first call imports it and says
what to install if it is missing.
"""

from __future__ import annotations

import numpy

from .. import device as _device

__all__ = ["NcclError", "bindings", "DTYPES", "OPS", "unique_id", "init_rank", "init_all", "destroy",
           "abort", "async_error", "group_start", "group_end", "collective"]


class NcclError(RuntimeError):
    """An NCCL call failed (the message is NCCL's)."""


_bindings = None


def bindings():
    """`nccl.bindings.nccl`, imported on first use."""
    global _bindings
    if _bindings is None:
        try:
            import nccl.bindings.nccl as b
        except ImportError as e:  # pragma: no cover - depends on the install
            raise ImportError("cuarray.distributed's NCCL communicator needs nccl4py and the NCCL library "
                              "(pip install nccl4py nvidia-nccl-cu13): {}".format(e)) from e
        _bindings = b
    return _bindings


# NCCL's ncclDataType_t and ncclRedOp_t values (nccl.h): stable across NCCL 2.x, so the checks in
# cuarray.distributed run without importing nccl4py.
DTYPES = {
    numpy.dtype(numpy.int8): 0, numpy.dtype(numpy.uint8): 1, numpy.dtype(numpy.int32): 2,
    numpy.dtype(numpy.uint32): 3, numpy.dtype(numpy.int64): 4, numpy.dtype(numpy.uint64): 5,
    numpy.dtype(numpy.float16): 6, numpy.dtype(numpy.float32): 7, numpy.dtype(numpy.float64): 8,
}
OPS = {"sum": 0, "prod": 1, "max": 2, "min": 3, "avg": 4}


def _call(fn, *args):
    b = bindings()
    try:
        return fn(*args)
    except b.NCCLError as e:
        raise NcclError(str(e)) from None


def unique_id() -> bytes:
    """A new NCCL unique id, as bytes (picklable; pass it to every rank)."""
    return bytes(_call(bindings().get_unique_id))


def _uid_object(uid: bytes):
    return bindings().UniqueId.from_buffer(bytes(uid))


def init_rank(nranks: int, uid: bytes, rank: int, device_id: int):
    """ncclCommInitRank on `device_id` (made current first: the communicator binds to it)."""
    _device._core_device(device_id)
    return _call(bindings().comm_init_rank, nranks, _uid_object(uid), rank)


def init_all(device_ids: list) -> list:
    """ncclCommInitAll: one communicator per device of this process, rank i on device_ids[i]."""
    for d in device_ids:
        _device._core_device(d)
    return list(_call(bindings().comm_init_all, len(device_ids), list(device_ids)))


def destroy(comm) -> None:
    _call(bindings().comm_destroy, comm)


def abort(comm) -> None:
    _call(bindings().comm_abort, comm)


def async_error(comm) -> int:
    return int(_call(bindings().comm_get_async_error, comm))


def group_start() -> None:
    _call(bindings().group_start)


def group_end() -> None:
    _call(bindings().group_end)


def collective(name: str, *args) -> None:
    """One NCCL call by its nccl4py name (all_reduce, broadcast, reduce, all_gather,
    reduce_scatter, allto_all, send, recv) with its raw arguments."""
    _call(getattr(bindings(), name), *args)
