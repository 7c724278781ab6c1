"""What programs written for cupyx.scipy.ndimage pass, without a device: cupyx's keywords
(affine_transform's texture_memory and float64_coords, distance_transform_edt's block_params and
float64_distances, value_indices' adaptive_index_dtype) with cupyx's argument errors and SciPy's
values; the measurements' errors and result types against SciPy for scalar, list, array, 0-d and no
index; and the host-input rule (docs/scipy.md, "Host inputs") at each public function's data and
parameter arguments. NumPy arrays stand for cuarray arrays (`cuarray.testing.fake_device`'s host
copies of the modules); the kernels are the host models of the neighbouring tests."""

import numpy as np
import pytest
import scipy.ndimage as snd
from test_ndimage_interp_cpu import host_interp, lib  # noqa: F401  (fixtures; tests/scipy/ndimage on sys.path)
from test_ndimage_stats_cpu import stats_standins

import cuarray
from cuarray.scipy import ndimage as cnd
from cuarray.scipy.ndimage import _edt
from cuarray.testing.fake_device import host_modules, host_packages

RNG = np.random.default_rng(11)


# -- affine_transform(texture_memory=True): cupyx's checks, SciPy's order-0/1 values -----------------------
def _rotation(theta, shape):
    """CuPy's test matrices: a rotation by theta degrees about the centre, homogeneous, float32."""
    n = len(shape)
    c, s = np.cos(np.radians(theta)), np.sin(np.radians(theta))
    centre = (np.asarray(shape) - 1) / 2
    t, r, back = np.eye(n + 1), np.eye(n + 1), np.eye(n + 1)
    t[:n, n], back[:n, n] = centre, -centre
    r[n - 2:n, n - 2:n] = [[c, -s], [s, c]]
    return (t @ r @ back).astype(np.float32)


@pytest.mark.parametrize("shape", [(10, 20), (6, 7, 8)])
@pytest.mark.parametrize("order,scipy_order", [(0, 0), (1, 1), (3, 1)])
@pytest.mark.parametrize("mode", ["constant", "nearest"])
@pytest.mark.parametrize("theta", [0, 90, 33])
def test_texture_memory_interpolates_as_scipy_at_order_0_or_1(host_interp, shape, order, scipy_order, mode, theta):
    # cupyx's texture unit: linear filtering for any order > 0, nearest for 0; offset and the
    # matrix's bottom row are not read
    x = RNG.random(shape).astype(np.float32)
    m = _rotation(theta, shape)
    for output, output_shape in [(None, None), (np.float32, (9,) * len(shape)), ("array", None)]:
        out = np.zeros(shape, np.float32) if output == "array" else output
        got = host_interp.affine_transform(x, m, offset=5.0, output_shape=output_shape, output=out, order=order,
                                           mode=mode, cval=0.5, texture_memory=True)
        ref = snd.affine_transform(x, m, output_shape=output_shape, order=scipy_order, mode=mode, cval=0.5)
        assert got.dtype == np.float32 and (out is None or output != "array" or got is out)
        np.testing.assert_allclose(got, ref, rtol=1e-6, atol=1e-6)


def test_texture_memory_argument_errors_are_cupyxs(host_interp):
    aft = host_interp.affine_transform
    x = {n: np.ones((8,) * n, np.float32) for n in range(1, 5)}
    bad = [(x[1], np.eye(2, dtype=np.float32), {}), (x[4], np.eye(5, dtype=np.float32), {})]  # rank
    bad += [(np.ones((8, 8), dt), np.eye(3, dtype=np.float32), {}) for dt in (np.float64, np.int32, np.int64)]
    bad += [(x[n], np.eye(n), {}) for n in (2, 3)]  # matrix shape
    bad += [(x[3], np.eye(4), dict(output="wrong")), (x[3], np.eye(4), dict(output=np.float64))]
    bad += [(x[2], np.eye(3), dict(mode=m)) for m in ("mirror", "reflect", "wrap", "grid-mirror", "grid-wrap",
                                                        "grid-constant")]
    bad += [(x[3], np.eye(4), dict(output_shape=(8, 8, 8), output=np.empty((7, 7, 7), np.float32))),
            (x[3], np.eye(4), dict(output=np.empty((7, 7, 7), np.float32)))]
    for a, m, kw in bad:
        with pytest.raises(ValueError):
            aft(a, m, texture_memory=True, **kw)
    # float64_coords: accepted either way; the coordinates are float64 here as in SciPy
    y = RNG.random((7, 9))
    for f64 in (False, True):
        np.testing.assert_allclose(aft(y, np.array([[0.9, 0.1], [-0.2, 1.1]]), 0.3, float64_coords=f64, order=1),
                                   snd.affine_transform(y, np.array([[0.9, 0.1], [-0.2, 1.1]]), 0.3, order=1),
                                   rtol=1e-12)


