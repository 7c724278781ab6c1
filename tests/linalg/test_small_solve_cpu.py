"""The small-system kernel (linalg/templates/small_solve.cu) compiles with NVRTC for sm_90 for every
dtype and group width `solve`/`inv` can ask for, and the width follows n; no GPU needed."""

from __future__ import annotations

import numpy as np
import pytest
from cubin_info import compile_sm90  # tests/ is on sys.path

from cuarray.linalg import _small_solve


def test_width_is_the_next_power_of_two():
    assert [_small_solve._width(n) for n in (1, 2, 3, 4, 5, 8, 9, 16)] == [1, 2, 4, 4, 8, 8, 16, 16]
    assert _small_solve.fits(16, 16) and not _small_solve.fits(17, 1) and not _small_solve.fits(0, 1)
    assert not _small_solve.fits(4, _small_solve.MAX_K + 1)


@pytest.mark.parametrize("char", list("fdFD"))
@pytest.mark.nvrtc_fast
def test_kernel_compiles_for_sm90(char):
    names = tuple(_small_solve.kernel_name(char, n) for n in (1, 2, 3, 8, 16))
    cubin, mapping = compile_sm90(_small_solve.source(), names)
    assert cubin and set(mapping) == set(names)
    assert np.dtype(char).char == char
