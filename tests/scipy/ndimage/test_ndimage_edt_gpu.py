"""cuarray.scipy.ndimage.distance_transform_edt on the device against scipy.ndimage."""

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


@pytest.mark.parametrize("shape", [(1000,), (300, 257), (40, 33, 47)])
@pytest.mark.parametrize("density", [0.01, 0.5])
@pytest.mark.parametrize("dtype", [np.bool_, np.uint8, np.float32])
def test_edt(shape, density, dtype):
    x = (RNG.random(shape) > density).astype(dtype)
    x.flat[0] = 0
    sampling = RNG.uniform(0.5, 2, size=len(shape))
    ref = snd.distance_transform_edt(x, sampling=sampling)
    got, idx = cnd.distance_transform_edt(cuarray.asarray(x), sampling=sampling, return_indices=True)
    assert got.dtype == ref.dtype and idx.dtype == np.int32 and idx.shape == (len(shape),) + shape
    np.testing.assert_allclose(got.get(), ref, rtol=1e-12, atol=1e-12)
    i = idx.get()
    assert not x[tuple(i)].any()
    dist = np.sqrt(sum(((np.indices(shape)[k] - i[k]) * sampling[k]) ** 2 for k in range(len(shape))))
    np.testing.assert_allclose(dist, ref, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("n", [4096, 4097, 9000])
def test_edt_long_lines(n):
    # lines up to 4096 elements are staged in shared memory by a warp; longer ones take a thread
    # per line: both sides of the switch, along the first and the last axis, indices included
    for shape in ((n, 3), (2, n)):
        x = RNG.random(shape) > 0.002
        x.flat[RNG.integers(x.size)] = False
        ref = snd.distance_transform_edt(x)
        got, idx = cnd.distance_transform_edt(cuarray.asarray(x), return_indices=True)
        np.testing.assert_allclose(got.get(), ref, rtol=1e-12, atol=1e-12)
        assert not x[tuple(idx.get())].any()


def test_edt_many_strided_lines():
    # 65536 lines and more not along the last axis (a warp each, staging strided reads), beside
    # the last axis and fewer lines
    for shape in ((40, 65536), (40, 256, 256), (40, 255, 256)):
        x = RNG.random(shape) > 0.05
        x.flat[RNG.integers(x.size)] = False
        ref = snd.distance_transform_edt(x)
        got = cnd.distance_transform_edt(cuarray.asarray(x))
        np.testing.assert_allclose(got.get(), ref, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("shape", [(0,), (3, 0), (0, 4)])
def test_edt_empty(shape):
    got = cnd.distance_transform_edt(cuarray.ones(shape))
    assert got.shape == shape and got.dtype == np.float64


def test_edt_no_background_line():
    # a line with no background (all INF along an axis) stays INF there and names itself
    x = np.ones((5, 7), bool)
    x[2, 3] = False
    got, idx = cnd.distance_transform_edt(cuarray.asarray(x), return_indices=True)
    np.testing.assert_allclose(got.get(), snd.distance_transform_edt(x), rtol=1e-12)
    assert not x[tuple(idx.get())].any()


def test_edt_arguments():
    x = cuarray.asarray(RNG.random((20, 30)) > 0.3)
    d = cuarray.empty((20, 30), np.float64)
    assert cnd.distance_transform_edt(x, distances=d) is None
    np.testing.assert_allclose(d.get(), snd.distance_transform_edt(x.get()))
    only_idx = cnd.distance_transform_edt(x, return_distances=False, return_indices=True)
    assert only_idx.shape == (2, 20, 30)
    with pytest.raises(RuntimeError):
        cnd.distance_transform_edt(x, return_distances=False)


# The plans of _edt._edt (scripts/perf/edt_variants.py times them): the first axis by the
# nearest-background scan or an envelope pass, the others by lane 0's envelope or by bands of lanes
# (their outputs found by walks or binary searches).
PLANS = [dict(first="envelope", lines="warp"), dict(first="scan", lines="warp"),
         dict(first="envelope", lines="band"), dict(first="scan", lines="band"),
         dict(first="scan", lines="band", fill="search"), dict(first="envelope", lines="band", fill="search"),
         dict(first="scan", lines="band", bands=1), dict(first="scan", lines="band", bands=7),
         dict(first="scan", lines="band", bands=32), dict(first="scan", lines="band", staging="block"),
         dict(first="envelope", lines="band", fill="search", staging="block"),
         dict(first="scan", lines="band", staging="block-in")]


def _plan_check(x, plan, sampling=None):
    from cuarray.scipy.ndimage import _edt

    samp = [1.0] * x.ndim if sampling is None else list(sampling)
    dd, idx = _edt._distances(cuarray.asarray(x), samp, True, **plan)
    d = dd.get()
    ref = snd.distance_transform_edt(x, sampling=sampling)
    if sampling is None:  # integers throughout: exact
        np.testing.assert_array_equal(d, ref)
    else:
        np.testing.assert_allclose(d, ref, rtol=1e-12, atol=1e-12)
    i = idx.get()
    assert not x[tuple(i)].any()
    w = np.ones(x.ndim) if sampling is None else np.asarray(sampling)
    dist = np.sqrt(sum(((np.indices(x.shape)[k] - i[k]) * w[k]) ** 2 for k in range(x.ndim)))
    np.testing.assert_allclose(dist, ref, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("plan", PLANS, ids=lambda p: "-".join(str(v) for v in p.values()))
@pytest.mark.parametrize("shape", [(1,), (31,), (4097,), (33, 32), (1, 70), (70, 1), (31, 33, 65), (4097, 3),
                                   (3, 4097), (2048, 40), (6, 5, 4, 3)])
@pytest.mark.parametrize("density", [0.003, 0.1, 0.6])
def test_edt_plans(plan, shape, density):
    x = RNG.random(shape) > density
    x.flat[RNG.integers(x.size)] = False
    _plan_check(x, plan)


@pytest.mark.parametrize("plan", PLANS, ids=lambda p: "-".join(str(v) for v in p.values()))
def test_edt_plans_sampled_and_edge_masks(plan):
    x = RNG.random((64, 129, 5)) > 0.2
    x.flat[0] = False
    _plan_check(x, plan, sampling=RNG.uniform(0.5, 2.0, 3))
    _plan_check(np.zeros((33, 40), bool), plan)           # all background
    single = np.ones((100, 257), bool)
    single[RNG.integers(100), RNG.integers(257)] = False   # one site: whole lines without any
    _plan_check(single, plan)
    rows = np.ones((65, 4096), bool)
    rows[:, RNG.integers(4096)] = False                     # full lines of 4096 (the warp's limit)
    _plan_check(rows, plan)


@pytest.mark.parametrize("staging", ["block", "block-in", "warp"])
@pytest.mark.parametrize("shape", [(64, 256, 48), (40, 300, 7), (9, 37, 13, 11), (128, 128, 128)])
def test_edt_block_staging_volumes(staging, shape):
    # the band pass' strided lines staged by the block (adjacent lines together; a block's lines
    # crossing into the next outer index where inner is not a multiple of 8) or by each warp,
    # fresh masks, distances exact and indices valid, against SciPy
    for density in (0.01, 0.3):
        x = RNG.random(shape) > density
        x.flat[RNG.integers(x.size)] = False
        _plan_check(x, dict(first="scan", lines="band", staging=staging))


def test_edt_default_plan_bench_mask():
    # the bench case's mask kind (background 1%, 2048^2) through the public function, indices too
    x = RNG.random((2048, 2048)) > 0.01
    ref = snd.distance_transform_edt(x)
    got, idx = cnd.distance_transform_edt(cuarray.asarray(x), return_indices=True)
    np.testing.assert_array_equal(got.get(), ref)
    i = idx.get()
    assert not x[tuple(i)].any()
    dist = np.sqrt(sum((np.indices(x.shape)[k] - i[k]).astype(np.float64) ** 2 for k in range(2)))
    np.testing.assert_array_equal(dist, ref)


def test_edt_plan_rejects_unknown():
    from cuarray.scipy.ndimage import _edt

    with pytest.raises(ValueError):
        _edt._edt(cuarray.asarray(np.ones(4, bool)), [1.0], False, first="bogus")


def _no_background_formula(shape, sampling):
    """SciPy's distances for an input without background (features at (-1, 0, ...)): ((c_0 + 1)
    s_0)^2 + (c_1 s_1)^2 + ... summed in axis order, rooted; the kernels' last pass writes these bit
    for bit (no fma)."""
    sq = None
    for k, n in enumerate(shape):
        view = [1] * len(shape)
        view[k] = n
        t = ((np.arange(n, dtype=np.float64) + (1.0 if k == 0 else 0.0)) * sampling[k]).reshape(view)
        sq = t * t if sq is None else sq + t * t
    return np.sqrt(np.broadcast_to(sq, shape))


@pytest.mark.parametrize("shape", [(1,), (1000,), (4097,), (37, 45), (1, 9), (9, 1), (3, 5000), (5000, 2),
                                   (9, 10, 11), (4, 3, 2, 5)])
@pytest.mark.parametrize("case", ["none", "one", "all"])
def test_edt_no_one_all_background(shape, case):
    """No background (decided on the device by the last pass: lines of 4097+ take the
    thread-per-line kernel), exactly one background element, all background: against SciPy with
    sampling, distances and indices, every output form (indices only, in-place outputs)."""
    x = np.ones(shape, bool)
    if case == "one":
        x.flat[RNG.integers(x.size)] = False
    elif case == "all":
        x[...] = False
    sampling = RNG.uniform(0.5, 2.0, len(shape))
    ref_d, ref_i = snd.distance_transform_edt(x, sampling=sampling, return_indices=True)
    g = cuarray.asarray(x.astype(np.float32) * RNG.uniform(1, 2, shape).astype(np.float32))
    d, i = cnd.distance_transform_edt(g, sampling=sampling, return_indices=True)
    d = d.get()
    if case == "none":
        np.testing.assert_array_equal(d, _no_background_formula(shape, sampling))
        np.testing.assert_allclose(d, ref_d, rtol=1e-14, atol=0)
    else:
        np.testing.assert_allclose(d, ref_d, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(i.get(), ref_i)  # one feature (or none, or each its own): SciPy's exactly
    np.testing.assert_array_equal(cnd.distance_transform_edt(g, sampling=sampling).get(), d)
    only = cnd.distance_transform_edt(g, sampling=sampling, return_distances=False, return_indices=True)
    np.testing.assert_array_equal(only.get(), ref_i)
    dist = cuarray.full(shape, -5.0)
    ind = cuarray.full((len(shape),) + shape, -7, dtype=np.int32)
    assert cnd.distance_transform_edt(g, sampling=sampling, return_indices=True, distances=dist, indices=ind) is None
    np.testing.assert_array_equal(dist.get(), d)
    np.testing.assert_array_equal(ind.get(), ref_i)


@pytest.mark.parametrize("plan", PLANS, ids=lambda p: "-".join(str(v) for v in p.values()))
@pytest.mark.parametrize("shape", [(70,), (4097,), (33, 65), (70, 1), (6, 5, 4, 3)])
def test_edt_plans_no_background(plan, shape):
    # every plan's last pass (the scan of a 1-D input, the band or warp pass, a thread per line)
    from cuarray.scipy.ndimage import _edt

    x = np.ones(shape, bool)
    sampling = list(RNG.uniform(0.5, 2.0, len(shape)))
    d, idx = _edt._distances(cuarray.asarray(x), sampling, True, **plan)
    np.testing.assert_array_equal(d.get(), _no_background_formula(shape, sampling))
    ref_d, ref_i = snd.distance_transform_edt(x, sampling=sampling, return_indices=True)
    np.testing.assert_array_equal(idx.get(), ref_i)
