"""scipy.ndimage's interpolation on the GPU: `spline_filter1d`/`spline_filter` (the B-spline
prefilter, one thread per line along each axis), `map_coordinates`, `affine_transform`, `shift`,
`zoom` and `rotate` (one thread per output point, orders 0-5, every mode, `grid_mode`,
`prefilter`; zoom, shift and a diagonal or 1-D affine matrix through per-axis tables,
templates/zoom_shift.cuh, and for orders >= 2 of 2-D and up one pass per axis with float64
intermediates of up to 4x the output's bytes). The kernels' arithmetic (templates/interp.cuh) is SciPy's, checked on
the host. `geometric_transform` (_geometric.py) computes its coordinates and calls `map_coordinates`.

Differences from SciPy: `coordinates`, the data of map_coordinates, is a cuarray array or a Python
sequence (a NumPy array raises TypeError, docs/scipy.md "Host inputs"); `rotate` of an array of more than
two dimensions is one N-D affine transform (SciPy loops over planes; the results agree to rounding:
the prefilter along the other axes is undone exactly by interpolating at their integer
coordinates).
"""

from __future__ import annotations

import math
import warnings

import numpy

from ..._core.copying import astype, copyto_unchecked
from ..._core.ndarray import ndarray
from ..._padding.padding import pad as _pad
from . import _interp_kernels as _k
from . import _support as _s

__all__ = ["spline_filter1d", "spline_filter", "map_coordinates", "affine_transform", "shift", "zoom", "rotate"]

_F8 = numpy.dtype(numpy.float64)
_F4 = numpy.dtype(numpy.float32)


def _by_parts(x, out_dt, oshape, run):
    """A complex result from the real and imaginary parts, each run(part, real dtype, numpy.real
    or numpy.imag) (SciPy does the same)."""
    rdt = numpy.dtype(out_dt.char.lower())
    out = ndarray(tuple(oshape), out_dt)
    copyto_unchecked(out.real, run(x.real, rdt, numpy.real))
    copyto_unchecked(out.imag, run(x.imag, rdt, numpy.imag))
    return out


def _complex(fn, x, out_dt, oshape, cval, **kw):
    return _by_parts(x, out_dt, oshape, lambda part, rdt, pick: fn(part, output=rdt, cval=pick(cval), **kw))


def spline_filter1d(input, order=3, axis=-1, output=numpy.float64, mode="mirror"):
    """See `scipy.ndimage.spline_filter1d`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.spline_filter1d(cuarray.array([1., 2., 4., 8.]))
    array([ 0.4,  2.2,  2.8, 10.6])
    """
    if order < 0 or order > 5:
        raise RuntimeError("spline order not supported")
    x = _s.as_input(input, "spline_filter1d")
    complex_out = x.dtype.kind == "c"
    dt = _s.output_dtype(output, x, complex_output=complex_out)
    if complex_out:
        return _s.finish(_by_parts(x, dt, x.shape, lambda part, rdt, _: spline_filter1d(part, order, axis, rdt, mode)),
                         output)
    if order in (0, 1):
        return _s.finish(astype(x, dt, copy=True), output)
    code = _k.mode_code(mode)
    axis = _s.normalize_axis(axis, x.ndim)
    data = _filtered_along(x, [axis], order, code)
    return _s.finish(data if dt == _F8 else astype(data, dt), output)


def _filtered_along(x, axes, order: int, code: int, method: str = _k.PREFILTER_DEFAULT, coef=_F8):
    """A fresh C-contiguous array of x's B-spline coefficients along `axes` in turn, float64 (or
    float32 when `coef` asks and every axis takes the warp kernel). The first pass reads a
    C-contiguous float32 or float64 x itself (no float64 copy first: a 2048^2 float32 image's copy
    is 48 MB of traffic and a launch). method: _interp_kernels.PREFILTER_METHODS."""
    axes = list(axes)
    dt = _F8
    if numpy.dtype(coef) == _F4 and all(_k.spline_staged(x.shape, a) for a in axes):
        dt = _F4
    if x.flags.c_contiguous and x.dtype in (_F4, _F8):
        data, src = ndarray(x.shape, dt), x
    else:
        data, src = astype(x, dt, order="C", copy=True), None
    for axis in axes:
        if src is None and _k.spline_in_place_copies(data.shape, axis, order, method, dt):
            src, data = data, ndarray(x.shape, dt)  # into a fresh array: the pass cannot run in place
        _k.spline_filter(data, axis, order, code, src=src, method=method)
        src = None
    if src is not None:  # no axis
        copyto_unchecked(data, src)
    return data


