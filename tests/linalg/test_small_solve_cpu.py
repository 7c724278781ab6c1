"""The small-system kernel (linalg/templates/small_solve.cu) compiles with NVRTC for sm_90 for every
dtype and group width `solve`/`inv` can ask for, and the width follows n; no GPU needed."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray.linalg import _small_solve


def test_width_is_the_next_power_of_two():
    assert [_small_solve._width(n) for n in (1, 2, 3, 4, 5, 8, 9, 16)] == [1, 2, 4, 4, 8, 8, 16, 16]
    assert _small_solve.fits(16, 16) and not _small_solve.fits(17, 1) and not _small_solve.fits(0, 1)
    assert not _small_solve.fits(4, _small_solve.MAX_K + 1)


@pytest.mark.parametrize("char", list("fdFD"))
def test_kernel_compiles_for_sm90(char):
    from cuarray.cuda import compiler

    names = tuple(_small_solve.kernel_name(char, n) for n in (1, 2, 3, 8, 16))
    try:
        cubin, mapping = compiler.compile_cubin(_small_solve.source(), arch="sm_90", name_expressions=names)
    except Exception as e:  # noqa: BLE001
        if "nvrtc" in str(e).lower() and "not" in str(e).lower() and "found" in str(e).lower():
            pytest.skip("NVRTC unavailable: {}".format(e))
        raise
    assert cubin and set(mapping) == set(names)
    assert np.dtype(char).char == char