# -- distance_transform_edt(block_params=..., float64_distances=...) ----------------------------------------
@pytest.mark.parametrize("shape", [(1024, 1024), (1027, 1025)])
@pytest.mark.parametrize("params", [None, (1, 1, 1), (5, 4, 2), (3, 8, 4), (7, 16, 1), (11, 32, 3), (1, 1, 16)])
def test_block_params_cupyx_accepts(shape, params):
    _edt.check_block_params(shape, params)


@pytest.mark.parametrize("params,shape", [(p, (512, 512)) for p in [(0, 1, 1), (1, 0, 1), (1, 1, 0), (1, 3, 1),
                                                                   (1, 5, 1), (1, 7, 1), (128, 1, 1), (1, 128, 1),
                                                                   (1, 1, 128)]]
                         + [((1, 1), (9, 9)), ((1, 2, 3, 4), (9, 9, 9)), ((0, 1, 2), (9, 9, 9))])
def test_block_params_cupyx_refuses(params, shape):
    with pytest.raises(ValueError):
        _edt.check_block_params(shape, params)


def test_block_params_take_any_three_in_3d():
    _edt.check_block_params((9, 10, 11), (3, 5, 7))


@pytest.fixture(scope="module")
def host_edt():
    """_edt's public function over NumPy arrays, its transform SciPy's (the kernels' values are the
    GPU tests' and test_ndimage_edt_cpu.py's): what is checked is the wrapping of the result."""
    from cuarray.scipy.ndimage import _support

    def distances(x, sampling, want):
        d, i = snd.distance_transform_edt(x, sampling, return_indices=True)
        return d, (i.astype(np.int64) if want else None)

    def edt(x, sampling, want):
        return (None, snd.distance_transform_edt(x, sampling, return_distances=False).astype(np.int64), False)

    return host_modules({
        _support: dict(as_array=lambda x, fn: np.asarray(x), ndarray=np.ndarray,
                       copyto_unchecked=lambda d, s: np.copyto(d, s, casting="unsafe")),
        _edt: dict(_distances=distances, _edt=edt),
    })[_edt]


@pytest.mark.parametrize("shape", [(12, 9), (5, 6, 7), (30,)])
@pytest.mark.parametrize("f64", [True, False])
def test_float64_distances_and_indices_dtypes(host_edt, shape, f64):
    x = RNG.random(shape) > 0.3
    ref_d, ref_i = snd.distance_transform_edt(x, return_indices=True)
    d = host_edt.distance_transform_edt(x, float64_distances=f64, block_params=(1, 1, 1))
    assert d.dtype == (np.float64 if f64 else np.float32)
    np.testing.assert_allclose(d, ref_d, rtol=1e-6)
    out = np.empty(shape, np.float64 if f64 else np.float32)
    for dt in (np.int32, np.int64, np.uint16, np.int16):
        idx = np.empty((len(shape),) + shape, dt)
        assert host_edt.distance_transform_edt(x, return_indices=True, distances=out, indices=idx,
                                               float64_distances=f64) is None
        np.testing.assert_array_equal(idx, ref_i)
        np.testing.assert_allclose(out, ref_d, rtol=1e-6)


def test_edt_output_array_errors(host_edt):
    x = RNG.random((8, 8)) > 0.3
    for kw in (dict(distances=np.empty((8, 8)), float64_distances=False),  # float32 distances asked
               dict(distances=np.empty((8, 8), np.float32)), dict(distances=np.empty((8, 8), np.int32)),
               dict(distances=np.empty((8, 8, 2))), dict(return_indices=True, indices=np.empty((2, 8, 8))),
               dict(return_indices=True, indices=np.empty((2, 8, 8), np.int8)[:, :1]),
               dict(return_indices=True, indices=np.empty((2, 300, 300), np.int8)),
               dict(distances=np.empty((8, 8)), return_distances=False, return_indices=True)):
        with pytest.raises(RuntimeError):
            host_edt.distance_transform_edt(x if "300" not in str(kw) else np.ones((300, 300)), **kw)


# -- the measurements: SciPy's errors and result types ---------------------------------------------------
@pytest.fixture(scope="module")
def host_stats():
    from cuarray.scipy import ndimage
    from cuarray.scipy.ndimage import _measurements

    return host_packages([ndimage], stats_standins(), {_measurements: dict(
        _argsort_stable=lambda a: np.argsort(a, kind="stable"), _concat_true=lambda a: np.concatenate(([True], a)),
        _nonzero=np.nonzero)})[ndimage]


def _close(got, ref):
    if isinstance(ref, (list, tuple)):
        for g, r in zip(got, ref):
            _close(g, r)
    else:
        np.testing.assert_allclose(np.asarray(got, float), np.asarray(ref, float), rtol=1e-12)