def spline_filter(input, order=3, output=numpy.float64, mode="mirror"):
    """See `scipy.ndimage.spline_filter`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.spline_filter(cuarray.array([[1., 2., 3.], [4., 6., 9.], [2., 5., 7.]]))
    array([[-2.3125, -0.625 , -2.6875],
           [ 6.125 ,  7.25  , 15.875 ],
           [-2.6875,  4.625 ,  3.6875]])
    """
    if order < 2 or order > 5:
        raise RuntimeError("spline order not supported")
    x = _s.as_input(input, "spline_filter")
    complex_out = x.dtype.kind == "c"
    dt = _s.output_dtype(output, x, complex_output=complex_out)
    if complex_out:
        return _s.finish(_by_parts(x, dt, x.shape, lambda part, rdt, _: spline_filter(part, order, rdt, mode)), output)
    code = _k.mode_code(mode)
    if x.ndim == 0:
        return _s.finish(astype(x, dt, copy=True), output)
    if dt == _F8:  # one float64 buffer filtered in place along every axis
        return _s.finish(_filtered_along(x, range(x.ndim), order, code), output)
    cur = x  # SciPy keeps each axis' result in the output dtype
    for axis in range(x.ndim):
        cur = spline_filter1d(cur, order, axis, dt, mode)
    return _s.finish(cur, output)


def _prefiltered(x, order, mode, cval, prefilter, method: str = _k.PREFILTER_DEFAULT, coef=_F8):
    """(coefficients, npad): SciPy's _prepad_for_spline_filter then spline_filter (float64), when
    asked. method: _interp_kernels.PREFILTER_METHODS; coef float32: float32 coefficients for a
    float32 x (as CuPy keeps them; SciPy's are float64): the perf script and the tests choose."""
    if not (prefilter and order > 1):
        return x, 0
    npad = 0
    if mode in ("nearest", "grid-constant"):
        npad = 12
        if mode == "grid-constant":
            x = _pad(x, npad, mode="constant", constant_values=cval)
        else:
            x = _pad(x, npad, mode="edge")
    code = _k.mode_code(mode)
    if x.ndim == 0:
        return astype(x, _F8, copy=True), npad
    coef = coef if x.dtype == _F4 else _F8
    return _filtered_along(x, range(x.ndim), order, code, method, coef), npad


def map_coordinates(input, coordinates, output=None, order=3, mode="constant", cval=0.0, prefilter=True):
    """See `scipy.ndimage.map_coordinates`. `coordinates` is a cuarray array.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> a = cuarray.arange(12.).reshape(4, 3)
    >>> ndimage.map_coordinates(a, cuarray.array([[0.5, 2.], [0.5, 1.]]), order=1)
    array([2., 7.])
    """
    if order < 0 or order > 5:
        raise RuntimeError("spline order not supported")
    x = _s.as_input(input, "map_coordinates")
    coords = _s.as_array(coordinates, "map_coordinates")
    if coords.dtype.kind == "c":
        raise TypeError("Complex type not supported")
    oshape = coords.shape[1:]
    if x.ndim < 1 or len(oshape) < 1:
        raise RuntimeError("input and output rank must be > 0")
    if coords.shape[0] != x.ndim:
        raise RuntimeError("invalid shape for coordinate array")
    complex_out = x.dtype.kind == "c"
    dt = _s.output_dtype(output, x, complex_output=complex_out, shape=oshape)
    if complex_out:
        res = _complex(map_coordinates, x, dt, oshape, cval, coordinates=coords, order=order, mode=mode,
                       prefilter=prefilter)
        return _s.finish(res, output)
    code = _k.mode_code(mode)
    filtered, npad = _prefiltered(x, order, mode, cval, prefilter)
    res = _k.geometric(filtered, dt, "coords", oshape, coords.reshape((x.ndim, -1)), order, code, cval, npad)
    return _s.finish(res, output)


