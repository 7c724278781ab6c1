"""The interpolators' evaluation kernels (templates/interpolate.cuh through the elementwise engine)
compile for sm_90 with NVRTC, no GPU: every breakpoint/query/value dtype pair they are built for."""

import numpy as np
import pytest

from cuarray.scipy.interpolate import _kernels
from cubin_info import compile_sm90  # tests/ is on sys.path

F4, F8, I8 = np.dtype("f4"), np.dtype("f8"), np.dtype("i8")


@pytest.mark.parametrize("q_dt", [F4, F8])
@pytest.mark.parametrize("out_dt", [F4, F8])
def test_ppoly_kernel_compiles(q_dt, out_dt):
    name, src = _kernels._ppoly_def(F8, q_dt, out_dt).source("flat", 1, np.int32)
    _, mapping = compile_sm90(src, [name])
    assert set(mapping) == {name}
    assert "cuarray_interpolate::ppoly(" in src


@pytest.mark.parametrize("x_dt", [F4, F8, I8])
@pytest.mark.parametrize("y_dt", [F4, F8])
def test_linear_kernel_compiles(x_dt, y_dt):
    for index in (np.int32, np.int64):
        name, src = _kernels._linear_def(x_dt, y_dt, F8, y_dt).source("flat", 1, index)
        _, mapping = compile_sm90(src, [name])
        assert set(mapping) == {name}


@pytest.mark.nvrtc_fast
@pytest.mark.parametrize("ndim,width", [(1, 4), (1, 32), (2, 4), (3, 6), (5, 2)])
def test_ndbspline_kernel_compiles(ndim, width):
    name, src = _kernels._nd_def(ndim, width, F8, F8).source("flat", 1, np.int32)
    _, mapping = compile_sm90(src, [name])
    assert set(mapping) == {name}


@pytest.mark.parametrize("width", [2, 8])
def test_design_entry_kernel_compiles(width):
    name, src = _kernels._entry_def(width, F8).source("flat", 1, np.int64)
    _, mapping = compile_sm90(src, [name])
    assert set(mapping) == {name}


def test_basis_width():
    assert [_kernels.basis_width(k) for k in (0, 1, 3, 5, 7, 31)] == [2, 2, 4, 6, 8, 32]
    with pytest.raises(NotImplementedError):
        _kernels.basis_width(32)
