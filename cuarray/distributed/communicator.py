"""NCCL collectives on cuarray arrays: `Communicator`, `get_unique_id`, `group`.

One rank per GPU. Several processes (one GPU each) build one communicator from a unique id that
rank 0 makes and sends to the others (`get_unique_id()` gives bytes: pickle or send them any
way); one process driving several GPUs uses `Communicator.init_all(devices)`.

Arrays go to NCCL as they lie: C-contiguous, on the communicator's device. dtypes NCCL lacks are
sent as what they are made of where that gives the same answer: complex as pairs of reals (for
copies, 'sum' and 'avg'), bool and 2-byte integers as bytes (for copies); elsewhere a TypeError
says why. Calls enqueue on the device's current stream (or `stream=`) and return at once.

Teardown: a failed NCCL call aborts the communicator (NCCL's advice: a communicator in error may
hang in its next collective) and raises `NcclError`; `with Communicator(...) as comm:` aborts
when the block raises and destroys it otherwise.
"""

from __future__ import annotations

import contextlib
import operator

import numpy

from .._core.ndarray import ndarray
from .._creation.basic import empty
from ..cuda import device as _device
from ..cuda import stream as _stream
from ..cuda.libs import nccl as _nccl

__all__ = ["Communicator", "get_unique_id", "group", "NcclError"]

NcclError = _nccl.NcclError

_UID_BYTES = 128  # sizeof(ncclUniqueId)
_COMPLEX_PARTS = {numpy.dtype(numpy.complex64): numpy.dtype(numpy.float32),
                  numpy.dtype(numpy.complex128): numpy.dtype(numpy.float64)}


def get_unique_id() -> bytes:
    """A new NCCL unique id (128 bytes) for `Communicator(nranks, rank, unique_id)`."""
    return _nccl.unique_id()


@contextlib.contextmanager
def group():
    """NCCL group calls: collectives inside the block are launched together at its end (needed
    when one process drives several GPUs, or for send/recv pairs). See `ncclGroupStart`."""
    _nccl.group_start()
    try:
        yield
    finally:
        _nccl.group_end()


def wire_format(dtype, op):
    """(NCCL dtype code, elements per array element) for sending `dtype` with reduction `op`
    (None for the collectives that only move data), or TypeError saying why NCCL cannot."""
    dtype = numpy.dtype(dtype)
    if op is not None and op not in _nccl.OPS:
        raise ValueError("op must be one of {}, got {!r}".format(", ".join(map(repr, _nccl.OPS)), op))
    code = _nccl.DTYPES.get(dtype)
    if code is not None:
        if op == "avg" and dtype.kind in "iu":
            raise TypeError("op='avg' needs a floating-point array (NCCL rounds integer averages), got {}".format(dtype))
        return code, 1
    part = _COMPLEX_PARTS.get(dtype)
    if part is not None:
        if op in (None, "sum", "avg"):
            return _nccl.DTYPES[part], 2
        raise TypeError("NCCL cannot reduce {} with op={!r}: complex numbers have no order and their "
                        "products mix the parts (only 'sum' and 'avg' work on the parts)".format(dtype, op))
    if dtype.kind in "biu" and op is None:
        return _nccl.DTYPES[numpy.dtype(numpy.uint8)], dtype.itemsize  # moved as bytes
    if dtype == numpy.bool_ and op in ("max", "min"):
        return _nccl.DTYPES[numpy.dtype(numpy.uint8)], 1  # logical or / and on 0/1 bytes
    raise TypeError("NCCL has no {} type{}".format(
        dtype, "" if op is None else " to reduce with op={!r}".format(op)))


