"""The long-k products kernel (linalg/templates/long_k_products.cu) compiles with NVRTC for sm_90 for
every dtype and a spread of C shapes `_long_k.fits` admits, with no spills; its bounds and unroll;
no GPU needed."""

from __future__ import annotations

import pytest
from cubin_info import FRAME_SIZE, compile_sm90, kernel_attributes  # tests/ is on sys.path

from cuarray.linalg import _long_k


def test_fits_and_unroll():
    assert _long_k.fits("d", 2, 2, _long_k.MIN_K) and not _long_k.fits("d", 2, 2, _long_k.MIN_K - 1)
    assert _long_k.fits("f", 8, 8, 1 << 20) and not _long_k.fits("f", 9, 1, 1 << 20)
    assert _long_k.fits("D", 4, 8, 1 << 20) and not _long_k.fits("D", 8, 8, 1 << 20)  # 1 KiB of sums
    assert not _long_k.fits("e", 2, 2, 1 << 20)
    assert _long_k.fits("D", 2, 2, 1 << 20, 4096, 4096 + 32) and not _long_k.fits("D", 2, 2, 1 << 20, 4096 + 8)
    assert not _long_k.fits("f", 2, 2, 1 << 20, 0, 2)
    # U rows in flight, (m + n) U loads at most ~32
    assert [_long_k._unroll(m, n) for m, n in ((1, 1), (2, 2), (4, 4), (8, 8), (1, 8))] == [4, 4, 4, 2, 3]


@pytest.mark.parametrize("char", list("fdFD"))
def test_kernel_compiles_for_sm90(char):
    shapes = [(1, 1), (2, 2), (1, 5), (3, 5), (8, 1), (4, 8)] + ([(8, 8)] if char != "D" else [])
    names = tuple(_long_k.kernel_name(char, m, n) for m, n in shapes)
    cubin, mapping = compile_sm90(_long_k.source(), names)
    assert cubin and set(mapping) == set(names)
    # the sums stay in registers: no kernel has a frame (local memory), the widest C included
    frames = {k: v.get(FRAME_SIZE, 0) for k, v in kernel_attributes(cubin).items() if "long_k_products" in k}
    assert len(frames) == len(names) and not any(frames.values()), frames
