"""The separable zoom/shift (orders >= 2 of 2-D and up: one pass per axis, zoom_shift.cuh's
`zoom_shift_pass_value`, zoom_shift.cu's `zoom_shift_axis_table`/`zoom_shift_pass`) without a
device, through test_ndimage_interp_cpu.py's host builds: the public functions with the passes
run by the g++ build of zoom_shift.cuh (`host_interp`), and `_interp_kernels.zoom_shift`'s driver
itself with zoom_shift.cu's kernels built with g++ (`zs_on_host`); against scipy.ndimage. And the
NVRTC compiles of every variant."""

import numpy as np
import pytest
import scipy.ndimage as snd

from cuarray.cuda import compiler
from cuarray.scipy.ndimage import _interp_kernels as ik
# (tests/scipy/ndimage is on sys.path, as for every test here; the fixtures are shared)
from test_ndimage_interp_cpu import (MODES, _close_int, _HostArray, _quiet, close, host_interp, lib,  # noqa: F401
                                     ref_geometric, zs_on_host)

RNG = np.random.default_rng(11)


def test_separable_plan():
    """Which calls take the separable path, and the order of its axes: by increasing out/in ratio
    (every intermediate the smallest possible), ties from the last axis; the direct kernel for
    orders 0-1, 1-D, empty extents, and intermediates past _SEPARABLE_BYTES x the output's bytes."""
    plan = ik.separable_plan
    assert plan((256, 256, 256), (512, 512, 512), 3, 4) == [2, 1, 0]
    assert plan((40, 50), (80, 100), 2, 8) == [1, 0]
    assert plan((10, 20, 30), (10, 40, 15), 3, 8) == [2, 0, 1]  # ratios 1, 2, 0.5
    assert plan((10, 20, 30), (25, 20, 30), 5, 8) == [2, 1, 0]  # ratios 2.5, 1, 1: the ties last-first
    assert plan((256, 256, 256), (512, 512, 512), 1, 4) is None  # order 1 stays direct
    assert plan((256, 256, 256), (512, 512, 512), 0, 4) is None
    assert plan((100,), (200,), 3, 8) is None  # 1-D
    assert plan((0, 5), (0, 10), 3, 8) is None
    # shrinking 3-D by 2: 64 x 64 x 32 and 64 x 32 x 32 float64 alive at once, 6x the output's
    # points at 8 bytes, past 4 x even a float64 output's bytes
    assert plan((64, 64, 64), (32, 32, 32), 3, 8) is None
    # shrinking 2-D by 2: one intermediate of 64 x 32 float64, 16 bytes an output point
    assert plan((64, 64), (32, 32), 3, 4) == [1, 0]  # 16 <= 4 x 4
    assert plan((64, 64), (32, 32), 3, 1) is None  # 16 > 4 x 1
    # the bench case: 256 + 512 MiB of float64 alive at most: within 4 x a 512 MiB float32 or a 256 MiB
    # uint16 output, not a 128 MiB uint8 one
    assert plan((256, 256, 256), (512, 512, 512), 3, 2) == [2, 1, 0]
    assert plan((256, 256, 256), (512, 512, 512), 3, 1) is None
@pytest.fixture(params=["separable", "direct"])
def zs_path(request, monkeypatch):
    """Every zoom/shift of order >= 2 and ndim >= 2 through the separable passes (whatever the
    memory), or none (the direct kernel)."""
    monkeypatch.setattr(ik, "_SEPARABLE_BYTES", 10.0 ** 9 if request.param == "separable" else -1)
    return request.param


SEP_SHAPES = {2: (9, 7), 3: (6, 7, 5), 4: (3, 4, 5, 3)}
SEP_ZOOMS = {2: [(1.7, 0.6), 2.0, (0.45, 1.0)], 3: [2.0, (0.5, 1.4, 3.0), (1, 0.8, 1.25)],
             4: [(1.5, 1, 0.7, 2), 0.6]}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("order", [2, 3, 4, 5])
@pytest.mark.parametrize("ndim", [2, 3, 4])
def test_separable_every_mode_order_ndim(host_interp, zs_path, mode, order, ndim):
    """zoom (per-axis factors below and above 1, grid_mode both ways, prefilter both), shift (past
    the whole input along short axes: 'outside' points, cval 37.5 so a cval mixed into neighbours
    or scaled by a sum of weights shows) and a diagonal affine_transform, against scipy.ndimage."""
    x = RNG.normal(size=SEP_SHAPES[ndim]) * 10
    for z in SEP_ZOOMS[ndim]:
        for grid_mode in (False, True):
            for prefilter in (True, False):
                kw = dict(order=order, mode=mode, cval=37.5, grid_mode=grid_mode, prefilter=prefilter)
                close(_quiet(host_interp.zoom, x, z, **kw), _quiet(ref_geometric, "zoom", x, z, **kw))
    for s in [1.3, -2.6, 7.25]:
        sh = [s * (-1) ** d for d in range(ndim)]
        for prefilter in (True, False):
            kw = dict(order=order, mode=mode, cval=37.5, prefilter=prefilter)
            close(host_interp.shift(x, sh, **kw), ref_geometric("shift", x, sh, **kw))
    m = np.diag([1.2, -0.55, 0.8, 1.1][:ndim])
    off = [-1.2, 3.6, 0.75, -0.5][:ndim]
    oshape = tuple(s + 2 for s in x.shape)
    close(host_interp.affine_transform(x, m, off, output_shape=oshape, order=order, mode=mode, cval=-4.0),
          ref_geometric("affine_transform", x, m, off, output_shape=oshape, order=order, mode=mode, cval=-4.0))


