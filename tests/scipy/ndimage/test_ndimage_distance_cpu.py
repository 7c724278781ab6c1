"""distance_transform_cdt / distance_transform_bf (cuarray/scipy/ndimage/_distance.py) without a
device (distance_transform_edt's no-background result, now written by its kernels' last pass, is
checked in test_ndimage_edt_cpu.py and test_ndimage_edt_warp_cpu.py): the modules' array operations
replaced by NumPy's (the routines are composed of ufuncs, where, take and cumulative minima, so the
algorithm itself runs here), against scipy.ndimage: distances and indices exactly for cdt (random
structures included), distances for bf, SciPy's argument errors, and the signatures."""

import inspect
import types

import numpy as np
import pytest
import scipy.ndimage as snd

from cuarray.scipy import ndimage as cnd
from cuarray.scipy.ndimage import _distance as D
from cuarray.scipy.ndimage import _support as S
from cuarray.testing.fake_device import host_modules

RNG = np.random.default_rng(50)


def _finish(result, output):
    if output is not None and isinstance(output, np.ndarray):
        output[...] = result
        return output
    return result


@pytest.fixture(scope="module")
def host():
    """The module's private copy (nothing of cuarray patched), NumPy standing in for the device
    operations."""
    shim = types.SimpleNamespace(as_array=lambda x, fn: np.asarray(x), is_array=lambda x: isinstance(x, np.ndarray),
                                 finish=_finish, normalize_sequence=S.normalize_sequence,
                                 host_param=lambda w, dtype=None: np.asarray(w, dtype))
    return host_modules({
        D: dict(_arange=np.arange, _take=np.take, _minimum=np.minimum, _where=np.where, _empty=np.empty, _s=shim)})[D]


SHAPES = [(1,), (7,), (40,), (5, 6), (13, 17), (1, 9), (4, 5, 6), (3, 1, 7), (2, 3, 2, 3)]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("density", [0.02, 0.3, 0.9, 1.0])
@pytest.mark.parametrize("metric", ["chessboard", "taxicab", "cityblock", "random"])
def test_cdt_like_scipy(host, shape, density, metric):
    """Distances and indices equal SciPy's, ties included (its raster passes' choices)."""
    x = RNG.random(shape) > density if density < 1 else np.ones(shape, bool)
    m = RNG.random((3,) * len(shape)) > 0.5 if metric == "random" else metric
    ref_d, ref_i = snd.distance_transform_cdt(x, metric=m, return_indices=True)
    d, i = host.distance_transform_cdt(x, metric=m, return_indices=True)
    assert d.dtype == np.int32 and i.dtype == np.int32
    np.testing.assert_array_equal(d, ref_d)
    np.testing.assert_array_equal(i, ref_i)


@pytest.mark.parametrize("metric", [[[1, 1, 1], [1, 1, 1], [1, 1, 1]], np.ones((3, 3), np.float32),
                                    np.array([[0, 2, 0], [1, 1, 1], [0, 1, 0]], np.int8),
                                    np.asfortranarray(RNG.random((3, 3)) > 0.3), np.ones((3, 3), np.uint16)])
def test_cdt_structure_dtypes_as_scipy(host, metric):
    """SciPy reads the structure's first bytes as booleans: a list of ints or a float structure
    gives its (surprising) result, which is matched; one-byte types read as nonzero."""
    x = RNG.random((9, 12)) > 0.1
    ref_d, ref_i = snd.distance_transform_cdt(x, metric=metric, return_indices=True)
    d, i = host.distance_transform_cdt(x, metric=metric, return_indices=True)
    np.testing.assert_array_equal(d, ref_d)
    np.testing.assert_array_equal(i, ref_i)


def test_cdt_outputs_and_dtypes(host):
    x = RNG.random((9, 11)) > 0.2
    x = x.astype(np.float32) * RNG.uniform(-3, 3, x.shape).astype(np.float32)
    ref_d, ref_i = snd.distance_transform_cdt(x, return_indices=True)
    dist = np.full(x.shape, 7, np.int32)
    ind = np.full((2,) + x.shape, 7, np.int32)
    assert host.distance_transform_cdt(x, return_indices=True, distances=dist, indices=ind) is None
    np.testing.assert_array_equal(dist, ref_d)
    np.testing.assert_array_equal(ind, ref_i)
    np.testing.assert_array_equal(host.distance_transform_cdt(x, return_distances=False, return_indices=True),
                                  ref_i)
    xc = x + 1j * (RNG.random(x.shape) > 0.9)  # complex: nonzero is foreground, as np.where takes it
    np.testing.assert_array_equal(host.distance_transform_cdt(xc), snd.distance_transform_cdt(xc))
    e = np.zeros((0, 3))
    np.testing.assert_array_equal(host.distance_transform_cdt(e, return_indices=True)[1],
                                  snd.distance_transform_cdt(e, return_indices=True)[1])


