"""Programs written for cupyx.scipy.ndimage on the device, against scipy.ndimage: CuPy's own test
cases for binary_hit_or_miss (the one-axis default structure) and generic_filter with CuPy's test
kernels, cupyx's keywords (texture_memory, float64_distances, block_params, adaptive_index_dtype),
the structure shorthand, the structures' and measurements' result types, and Python lists as data.
Fresh random data."""

import numpy as np
import pytest
import scipy.ndimage as snd

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray.scipy import ndimage as cnd  # noqa: E402

RNG = np.random.default_rng()


def _eq(got, ref, what):
    assert isinstance(got, cuarray.ndarray), (what, type(got))
    assert got.dtype == ref.dtype and got.shape == ref.shape, (what, got.dtype, ref.dtype, got.shape, ref.shape)
    g = got.get()
    bad = np.argwhere(g != ref)
    assert bad.size == 0, "{}: {} of {} differ, first at {}: {} != SciPy's {}".format(
        what, len(bad), g.size, tuple(bad[0]), g[tuple(bad[0])], ref[tuple(bad[0])])


# -- binary_hit_or_miss (CuPy's TestBinaryMorphologyAxes / TestBinaryHitOrMiss) -----------------------------
@pytest.mark.parametrize("shape,axes", [((16, 15), (1,)), ((5, 7, 9), (1,)), ((5, 7, 9), (0, -1)), ((16, 15), None)])
@pytest.mark.parametrize("density", [0.1, 0.9])
def test_hit_or_miss_axes(shape, axes, density):
    x = np.random.default_rng(5).standard_normal(shape) > density
    n = len(shape) if axes is None else len(axes)
    for origin in [(0,) * n, (0, 1, -1)[:n]]:
        kw = dict(axes=axes, origin1=origin, origin2=origin)
        _eq(cnd.binary_hit_or_miss(cuarray.asarray(x), **kw), snd.binary_hit_or_miss(x, **kw), str(kw))


def test_hit_or_miss_structures_and_origins():
    x = RNG.random((8, 8)) < 0.6
    s1 = np.array([[0, 0, 0], [1, 1, 1], [0, 0, 0]])
    s2 = np.array([[1, 1, 1], [0, 0, 0], [1, 1, 1]])
    for kw in [dict(structure1=s1, structure2=s2, origin1=(0, 1), origin2=(-1, 0)),
               dict(structure1=snd.generate_binary_structure(2, 1), origin1=(0, 1), origin2=(-1, 0)),
               dict(structure1=np.array([[1, 0], [1, 1]]), origin2=(-1, 0)), dict(structure1=np.zeros((3, 3)))]:
        _eq(cnd.binary_hit_or_miss(cuarray.asarray(x), **kw), snd.binary_hit_or_miss(x, **kw), str(kw))


@pytest.mark.parametrize("name", ["binary_erosion", "binary_dilation", "binary_propagation"])
def test_empty_structure(name):
    x = RNG.random((9, 10)) < 0.5
    for kw in (dict(), dict(mask=RNG.random((9, 10)) < 0.5)):
        got = getattr(cnd, name)(cuarray.asarray(x), np.zeros((3, 3), bool),
                                 **{k: cuarray.asarray(v) for k, v in kw.items()})
        _eq(got, getattr(snd, name)(x, np.zeros((3, 3), bool), **kw), name)


@pytest.mark.parametrize("structure", [2, (3, 1), (1, 3), (3, 3)])
@pytest.mark.parametrize("name", ["binary_erosion", "binary_dilation", "binary_opening", "binary_closing"])
def test_structure_shorthand(name, structure):
    # CuPy's TestBinaryMorphologyTupleFootprint: an int or tuple is the all-true structure's shape
    x = RNG.random((8, 8)) < 0.6
    full = np.ones((structure,) * 2 if np.ndim(structure) == 0 else structure, bool)
    for bv in (0, 1):
        _eq(getattr(cnd, name)(cuarray.asarray(x), structure, border_value=bv),
            getattr(snd, name)(x, full, border_value=bv), "{} {}".format(structure, bv))


