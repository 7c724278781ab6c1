"""One kernel launch that copies many dense pieces into one array (concatenate and friends).

A piece is `rows` rows of `width` bytes stored densely at `src`; row r goes to
``dst + r * dst_pitch + offset``. Concatenating C-contiguous arrays along axis k into a
C-contiguous result is exactly that, with rows = prod(shape[:k]) and one piece per input.

Why a kernel and not one copy per input: a copy costs ~9 us of host time (measured on an H200, 100
inputs of 4 MiB: 0.95 ms, 9.5 us per input), while moving 8 MiB takes the device ~2 us. Here the
host builds two small tables (pieces, and the first chunk of each piece), uploads them with one
copy, and launches once, one block per chunk; the kernel is in templates/batched_copy.cu.
"""

from __future__ import annotations

import pathlib

import numpy

from ..cuda import launch as _launch
from ..cuda.kernel_family import KernelFamily
from ..cuda import memory as _memory
from ..cuda import stream as _stream
from . import transfer as _transfer

__all__ = ["concat_geometry", "copy_pieces", "MIN_PIECES"]

_TEMPLATE = pathlib.Path(__file__).parent / "templates" / "batched_copy.cu"
_WORDS = {16: "uint4", 8: "unsigned long long", 4: "unsigned int", 2: "unsigned short", 1: "unsigned char"}
_BLOCK = 256
_ITEMS = 4  # words per thread in a chunk: kBlock, kItems in the template
_CHUNK = _BLOCK * _ITEMS  # words per block
# Below this many pieces one copy per piece is cheaper. Measured on an H200 (scripts/perf/
# batched_copy_host.py, inputs of 64 B and of 1 MiB): the batched path costs ~66-72 us of host time
# whatever the count (of it, the table upload ~17 us), one copy per input ~12-15 us each; even at 4,
# batched first at 5.
MIN_PIECES = 5
# 32-bit word indices when every index the kernel forms stays below this (with a block of slack).
_INT32_LIMIT = 2**31 - _CHUNK

BATCHED_COPY = KernelFamily("cuarray_batched_copy", _TEMPLATE.read_text, kernels=(
    "cuarray_batched_copy<Word, Index>(const unsigned long long* pieces, const unsigned long long* first_chunk, "
    "const int n_pieces, Word* dst, const Index dst_pitch)",
))


def _kernel(word_bytes: int, wide: bool):
    expr = "cuarray_batched_copy<{}, {}>".format(_WORDS[word_bytes], "unsigned long long" if wide else "unsigned")
    return BATCHED_COPY.kernel(expr)


def plan(pieces, rows: int, dst_ptr: int, dst_pitch: int):
    """(word bytes, wide index?, table, number of chunks) for `pieces` = [(src, width, offset)] in bytes.

    The word is the widest of 16, 8, 4, 2, 1 bytes dividing every address, width, offset and the
    pitch. `table` is one uint64 array: 4 numbers per piece (src, words, width, offset; counts in
    words), then first_chunk[0..n] (first_chunk[n] = number of chunks). Pieces must not be empty.
    Plain Python: 1.8 us for 3 pieces, 28 us for 100 (NumPy's vector ops: 11 and 32 us).
    """
    bits = dst_ptr | dst_pitch | 16
    for src, width, offset in pieces:
        bits |= src | width | offset
    w = bits & -bits  # the lowest set bit of them all, at most 16
    desc = []
    first = [0]
    chunks = top = 0
    add, append = desc.extend, first.append
    for src, width, offset in pieces:
        row_words = width // w
        words = row_words * rows
        add((src, words, row_words, offset // w))
        chunks += (words + _CHUNK - 1) // _CHUNK
        append(chunks)
        if words > top:
            top = words
    table = numpy.array(desc + first, dtype=numpy.uint64)
    wide = max(top, rows * (dst_pitch // w)) >= _INT32_LIMIT
    return w, wide, table, chunks


def concat_geometry(shape, axis: int, itemsize: int, parts):
    """(rows, dst_pitch, pieces) that place C-contiguous inputs into a C-contiguous result of
    `shape` concatenated along `axis`; `parts` = [(src address, length along axis, start)]."""
    inner = itemsize
    for d in shape[axis + 1:]:
        inner *= d
    rows = 1
    for d in shape[:axis]:
        rows *= d
    return rows, shape[axis] * inner, [(ptr, n * inner, start * inner) for ptr, n, start in parts]


def copy_pieces(dst_ptr: int, dst_pitch: int, rows: int, pieces) -> None:
    """Copy every piece (src address, width bytes, offset bytes) of `rows` rows into the array at
    `dst_ptr`, whose rows are `dst_pitch` bytes apart, on the current stream, in one launch."""
    if not all(p[1] for p in pieces):
        pieces = [p for p in pieces if p[1]]
    if not pieces or rows == 0:
        return
    w, wide, table, chunks = plan(pieces, rows, dst_ptr, dst_pitch)
    if chunks > _launch.MAX_GRID_X:
        raise ValueError("batched copy of {} blocks exceeds the grid limit".format(chunks))
    kern = _kernel(w, wide)
    stream = _stream.get_current_stream()
    mem = _memory.alloc(table.nbytes)
    _transfer._h2d(mem, table, table.nbytes, stream)  # stream-ordered: the kernel sees it
    n = len(pieces)
    kern.launch(chunks, _BLOCK, mem.ptr, mem.ptr + 32 * n, n, dst_ptr, dst_pitch // w, stream=stream)
    # `mem` goes back to the pool when it is dropped here; the pool reuses it only after the work
    # queued on this stream, so the kernel still reads the tables.
