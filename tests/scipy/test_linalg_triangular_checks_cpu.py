"""solve_triangular's fused check_finite=True tests (cuarray/scipy/linalg/_triangular_checks.py)
without a GPU: the planner's descriptions cover exactly each operand's elements in every layout
(contiguous, transposed, negative and gapped strides, broadcast, stacks), `reference` (the kernel's
computation in NumPy from the same descriptions) finds what NumPy finds, the grid at boundary
sizes, the template compiling for sm_90, and on the fake device one check launch per call where
there were three reductions."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from cuarray.cuda import device as _device
from cuarray.cuda.libs import cublas_trsm
from cuarray.scipy.linalg import _triangular, _triangular_checks as C
from cuarray.testing.fake_device import host_modules

H100 = 132


def _offsets(desc) -> list:
    count, rows, cols, s0, s1, s2 = desc
    return sorted(m * s0 + r * s1 + c * s2 for m in range(count) for r in range(rows) for c in range(cols))


def _element_offsets(x: np.ndarray) -> list:
    """Byte offsets from x's first element of its distinct elements (broadcast ones once)."""
    idx = np.indices(x.shape).reshape(x.ndim, -1).T
    return sorted({int(np.dot(i, x.strides)) for i in idx})


def _layouts(a):
    """Views of `a`'s values (n x n or a stack) in the layouts solve_triangular meets."""
    n = a.shape[-1]
    t = np.swapaxes
    return {
        "C": a,
        "F": t(np.ascontiguousarray(t(a, -1, -2)), -1, -2),
        "neg": np.ascontiguousarray(a[..., ::-1, ::-1])[..., ::-1, ::-1],
        "strided": np.repeat(np.repeat(a, 2, axis=-1), 2, axis=-2)[..., ::2, ::2],
        "col-slice": np.concatenate([a, a], axis=-1)[..., :n],
        "F-slice": t(np.concatenate([t(a, -1, -2)] * 2, axis=-1), -1, -2)[..., :n, :],
    }


