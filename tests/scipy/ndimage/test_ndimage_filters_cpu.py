"""ndimage filters without a device: the boundary arithmetic (the NumPy mirror and the .cuh
itself, built with g++) against scipy.ndimage, NumPy models of the three kernels fed the tap
tables the Python side builds, against scipy.ndimage for every mode and origin, and NVRTC
compiles of the kernels for sm_90."""

import shutil
import subprocess

import numpy as np
import pytest
import scipy.ndimage as snd

from cuarray.cuda import compiler
from cuarray.scipy.ndimage import _boundary
from cuarray.scipy.ndimage import _filter_kernels as fk
from cuarray.testing.fake_device import host_packages

MODES = ["reflect", "mirror", "nearest", "wrap", "constant", "grid-mirror", "grid-wrap", "grid-constant"]


def shift_by(n, d, mode, cval=-7.0):
    """scipy.ndimage.correlate1d with a delta weight: out[i] = in[map(i + d)] (or cval)."""
    w = np.zeros(2 * abs(d) + 1)
    w[-1] = 1.0  # out[i] = in[i + len - 1 - len // 2] = in[i + |d|]
    x = np.arange(n, dtype=np.float64)
    out = snd.correlate1d(x, w, mode=mode, cval=cval, origin=0)
    return out if d >= 0 else None


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("n", [1, 2, 3, 5, 8])
def test_map_index_matches_scipy(mode, n):
    code = _boundary.filter_mode(mode)
    for d in range(0, 3 * n + 4):
        ref = shift_by(n, d, mode)
        m = _boundary.map_index(np.arange(n) + d, n, code)
        got = np.where(m < 0, -7.0, m.astype(np.float64))
        np.testing.assert_array_equal(got, ref, err_msg="shift {}".format(d))
    # negative shifts through a flipped array: in reversed, shift right
    for d in range(1, 3 * n + 4):
        w = np.zeros(2 * d + 1)
        w[0] = 1.0
        ref = snd.correlate1d(np.arange(n, dtype=np.float64), w, mode=mode, cval=-7.0)
        m = _boundary.map_index(np.arange(n) - d, n, code)
        np.testing.assert_array_equal(np.where(m < 0, -7.0, m), ref, err_msg="shift -{}".format(d))


def test_unknown_mode_is_runtime_error():
    with pytest.raises(RuntimeError):
        _boundary.filter_mode("bogus")


@pytest.mark.skipif(shutil.which("g++") is None, reason="no g++")
def test_boundary_cuh_builds_on_host_and_matches_the_mirror(tmp_path):
    src = tmp_path / "t.cpp"
    src.write_text('#include "boundary.cuh"\n#include <cstdio>\nint main(){for(int m=0;m<5;++m)'
                   'for(long long n=1;n<7;++n)for(long long i=-20;i<21;++i)'
                   'printf("%lld\\n",cuarray_ndimage::map_index<long long>(i,n,m));}\n')
    exe = tmp_path / "t"
    subprocess.run(["g++", "-O1", "-I", str(fk._DIR), str(src), "-o", str(exe)], check=True)
    got = np.array(subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.split(), np.int64)
    ref = np.concatenate([_boundary.map_index(np.arange(-20, 21), n, m) for m in range(5) for n in range(1, 7)])
    np.testing.assert_array_equal(got, ref)


# -- NumPy models of the kernels -------------------------------------------------------------------
def model_filter1d(x, op, w, size, axis, offset, mode, cval):
    x = np.moveaxis(np.asarray(x, np.float64), axis, -1)
    n = x.shape[-1]
    idx = np.arange(n)[:, None] + np.arange(size)[None, :] - offset
    m = _boundary.map_index(idx, n, mode)
    v = np.where(m < 0, cval, x[..., np.clip(m, 0, None)])
    if op == "correlate":
        r = (v * w).sum(-1)
    elif op == "uniform":
        r = v.sum(-1) / size
    elif op == "min":
        r = v.min(-1)
    else:
        r = v.max(-1)
    return np.moveaxis(r, -1, axis)