def _kind(v):
    """A result's structure and types (NumPy scalars and 0-d arrays alike: cuarray returns 0-d
    device arrays where SciPy returns NumPy scalars)."""
    if isinstance(v, (list, tuple)):
        return type(v).__name__, [_kind(e) for e in v]
    a = np.asarray(v)
    return "array", a.dtype.str, a.shape


INDICES = {"none": None, "int": 2, "numpy int": np.int32(1), "list": [1, 2], "tuple": (2, 3), "array": np.array([3, 1]),
           "2-d array": np.array([[1, 2], [3, 0]]), "one": [2]}


@pytest.mark.parametrize("index", list(INDICES), ids=list(INDICES))
@pytest.mark.parametrize("labels", ["full", "broadcast", "none"])
@pytest.mark.parametrize("name", ["sum_labels", "mean", "variance", "standard_deviation", "minimum", "maximum",
                                  "median", "minimum_position", "maximum_position", "extrema", "center_of_mass"])
def test_measurement_results_are_scipys(host_stats, name, labels, index):
    x = RNG.permutation(16 * 6).reshape(16, 6).astype(np.float64)
    lab = {"full": RNG.integers(0, 4, (16, 6)), "broadcast": np.array([1, 0, 2, 2, 3, 0]), "none": None}[labels]
    idx = INDICES[index]
    try:
        ref = getattr(snd, name)(x, lab, idx)
    except Exception as exc:  # noqa: BLE001 -- SciPy's exception type is the check
        with pytest.raises(type(exc)):
            getattr(host_stats, name)(x, lab, idx)
        return
    got = getattr(host_stats, name)(x, lab, idx)
    assert _kind(got) == _kind(ref)
    _close(got, ref)


def test_center_of_mass_of_a_broadcast_input_uses_its_own_grid(host_stats):
    # SciPy weighs the input by the coordinates of its own shape before labels broadcast it
    x, lab = RNG.random(6), RNG.integers(0, 3, (5, 6))
    for idx in (None, 1, [1, 2]):
        got, ref = host_stats.center_of_mass(x, lab, idx), snd.center_of_mass(x, lab, idx)
        assert _kind(got) == _kind(ref)
        _close(got, ref)
    with pytest.raises(IndexError):  # a 0-d input has no coordinate, as in SciPy
        host_stats.center_of_mass(np.array(1.0), np.array(1), [1, 2])


def test_zero_d_index_is_a_scalar_index(host_stats):
    # SciPy reads a 0-d index as a scalar where it answers (minimum, median, positions); its sums
    # fail on one (a NumPy scalar is not assignable), cuarray answers as for the scalar
    x, lab = RNG.random((5, 6)), RNG.integers(0, 3, (5, 6))
    for name in ("minimum", "maximum", "median", "minimum_position", "extrema"):
        got, ref = getattr(host_stats, name)(x, lab, np.array(2)), getattr(snd, name)(x, lab, np.array(2))
        assert _kind(got) == _kind(ref), name
    for name in ("sum_labels", "mean", "variance", "center_of_mass"):
        np.testing.assert_allclose(np.asarray(getattr(host_stats, name)(x, lab, np.array(2)), float),
                                   np.asarray(getattr(snd, name)(x, lab, 2), float), rtol=1e-12)


def test_histogram_and_labeled_comprehension_errors_are_scipys(host_stats):
    x, lab = RNG.random((5, 6)), RNG.integers(0, 4, (5, 6))
    for index in (1, [1, 2], np.array([0, 3])):
        with pytest.raises(ValueError, match="index without defined labels"):
            snd.histogram(x, 0, 1, 4, None, index)
        with pytest.raises(ValueError, match="index without defined labels"):
            host_stats.histogram(x, 0, 1, 4, None, index)
    for index in ([1.5, 2], np.array([300]), [-1]):
        lab8 = lab.astype(np.uint8)
        with pytest.raises(ValueError, match="without loss of precision"):
            snd.labeled_comprehension(x, lab8, index, np.sum, float, 0.0)
        with pytest.raises(ValueError, match="without loss of precision"):
            host_stats.labeled_comprehension(x, lab8, index, np.sum, float, 0.0)
    # a float index that converts exactly is SciPy's label
    np.testing.assert_allclose(host_stats.labeled_comprehension(x, lab, [1.0, 3.0], np.sum, float, 0.0),
                               snd.labeled_comprehension(x, lab, [1.0, 3.0], np.sum, float, 0.0))
    got = host_stats.histogram(x, 0, 1, 4, lab, np.array(2))  # a 0-d index: SciPy's one-element object array
    ref = snd.histogram(x, 0, 1, 4, lab, np.array(2))
    assert got.dtype == ref.dtype == object and got.shape == ref.shape == (1,)
    np.testing.assert_array_equal(got[0], ref[0])


