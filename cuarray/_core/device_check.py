"""Operands of another device: the check the engines make before they launch.

An operation runs on the current device. An operand living on another device is refused with
ValueError (no silent copy), as CuPy refuses it, unless peer access from the current device to
the operand's was enabled with `cuarray.cuda.enable_peer_access` (CuPy enables it by itself where
the hardware allows and warns; we leave that choice to the user, who also owns the ordering: a
kernel here does not wait for work queued on the other device's streams). `asarray`,
`a.to_device` and `a.copy()` copy between devices instead (`copying.from_other_device`).

Cost: nothing until a second device is in use in the process (`cuda.device.multi_device`, set by
`note_device`); the engines test that flag first, so a one-GPU process pays one list subscript an
operation. Where the engines test it: the elementwise engine (`Definition.run`: ufuncs,
ElementwiseKernel, copies, fill, gather/scatter), the ufunc and reduction fast paths, the reduction
engine (`ReductionDef.run`), same-layout copies (`copying.copyto_unchecked`), advanced indexing,
scans, sorts, `concatenate`/`stack`, matmul and the linear-algebra routines
(`linalg._util.compute_char`), FFTs (`fft._transform`), and `RawKernel` arguments
(`cuda.module.convert_args`), and the routines that hand raw pointers to their own kernels or
to a library: searchsorted (digitize, isin), histograms and bincount, percentile selection,
random `out=`, cuSPARSE SpMV/SpMM. Whatever else they touch goes through the engines above.
"""

from __future__ import annotations

from ..cuda import device as _device
from .ndarray import ndarray

__all__ = ["active", "check", "check_index"]

# [True] once a second device is in use: test `active[0]` before calling `check`.
active = _device.multi_device


def check(arrays) -> None:
    """Raise ValueError if a non-empty array of `arrays` (other entries, None included, skipped)
    is on a device other than the current one, with no peer access enabled from the current
    device to it."""
    cur = _device.get_device_id()
    for a in arrays:
        # A zero-size array reads no memory: Dask's meta arrays (zero-size views of chunks made
        # under several devices) are concatenated and combined whichever device made them.
        if isinstance(a, ndarray) and a.data.device_id != cur and a._size:
            _device.check_operand_device(a.data.device_id)


def check_index(a, index, value=None) -> None:
    """`check` for `a[index]` / `a[index] = value`: the array, each array in the index, the value."""
    arrays = [a]
    for x in (index if type(index) is tuple else (index,)):
        if isinstance(x, ndarray):
            arrays.append(x)
    if isinstance(value, ndarray):
        arrays.append(value)
    check(arrays)