def test_structures_are_device_arrays():
    for rank, conn in [(0, 1), (1, 1), (2, 2), (3, 1)]:
        _eq(cnd.generate_binary_structure(rank, conn), snd.generate_binary_structure(rank, conn), "generate")
    s = snd.generate_binary_structure(2, 1)
    for st in (s, cuarray.asarray(s), s.astype(int).tolist()):
        _eq(cnd.iterate_structure(st, 2), snd.iterate_structure(s, 2), "iterate")
        out, origin = cnd.iterate_structure(st, 3, 1)
        ref, ref_origin = snd.iterate_structure(s, 3, 1)
        _eq(out, ref, "iterate with origin")
        assert origin == ref_origin
    _eq(cnd.iterate_structure(cuarray.asarray(s.astype(np.int32)), 1), snd.iterate_structure(s.astype(np.int32), 1),
        "iterate once")


# -- generic_filter / generic_filter1d with CuPy's test kernels --------------------------------------------
RMS_RAW = r"""extern "C" __global__
void rms(const double* x, int filter_size, double* y) {
    double ss = 0;
    for (int i = 0; i < filter_size; ++i) { ss += x[i]*x[i]; }
    y[0] = ss/filter_size;
}"""
LT_RAW = r"""extern "C" __global__
void lt(const double* x, int filter_size, double* y) {
    int n = 0;
    double c = x[filter_size/2];
    for (int i = 0; i < filter_size; ++i) { n += c>x[i]; }
    y[0] = n;
}"""
SHIFT_RAW = r"""extern "C" __global__
void shift(const double* in, ptrdiff_t in_length,
          double* out, ptrdiff_t out_length) {
    for (int i = 0; i < out_length; ++i) { out[i] = in[i]; }
}"""