@pytest.mark.parametrize("shape", [(500,), (22, 24), (4, 6, 8, 10), ()])
def test_value_indices_adaptive_index_dtype(host_stats, shape):
    a = RNG.integers(0, 5, size=shape).astype(np.int16)
    ref = getattr(snd.value_indices, "__wrapped__", snd.value_indices)(a, ignore_value=3)
    small = np.min_scalar_type(-(max(shape, default=0) + 1))
    for adaptive, dt in ((True, small), (False, np.int64)):
        got = host_stats.value_indices(a, ignore_value=3, adaptive_index_dtype=adaptive)
        assert list(got) == list(ref)
        for k in ref:
            assert all(g.dtype == dt for g in got[k])
            for g, r in zip(got[k], ref[k]):
                np.testing.assert_array_equal(g, r)


# -- the host-input rule -----------------------------------------------------------------------------
X2 = RNG.random((6, 7))
SHIFT = r"""extern "C" __global__ void shift(const double* in, ptrdiff_t n, double* out, ptrdiff_t m) {
  for (ptrdiff_t i = 0; i < m; ++i) out[i] = in[i];
}"""
W3 = np.ones((3, 3))
DATA_CALLS = {
    "uniform_filter": lambda m, x: m.uniform_filter(x, 3),
    "correlate": lambda m, x: m.correlate(x, W3),
    "gaussian_filter": lambda m, x: m.gaussian_filter(x, 1.0),
    "median_filter": lambda m, x: m.median_filter(x, 3),
    "generic_filter1d": lambda m, x: m.generic_filter1d(x, cuarray.RawKernel(SHIFT, "shift"), 3),
    "binary_erosion": lambda m, x: m.binary_erosion(x),
    "grey_dilation": lambda m, x: m.grey_dilation(x, size=3),
    "label": lambda m, x: m.label(x),
    "find_objects": lambda m, x: m.find_objects(x.astype(int)),
    "sum_labels": lambda m, x: m.sum_labels(x),
    "zoom": lambda m, x: m.zoom(x, 2),
    "shift": lambda m, x: m.shift(x, 1),
    "map_coordinates": lambda m, x: m.map_coordinates(x, [[1.0], [2.0]]),
    "fourier_gaussian": lambda m, x: m.fourier_gaussian(x, 1.0),
    "distance_transform_edt": lambda m, x: m.distance_transform_edt(x),
    "distance_transform_cdt": lambda m, x: m.distance_transform_cdt(x),
    "value_indices": lambda m, x: m.value_indices(x.astype(int)),
    "vectorized_filter": lambda m, x: m.vectorized_filter(x, np.mean, size=3),
    "watershed_ift": lambda m, x: m.watershed_ift(x.astype(np.uint8), x.astype(np.int8)),
}


@pytest.mark.parametrize("name", list(DATA_CALLS))
def test_numpy_images_are_refused(name):
    # the data a function computes on must be on the device (a Python list would be copied)
    with pytest.raises(TypeError, match="cuarray.asarray"):
        DATA_CALLS[name](cnd, X2)


@pytest.mark.parametrize("call", [
    lambda m, x: m.binary_erosion(x, mask=np.ones((6, 7), bool)),
    lambda m, x: m.sum_labels(x, np.ones((6, 7), int), [1]),
    lambda m, x: m.map_coordinates(x, np.zeros((2, 3))),
], ids=["mask", "labels", "coordinates"])
def test_numpy_data_beside_the_image_is_refused(call):
    # masks, labels and coordinates are data too; here the image is a stand-in device array
    from cuarray.scipy import ndimage
    from cuarray.scipy.ndimage import _support

    class Device(np.ndarray):
        """A NumPy array the copied `_support` takes for a device array."""

    def as_array(x, fn):
        if isinstance(x, Device):
            return x
        return real_as_array(x, fn)

    real_as_array = _support.as_array
    m = host_packages([ndimage], {_support: dict(as_array=as_array)})[ndimage]
    with pytest.raises(TypeError, match="cuarray.asarray"):
        call(m, X2.view(Device))


class Foreign:
    """Another library's device array."""

    __cuda_array_interface__ = {"shape": (3, 3), "typestr": "<f8", "data": (0, False), "version": 3}


@pytest.mark.parametrize("value", [[[0, 1, 0], [1, 1, 1], [0, 1, 0]], ((1, 1), (1, 0)), np.ones((2, 3), bool), 5, 2.0,
                                   np.float32(3), "hann"])
def test_parameters_take_host_values(value):
    from cuarray.scipy.ndimage import _support

    np.testing.assert_array_equal(_support.host_param(value), np.asarray(value))


def test_parameters_refuse_other_libraries_arrays():
    from cuarray.scipy.ndimage import _support

    with pytest.raises(TypeError, match="cuarray.asarray"):
        _support.host_param(Foreign())
