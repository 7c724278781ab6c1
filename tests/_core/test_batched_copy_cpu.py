"""The batched copy (concatenate's one-launch path) on the host: every kernel instantiation compiles
with NVRTC for sm_90, and a NumPy model of the kernel, fed the tables `plan` builds, reproduces
numpy.concatenate. The model follows templates/batched_copy.cu line by line (block -> piece by the
same 32-way search, then words -> row, column), so a wrong table or a wrong search fails here."""

import numpy as np
import pytest

from cuarray._core import batched_copy as bc
from cuarray.cuda import compiler

rng = np.random.default_rng()


@pytest.mark.parametrize("wide", [False, True])
def test_every_instantiation_compiles(wide):
    exprs = ["cuarray_batched_copy<{}, {}>".format(t, "unsigned long long" if wide else "unsigned")
             for t in bc._WORDS.values()]
    cubin, mapping = compiler.compile_cubin(bc._TEMPLATE.read_text(), arch="sm_90", name_expressions=exprs)
    assert cubin and set(mapping) == set(exprs)


def find_piece(first_block, n, b):
    """The kernel's warp search, one lane per candidate."""
    lo, hi = 0, n
    while hi - lo > 1:
        step = (hi - lo + 31) // 32
        owns = [lo + lane * step < hi and first_block[lo + lane * step] <= b for lane in range(32)]
        assert owns[0]
        last = max(i for i, o in enumerate(owns) if o)
        lo += last * step
        hi = min(hi, lo + step)
    return lo


@pytest.mark.parametrize("n", [1, 2, 31, 32, 33, 100, 1024, 1025, 5000])
def test_find_piece_matches_searchsorted(n):
    blocks = rng.integers(1, 5, n)
    first = np.concatenate([[0], np.cumsum(blocks)])
    for b in list(rng.integers(0, first[-1], 200)) + [0, int(first[-1]) - 1] + list(first[:-1]):
        assert find_piece(first, n, int(b)) == np.searchsorted(first, b, side="right") - 1


def run_model(heap, table, chunks, n, w, dst, dst_pitch):
    """Execute the kernel on `heap` (uint8; addresses are offsets into it): block b copies chunk b."""
    words = heap.view(np.uint8).reshape(-1, w)
    desc = table[:4 * n].reshape(n, 4).astype(np.int64)
    first = table[4 * n:].astype(np.int64)
    assert first[n] == chunks
    for b in range(chunks):
        p = find_piece(first, n, b)
        src, count, width, offset = desc[p]
        wi = (b - first[p]) * bc._CHUNK + np.arange(bc._CHUNK)
        wi = wi[wi < count]
        assert wi.size  # no block without work
        row = wi // width
        words[dst // w + row * dst_pitch + offset + (wi - row * width)] = words[src // w + wi]


DTYPES = [np.int8, np.uint16, np.float32, np.int64, np.complex128, np.bool_]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("ndim", [1, 2, 3])
def test_model_reproduces_concatenate(dtype, ndim):
    dt = np.dtype(dtype)
    for _ in range(4):
        axis = int(rng.integers(0, ndim))
        base = [int(s) for s in rng.integers(1, 6, ndim)]
        k = int(rng.integers(bc.MIN_PIECES, 9))
        inputs = []
        for _ in range(k):
            shape = list(base)
            shape[axis] = int(rng.integers(0, 7))
            inputs.append((rng.standard_normal(shape) * 50).astype(dt))
        expected = np.concatenate(inputs, axis=axis)
        # Lay the inputs and the result out in one heap, 512-byte aligned like the memory pool,
        # sometimes at an odd offset to exercise the narrow words.
        skew = int(rng.choice([0, 1, 2, 8]))
        addrs, pos = [], 0
        for a in inputs + [expected]:
            pos = (pos + 511) // 512 * 512 + skew
            addrs.append(pos)
            pos += a.nbytes
        heap = np.zeros(pos + 16, np.uint8)
        for a, at in zip(inputs, addrs):
            heap[at:at + a.nbytes] = a.reshape(-1).view(np.uint8)
        starts = np.concatenate([[0], np.cumsum([a.shape[axis] for a in inputs])])[:-1]
        parts = [(at, a.shape[axis], int(s)) for a, at, s in zip(inputs, addrs, starts) if a.size]
        rows, pitch, pieces = bc.concat_geometry(expected.shape, axis, dt.itemsize, parts)
        pieces = [p for p in pieces if p[1]]
        dst = addrs[-1]
        if not pieces:
            continue
        w, wide, table, chunks = bc.plan(pieces, rows, dst, pitch)
        assert not wide
        assert all(x % w == 0 for p in pieces for x in p) and dst % w == 0 and pitch % w == 0
        run_model(heap, table, chunks, len(pieces), w, dst, pitch // w)
        got = heap[dst:dst + expected.nbytes].view(dt).reshape(expected.shape)
        np.testing.assert_array_equal(got, expected)


def test_word_size_and_index_width():
    assert bc.plan([(512, 4096, 1 << 20)], 1, 0, 1 << 21)[0] == 16
    assert bc.plan([(512, 12, 0)], 1, 0, 12)[0] == 4
    assert bc.plan([(512, 6, 8)], 1, 0, 16)[0] == 2
    assert bc.plan([(513, 16, 0)], 1, 0, 16)[0] == 1
    assert bc.plan([(512, 16, 0)], 3, 0, 17)[0] == 1  # the pitch counts too
    # 2**31 words of one byte need 64-bit indices; 2**31 - 2048 do not.
    assert bc.plan([(0, 2**31 + 1, 0)], 1, 0, 2**31 + 1)[1]
    assert not bc.plan([(0, 2**31 - 2048, 0)], 1, 0, 2**31 - 2048)[1]
    # Several rows: the destination extent counts too.
    assert bc.plan([(0, 512, 0)], 2**24, 0, 2**12)[1]