def kernels():
    return {"rms_raw": (cuarray.RawKernel(RMS_RAW, "rms"), lambda v: (v * v).sum() / len(v)),
            "lt_raw": (cuarray.RawKernel(LT_RAW, "lt"), lambda v: (v[len(v) // 2] > v).sum()),
            "rms_red": (cuarray.ReductionKernel("X x", "Y y", "x*x", "a + b", "y = a/_in_ind.size()", "0", "rms"),
                        lambda v: (v * v).sum() / len(v)),
            "lt_red": (cuarray.ReductionKernel("X x", "Y y", "_raw_x[_in_ind.size()/2]>x", "a + b", "y = a", "0",
                                               "lt", reduce_type="int"), lambda v: (v[len(v) // 2] > v).sum())}


GENERIC = [  # (kernel, input dtype, output, footprint or size, mode, cval, origin)
    ("lt_red", np.uint8, None, 3, "reflect", 0.0, 0), ("lt_red", np.uint8, np.float64, "fp", "constant", 1.0, 1),
    ("lt_red", np.float64, np.uint8, 4, "wrap", 0.0, (-1, 1, 0)), ("lt_red", np.uint16, None, "fp", "nearest", 0.0, 0),
    ("lt_red", np.float64, None, 3, "mirror", 0.0, 0), ("rms_raw", np.uint8, np.uint8, 4, "reflect", 0.0, 1),
    ("rms_raw", np.float64, None, "fp", "constant", 1.0, (-1, 0, 1)), ("rms_red", np.float64, None, 4, "nearest", 0.0, 0),
    ("rms_red", np.float64, np.float64, "fp", "reflect", 0.0, 0), ("lt_raw", np.float64, None, 3, "wrap", 0.0, 0),
]


@pytest.mark.parametrize("kname,dtype,output,fp,mode,cval,origin", GENERIC)
@pytest.mark.parametrize("shape", [(4, 5), (3, 4, 5)])
def test_generic_filter_cupy_kernels(kname, dtype, output, fp, mode, cval, origin, shape):
    kernel, pyfunc = kernels()[kname]
    x = (RNG.random(shape) * 10).astype(dtype)
    kw = dict(mode=mode, cval=cval, origin=origin if np.ndim(origin) == 0 else origin[:len(shape)], output=output)
    if fp == "fp":
        foot = RNG.random((3,) * len(shape)) > 0.5
        foot.flat[0] = True
        kw["footprint"] = foot
    else:
        kw["size"] = fp
    got = cnd.generic_filter(cuarray.asarray(x), kernel, **{k: v for k, v in kw.items()})
    ref = snd.generic_filter(x, pyfunc, **kw)
    assert got.dtype == ref.dtype and got.shape == ref.shape, (kname, got.dtype, ref.dtype)
    np.testing.assert_allclose(got.get(), ref, rtol=1e-5, atol=1e-5, err_msg="{} {}".format(kname, kw))


@pytest.mark.parametrize("dtype,output", [(np.uint8, None), (np.float64, np.uint8), (np.float64, None)])
@pytest.mark.parametrize("axis,origin,mode", [(0, 0, "reflect"), (-1, 1, "constant"), (1, -1, "wrap")])
def test_generic_filter1d_cupy_kernel(dtype, output, axis, origin, mode):
    x = (RNG.random((3, 4, 5)) * 10).astype(dtype)
    kw = dict(axis=axis, origin=origin, mode=mode, cval=1.0, output=output)
    got = cnd.generic_filter1d(cuarray.asarray(x), cuarray.RawKernel(SHIFT_RAW, "shift"), 3, **kw)

    def shift(src, dst):
        dst[:] = src[:dst.size]

    np.testing.assert_allclose(got.get(), snd.generic_filter1d(x, shift, 3, **kw), rtol=1e-6)


# -- cupyx's keywords ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("shape", [(10, 20), (10, 10, 10)])
@pytest.mark.parametrize("order", [0, 1])
@pytest.mark.parametrize("mode", ["constant", "nearest"])
def test_affine_transform_texture_memory(shape, order, mode):
    # CuPy's TestAffineTransformTextureMemory: rotations about the centre, against SciPy
    n = len(shape)
    c, s = 0.0, 1.0  # 90 degrees
    centre = (np.asarray(shape) - 1) / 2
    t, r, back = np.eye(n + 1), np.eye(n + 1), np.eye(n + 1)
    t[:n, n], back[:n, n] = centre, -centre
    r[n - 2:n, n - 2:n] = [[c, -s], [s, c]]
    m = (t @ r @ back).astype(np.float32)
    x = RNG.random(shape).astype(np.float32)
    for output, output_shape in [(None, None), (np.float32, (10,) * n), ("empty", None)]:
        out = cuarray.empty(shape, np.float32) if output == "empty" else output
        got = cnd.affine_transform(cuarray.asarray(x), cuarray.asarray(m), output_shape=output_shape, output=out,
                                   order=order, mode=mode, texture_memory=True)
        ref = snd.affine_transform(x, m, output_shape=output_shape, order=order, mode=mode)
        assert got.dtype == np.float32 and got.shape == ref.shape
        np.testing.assert_allclose(got.get(), ref, atol=1e-5)
    with pytest.raises(ValueError):
        cnd.affine_transform(cuarray.asarray(x.astype(np.float64)), m, texture_memory=True)


def test_affine_transform_float64_coords():
    x = RNG.random((9, 11)).astype(np.float32)
    m = np.array([[0.9, 0.2], [-0.1, 1.05]])
    for f64 in (False, True):
        np.testing.assert_allclose(cnd.affine_transform(cuarray.asarray(x), m, 0.5, float64_coords=f64).get(),
                                   snd.affine_transform(x, m, 0.5), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("shape", [(256, 128), (1025, 1024), (14, 32, 50)])
def test_distance_transform_edt_cupyx_keywords(shape):
    x = RNG.random(shape) > 0.05
    ref, ref_i = snd.distance_transform_edt(x, return_indices=True)
    d = cuarray.asarray(x)
    for bp in (None, (1, 1, 1)):
        got = cnd.distance_transform_edt(d, block_params=bp, float64_distances=False)
        assert got.dtype == np.float32
        np.testing.assert_allclose(got.get(), ref, rtol=1e-6)
        np.testing.assert_allclose(cnd.distance_transform_edt(d, block_params=bp).get(), ref, rtol=1e-12)
    with pytest.raises(ValueError):
        cnd.distance_transform_edt(d, block_params=(0, 1, 1))
    for dt in (np.int64, np.int32, np.uint32) + ((np.int16,) if len(shape) == 2 else ()):
        idx = cuarray.empty((len(shape),) + shape, dt)
        dist = cuarray.empty(shape, np.float32)
        assert cnd.distance_transform_edt(d, return_indices=True, indices=idx, distances=dist,
                                          float64_distances=False) is None
        np.testing.assert_allclose(dist.get(), ref, rtol=1e-6)
        # equidistant background elements may be named differently (as in cupyx): the distances agree
        back = np.linalg.norm(np.indices(shape) - idx.get().astype(np.int64), axis=0)
        np.testing.assert_allclose(back, ref, rtol=1e-12)
        assert (idx.get() == ref_i).mean() > 0.95


@pytest.mark.parametrize("shape", [(500,), (220, 240), (4, 6, 8, 10)])
def test_value_indices_adaptive_index_dtype(shape):
    a = RNG.integers(0, 32, size=shape).astype(np.int32)
    ref = getattr(snd.value_indices, "__wrapped__", snd.value_indices)(a, ignore_value=5)
    got = cnd.value_indices(cuarray.asarray(a), ignore_value=5, adaptive_index_dtype=True)
    assert list(got) == list(ref)
    for k in ref:
        for g, r in zip(got[k], ref[k]):
            assert g.dtype.itemsize < r.dtype.itemsize and g.dtype.kind == "i"
            np.testing.assert_array_equal(g.get(), r)


# -- measurements (CuPy's TestStats: broadcast labels, scalar index) ------------------------------------
@pytest.mark.parametrize("dtype", [np.bool_, np.uint8, np.int32, np.float32, np.float64])
@pytest.mark.parametrize("name", ["sum", "mean", "variance", "standard_deviation", "center_of_mass", "sum_labels"])
def test_broadcast_labels(name, dtype):
    x = np.arange(16 * 6).reshape(16, 6).astype(dtype) if dtype != np.bool_ else RNG.random((16, 6)) > 0.5
    labels = np.array([1, 0, 2, 2, 2, 0], np.int32)
    for index in (None, 2, [1, 2]):
        ref = getattr(snd, name)(x, labels, index)
        got = getattr(cnd, name)(cuarray.asarray(x), cuarray.asarray(labels), index)
        if name == "center_of_mass":
            assert type(got) is type(ref) and len(got) == len(ref), (type(got), type(ref))
            np.testing.assert_allclose(np.asarray(got, float), np.asarray(ref, float), rtol=1e-6)
        else:
            np.testing.assert_allclose(got.get(), ref, rtol=1e-5)
    with pytest.raises(ValueError):
        cnd.histogram(cuarray.asarray(x.astype(float)), 0, 10, 5, None, cuarray.asarray([0, 2]))


# -- host inputs: Python lists are data, NumPy arrays parameters ---------------------------------------------
def test_python_lists_as_data_and_numpy_parameters():
    img = [[0, 1, 1, 0], [1, 1, 0, 0], [0, 0, 1, 1]]
    a = np.array(img)
    _eq(cnd.uniform_filter(img, 3), snd.uniform_filter(a, 3), "uniform_filter")
    _eq(cnd.correlate(img, np.ones((2, 2))), snd.correlate(a, np.ones((2, 2))), "correlate")
    _eq(cnd.label(img)[0], snd.label(a)[0].astype(np.int32), "label")
    _eq(cnd.binary_erosion(img, np.ones((1, 2))), snd.binary_erosion(a, np.ones((1, 2))), "binary_erosion")
    _eq(cnd.binary_dilation(cuarray.asarray(a), mask=img), snd.binary_dilation(a, mask=a), "mask")
    np.testing.assert_allclose(cnd.sum_labels(img, img, np.array([1])).get(), snd.sum_labels(a, a, [1]))
    d = cuarray.asarray(a.astype(float))
    np.testing.assert_allclose(cnd.map_coordinates(d, [[0.5, 1.0], [1.5, 2.0]], order=1).get(),
                               snd.map_coordinates(a.astype(float), [[0.5, 1.0], [1.5, 2.0]], order=1))
    # per-axis parameters on the device are read on the host
    np.testing.assert_allclose(cnd.gaussian_filter(d, cuarray.asarray([1.0, 0.5])).get(),
                               snd.gaussian_filter(a.astype(float), [1.0, 0.5]), rtol=1e-6)
    np.testing.assert_allclose(cnd.zoom(d, cuarray.asarray([2.0, 1.5]), order=1).get(),
                               snd.zoom(a.astype(float), [2.0, 1.5], order=1), rtol=1e-6, atol=1e-12)
    with pytest.raises(TypeError, match="cuarray.asarray"):
        cnd.uniform_filter(a, 3)