def _texture_arguments(x, matrix, output, output_shape, order, mode):
    """cupyx's `texture_memory=True` checks, in its order and with its ValueErrors: (the affine
    matrix's first ndim rows, the output shape, the interpolation order: 1 for any order > 0 (the
    texture unit's linear filtering), 0 else)."""
    if x.ndim not in (2, 3):
        raise ValueError("Texture memory affine transformation is defined only for 2D and 3D arrays without "
                         "channel dimension.")
    if x.dtype != _F4:
        raise ValueError("Texture memory affine transformation is available only for float32 data type "
                         "(not {})".format(x.dtype))
    matrix = _s.host_param(matrix, numpy.float64)
    if matrix.shape != (x.ndim + 1, x.ndim + 1):
        raise ValueError("Matrix must be have shape (ndim + 1, ndim + 1)")
    if mode not in ("constant", "nearest"):
        raise ValueError("Unsupported address mode {} (supported: constant, nearest)".format(mode))
    output_shape = x.shape if output_shape is None else tuple(output_shape)
    if isinstance(output, (type, numpy.dtype)):
        if numpy.dtype(output) != _F4:
            raise ValueError("Texture memory affine transformation is available only for float32 data type "
                             "(not {})".format(numpy.dtype(output)))
    elif _s.is_array(output):
        if output.shape != output_shape:
            raise ValueError("Output shapes do not match")
    elif output is not None:
        raise ValueError("Output must be None, cuarray.ndarray or a dtype")
    # the bottom row of the homogeneous matrix is not read (cupyx's texture kernel ignores it)
    return matrix[:x.ndim], output_shape, (1 if order > 0 else 0)


def affine_transform(input, matrix, offset=0.0, output_shape=None, output=None, order=3, mode="constant", cval=0.0,
                     prefilter=True, *, texture_memory=False, float64_coords=False):
    """See `scipy.ndimage.affine_transform`. `matrix` and `offset` may be host or cuarray arrays.

    cupyx's keywords are taken. `float64_coords`: the coordinates are always computed in float64,
    as SciPy computes them (cupyx computes them in float32 for float32 data unless it is True).
    `texture_memory=True` takes cupyx's arguments and raises its ValueErrors (a 2-D or 3-D float32
    input, an (ndim + 1, ndim + 1) homogeneous matrix whose last row is not read, `offset` ignored,
    mode 'constant' or 'nearest', a float32 output) and interpolates as cupyx's texture fetch does,
    linearly for any order > 0 and by nearest neighbour for order 0, through the ordinary kernels:
    SciPy's values for that order, within cupyx's tolerance of its texture unit (9-bit
    interpolation weights).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> a = cuarray.array([1., 2., 3., 4.])
    >>> ndimage.affine_transform(a, cuarray.array([1.]), offset=1., order=1)
    array([2., 3., 4., 0.])
    """
    if texture_memory:
        x = _s.as_input(input, "affine_transform")
        matrix, output_shape, order = _texture_arguments(x, matrix, output, output_shape, order, mode)
        output = _F4 if output is None else output
        offset, prefilter = 0.0, False
    if order < 0 or order > 5:
        raise RuntimeError("spline order not supported")
    x = _s.as_input(input, "affine_transform")
    if output_shape is None:
        output_shape = output.shape if _s.is_array(output) else x.shape
    output_shape = tuple(int(s) for s in output_shape)
    if x.ndim < 1 or len(output_shape) < 1:
        raise RuntimeError("input and output rank must be > 0")
    complex_out = x.dtype.kind == "c"
    dt = _s.output_dtype(output, x, complex_output=complex_out, shape=output_shape)
    if complex_out:
        res = _complex(affine_transform, x, dt, output_shape, cval, matrix=matrix, offset=offset,
                       output_shape=output_shape, order=order, mode=mode, prefilter=prefilter)
        return _s.finish(res, output)
    code = _k.mode_code(mode)
    matrix = _s.host_param(matrix, numpy.float64)
    if matrix.ndim not in (1, 2) or matrix.shape[0] < 1:
        raise RuntimeError("no proper affine matrix provided")
    if (matrix.ndim == 2 and matrix.shape[1] == x.ndim + 1 and matrix.shape[0] in (x.ndim, x.ndim + 1)):
        if matrix.shape[0] == x.ndim + 1:
            exptd = [0] * x.ndim + [1]
            if not numpy.all(matrix[x.ndim] == exptd):
                raise ValueError("Expected homogeneous transformation matrix with shape {} for image shape {}, "
                                 "but bottom row was not equal to {}".format(matrix.shape, x.shape, exptd))
        offset = matrix[:x.ndim, x.ndim]
        matrix = matrix[:x.ndim, :x.ndim]
    if matrix.shape[0] != x.ndim:
        raise RuntimeError("affine matrix has wrong number of rows")
    if matrix.ndim == 2 and matrix.shape[1] != len(output_shape):
        raise RuntimeError("affine matrix has wrong number of columns")
    if matrix.ndim == 1 and len(output_shape) != x.ndim:  # (SciPy 1.17 crashes)
        raise RuntimeError("output rank must equal the input rank for a 1-D matrix")
    offset = numpy.asarray(_s.normalize_sequence(_s.host_param(offset) if not numpy.isscalar(offset) else offset,
                                                 x.ndim), dtype=numpy.float64)
    if offset.ndim != 1 or offset.shape[0] < 1:
        raise RuntimeError("no proper offset provided")
    filtered, npad = _prefiltered(x, order, mode, cval, prefilter)
    if matrix.ndim == 1:  # SciPy's zoom_shift: (o + offset / m) * m
        with numpy.errstate(divide="ignore", invalid="ignore"):
            res = _k.zoom_shift(filtered, dt, output_shape, matrix, offset / matrix, _k.ZS_ZOOM | _k.ZS_SHIFT,
                                order, code, cval, npad, output)
    elif matrix.shape[0] == matrix.shape[1] and not numpy.any(matrix - numpy.diag(numpy.diagonal(matrix))):
        # a diagonal matrix is separable: SciPy's offset + o * m along each axis (the zero products
        # of the other columns add nothing), from per-axis tables
        res = _k.zoom_shift(filtered, dt, output_shape, numpy.diagonal(matrix), offset, _k.ZS_DIAG, order, code,
                            cval, npad, output)
    else:
        params = numpy.concatenate([matrix.ravel(), offset])
        res = _k.geometric(filtered, dt, "affine", output_shape, params, order, code, cval, npad)
    return _s.finish(res, output)


