"""scipy.ndimage.distance_transform_edt on the GPU: exact, one pass per axis (templates/edt.cuh,
edt.cu). The first axis, where every value is 0 or infinite, is a nearest-background scan (a thread
per 64 elements of a line, its background packed in a word); every other axis is a
Felzenszwalb-Huttenlocher lower envelope of parabolas, a warp per line staged in shared memory
(lines up to 4096 elements; one thread per line with global scratch beyond), the envelope built
by bands of lanes and merged. The nearest feature's coordinates are carried along when
`return_indices` asks for them.

Differences from SciPy: where several background elements are nearest, the indices may name a
different one (at the same distance). An input with no background gives SciPy's result (every
feature at (-1, 0, ...), the distances to it), written by the last pass where its line has no
site (after the other axes' passes that means no background anywhere): no separate check, no
synchronisation."""

from __future__ import annotations

import math
import operator
import pathlib

import numpy

from ..._core import dtypes as _dtypes
from ..._core.copying import astype
from ..._core.ndarray import ndarray
from ..._core.transfer import from_host
from ...cuda import launch as _launch
from ...cuda.kernel_family import KernelFamily
from . import _support as _s
from ._tables import constant_table

__all__ = ["distance_transform_edt", "source", "names"]

_DIR = pathlib.Path(__file__).parent / "templates"
_BLOCK = 128
_F8 = numpy.dtype(numpy.float64)
_F4 = numpy.dtype(numpy.float32)
_I8 = numpy.dtype(numpy.int64)


def source() -> str:
    return "#define CUARRAY_DEVICE __device__\n" + (_DIR / "edt.cuh").read_text() + (_DIR / "edt.cu").read_text()


EDT = KernelFamily("cuarray_ndimage_edt", source, namespace="cuarray_ndimage", kernels=(
    "edt_init<T>(const T* in, double* f, long long* idx, const long long* shape, int nd, long long total)",
    "edt_pass(double* f, long long n, long long inner, long long lines, double w2, long long* vbuf, "
    "double* zbuf, double* dbuf, long long* abuf, const long long* idx_in, long long* idx_out, int nd, "
    "long long total, const long long* shape, const double* samp)",
    "edt_pass_warp(double* f, long long n, long long inner, long long lines, double w2, long long words, "
    "const long long* idx_in, long long* idx_out, int nd, long long total, const long long* shape, "
    "const double* samp)",
    "edt_zero_bits<T>(const T* in, unsigned long long* bits, long long n, long long inner, long long nseg, "
    "long long count)",
    "edt_first_pass(const unsigned long long* bits, double* f, long long* idx, const long long* shape, int nd, "
    "int axis, long long n, long long inner, long long nseg, long long count, double w2, long long total, "
    "int root, const double* samp)",
    "edt_pass_band(double* f, long long n, long long inner, long long lines, double w2, long long words, "
    "int bands, int walk, int root, int coop, const long long* idx_in, long long* idx_out, int nd, "
    "long long total, const long long* shape, const double* samp)",
    "edt_sqrt<O>(const double* f, O* out, long long total)",
))


def _specs(in_dt) -> tuple:
    t = _dtypes.ctype(in_dt)
    return ("edt_init<{}>".format(t), "edt_pass", "edt_sqrt<double>", "edt_pass_warp",
            "edt_zero_bits<{}>".format(t), "edt_first_pass", "edt_pass_band")


def names(in_dt) -> tuple:
    return tuple(EDT.name_expression(s) for s in _specs(in_dt))


