"""CPU tests of the NCCL communicator's checks: the wire format of every dtype and op (what NCCL
is sent, or the TypeError saying why it cannot be), and the argument checks that run before any
NCCL call or device use. Zero-size arrays need no device, so the checks run in CI."""

from __future__ import annotations

import numpy as np
import pytest

import cuarray
from cuarray.cuda.libs import nccl as _nccl
from cuarray.distributed import Communicator
from cuarray.distributed.communicator import wire_format

DIRECT = ["int8", "uint8", "int32", "uint32", "int64", "uint64", "float16", "float32", "float64"]


@pytest.mark.parametrize("dtype", DIRECT)
@pytest.mark.parametrize("op", [None, "sum", "prod", "max", "min"])
def test_native_dtypes_go_as_they_are(dtype, op):
    assert wire_format(dtype, op) == (_nccl.DTYPES[np.dtype(dtype)], 1)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_avg_on_floats(dtype):
    assert wire_format(dtype, "avg") == (_nccl.DTYPES[np.dtype(dtype)], 1)


@pytest.mark.parametrize("dtype", ["int32", "uint64", "int8"])
def test_avg_on_integers_is_refused(dtype):
    with pytest.raises(TypeError, match="avg"):
        wire_format(dtype, "avg")


@pytest.mark.parametrize("dtype,part", [("complex64", "float32"), ("complex128", "float64")])
def test_complex_as_pairs_of_reals(dtype, part):
    for op in (None, "sum", "avg"):
        assert wire_format(dtype, op) == (_nccl.DTYPES[np.dtype(part)], 2)
    for op in ("prod", "max", "min"):
        with pytest.raises(TypeError, match="complex"):
            wire_format(dtype, op)


@pytest.mark.parametrize("dtype", ["bool", "int16", "uint16"])
def test_types_nccl_lacks_move_as_bytes(dtype):
    assert wire_format(dtype, None) == (_nccl.DTYPES[np.dtype(np.uint8)], np.dtype(dtype).itemsize)
    with pytest.raises(TypeError, match="NCCL has no"):
        wire_format(dtype, "sum")


def test_bool_max_min_are_logical():
    assert wire_format("bool", "max") == (_nccl.DTYPES[np.dtype(np.uint8)], 1)
    assert wire_format("bool", "min") == (_nccl.DTYPES[np.dtype(np.uint8)], 1)


def test_unknown_op():
    with pytest.raises(ValueError, match="op must be one of"):
        wire_format("float32", "mean")


def test_nccl_codes_match_the_library():
    """The codes used without importing nccl4py are NCCL's own (checked where nccl4py is installed)."""
    b = pytest.importorskip("nccl.bindings.nccl")
    names = {"int8": "Int8", "uint8": "Uint8", "int32": "Int32", "uint32": "Uint32", "int64": "Int64",
             "uint64": "Uint64", "float16": "Float16", "float32": "Float32", "float64": "Float64"}
    for dt, name in names.items():
        assert _nccl.DTYPES[np.dtype(dt)] == int(getattr(b.DataType, name))
    for op, name in {"sum": "Sum", "prod": "Prod", "max": "Max", "min": "Min", "avg": "Avg"}.items():
        assert _nccl.OPS[op] == int(getattr(b.RedOp, name))


def _fake(nranks=2, rank=0, device=0):
    """A communicator object with no NCCL behind it: only its checks can run."""
    c = Communicator.__new__(Communicator)
    c._device, c._nranks, c._rank, c._comm = device, nranks, rank, None
    return c


def test_constructor_checks_before_nccl():
    uid = bytes(128)
    with pytest.raises(ValueError, match="nranks"):
        Communicator(0, 0, uid)
    with pytest.raises(ValueError, match="rank must be in"):
        Communicator(2, 2, uid)
    with pytest.raises(TypeError, match="128 bytes"):
        Communicator(2, 0, b"short")
    with pytest.raises(TypeError):
        Communicator(2.5, 0, uid)


def test_buffer_checks():
    c = _fake()
    with pytest.raises(TypeError, match="cuarray.ndarray"):
        c._buffer(np.zeros(3), "x", None)
    x = cuarray.empty((0, 4), dtype="complex64")
    assert c._buffer(x, "x", "sum") == (0, 0, _nccl.DTYPES[np.dtype(np.float32)])
    with pytest.raises(TypeError, match="complex"):
        c._buffer(x, "x", "max")
    with pytest.raises(ValueError, match="root must be in"):
        c._root(2)
    with pytest.raises(ValueError, match="one entry per rank"):
        c._leading(cuarray.empty((3, 0)))
    c._leading(cuarray.empty((2, 0)))


def test_out_checks():
    c = _fake()
    out = cuarray.empty((0, 2), dtype="float32")
    assert c._out(out, (0, 2), np.dtype("float32")) is out
    with pytest.raises(TypeError, match="dtype"):
        c._out(out, (0, 2), np.dtype("float64"))
    with pytest.raises(ValueError, match="shape"):
        c._out(out, (0, 3), np.dtype("float32"))


def test_closed_communicator_refuses_calls():
    c = _fake()
    with pytest.raises(RuntimeError, match="destroyed or aborted"):
        c._live()
    c.destroy()  # no-op when already closed
    c.abort()
    assert "closed" in repr(c)


def test_import_cuarray_does_not_import_nccl_or_dask():
    import subprocess
    import sys

    code = ("import sys, cuarray, cuarray.distributed; "
            "print(any(m == 'nccl' or m.startswith('nccl.') or m == 'dask' or m.startswith('dask.') "
            "for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