def shift(input, shift, output=None, order=3, mode="constant", cval=0.0, prefilter=True):
    """See `scipy.ndimage.shift`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.shift(cuarray.array([1., 2., 3., 4.]), 1, order=1)
    array([0., 1., 2., 3.])
    """
    if order < 0 or order > 5:
        raise RuntimeError("spline order not supported")
    x = _s.as_input(input, "shift")
    if x.ndim < 1:
        raise RuntimeError("input and output rank must be > 0")
    complex_out = x.dtype.kind == "c"
    dt = _s.output_dtype(output, x, complex_output=complex_out)
    if complex_out:
        res = _complex(globals()["shift"], x, dt, x.shape, cval, shift=shift, order=order, mode=mode,
                       prefilter=prefilter)
        return _s.finish(res, output)
    code = _k.mode_code(mode)
    filtered, npad = _prefiltered(x, order, mode, cval, prefilter)
    sh = [-float(s) for s in _s.normalize_sequence(shift, x.ndim)]
    res = _k.zoom_shift(filtered, dt, x.shape, numpy.ones(x.ndim), sh, _k.ZS_SHIFT, order, code, cval, npad, output)
    return _s.finish(res, output)


def zoom(input, zoom, output=None, order=3, mode="constant", cval=0.0, prefilter=True, *, grid_mode=False):
    """See `scipy.ndimage.zoom`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.zoom(cuarray.array([[1., 2.], [3., 4.]]), 2, order=1)
    array([[1.        , 1.33333333, 1.66666667, 2.        ],
           [1.66666667, 2.        , 2.33333333, 2.66666667],
           [2.33333333, 2.66666667, 3.        , 3.33333333],
           [3.        , 3.33333333, 3.66666667, 4.        ]])
    """
    if order < 0 or order > 5:
        raise RuntimeError("spline order not supported")
    x = _s.as_input(input, "zoom")
    if x.ndim < 1:
        raise RuntimeError("input and output rank must be > 0")
    zooms = _s.normalize_sequence(zoom, x.ndim)
    output_shape = tuple(int(round(ii * jj)) for ii, jj in zip(x.shape, zooms))
    complex_out = x.dtype.kind == "c"
    dt = _s.output_dtype(output, x, complex_output=complex_out, shape=output_shape)
    if all(z == 1 for z in zooms) and prefilter:
        return _s.finish(astype(x, dt, copy=True), output)
    if complex_out:
        res = _complex(globals()["zoom"], x, dt, output_shape, cval, zoom=zoom, order=order, mode=mode,
                       prefilter=prefilter, grid_mode=grid_mode)
        return _s.finish(res, output)
    code = _k.mode_code(mode)
    filtered, npad = _prefiltered(x, order, mode, cval, prefilter)
    if grid_mode:
        suggest = {"constant": "grid-constant", "wrap": "grid-wrap"}.get(mode)
        if suggest is not None:
            warnings.warn("It is recommended to use mode = {} instead of {} when grid_mode is True."
                          .format(suggest, mode), stacklevel=2)
    div = numpy.array(output_shape)
    num = numpy.array(x.shape)
    if not grid_mode:
        div = div - 1
        num = num - 1
    z = numpy.divide(num, div, out=numpy.ones(x.ndim, dtype=numpy.float64), where=div != 0)
    flags = _k.ZS_ZOOM | (_k.ZS_GRID if grid_mode else 0)
    res = _k.zoom_shift(filtered, dt, output_shape, z, numpy.zeros(x.ndim), flags, order, code, cval, npad, output)
    return _s.finish(res, output)


