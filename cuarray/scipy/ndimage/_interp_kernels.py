"""Compiling and launching templates/interpolation.cu (with interp.cuh prepended): `geometric`
(map_coordinates, affine_transform, zoom/shift: one output point per thread) and `spline_filter`
(the B-spline prefilter along one axis, in place on float64: a warp per line staged in shared
memory for lines up to 6144 elements along the last axis or when lines are few, else a thread per
line, coalesced)."""

from __future__ import annotations

import pathlib

import numpy

from ..._core import dtypes as _dtypes
from ..._core.copying import astype
from ..._core.ndarray import ndarray
from ..._core.transfer import from_host
from ...cuda import compiler as _compiler
from ...cuda import launch as _launch
from . import _support as _s

__all__ = ["KINDS", "MODES", "mode_code", "source", "geometric_name", "geometric", "spline_filter",
           "ZS_ZOOM", "ZS_SHIFT", "ZS_GRID", "MAX_NDIM"]

_DIR = pathlib.Path(__file__).parent / "templates"
KINDS = {"coords": 0, "affine": 1, "zoom_shift": 2}
ZS_ZOOM, ZS_SHIFT, ZS_GRID = 1, 2, 4
MAX_NDIM = 16
# SciPy's interpolation codes (_ni_support._extend_mode_to_code without is_filter).
MODES = {"nearest": 0, "wrap": 1, "reflect": 2, "grid-mirror": 2, "mirror": 3, "constant": 4, "grid-wrap": 5,
         "grid-constant": 6}
SPLINE_FILTER = "cuarray_ndimage::spline_filter"
SPLINE_FILTER_WARP = "cuarray_ndimage::spline_filter_warp"
_BLOCK = 128
_LINES_FILL = 65536  # lines a thread each, coalesced, keep the GPU busy from about this many
_I8 = numpy.dtype(numpy.int64)
_F8 = numpy.dtype(numpy.float64)
_kernels: dict = {}


def mode_code(mode) -> int:
    code = MODES.get(mode) if isinstance(mode, str) else None
    if code is None:
        raise RuntimeError("boundary mode not supported")
    return code


def source() -> str:
    return ("#define CUARRAY_DEVICE __device__\n" + (_DIR / "interp.cuh").read_text()
            + (_DIR / "interpolation.cu").read_text())


def geometric_name(in_dt, out_dt, kind: str, ndim: int, order: int) -> str:
    nd = ndim if ndim <= 3 else 0  # 1..3 unrolled; any other ndim through the generic loops
    return "cuarray_ndimage::geometric<{}, {}, {}, {}, {}>".format(
        _dtypes.ctype(in_dt), _dtypes.ctype(out_dt), KINDS[kind], nd, order)


def _kernel(name: str):
    k = _kernels.get(name)
    if k is None:
        mod = _compiler.compile_module(source(), name_expressions=(name,), name="cuarray_ndimage_interp")
        k = _kernels[name] = mod.get_function(name).kernel
    return k


def geometric(x: ndarray, out_dt, kind: str, oshape, params, order: int, mode: int, cval, npad: int,
              flags: int = 0) -> ndarray:
    """Interpolate x (order 0..5, SciPy mode code) at the coordinates `kind` gives for each point of
    a fresh C-contiguous output of `oshape`. params: a float64 device array (coordinates, indim x
    points) or host numbers (matrix + offset, zoom + shift)."""
    out = ndarray(tuple(oshape), out_dt)
    total = out.size
    if total == 0:
        return out
    if x.ndim > MAX_NDIM or len(oshape) > MAX_NDIM:
        raise NotImplementedError("interpolation of more than {} dimensions".format(MAX_NDIM))
    if not x._c:
        x = astype(x, x._dtype, order="C", copy=True)
    if isinstance(params, ndarray):
        p = astype(params, _F8, order="C", copy=False)
    else:
        p = from_host(numpy.ascontiguousarray(params, dtype=_F8).reshape(-1))
    ishape = from_host(numpy.asarray(x.shape, _I8))
    osh = from_host(numpy.asarray(oshape, _I8))
    k = _kernel(geometric_name(x._dtype, out_dt, kind, x.ndim, order))
    _launch.launch(k, _launch.grid_one_pass(total, _BLOCK), _BLOCK,
                   (x.data.ptr, out.data.ptr, ishape.data.ptr, numpy.int32(x.ndim), osh.data.ptr,
                    numpy.int32(len(oshape)), p.data.ptr, numpy.int64(total), numpy.int32(mode),
                    numpy.float64(cval), numpy.float64(npad), numpy.int32(flags)))
    return out


def spline_filter(data: ndarray, axis: int, order: int, mode: int) -> None:
    """B-spline coefficients of `order` along `axis` of the C-contiguous float64 `data`, in place."""
    n = data.shape[axis]
    if data.size == 0 or n <= 1:
        return
    inner = 1
    for s in data.shape[axis + 1:]:
        inner *= s
    lines = data.size // n
    staged = _s.warp_per_line(lines, n * 8) if inner == 1 or lines < _LINES_FILL else None
    if staged is not None:
        grid, block, shared = staged
        _launch.launch(_kernel(SPLINE_FILTER_WARP), grid, block,
                       (data.data.ptr, numpy.int64(n), numpy.int64(inner), numpy.int64(lines), numpy.int32(order),
                        numpy.int32(mode)), shared_mem=shared)
        return
    k = _kernel(SPLINE_FILTER)
    _launch.launch(k, _launch.grid_one_pass(lines, _BLOCK), _BLOCK,
                   (data.data.ptr, numpy.int64(n), numpy.int64(inner), numpy.int64(lines), numpy.int32(order),
                    numpy.int32(mode)))