@pytest.mark.parametrize("mode", ["constant", "reflect", "mirror", "grid-wrap"])
@pytest.mark.parametrize("order", [2, 3, 5])
def test_separable_equals_direct_kernel(host_interp, monkeypatch, mode, order):
    """Axes taken from the last (ties: a uniform zoom, a shift), the passes add the taps in the
    direct kernel's nesting: the two paths agree to the bit. (Not grid-constant, where a tap outside
    reads cval and the passes scale it by a sum of weights, nor 'nearest' with prefilter, whose 12
    samples of padding make the ratios differ and the axes go by size.)"""
    x = RNG.normal(size=(8, 8, 6)) * 10
    calls = [lambda nd: nd.zoom(x, 2.0, order=order, mode=mode, cval=3.0),
             lambda nd: nd.shift(x, (1.5, -2.25, 6.5), order=order, mode=mode, cval=3.0),
             lambda nd: _quiet(nd.zoom, x, 1.5, order=order, mode=mode, grid_mode=True, output=np.float32)]
    for call in calls:
        monkeypatch.setattr(ik, "_SEPARABLE_BYTES", 10.0 ** 9)
        sep = call(host_interp)
        monkeypatch.setattr(ik, "_SEPARABLE_BYTES", -1)
        np.testing.assert_array_equal(sep, call(host_interp))


@pytest.mark.parametrize("dtype", ["uint8", "int16", "int32", "float32", "float64", "complex128"])
def test_separable_dtypes_and_outputs(host_interp, zs_path, dtype):
    """Integer (SciPy's rounding and clamping at the last pass), float and complex inputs, output
    dtypes and output= arrays, prefilter on (float64 coefficients) and off (the input's dtype read
    by the first pass)."""
    x = RNG.normal(size=(10, 9, 4)) * 60
    x = x + 1j * RNG.normal(size=x.shape) * 60 if dtype == "complex128" else x
    x = (np.abs(x) if dtype == "uint8" else x).astype(dtype)
    for order in (2, 3, 5):
        for prefilter in (True, False):
            for fn, arg in [("zoom", (1.6, 0.7, 2.0)), ("shift", (0.4, -1.3, 5.0))]:
                kw = dict(order=order, mode="constant", cval=12.0, prefilter=prefilter)
                got = getattr(host_interp, fn)(x, arg, **kw)
                ref = ref_geometric(fn, x, arg, **kw)
                if ref.dtype.kind in "iu":
                    _close_int(got, ref, ref_geometric(fn, x, arg, output=np.float64, **kw))
                else:
                    close(got, ref)
    if dtype != "complex128":
        for out in (np.float32, np.int16, np.uint8):
            ref = ref_geometric("zoom", x, 2, output=out, order=3, mode="mirror")
            got = host_interp.zoom(x, 2, output=out, order=3, mode="mirror")
            arr = np.empty(ref.shape, out)
            assert host_interp.zoom(x, 2, output=arr, order=3, mode="mirror") is arr  # as SciPy's
            unrounded = ref_geometric("zoom", x, 2, output=np.float64, order=3, mode="mirror")
            for g in (got, arr):
                if ref.dtype.kind in "iu":
                    _close_int(g, ref, unrounded)
                else:
                    np.testing.assert_allclose(g, ref, rtol=1e-5, atol=1e-5 * np.abs(ref).max())