class Communicator:
    """An NCCL communicator of `nranks` ranks, this one `rank`, on `device` (default: the current
    one). See `cupy.cuda.nccl.NcclCommunicator`; the methods take cuarray arrays, not pointers."""

    def __init__(self, nranks: int, rank: int, unique_id: bytes, device=None):
        nranks, rank = operator.index(nranks), operator.index(rank)
        if nranks < 1:
            raise ValueError("nranks must be >= 1, got {}".format(nranks))
        if not 0 <= rank < nranks:
            raise ValueError("rank must be in [0, {}), got {}".format(nranks, rank))
        if not isinstance(unique_id, (bytes, bytearray)) or len(unique_id) != _UID_BYTES:
            raise TypeError("unique_id must be the {} bytes of get_unique_id()".format(_UID_BYTES))
        self._device = _device.Device(device).id
        self._nranks, self._rank = nranks, rank
        self._comm = _nccl.init_rank(nranks, bytes(unique_id), rank, self._device)

    @classmethod
    def init_all(cls, devices=None) -> list:
        """One communicator per device of this process (rank i on devices[i]; default: every
        device). Use them inside `group()` when one thread drives them all."""
        if devices is None:
            devices = list(range(_device.get_device_count()))
        elif isinstance(devices, int):
            devices = list(range(devices))
        devices = [_device.Device(d).id for d in devices]
        if len(set(devices)) != len(devices):
            raise ValueError("devices must be distinct, got {}".format(devices))
        comms = []
        for rank, (dev, comm) in enumerate(zip(devices, _nccl.init_all(devices) if devices else [])):
            c = cls.__new__(cls)
            c._device, c._nranks, c._rank, c._comm = dev, len(devices), rank, comm
            comms.append(c)
        return comms

    # -- properties and teardown ----------------------------------------------------------------
    nranks = property(lambda self: self._nranks, doc="Number of ranks.")
    rank = property(lambda self: self._rank, doc="This communicator's rank.")
    device = property(lambda self: _device.Device(self._device), doc="The device it runs on.")

    def __repr__(self) -> str:
        state = "" if self._comm is not None else ", closed"
        return "<cuarray.distributed.Communicator rank {} of {} on device {}{}>".format(
            self._rank, self._nranks, self._device, state)

    def destroy(self) -> None:
        """Free the communicator after its pending work (ncclCommDestroy)."""
        comm, self._comm = self._comm, None
        if comm is not None:
            _nccl.destroy(comm)

    def abort(self) -> None:
        """Free it at once, cancelling pending work (ncclCommAbort): the way out after an error."""
        comm, self._comm = self._comm, None
        if comm is not None:
            _nccl.abort(comm)

    def __enter__(self) -> "Communicator":
        return self

    def __exit__(self, exc_type, *exc) -> None:
        if exc_type is None:
            self.destroy()
        else:
            self.abort()

    # -- argument checks ---------------------------------------------------------------------------
    def _live(self):
        if self._comm is None:
            raise RuntimeError("this communicator was destroyed or aborted")
        return self._comm

    def _buffer(self, x, name: str, op):
        """(pointer, count, NCCL dtype) of array `x`, checked."""
        if not isinstance(x, ndarray):
            raise TypeError("{} must be a cuarray.ndarray, got {}".format(name, type(x).__name__))
        if not x.flags.c_contiguous:
            raise ValueError("{} must be C-contiguous (NCCL sends memory as it lies)".format(name))
        if x.size and x.data.device_id != self._device:
            raise ValueError("{} is on device {}, the communicator on device {}".format(
                name, x.data.device_id, self._device))
        code, per = wire_format(x.dtype, op)
        return x.data.ptr, x.size * per, code

    def _stream_ptr(self, stream) -> int:
        if stream is None:
            return _stream.get_current_stream(self._device).ptr
        if getattr(stream, "device_id", self._device) != self._device:
            raise ValueError("stream is on device {}, the communicator on device {}".format(
                stream.device_id, self._device))
        return stream.ptr

    def _out(self, out, shape, dtype, name="out"):
        if out is None:
            with _device.Device(self._device):
                return empty(shape, dtype)
        if not isinstance(out, ndarray):
            raise TypeError("{} must be a cuarray.ndarray, got {}".format(name, type(out).__name__))
        if out.dtype != dtype:
            raise TypeError("{} has dtype {}, expected {}".format(name, out.dtype, dtype))
        if out.shape != tuple(shape):
            raise ValueError("{} has shape {}, expected {}".format(name, out.shape, tuple(shape)))
        return out

    def _root(self, root) -> int:
        root = operator.index(root)
        if not 0 <= root < self._nranks:
            raise ValueError("root must be in [0, {}), got {}".format(self._nranks, root))
        return root

    def _leading(self, x, name="x"):
        if x.ndim == 0 or x.shape[0] != self._nranks:
            raise ValueError("{}'s first axis must have one entry per rank ({}), got shape {}".format(
                name, self._nranks, x.shape))

    def _run(self, fn_name, *args) -> None:
        try:
            _nccl.collective(fn_name, *args)
        except NcclError:
            self.abort()
            raise

    # -- collectives ---------------------------------------------------------------------------
    def allreduce(self, x, out=None, op="sum", stream=None):
        """`out` = the reduction of every rank's `x` (same shape and dtype), on every rank."""
        ptr, count, code = self._buffer(x, "x", op)
        out = self._out(out, x.shape, x.dtype)
        optr = self._buffer(out, "out", op)[0]
        self._run("all_reduce", ptr, optr, count, code, _nccl.OPS[op], self._live(), self._stream_ptr(stream))
        return out

    def reduce(self, x, out=None, op="sum", root=0, stream=None):
        """The reduction of every rank's `x` into `out` on rank `root` (`out` is untouched elsewhere)."""
        root = self._root(root)
        ptr, count, code = self._buffer(x, "x", op)
        out = self._out(out, x.shape, x.dtype)
        optr = self._buffer(out, "out", op)[0]
        self._run("reduce", ptr, optr, count, code, _nccl.OPS[op], root, self._live(), self._stream_ptr(stream))
        return out

    def broadcast(self, x, root=0, stream=None):
        """Rank `root`'s `x` into `x` on every rank (in place); returns `x`."""
        root = self._root(root)
        ptr, count, code = self._buffer(x, "x", None)
        self._run("broadcast", ptr, ptr, count, code, root, self._live(), self._stream_ptr(stream))
        return x

    def allgather(self, x, out=None, stream=None):
        """`out[r]` = rank r's `x`, on every rank: shape ``(nranks, *x.shape)``."""
        ptr, count, code = self._buffer(x, "x", None)
        out = self._out(out, (self._nranks,) + x.shape, x.dtype)
        optr = self._buffer(out, "out", None)[0]
        self._run("all_gather", ptr, optr, count, code, self._live(), self._stream_ptr(stream))
        return out

    def reduce_scatter(self, x, out=None, op="sum", stream=None):
        """`x` has one block per rank along axis 0; rank r gets the reduction of every rank's
        block r: shape x.shape[1:]."""
        self._leading(x)
        ptr, count, code = self._buffer(x, "x", op)
        out = self._out(out, x.shape[1:], x.dtype)
        optr = self._buffer(out, "out", op)[0]
        self._run("reduce_scatter", ptr, optr, count // self._nranks, code, _nccl.OPS[op], self._live(),
                  self._stream_ptr(stream))
        return out

    def alltoall(self, x, out=None, stream=None):
        """`x` has one block per rank along axis 0; `out[r]` = rank r's block for this rank."""
        self._leading(x)
        ptr, count, code = self._buffer(x, "x", None)
        out = self._out(out, x.shape, x.dtype)
        optr = self._buffer(out, "out", None)[0]
        self._run("allto_all", ptr, optr, count // self._nranks, code, self._live(), self._stream_ptr(stream))
        return out

    def send(self, x, peer: int, stream=None) -> None:
        """Send `x` to rank `peer` (pair it with the peer's `recv`, inside `group()` when one
        process drives both)."""
        peer = self._root(peer)
        ptr, count, code = self._buffer(x, "x", None)
        self._run("send", ptr, count, code, peer, self._live(), self._stream_ptr(stream))

    def recv(self, out, peer: int, stream=None):
        """Receive into `out` (its shape and dtype say what arrives) from rank `peer`; returns `out`."""
        peer = self._root(peer)
        ptr, count, code = self._buffer(out, "out", None)
        self._run("recv", ptr, count, code, peer, self._live(), self._stream_ptr(stream))
        return out