def model_gather(x, footprint, origins, mode, cval):
    """(points, taps) values, through the tap table and map_index as the kernels do."""
    offs, loff, lo, hi = fk.tap_table(x.shape, footprint, origins)
    coords = np.indices(x.shape).reshape(x.ndim, -1).T
    flat = x.ravel().astype(np.float64)
    vals = np.empty((len(coords), len(offs)))
    for t, off in enumerate(offs):
        src = np.zeros(len(coords), np.int64)
        inside = np.ones(len(coords), bool)
        for d in range(x.ndim):
            c = _boundary.map_index(coords[:, d] + off[d], x.shape[d], mode)
            inside &= c >= 0
            src = src * x.shape[d] + np.clip(c, 0, None)
        vals[:, t] = np.where(inside, flat[src], cval)
        # the interior fast path reads idx + loff: the same element wherever it applies
        interior = np.all((coords + lo >= 0) & (coords + hi < np.array(x.shape)), axis=1)
        lin = np.arange(len(coords)) + loff[t]
        np.testing.assert_array_equal(flat[lin[interior]], vals[interior, t])
    return vals


RNG = np.random.default_rng(0)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("origin", [-2, 0, 1])
def test_filter1d_model(mode, origin):
    x = RNG.normal(size=(4, 9, 3))
    w = RNG.normal(size=5)
    code = _boundary.filter_mode(mode)
    for axis in range(3):
        got = model_filter1d(x, "correlate", w, 5, axis, 5 // 2 + origin, code, 1.5)
        np.testing.assert_allclose(got, snd.correlate1d(x, w, axis, mode=mode, cval=1.5, origin=origin), atol=1e-12)
        for op, fn in [("uniform", snd.uniform_filter1d), ("min", snd.minimum_filter1d),
                       ("max", snd.maximum_filter1d)]:
            got = model_filter1d(x, op, None, 5, axis, 5 // 2 + origin, code, 1.5)
            np.testing.assert_allclose(got, fn(x, 5, axis, mode=mode, cval=1.5, origin=origin), atol=1e-12)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("origins", [(0, 0), (-1, 1), (1, -2)])
def test_filternd_and_rank_model(mode, origins):
    x = RNG.normal(size=(7, 6))
    w = RNG.normal(size=(3, 5))
    w[1, 2] = 0.0
    fp = w != 0
    code = _boundary.filter_mode(mode)
    vals = model_gather(x, fp, origins, code, 0.5)
    got = (vals * w[fp]).sum(1).reshape(x.shape)
    np.testing.assert_allclose(got, snd.correlate(x, w, mode=mode, cval=0.5, origin=origins), atol=1e-12)
    np.testing.assert_allclose(vals.min(1).reshape(x.shape),
                               snd.minimum_filter(x, footprint=fp, mode=mode, cval=0.5, origin=origins))
    k = 5
    np.testing.assert_allclose(np.sort(vals, 1)[:, k].reshape(x.shape),
                               snd.rank_filter(x, k, footprint=fp, mode=mode, cval=0.5, origin=origins))


def test_rank_capacity():
    assert fk.rank_capacity(9) == 16 and fk.rank_capacity(25) == 64 and fk.rank_capacity(1024) == 1024
    with pytest.raises(NotImplementedError):
        fk.rank_capacity(1025)


def test_acc_dtype():
    f4, f8, i2 = np.dtype("f4"), np.dtype("f8"), np.dtype("i2")
    assert fk.acc_dtype(f4, f4, "correlate") == f4
    assert fk.acc_dtype(f4, f8, "correlate") == f8
    assert fk.acc_dtype(i2, i2, "uniform") == f8
    assert fk.acc_dtype(i2, f4, "max") == i2


@pytest.mark.nvrtc_fast
def test_kernels_compile_for_sm90():
    names = set()
    for c in "?bBhHiIlLQfd":
        dt = np.dtype(c)
        names.add(fk.filter1d_name(dt, dt, "correlate", False))
        names.add(fk.filter1d_name(dt, dt, "min", False))
        names.add(fk.filternd_name(dt, dt, "correlate", False))
        names.add(fk.rank_name(dt, dt, 25, False))
    f4 = np.dtype("f4")
    for op in fk.OPS:
        names.add(fk.filter1d_name(f4, f4, op, True))
        names.add(fk.filter1d_name(f4, np.dtype("u1"), op, False))
    for op in ("correlate", "min", "max"):
        names.add(fk.filternd_name(f4, f4, op, True))
    for nnz in (3, 30, 200, 1000):
        names.add(fk.rank_name(f4, f4, nnz, True))
    for c in "?bBhHiIlLQfd":  # footprints past 1024 taps: the window in global scratch
        names.add(fk.scratch_rank_name(np.dtype(c), np.dtype(c), False))
    names.add(fk.scratch_rank_name(f4, np.dtype("f8"), True))
    names = sorted(names)
    cubin, mapping = compiler.compile_cubin(fk.source(), arch="sm_90", name_expressions=names)
    assert cubin and set(mapping) == set(names)


# -- the public functions' argument handling, on the host ---------------------------------------------
# The kernels replaced by the NumPy models above and cuarray arrays by NumPy arrays: every public
# filter's planning (origins, convolution flips, separable passes, complex parts, output dtypes)
# checked against scipy.ndimage without a device.
def c_cast(r, dt):
    dt = np.dtype(dt)
    if dt.kind == "b":
        return r != 0
    if dt.kind in "iu" and r.dtype.kind == "f":
        with np.errstate(invalid="ignore"):
            return np.trunc(r).astype(np.int64).astype(dt)
    return r.astype(dt)


@pytest.fixture(scope="session")
def ndimage_standins(rank_tile_model, scipy_select_model):
    """The NumPy stand-ins of ndimage's filters (the kernels as the models above), for
    `cuarray.testing.fake_device.host_modules`: ``{module: {name: stand-in}}``."""
    from cuarray._core import copying
    from cuarray.scipy.ndimage import _filters, _morphology, _rank_tile, _support

    def f1(x, dt, op, w, size, axis, offset, mode, cval):
        src = x.astype(np.float64) if op in ("correlate", "uniform") else x
        r = model_filter1d(src, op, w, size, axis, offset, mode, cval)
        if op in ("min", "max"):
            r = r.astype(x.dtype) if x.dtype.kind != "b" else r != 0
        return c_cast(r, dt)

    def fn(x, dt, op, fp, w, origins, mode, cval):
        vals = model_gather(x, fp, origins, mode, cval)
        if op == "correlate":
            r = (vals * w).sum(1)
        elif vals.shape[1] == 0:  # no tap: the kernel's accumulator keeps its initial zero
            r = np.zeros(x.size)
        else:
            vals = vals if w is None else (vals - w if op == "min" else vals + w)
            r = vals.min(1) if op == "min" else vals.max(1)
        return c_cast(r.reshape(x.shape), dt)

    def rk(x, dt, fp, k, origins, mode, cval):
        vals = model_gather(x, fp, origins, mode, float(np.array(cval).astype(x.dtype)))
        r = np.sort(vals, 1)[:, k]
        if x.dtype.kind == "f":  # windows with a NaN or both signed zeros: SciPy's own selection
            z = vals == 0
            odd = np.isnan(vals).any(1) | ((z & np.signbit(vals)).any(1) & (z & ~np.signbit(vals)).any(1))
            r[odd] = [scipy_select_model(w, k) for w in vals[odd]]
        return c_cast(r.reshape(x.shape), dt)

    def rt(x, dt, pl, k, mode, cval):
        return c_cast(rank_tile_model(x, pl, k, mode, np.array(cval).astype(x.dtype)[()]), dt)

    def copy_unsafe(d, s):
        return np.copyto(d, s, casting="unsafe")

    return {
        _support: dict(as_array=lambda x, fn: np.asarray(x), ndarray=np.ndarray, copyto_unchecked=copy_unsafe,
                       astype=lambda x, dt, copy=False: x.astype(dt, copy=copy)),
        copying: dict(copyto_unchecked=copy_unsafe),
        _filters: dict(_copyto=copy_unsafe, ndarray=lambda shape, dt: np.empty(shape, dt)),
        _morphology: dict(_from_host=np.asarray),
        fk: dict(filter1d=f1, filternd=fn, rank=rk),
        _rank_tile: dict(rank_tile=rt),
    }


@pytest.fixture(scope="module")
def host_ndimage(ndimage_standins):
    """scipy.ndimage's copy (every module of it copied) over NumPy arrays, the kernels as models
    (one for the file: nothing of it is patched)."""
    from cuarray.scipy import ndimage

    return host_packages([ndimage], ndimage_standins)[ndimage]


W4 = RNG.normal(size=4)
W23 = RNG.normal(size=(2, 3))
FP = np.array([[1, 0, 1], [1, 1, 0]], bool)
CASES = [
    ("correlate1d", (W4,), dict(axis=0, mode="mirror", origin=1)),
    ("correlate1d", (W4 + 1j,), dict(axis=1, mode="wrap")),
    ("convolve1d", (W4,), dict(axis=-1, mode="constant", cval=2.0, origin=-2)),
    ("convolve1d", (W4[:3],), dict(axis=0, mode="nearest", origin=1)),
    ("correlate", (W23,), dict(mode="reflect", origin=(0, 1))),
    ("convolve", (W23,), dict(mode="constant", cval=1.0, origin=(-1, 0))),
    ("convolve", (W23[0] - 2j,), dict(axes=1)),
    ("gaussian_filter1d", (1.3,), dict(axis=0, order=2)),
    ("gaussian_filter", (1.1,), dict(order=(1, 0), mode=("wrap", "nearest"))),
    ("gaussian_filter", ((0.0, 2.0),), dict(radius=3)),
    ("uniform_filter", ((3, 4),), dict(origin=(1, -1), mode="mirror")),
    ("uniform_filter1d", (4,), dict(axis=0, origin=1)),
    ("minimum_filter", ((2, 3),), dict(mode="constant", cval=0.5, origin=(0, 1))),
    ("maximum_filter", (), dict(footprint=FP, mode="wrap", origin=(-1, 0))),
    ("maximum_filter1d", (4,), dict(axis=1, origin=-2)),
    ("median_filter", (3,), dict(mode="nearest")),
    ("rank_filter", (2,), dict(footprint=FP, origin=(0, -1))),
    ("rank_filter", (-1,), dict(size=(2, 2))),
    ("percentile_filter", (70,), dict(size=(3, 2), mode="constant", cval=1.0)),
    ("percentile_filter", (-10,), dict(size=3, axes=(1,))),
    ("sobel", (0,), dict(mode="constant")),
    ("prewitt", (-1,), dict(mode=["wrap", "reflect"])),
    ("laplace", (), dict(mode="nearest")),
    ("gaussian_laplace", (1.2,), dict()),
    ("gaussian_gradient_magnitude", ((1.0, 0.7),), dict(mode="mirror", truncate=3.0)),
]


@pytest.mark.parametrize("dtype", ["uint8", "int32", "float32", "float64", "complex128"])
@pytest.mark.parametrize("name,args,kw", CASES, ids=[c[0] + str(i) for i, c in enumerate(CASES)])
def test_public_filters_plan_like_scipy(host_ndimage, name, args, kw, dtype):
    x = (RNG.normal(size=(7, 9)) * 20)
    x = x + 1j * RNG.normal(size=x.shape) if dtype == "complex128" else x
    x = x.astype(dtype) if dtype != "uint8" else np.abs(x).astype(dtype)
    try:
        ref = getattr(snd, name)(x, *args, **kw)
    except Exception as exc:  # noqa: BLE001 -- the same exception type is the check
        with pytest.raises(type(exc)):
            getattr(host_ndimage, name)(x, *args, **kw)
        return
    got = getattr(host_ndimage, name)(x, *args, **kw)
    assert got.dtype == ref.dtype and got.shape == ref.shape
    if ref.dtype.kind in "iu":
        np.testing.assert_allclose(got.astype(float), ref.astype(float), atol=1)
    else:
        np.testing.assert_allclose(got, ref, rtol=1e-10, atol=1e-9)


def test_public_output_argument_on_host(host_ndimage):
    x = RNG.normal(size=(6, 8))
    out = np.empty((8, 6)).T
    res = host_ndimage.gaussian_filter(x, 1.0, output=out)
    assert res is out
    np.testing.assert_allclose(out, snd.gaussian_filter(x, 1.0))
    assert host_ndimage.uniform_filter(x, 3, output=np.float32).dtype == np.float32
    with pytest.raises(RuntimeError):
        host_ndimage.uniform_filter(x, 3, output=np.empty((2, 2)))


# -- morphology on the same host models ----------------------------------------------------------------
S3 = np.array([[0, 1, 1], [1, 1, 0], [0, 1, 0]], bool)
S2 = np.array([[1, 1], [0, 1]], bool)
MORPH = [
    ("binary_erosion", (), dict()),
    ("binary_erosion", (S3,), dict(border_value=1, origin=(1, -1))),
    ("binary_erosion", (S2,), dict(iterations=2)),
    ("binary_erosion", (None,), dict(iterations=0)),
    ("binary_dilation", (S3,), dict(origin=(0, 1))),
    ("binary_dilation", (S2,), dict(iterations=3, border_value=1)),
    ("binary_opening", (S3,), dict()),
    ("binary_closing", (None,), dict(iterations=2)),
    ("binary_hit_or_miss", (S3,), dict()),
    ("binary_hit_or_miss", (S2, ~S2), dict(origin1=(0, 0), origin2=(-1, 0))),
    ("binary_fill_holes", (), dict()),
    ("grey_erosion", (), dict(size=(3, 2), mode="constant", cval=3)),
    ("grey_erosion", (), dict(footprint=S3, mode="wrap")),
    ("grey_dilation", (), dict(structure=np.array([[1, 0, 2], [0, 1, 0]]), mode="nearest")),
    ("grey_dilation", (), dict(footprint=S2, origin=(1, 0))),
    ("grey_opening", (), dict(size=3)),
    ("grey_closing", (), dict(footprint=S3, mode="mirror")),
    ("morphological_gradient", (), dict(size=(2, 3))),
    ("morphological_laplace", (), dict(footprint=S3)),
    ("white_tophat", (), dict(size=3)),
    ("black_tophat", (), dict(structure=np.array([[1, 0], [3, 1]]))),
]


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int32", "float64"])
@pytest.mark.parametrize("name,args,kw", MORPH, ids=[c[0] + str(i) for i, c in enumerate(MORPH)])
def test_morphology_plan_like_scipy(host_ndimage, name, args, kw, dtype):
    if dtype == "bool":
        if "structure" in kw:
            pytest.skip("grey morphology with structure values on a bool image: C's bool arithmetic")
        x = RNG.random((9, 11)) < 0.6
    else:  # in [0, 200]: a structure's values added to uint8 must not overflow (C's undefined cast)
        x = np.clip(RNG.normal(size=(9, 11)) * 20 + 30, 0, 200).astype(dtype)
    if name.startswith("binary"):
        x = x if dtype == "bool" else (x > 30).astype(dtype)
    try:
        ref = getattr(snd, name)(x, *args, **kw)
    except Exception as exc:  # noqa: BLE001 -- the same exception type is the check
        with pytest.raises(type(exc)):
            getattr(host_ndimage, name)(x, *args, **kw)
        return
    got = getattr(host_ndimage, name)(x, *args, **kw)
    assert got.dtype == ref.dtype and got.shape == ref.shape
    np.testing.assert_array_equal(got, ref)


def test_binary_mask_and_propagation(host_ndimage):
    x = RNG.random((12, 10)) < 0.1
    mask = RNG.random((12, 10)) < 0.7
    np.testing.assert_array_equal(host_ndimage.binary_propagation(x, mask=mask), snd.binary_propagation(x, mask=mask))
    np.testing.assert_array_equal(host_ndimage.binary_dilation(x, iterations=2, mask=mask),
                                  snd.binary_dilation(x, iterations=2, mask=mask))
    y = RNG.random((12, 10)) < 0.7
    np.testing.assert_array_equal(host_ndimage.binary_erosion(y, iterations=2, mask=mask),
                                  snd.binary_erosion(y, iterations=2, mask=mask))


@pytest.mark.parametrize("rank,conn", [(1, 1), (2, 1), (2, 2), (3, 2), (0, 1)])
def test_structures(host_ndimage, rank, conn):
    np.testing.assert_array_equal(host_ndimage.generate_binary_structure(rank, conn),
                                  snd.generate_binary_structure(rank, conn))
    s = snd.generate_binary_structure(max(rank, 1), conn)
    for it in (1, 2, 3):
        np.testing.assert_array_equal(host_ndimage.iterate_structure(s, it), snd.iterate_structure(s, it))
    got, o = host_ndimage.iterate_structure(s, 3, origin=1)
    ref, ro = snd.iterate_structure(s, 3, origin=1)
    np.testing.assert_array_equal(got, ref)
    assert list(o) == list(ro)


def _hit_or_miss_cases():
    """CuPy's binary_hit_or_miss parametrisations (with axes: the default structure over one axis
    has an all-false complement) and more: asymmetric and even structures, origin2 alone."""
    s3 = np.array([[0, 1, 1], [1, 0, 0], [0, 1, 0]], bool)
    s2 = np.array([[1, 0], [1, 1]], bool)
    for shape in [(16, 15), (5, 7, 9)]:
        for axes in [(0, 1), (0, -1), (-2, -1), (1,), None]:
            n = len(shape) if axes is None else len(axes)
            for origin in [(0, 0, 0), (0, 1, -1)]:
                yield shape, dict(axes=axes, origin1=origin[:n], origin2=origin[:n])
    for kw in [dict(structure1=s3, origin1=(0, 1), origin2=(-1, 0)), dict(structure1=s3, structure2=~s3, origin1=1),
               dict(structure1=s2), dict(structure1=s2, origin2=(-1, 0)), dict(structure1=s2, structure2=s2.T),
               dict(structure1=np.ones((1, 3), bool), origin1=(0, -1)), dict(structure1=np.ones((3, 3), bool)),
               dict(structure1=np.zeros((3, 3), bool), structure2=s3)]:
        yield (9, 11), kw


@pytest.mark.parametrize("shape,kw", list(_hit_or_miss_cases()))
def test_hit_or_miss_grid_like_scipy(host_ndimage, shape, kw):
    # an empty structure (here the complement of the one-axis default) is true everywhere
    # after erosion (SciPy's loop over no offsets), which the kernel's empty minimum was not
    x = np.random.default_rng(5).normal(size=shape) > 0.5
    np.testing.assert_array_equal(host_ndimage.binary_hit_or_miss(x, **kw), snd.binary_hit_or_miss(x, **kw),
                                  err_msg=str(kw))


@pytest.mark.parametrize("name", ["binary_erosion", "binary_dilation", "binary_opening", "binary_closing"])
@pytest.mark.parametrize("kw", [dict(), dict(iterations=0), dict(border_value=1, iterations=2),
                                dict(mask="mask"), dict(axes=(1,))])
def test_empty_structure_like_scipy(host_ndimage, name, kw):
    x = RNG.random((8, 9)) < 0.5
    kw = dict(kw, mask=RNG.random((8, 9)) < 0.5) if "mask" in kw else kw
    st = np.zeros((3,) * (1 if "axes" in kw else 2), bool)
    np.testing.assert_array_equal(getattr(host_ndimage, name)(x, st, **kw), getattr(snd, name)(x, st, **kw))


@pytest.mark.parametrize("name", ["binary_erosion", "binary_dilation", "binary_opening", "binary_closing",
                                  "binary_propagation"])
@pytest.mark.parametrize("structure", [2, (3, 1), (1, 3), (2, 4), np.int64(3)])
def test_structure_shape_shorthand(host_ndimage, name, structure):
    # cupyx's int or tuple structure, the all-true structure of that shape, where SciPy refuses it
    x = RNG.random((8, 9)) < 0.6
    with pytest.raises((RuntimeError, IndexError)):
        getattr(snd, name)(x, structure)
    full = np.ones((structure,) * 2 if np.ndim(structure) == 0 else structure, bool)
    for kw in (dict(), dict(border_value=1)):
        np.testing.assert_array_equal(getattr(host_ndimage, name)(x, structure, **kw),
                                      getattr(snd, name)(x, full, **kw))
    # where SciPy takes the value as a structure (a 1-tuple or a list over one axis), SciPy's meaning
    y = RNG.random(12) < 0.6
    for st in ((1,), [1, 1, 0], (True, True, True)):  # (with the centre: propagation without it can cycle)
        np.testing.assert_array_equal(getattr(host_ndimage, name)(y, st), getattr(snd, name)(y, st))


def test_which_cvals_make_an_integer_min_max_rank_filter_compare_in_double():
    from cuarray.scipy.ndimage._support import compares_in_double as f
    u8, i8, f4 = np.dtype(np.uint8), np.dtype(np.int8), np.dtype(np.float32)
    assert not any(f(u8, c) for c in (0, 255, 7.0, np.uint8(3), True))
    assert all(f(u8, c) for c in (-1.0, 256, 0.5, -0.5, np.nan, np.inf, -np.inf, 1e10))
    assert not f(i8, -128) and f(i8, -129) and f(np.dtype(bool), 2) and not f(np.dtype(bool), 1)
    assert not f(f4, -1.0) and not f(f4, 0.5)  # float inputs already compare in their own type