@pytest.mark.parametrize("wide", [False, True])
@pytest.mark.parametrize("mode", ["constant", "grid-constant", "wrap", "nearest"])
def test_separable_driver_and_kernels(zs_on_host, monkeypatch, wide, mode):
    """ik.zoom_shift's separable branch as it is (plan, tables, intermediates, each pass' arguments
    as the kernels read them, output= arrays written in place), zoom_shift.cu's kernels built with
    g++, against scipy.ndimage (prefilter=False: x is the coefficients), 2-D to 4-D, order 3."""
    monkeypatch.setattr(zs_on_host.ik, "_I4_LIMIT", 0 if wide else 2 ** 31)
    monkeypatch.setattr(zs_on_host.ik, "_SEPARABLE_BYTES", 10.0 ** 9)
    code = ik.MODES[mode]
    f8 = np.dtype(np.float64)
    for shape in [(9, 7), (6, 5, 4), (3, 4, 2, 5)]:
        x = RNG.normal(size=shape)
        nd = len(shape)
        for zoom, grid_mode in [((1.7, 0.6, 2.0, 1.3)[:nd], False), ((0.8, 1.5, 1.0, 2.2)[:nd], True)]:
            oshape = tuple(int(round(s * z)) for s, z in zip(shape, zoom))
            num, div = np.array(shape, float), np.array(oshape, float)
            if not grid_mode:
                num, div = num - 1, div - 1
            z = np.divide(num, div, out=np.ones(nd), where=div != 0)
            flags = ik.ZS_ZOOM | (ik.ZS_GRID if grid_mode else 0)
            got = zs_on_host(x, f8, oshape, z, np.zeros(nd), flags, 3, code, -1.5, 0)
            assert zs_on_host.launched == ["axis_table", "first"] + ["middle"] * (nd - 2) + ["last"]
            ref = _quiet(snd.zoom, x, zoom, order=3, mode=mode, cval=-1.5, prefilter=False, grid_mode=grid_mode)
            close(got, ref)
        sh = (1.25, -2.5, 0.5, 3.0)[:nd]
        out = _HostArray(shape, f8)
        got = zs_on_host(x, f8, shape, np.ones(nd), [-s for s in sh], ik.ZS_SHIFT, 3, code, 2.0, 0, out=out)
        assert got is out.a
        close(got, snd.shift(x, sh, order=3, mode=mode, cval=2.0, prefilter=False))
        m, off = np.array((1.2, -0.7, 0.9, 1.1)[:nd]), np.array((-1.2, 3.5, 0.25, -0.5)[:nd])
        got = zs_on_host(x, f8, shape, m, off, ik.ZS_DIAG, 3, code, 0.5, 0)
        close(got, snd.affine_transform(x, np.diag(m), off, order=3, mode=mode, cval=0.5, prefilter=False))
    # the table kernel's "a row is outside" flag (meta's last word), which gates the last pass' lookup
    x = RNG.normal(size=(6, 5, 4))
    zs_on_host(x, f8, (12, 10, 8), [5 / 11, 4 / 9, 3 / 7], [0, 0, 0], ik.ZS_ZOOM, 3, code, 0.0, 0)
    assert zs_on_host.meta[-1] == 0  # a zoom's coordinates span the input exactly
    zs_on_host(x, f8, x.shape, [1, 1, 1], [0, 0, -4.5], ik.ZS_SHIFT, 3, code, 0.0, 0)
    assert zs_on_host.meta[-1] == (mode == "constant")  # past the last axis' end (grid-constant: no flag)
    y = RNG.normal(size=(6, 5))
    args = (f8, (12, 10), [5 / 11, 4 / 9], [0, 0], ik.ZS_ZOOM, 3, code, 0.0, 0)
    ref = zs_on_host(y, *args, separable=False)  # forced direct, whatever the memory
    assert zs_on_host.launched[-1] == "point"
    monkeypatch.setattr(zs_on_host.ik, "_SEPARABLE_BYTES", -1)  # the fallback: the direct kernel
    zs_on_host(y, *args)
    assert zs_on_host.launched[-1] == "point"
    close(zs_on_host(y, *args, separable=True), ref)  # forced separable, whatever the memory
    assert zs_on_host.launched[-1] == "last"


@pytest.mark.nvrtc_fast
@pytest.mark.parametrize("order", [2, 3, 4, 5])
def test_separable_kernels_compile_for_sm90(order):
    """The separable path's four kernels, both index widths, grid-constant or not, input dtypes the
    first pass reads (float64 coefficients; any dtype without prefilter) and output dtypes."""
    names = set()
    for wide in (False, True):
        for gc in (False, True):
            names.update(ik.separable_names(np.dtype("d"), np.dtype("f"), wide, order, gc))
    for a, b in [("f", "f"), ("B", "B"), ("q", "d"), ("?", "?"), ("d", "H"), ("h", "b"), ("I", "Q")]:
        for gc in (False, True):
            names.update(ik.separable_names(np.dtype(a), np.dtype(b), False, order, gc))
    names = sorted(names)
    cubin, mapping = compiler.compile_cubin(ik.source(), arch="sm_90", name_expressions=names)
    assert cubin and set(mapping) == set(names)


@pytest.mark.parametrize("shape,zoom", [((7, 16), (1.5, 1)), ((16, 5), (1, 0.5)), ((3, 17), (2.5, 1.1)),
                                        ((16, 18), 0.06), ((16, 18), 0.02), ((1, 9), (3, 1.5)), ((2, 1, 6), 2.0)])
def test_separable_output_shapes(host_interp, zs_path, shape, zoom):
    """Outputs of one sample along an axis (a zero zoom divisor) or none, inputs of one sample along
    an axis, SciPy's rounding of the output shape."""
    x = RNG.normal(size=shape)
    for grid_mode in (False, True):
        for mode in ("grid-mirror", "constant", "nearest"):
            close(_quiet(host_interp.zoom, x, zoom, order=3, mode=mode, grid_mode=grid_mode, cval=2.0),
                  _quiet(ref_geometric, "zoom", x, zoom, order=3, mode=mode, grid_mode=grid_mode, cval=2.0))
        close(host_interp.shift(x, 0.75, order=4, mode="mirror"),
              ref_geometric("shift", x, 0.75, order=4, mode="mirror"))