def _cosdg_sindg(angle):
    """cos and sin of an angle in degrees, exact at multiples of 90 (as scipy.special.cosdg/sindg)."""
    a = float(angle) % 360.0
    exact = {0.0: (1.0, 0.0), 90.0: (0.0, 1.0), 180.0: (-1.0, 0.0), 270.0: (0.0, -1.0)}
    if a in exact:
        return exact[a]
    r = math.radians(a)
    return math.cos(r), math.sin(r)


def rotate(input, angle, axes=(1, 0), reshape=True, output=None, order=3, mode="constant", cval=0.0, prefilter=True):
    """See `scipy.ndimage.rotate`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.rotate(cuarray.array([[1., 2.], [3., 4.]]), 90, order=1, mode='nearest')
    array([[2., 4.],
           [1., 3.]])
    """
    x = _s.as_input(input, "rotate")
    ndim = x.ndim
    if ndim < 2:
        raise ValueError("input array should be at least 2D")
    axes = list(axes)
    if len(axes) != 2:
        raise ValueError("axes should contain exactly two values")
    if not all(float(ax).is_integer() for ax in axes):
        raise ValueError("axes should contain only integer values")
    axes = [int(ax) + ndim if ax < 0 else int(ax) for ax in axes]
    if axes[0] < 0 or axes[1] < 0 or axes[0] >= ndim or axes[1] >= ndim:
        raise ValueError("invalid rotation plane specified")
    axes.sort()
    c, s = _cosdg_sindg(angle)
    rot = numpy.array([[c, s], [-s, c]])
    img_shape = numpy.asarray(x.shape)
    in_plane = img_shape[axes]
    if reshape:
        iy, ix = in_plane
        bounds = rot @ [[0, 0, iy, iy], [0, ix, 0, ix]]
        out_plane = (numpy.ptp(bounds, axis=1) + 0.5).astype(int)
    else:
        out_plane = img_shape[axes]
    out_center = rot @ ((out_plane - 1) / 2)
    in_center = (in_plane - 1) / 2
    plane_offset = in_center - out_center
    output_shape = img_shape.copy()
    output_shape[axes] = out_plane
    output_shape = tuple(int(v) for v in output_shape)
    matrix = numpy.eye(ndim)
    matrix[numpy.ix_(axes, axes)] = rot
    offset = numpy.zeros(ndim)
    offset[axes] = plane_offset
    return affine_transform(x, matrix, offset, output_shape, output, order, mode, cval, prefilter)