SHAPES = [(5, 5), (1, 1), (3, 4, 4), (2, 3, 4, 4), (1, 3, 4, 4)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("layout", sorted(_layouts(np.zeros((2, 2)))))
def test_descriptions_cover_each_element_once(shape, layout):
    x = _layouts(np.arange(np.prod(shape), dtype=np.float64).reshape(shape))[layout]
    d = C.operand(x.shape, x.strides)
    if d is None:  # more than three dimensions left: checked on a copy
        assert x.ndim >= 4
        return
    assert _offsets(d) == _element_offsets(x)
    n = x.shape[-1]
    diag = C.operand(x.shape[:-2] + (n,), x.strides[:-2] + (x.strides[-2] + x.strides[-1],))
    if diag is not None:
        want = _element_offsets(np.diagonal(x, 0, -2, -1))
        assert _offsets(diag) == want


def test_broadcast_and_vector_operands():
    a = np.arange(16.0).reshape(4, 4)
    stack = np.broadcast_to(a, (3, 4, 4))  # the same matrix three times: checked once
    assert C.operand(stack.shape, stack.strides) == (1, 1, 16, 0, 0, 8)
    v = np.arange(8.0)[::-2]
    assert C.operand(v.shape, v.strides) == (1, 1, 4, 0, 0, -16)
    assert C.operand((0, 4), (32, 8)) == C.NONE and C.items(C.NONE) == 0
    # four dimensions that do not merge: no description (solve_triangular checks a C copy)
    odd = np.zeros((4, 6, 5, 6))[::2, ::2, ::2, :4]
    assert C.operand(odd.shape, odd.strides) is None


def test_grid_at_boundary_sizes():
    t, b = np.zeros((1024, 1024)), np.zeros((1024, 64))
    grid, da, db, dd = C.plan(t.shape, t.strides, b.shape, b.strides, True, True, True, H100)
    assert (da, db, dd) == ((1, 1, 1 << 20, 0, 0, 8), (1, 1, 1 << 16, 0, 0, 8), (1, 1, 1024, 0, 0, 8200))
    assert C.items(da) == 1024 and grid == C.BLOCKS_PER_SM * H100  # every SM busy on a large a
    s = np.zeros((8, 8))
    assert C.plan(s.shape, s.strides, (8,), (8,), True, True, True, H100)[0] == 1
    assert C.plan(s.shape, s.strides, (8,), (8,), False, False, False, H100)[0] == 0  # nothing to check
    g, da, db, dd = C.plan(s.shape, s.strides, (8,), (8,), True, False, False, H100)
    assert g == 1 and db == dd == C.NONE
    # exactly CHUNK elements is one item, one more is two
    assert C.items((1, 1, C.CHUNK, 0, 0, 8)) == 1 and C.items((1, 1, C.CHUNK + 1, 0, 0, 8)) == 2
    assert C.items((3, 5, 7, 0, 0, 8)) == 15


@pytest.mark.parametrize("layout", sorted(_layouts(np.zeros((2, 2)))))
@pytest.mark.parametrize("shape", [(6, 6), (3, 6, 6), (2, 3, 6, 6)], ids=str)
def test_reference_finds_what_numpy_finds(layout, shape):
    rng = np.random.default_rng([len(layout), len(shape)])
    base = rng.normal(size=shape) + 10 * np.eye(shape[-1])
    b = rng.normal(size=shape[:-1] + (2,))
    for trial in range(12):
        a = base.copy()
        bb = b.copy()
        where = tuple(rng.integers(0, d) for d in shape)
        kind = trial % 4
        if kind == 1:
            a[where] = np.nan if trial % 8 == 1 else -np.inf
        elif kind == 2:
            i = where[-1]
            a[where[:-2] + (i, i)] = 0
        elif kind == 3:
            bb[tuple(rng.integers(0, d) for d in bb.shape)] = np.inf
        x = _layouts(a)[layout]
        p = C.plan(x.shape, x.strides, bb.shape, bb.strides, True, True, True, H100)
        if p[1] is None or p[3] is None:
            x = np.ascontiguousarray(x)
            p = C.plan(x.shape, x.strides, bb.shape, bb.strides, True, True, True, H100)
        want = ((0 if np.isfinite(x).all() else C.NOT_FINITE_A) | (0 if np.isfinite(bb).all() else C.NOT_FINITE_B)
                | (C.ZERO_DIAGONAL if (np.diagonal(x, 0, -2, -1) == 0).any() else 0))
        assert C.reference(x, bb, *p) == want, (layout, shape, trial)


def test_checks_kernel_compiles_for_sm90():
    from cuarray.cuda import compiler

    pairs = [("d", "d"), ("f", "F"), ("D", "f"), ("F", "D"), ("?", "b"), ("q", "d"), ("B", "H")]
    names = tuple(C.CHECKS.name_expression(C.kernel_name(np.dtype(x), np.dtype(y))) for x, y in pairs)
    try:
        cubin, mapping = compiler.compile_cubin(C.CHECKS.source(), arch="sm_90", name_expressions=names,
                                                name=C.CHECKS.name)
    except Exception as e:  # noqa: BLE001
        if "nvrtc" in str(e).lower() and "not" in str(e).lower():
            pytest.skip("NVRTC unavailable: {}".format(e))
        raise
    assert cubin and set(mapping) == set(names)


class _NoTrsm:
    SIDE_LEFT, FILL_LOWER, FILL_UPPER, DIAG_NON_UNIT, DIAG_UNIT = 0, 0, 1, 0, 1

    def __init__(self):
        self.calls = []

    def trsm(self, *args):
        self.calls.append(args)


class _Read:
    def wait(self):
        return 0


def test_one_check_launch_on_the_fake_device(recorded_launches, monkeypatch):
    """solve_triangular(t, b) with the check: b's column-major copy and ONE check kernel (three
    reductions before: all-finite a, all-finite b, nonzero diagonal), then trsm; without the
    check, the copy and the zero-diagonal record."""
    import cuarray

    monkeypatch.setitem(_device._SM_COUNT, _device.get_device_id(), H100)
    trsm = _NoTrsm()
    reads = []
    class Channel:  # the device-error channel's buffer, in the recorder's memory (no memset)
        buf = cuarray.empty(4, np.uint64)
        error_buffer = staticmethod(lambda: Channel.buf)
        after_launch = staticmethod(lambda: None)

    copies = host_modules({_triangular: {"_trsm": trsm, "_errors": Channel},
                           C: {"_read_later": lambda partial: reads.append(partial.size) or _Read()}})
    tri = copies[_triangular]
    t, b = cuarray.empty((64, 64), np.float64), cuarray.empty((64, 8), np.float64)
    tri.solve_triangular(t, b)
    kernels = [call[2] for call in recorded_launches]
    assert len(kernels) == 2, kernels
    assert kernels[1] == C.CHECKS.name_expression("checks<double, double>")
    assert len(trsm.calls) == 1 and reads == [4]  # 4096 elements of t: 4 items, 4 blocks
    del recorded_launches[:]
    tri.solve_triangular(t, b, check_finite=False)
    assert len(recorded_launches) == 2 and reads == [4]
    del recorded_launches[:]
    for unit, kw in itertools.product([False, True], [{}, {"lower": True}, {"trans": 2}]):
        tri.solve_triangular(cuarray.empty((3, 8, 8), np.complex64), cuarray.empty((8,), np.complex64),
                             unit_diagonal=unit, **kw)
        names = [call[2] for call in recorded_launches]
        assert names.count(C.CHECKS.name_expression("checks<cuarray::complex<float>, cuarray::complex<float>>")) == 1
        del recorded_launches[:]


def test_pending_wait_ors_the_blocks_bytes():
    """`Pending.wait`: the event waited for, then the OR of the grid's bytes in pinned memory."""
    waited = []

    class Event:
        def synchronize(self):
            waited.append(1)

    class Host:
        def __init__(self, values):
            self.buf = np.array(values, np.uint8)
            self.ptr = self.buf.ctypes.data

    for values, bits in [([0] * 528, 0), ([0, 4, 0, 1, 4], 5), ([2], 2), ([0] * 300 + [3, 6], 7)]:
        assert C.Pending(Host(values), Event(), len(values)).wait() == bits
    assert len(waited) == 4


def test_reader_reuses_its_block_and_waits_for_an_abandoned_copy():
    """Each thread's pinned block and event are reused; a call that left before its wait (an
    exception) may have a copy in flight: the next reuse waits for the event first."""
    log = []

    class Event:
        def __init__(self, disable_timing=False):
            self.done = True

        def synchronize(self):
            log.append("sync")
            self.done = True

    class Block:
        def __init__(self, size):
            self.size = size
            log.append(("alloc", size))

    class Pinned:
        alloc_pinned_memory = Block

    r = host_modules({C: {"_pinned": Pinned, "_stream": type("Stream", (), {"Event": Event})}})[C]._Reader()
    first = r.get(0, 528)
    assert log == [("alloc", C.CHUNK)]
    assert r.get(0, 528) is first and log == [("alloc", C.CHUNK)]  # reused, nothing waited for
    first[1].done = False  # recorded, never waited for
    assert r.get(0, 100) is first and log[-1] == "sync"
    bigger = r.get(0, 4096)
    assert bigger is not first and log[-1] == ("alloc", 4096)
    assert r.get(1, 8) is not bigger  # per device


def test_block_and_chunk_are_the_templates():
    import re

    src = C.CHECKS.source()
    block = int(re.search(r"constexpr int BLOCK = (\d+);", src).group(1))
    per_thread = int(re.search(r"constexpr int PER_THREAD = (\d+);", src).group(1))
    assert (C.BLOCK, C.CHUNK) == (block, block * per_thread)