def bands_for(n: int) -> int:
    """The band pass' lanes for lines of n: n / 16, 1 to 32 (bands of 16 sites or more). Measured
    on the H100 (scripts/perf/edt_variants.py, session 13): lines of 2048 fastest at 32 bands (283
    us against 320 for sqrt(n / 4) = 22, the first rule), lines of 256 at 16 (1380 us on 256^3,
    against 1455 at 8 and 1658 at 32)."""
    return max(1, min(32, max(n, 1) // 16))


def _edt(x: ndarray, sampling, want_indices: bool, *, first: str = "scan", lines: str = "band", bands=None,
         fill: str = "walk", root: bool = False, staging: str = "warp"):
    """(squared distances float64, feature coordinates (nd, *shape) int64 or None, rooted): with
    `root`, the last pass writes the distances themselves where its kernel can (the scan, the band
    pass) and `rooted` says whether it did.

    The plan (scripts/perf/edt_variants.py times each; docs/perf-notes.md, "EDT"): `first`, the
    first axis as a nearest-background scan ("scan") or as an envelope pass like the others
    ("envelope"); `lines`, the envelope passes that fit shared memory with the envelope built by
    lane 0 ("warp") or by `bands` lanes merged (None: bands_for(n)), and then each output's
    parabola found by a binary search ("search", lines="warp" always) or, a lane per run of
    outputs, one search and a walk ("walk"); `staging`, how the band pass moves strided lines
    (inner > 1) between f and shared memory: each warp its own line ("warp": a lane per element,
    one 8-byte word of each of 32 sectors a load), the block's lines together ("block": adjacent
    threads on adjacent lines, whole sectors; the outputs staged too, 5/3 the shared memory on
    lines of 256), or the block's loads only ("block-in": the warps store as with "warp"). H100,
    256^3: warp 1.42 ms, block 1.43, block-in 1.51: the default stays "warp"."""
    if first not in ("scan", "envelope") or lines not in ("band", "warp") or fill not in ("walk", "search") \
            or staging not in ("warp", "block", "block-in"):
        raise ValueError("unknown EDT plan {!r}, {!r}, {!r}, {!r}".format(first, lines, fill, staging))
    total, nd = x.size, x.ndim
    x = x if x._c else astype(x, x._dtype, order="C", copy=True)
    k_init, k_pass, _, k_warp, k_bits, k_first, k_band = EDT.get(*_specs(x._dtype))
    f = ndarray(x.shape, _F8)
    idx = ndarray((nd,) + x.shape, _I8) if want_indices else None
    shape = constant_table(numpy.asarray(x.shape, _I8))
    samp = _sampling_table(sampling) if total else None  # the last pass': SciPy's no-background result
    scan = first == "scan" and total > 0
    if scan:
        n = x.shape[0]
        inner = total // n
        nseg = -(-n // 64)
        count = inner * nseg
        bits = ndarray((count,), numpy.dtype(numpy.uint64))
        grid = _launch.grid_one_pass(count, _BLOCK)
        k_bits.launch(grid, _BLOCK, x.data.ptr, bits.data.ptr, n, inner, nseg, count)
        k_first.launch(grid, _BLOCK, bits.data.ptr, f.data.ptr, 0 if idx is None else idx.data.ptr, shape.data.ptr,
                       nd, 0, n, inner, nseg, count, sampling[0] ** 2, total, root and nd == 1,
                       samp.data.ptr if nd == 1 else 0)
        rooted = root and nd == 1
    else:
        rooted = False
        grid = _launch.grid_one_pass(total, _BLOCK)
        k_init.launch(grid, _BLOCK, x.data.ptr, f.data.ptr, 0 if idx is None else idx.data.ptr, shape.data.ptr,
                      nd, total)
    for axis in range(1 if scan else 0, nd if total else 0):  # (an empty array: nothing to do, as SciPy)
        n = x.shape[axis]
        inner = 1
        for s in x.shape[axis + 1:]:
            inner *= s
        nlines = total // n
        nxt = ndarray((nd,) + x.shape, _I8) if idx is not None else None
        words = (12 * n + 7) // 8  # a warp's staging area: n doubles and n ints
        # A warp per line even for many strided lines (unlike the prefilter): on a 256^3 volume
        # (H100) a thread per line of axes 0 and 1 took 5.68 ms, a warp each 3.97 ms
        # (scripts/perf/edt_strided_lines.py): the thread kernel's scratch arrays cost more than
        # the warp's strided staging reads.
        staged = _s.warp_per_line(nlines, words * 8)
        coop = 0
        if lines == "band" and staging != "warp" and inner > 1:
            # the line's offset (and with "block" the outputs) staged too; worth it with 2 lines a
            # block or more (edt_pass_band's coop: 1 both ways, 2 the loads)
            more = 1 + (n if staging == "block" else 0)
            both = _s.warp_per_line(nlines, (words + more) * 8)
            if both is not None and both[1] >= 64:
                staged, words, coop = both, words + more, 1 if staging == "block" else 2
        if staged is not None:
            grid, block, shared = staged
            w2 = sampling[axis] ** 2
            tail = (0 if idx is None else idx.data.ptr, 0 if nxt is None else nxt.data.ptr, nd, total,
                    shape.data.ptr, samp.data.ptr if axis == nd - 1 else 0)
            if lines == "band":
                b = bands_for(n) if bands is None else int(bands)
                rooted = root and axis == nd - 1
                k_band.launch(grid, block, f.data.ptr, n, inner, nlines, w2, words, max(1, min(32, b)),
                              fill == "walk", rooted, coop, *tail, shared_mem=shared)
            else:
                k_warp.launch(grid, block, f.data.ptr, n, inner, nlines, w2, words, *tail, shared_mem=shared)
            idx = nxt
            continue
        v = ndarray((nlines * n,), _I8)
        z = ndarray((nlines * (n + 1),), _F8)
        d = ndarray((nlines * n,), _F8)
        arg = ndarray((nlines * n,), _I8)
        k_pass.launch(_launch.grid_one_pass(nlines, _BLOCK), _BLOCK, f.data.ptr, n, inner, nlines,
                      sampling[axis] ** 2, v.data.ptr, z.data.ptr, d.data.ptr, arg.data.ptr,
                      0 if idx is None else idx.data.ptr, 0 if nxt is None else nxt.data.ptr, nd, total,
                      shape.data.ptr, samp.data.ptr if axis == nd - 1 else 0)
        idx = nxt
    return f, idx, rooted


def _distances(x: ndarray, sampling, want_indices: bool, **plan):
    """(distances float64, feature coordinates or None) by `plan` (_edt's keywords)."""
    f, idx, rooted = _edt(x, sampling, want_indices, root=True, **plan)
    return (f if rooted else _sqrt(f)), idx


def _sqrt(f: ndarray) -> ndarray:
    k_sqrt = EDT.get(*_specs(numpy.dtype(numpy.int8)))[2]
    out = ndarray(f.shape, _F8)
    if f.size:
        k_sqrt.launch(_launch.grid_one_pass(f.size, _BLOCK), _BLOCK, f.data.ptr, out.data.ptr, f.size)
    return out


def _sampling_table(sampling) -> ndarray:
    """The sampling on the device (float64, one a dimension) for the last pass' no-background
    values: the unit sampling (the default) a kept table, any other uploaded per call (a kept
    table's first upload is waited for, which a program varying its sampling would pay each call;
    a plain upload is stream-ordered)."""
    values = numpy.asarray(sampling, _F8)
    return constant_table(values) if (values == 1.0).all() else from_host(values)


_PBA_BLOCK = 32  # the block size of cupyx's PBA+ kernels, which its block_params checks use


def check_block_params(shape, block_params) -> None:
    """cupyx's checks of `block_params` (its PBA+ kernels' band counts m1, m2, m3), with its
    ValueErrors: three integers, each at least 1; for a 2-D input m2 a power of two and each at
    most the largest side, padded to a multiple of 32 and of each of them, over 32."""
    if block_params is None:
        return
    m1, m2, m3 = (operator.index(m) for m in block_params)
    if min(m1, m2, m3) < 1:
        raise ValueError("(m1, m2, m3) in blockparams must be >= 1")
    if len(shape) != 2:
        return  # cupyx's 3-D kernels take any three (its other ranks have no kernel)
    if m2 & (m2 - 1):
        raise ValueError("m2 must be a power of 2")
    multiple = math.lcm(_PBA_BLOCK, m1, m2, m3)
    padded = -(-max(shape) // multiple) * multiple
    for name, m in (("m1", m1), ("m2", m2), ("m3", m3)):
        if m > padded // _PBA_BLOCK:
            raise ValueError("{} too large. must be <= padded arr.shape[{}] // {}".format(
                name, 0 if name == "m1" else 1, _PBA_BLOCK))


def _check_indices(indices, x):
    """SciPy's int32 indices array, or (cupyx) any integer dtype that holds every coordinate."""
    if indices.shape != (x.ndim,) + x.shape:
        raise RuntimeError("indices array has wrong shape")
    if indices.dtype.kind not in "iu":
        raise RuntimeError("indices array must have an integer dtype")
    if x.size and max(x.shape) - 1 > numpy.iinfo(indices.dtype).max:
        raise RuntimeError("indices dtype {} cannot hold the coordinates of shape {}".format(indices.dtype, x.shape))


def distance_transform_edt(input, sampling=None, return_distances=True, return_indices=False, distances=None,
                           indices=None, *, block_params=None, float64_distances=True):
    """See `scipy.ndimage.distance_transform_edt`.

    cupyx's keywords are taken. `float64_distances=False` returns float32 distances (computed in
    float64, rounded once; a `distances` array must then be float32). `block_params`, cupyx's
    band counts (m1, m2, m3) of its PBA+ kernels, is checked as cupyx checks it and does not change
    this algorithm. An `indices` array may have any integer dtype that holds the coordinates, as in
    cupyx (SciPy's is int32).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.distance_transform_edt(cuarray.array([[0, 1, 1, 1], [0, 1, 1, 1]]))
    array([[0., 1., 2., 3.],
           [0., 1., 2., 3.]])
    """
    ft_inplace = _s.is_array(indices)
    dt_inplace = _s.is_array(distances)
    if not return_distances and not return_indices:
        raise RuntimeError("at least one of return_distances/return_indices must be True")
    if dt_inplace and not return_distances:
        raise RuntimeError("return_distances must be True if distances is supplied")
    if ft_inplace and not return_indices:
        raise RuntimeError("return_indices must be True if indices is supplied")
    x = _s.as_array(input, "distance_transform_edt")
    if x.ndim == 0:
        x = x.reshape((1,))
    if x.dtype.kind == "c":
        x = x != 0  # SciPy takes where(input, 1, 0) of any input
    check_block_params(x.shape, block_params)
    dist_dt = _F8 if float64_distances else _F4
    sampling = [1.0] * x.ndim if sampling is None else [float(v) for v in _s.normalize_sequence(sampling, x.ndim)]
    if dt_inplace and (distances.shape != x.shape or distances.dtype != dist_dt):
        raise RuntimeError("distances array has wrong shape" if distances.shape != x.shape
                           else "distances array must be {}".format(dist_dt))
    if ft_inplace:
        _check_indices(indices, x)
    dt, idx = _distances(x, sampling, return_indices) if return_distances else _edt(x, sampling, True)[:2]
    result = []
    if return_distances:
        dt = dt.astype(dist_dt, copy=False)
        if dt_inplace:
            _s.finish(dt, distances)
        else:
            result.append(dt)
    if return_indices:
        if ft_inplace:
            _s.finish(idx.astype(indices.dtype), indices)
        else:
            result.append(idx.astype(numpy.int32))
    if len(result) == 2:
        return tuple(result)
    return result[0] if result else None