def test_cdt_errors(host):
    x = np.ones((4, 5))
    x[1, 2] = 0
    for kw in ({"metric": "bad"}, {"metric": "Taxicab"}):
        with pytest.raises(ValueError, match="invalid metric provided"):
            snd.distance_transform_cdt(x, **kw)
        with pytest.raises(ValueError, match="invalid metric provided"):
            host.distance_transform_cdt(x, **kw)
    with pytest.raises(ValueError, match="metric sizes must be equal to 3"):
        host.distance_transform_cdt(x, metric=np.ones((3, 5)))
    with pytest.raises(RuntimeError, match="equal rank"):
        host.distance_transform_cdt(x, metric=np.ones((3, 3, 3)))
    with pytest.raises(ValueError, match="int32"):
        host.distance_transform_cdt(x, distances=np.zeros(x.shape, np.int64))
    with pytest.raises(ValueError, match="wrong shape"):
        host.distance_transform_cdt(x, distances=np.zeros((4, 4), np.int32))
    with pytest.raises(ValueError, match="int32"):
        host.distance_transform_cdt(x, return_indices=True, indices=np.zeros((2, 4, 5), np.int64))
    with pytest.raises(ValueError, match="wrong shape"):
        host.distance_transform_cdt(x, return_indices=True, indices=np.zeros((1, 4, 5), np.int32))
    with pytest.raises(TypeError):
        host.distance_transform_cdt(np.array(1))


@pytest.mark.parametrize("fn", ["distance_transform_cdt", "distance_transform_bf", "distance_transform_edt"])
def test_arg_check_messages(fn):
    """SciPy's RuntimeError for the return_/output combinations, before the input is read."""
    f = getattr(cnd, fn)
    with pytest.raises(RuntimeError, match="at least one of return_distances/return_indices must be True"):
        f(None, return_distances=False)
    with pytest.raises(RuntimeError, match="at least one of return_distances/return_indices must be True"):
        getattr(snd, fn)(np.ones(3), return_distances=False)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("density", [0.02, 0.3, 0.9, 1.0])
@pytest.mark.parametrize("metric", ["taxicab", "manhattan", "chessboard", "ChessBoard"])
def test_bf_like_scipy(host, shape, density, metric):
    """The distances equal SciPy's (uint32, UINT32_MAX without background); the indices name a
    background element at that distance (ties may pick another)."""
    x = RNG.random(shape) > density if density < 1 else np.ones(shape, bool)
    ref_d, ref_i = snd.distance_transform_bf(x, metric=metric, return_indices=True)
    d, i = host.distance_transform_bf(x, metric=metric, return_indices=True)
    assert d.dtype == np.uint32 and i.dtype == np.int32 and i.shape == ref_i.shape
    np.testing.assert_array_equal(d, ref_d)
    if (~x).any():
        assert not x[tuple(i)].any()
        diff = np.abs(np.indices(shape) - i)
        np.testing.assert_array_equal(diff.sum(0) if metric.lower() != "chessboard" else diff.max(0), ref_d)
    else:
        np.testing.assert_array_equal(i, ref_i)


def test_bf_no_background_and_scalars(host):
    for x in (np.ones((3, 4)), np.array(1.0)):
        for metric in ("euclidean", "taxicab"):
            ref = snd.distance_transform_bf(x, metric=metric, return_indices=True)
            got = host.distance_transform_bf(x, metric=metric, return_indices=True)
            for g, r in zip(got, ref):
                assert g.dtype == r.dtype and g.shape == r.shape
                np.testing.assert_array_equal(g, r)


def test_bf_errors(host):
    x = np.ones((4, 5))
    x[0, 0] = 0
    with pytest.raises(RuntimeError, match="distance metric not supported"):
        host.distance_transform_bf(x, metric="bad")
    with pytest.raises(RuntimeError, match="must be float64"):
        host.distance_transform_bf(x, distances=np.zeros(x.shape, np.float32))
    with pytest.raises(RuntimeError, match="must be uint32"):
        host.distance_transform_bf(x, metric="taxicab", distances=np.zeros(x.shape, np.float64))
    with pytest.raises(RuntimeError, match="wrong shape"):
        host.distance_transform_bf(x, metric="taxicab", distances=np.zeros((5, 4), np.uint32))
    with pytest.raises(RuntimeError, match="int32"):
        host.distance_transform_bf(x, metric="taxicab", return_indices=True, indices=np.zeros((2, 4, 5)))
    with pytest.raises(RuntimeError, match="wrong shape"):
        host.distance_transform_bf(x, metric="taxicab", return_indices=True,
                                   indices=np.zeros((2, 5, 4), np.int32))
    with pytest.raises(RuntimeError):
        host.distance_transform_bf(x, sampling=[1, 2, 3])


def test_half_offsets():
    st = snd.generate_binary_structure(2, 2)
    assert D.half_offsets(st) == [(-1, -1), (-1, 0), (-1, 1), (0, -1)]
    assert D.half_offsets(snd.generate_binary_structure(3, 1)) == [(-1, 0, 0), (0, -1, 0), (0, 0, -1)]


@pytest.mark.parametrize("fn", ["distance_transform_cdt", "distance_transform_bf"])
def test_signatures(fn):
    # distance_transform_edt's (SciPy's and cupyx's keywords): test_ndimage_extra_cpu.py
    assert inspect.signature(getattr(cnd, fn)) == inspect.signature(getattr(snd, fn))
