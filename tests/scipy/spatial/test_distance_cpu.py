"""cuarray.scipy.spatial.distance without a GPU: signatures against SciPy's, the argument errors
raised before any device work (host-backed arrays, cuarray/testing/fake_device.py) with SciPy's exception
types, the metric table against SciPy's, and the kernels compiled by NVRTC for sm_90."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

sd = pytest.importorskip("scipy.spatial.distance")
import scipy.spatial  # noqa: E402

from cuarray.testing.fake_device import from_np  # noqa: E402  (tests/ is on sys.path)

import cuarray.scipy.spatial as cs  # noqa: E402
from cuarray.scipy.spatial import _distance_kernels as K  # noqa: E402
from cuarray.scipy.spatial import _distance_pair as P  # noqa: E402
from cuarray.scipy.spatial import distance as cd  # noqa: E402

NAMES = sorted(sd.__all__)


@pytest.mark.parametrize("name", NAMES)
def test_signature_is_scipys(name):
    assert inspect.signature(getattr(cd, name)) == inspect.signature(getattr(sd, name))


@pytest.mark.parametrize("name", ["distance_matrix", "minkowski_distance", "minkowski_distance_p"])
def test_module_level_signature_is_scipys(name):
    assert inspect.signature(getattr(cs, name)) == inspect.signature(getattr(scipy.spatial, name))


def test_metric_table_is_scipys():
    assert P.METRIC_NAMES == list(sd._METRICS_NAMES)
    for name in P.METRIC_NAMES:
        assert P._ALIASES[name] == sd._METRICS[name].aka, name


X = np.arange(12.0).reshape(4, 3)
CASES = {
    "cdist-1d": lambda m, c: m.cdist(c(X[0]), c(X)),
    "cdist-1d-b": lambda m, c: m.cdist(c(X), c(X[0])),
    "cdist-cols": lambda m, c: m.cdist(c(X), c(X[:, :2])),
    "cdist-unknown": lambda m, c: m.cdist(c(X), c(X), "nope"),
    "cdist-metric-type": lambda m, c: m.cdist(c(X), c(X), 3),
    "cdist-mahal-few": lambda m, c: m.cdist(c(X[:1]), c(X[:1]), "mahalanobis"),
    "cdist-kwarg": lambda m, c: m.cdist(c(X), c(X), "euclidean", q=3),
    "pdist-1d": lambda m, c: m.pdist(c(X[0])),
    "pdist-unknown": lambda m, c: m.pdist(c(X), "nope"),
    "pdist-metric-type": lambda m, c: m.pdist(c(X), None),
    "pdist-mahal-few": lambda m, c: m.pdist(c(X[:3]), "mahalanobis"),
    "squareform-3d": lambda m, c: m.squareform(c(np.zeros((2, 2, 2)))),
    "squareform-size": lambda m, c: m.squareform(c(np.zeros(4))),
    "squareform-nonsquare": lambda m, c: m.squareform(c(np.zeros((2, 3)))),
    "squareform-tomatrix": lambda m, c: m.squareform(c(np.zeros((3, 3))), force="tomatrix"),
    "squareform-tovector": lambda m, c: m.squareform(c(np.zeros(3)), force="tovector"),
    "is_valid_y-throw": lambda m, c: m.is_valid_y(c(np.zeros(4)), throw=True),
    "is_valid_y-2d": lambda m, c: m.is_valid_y(c(np.zeros((2, 2))), throw=True, name="Y"),
    "is_valid_dm-1d": lambda m, c: m.is_valid_dm(c(np.zeros(3)), throw=True),
    "num_obs_y-empty": lambda m, c: m.num_obs_y(c(np.zeros(0))),
    "minkowski-p": lambda m, c: m.minkowski(c(X[0]), c(X[1]), p=0),
    "hamming-2d": lambda m, c: m.hamming(c(X), c(X)),
    "hamming-lengths": lambda m, c: m.hamming(c(X[0]), c(X[1, :2])),
    "correlation-complex": lambda m, c: m.correlation(c(X[0] + 1j), c(X[1])),
    "cityblock-2d": lambda m, c: m.cityblock(c(X), c(X)),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_errors_are_scipys(case):
    with pytest.raises(Exception) as ours:
        CASES[case](cd, from_np)
    with pytest.raises(Exception) as theirs:
        CASES[case](sd, np.asarray)
    assert type(ours.value) is type(theirs.value), (ours.value, theirs.value)


def test_shape_only_answers():
    assert cd.is_valid_y(from_np(np.zeros(6))) and not cd.is_valid_y(from_np(np.zeros(5)))
    with pytest.warns(UserWarning, match="binomial"):
        assert not cd.is_valid_y(from_np(np.zeros(5)), warning=True)
    assert cd.num_obs_y(from_np(np.zeros(10))) == sd.num_obs_y(np.zeros(10)) == 5


def test_upper_index_plan_on_host():
    """The condensed gather of a pdist block (row r of a (t, w) block keeps columns r..w-1)."""
    for t, w in ((1, 1), (3, 3), (4, 9), (5, 5)):
        r = np.arange(t)
        offsets = r * w - r * (r - 1) // 2
        count = int(sum(w - i for i in range(t)))
        k = np.arange(count)
        row = np.searchsorted(offsets, k, side="right") - 1
        got = row * w + (k - offsets[row]) + row
        want = np.flatnonzero(np.arange(w)[None, :] >= np.arange(t)[:, None])
        np.testing.assert_array_equal(got, want)


def _nvrtc():
    compiler = pytest.importorskip("cuarray.cuda.compiler")
    try:
        compiler.compile_cubin('extern "C" __global__ void k() {}', arch="sm_90")
    except Exception as exc:  # no NVRTC on this machine
        pytest.skip("NVRTC unavailable: {}".format(exc))
    return compiler


@pytest.mark.parametrize("name", sorted(K._EPILOGUES))
def test_epilogues_compile(name):
    compiler = _nvrtc()
    f8 = np.dtype("f8")
    stored = (f8,) * 3 + {"cosine": (), "bool": (f8, None)}[name]
    d = K.epilogue_definition(name, stored)
    for layout, nd, it in (("flat", 1, np.int32), ("nd", 2, np.int64)):
        compiler.compile_cubin(d.source(layout, nd, it)[1], arch="sm_90")


@pytest.mark.nvrtc_fast
@pytest.mark.parametrize("name", sorted(K._REDUCTIONS))
def test_pair_reductions_compile(name):
    from cuarray._core import reduction

    compiler = _nvrtc()
    f8 = np.dtype("f8")
    stored = (f8,) * (3 if name.endswith("_w") else 2) + ((None,) if name.startswith("minkowski") else ())
    d = K.reduction_definition(name, stored)
    src = d.source(reduction.Stage("map", "out", 32, 4, 4, 1, 1, np.int32))[1]
    compiler.compile_cubin(src, arch="sm_90")


def test_directed_hausdorff_signature_is_scipy_118s():
    # SciPy 1.17.1 and 1.18.1 both keep the legacy keyword-only `seed` (SciPy's rng transition)
    assert str(inspect.signature(cd.directed_hausdorff)) == "(u, v, rng=0, *, seed=None)"


def test_directed_hausdorff_rng_twice_is_scipys_error():
    u = np.zeros((2, 3))
    for kwargs in ({"rng": 1, "seed": 1}, {"seed": 1}):
        args = (u, u, 0) if len(kwargs) == 1 else (u, u)
        with pytest.raises(TypeError, match="multiple values for argument now known as `rng`"):
            sd.directed_hausdorff(*args, **kwargs)
        with pytest.raises(TypeError, match="multiple values for argument now known as `rng`"):
            cd.directed_hausdorff(*args, **kwargs)


@pytest.mark.parametrize("name", ["procrustes", "geometric_slerp"])
def test_procrustes_slerp_parameters_are_scipys(name):
    def params(f):
        return [(p.name, p.kind, p.default) for p in inspect.signature(f).parameters.values()]

    assert params(getattr(cs, name)) == params(getattr(scipy.spatial, name))


def test_convex_hull_signature_is_scipys():
    assert inspect.signature(cs.ConvexHull.__init__) == inspect.signature(scipy.spatial.ConvexHull.__init__)


def test_cupyx_names_are_declared():
    """Beside SciPy's names, exactly cupyx's own (with cupyx's signatures, read from CuPy's
    cupyx/scipy/spatial/distance.py) and their metric names, which SciPy's cdist refuses."""
    assert set(cd.__all__) - set(sd.__all__) == set(cd.CUPYX_NAMES) == {"distance_matrix", "hellinger", "kl_divergence"}
    assert not any(hasattr(sd, n) for n in cd.CUPYX_NAMES)
    assert str(inspect.signature(cd.distance_matrix)) == "(x, y, p=2.0)"
    assert str(inspect.signature(cd.hellinger)) == str(inspect.signature(cd.kl_divergence)) == "(u, v)"
    assert P.CUPYX_ALIASES == {"hellinger": {"hellinger"}, "kl_divergence": {"kl_divergence", "kl_div", "kld"}}
    assert not set(P.CUPYX_ALIASES) & set(sd._METRICS_NAMES)
    for alias in ("hellinger", "kl_div", "kld", "KLD"):
        assert P._canonical(alias) in P.CUPYX_ALIASES
    assert P._own_metric(cd.hellinger) == "hellinger" and P._own_metric(cd.kl_divergence) == "kl_divergence"


def test_cupyx_vector_functions_check_their_input():
    with pytest.raises(ValueError, match="1-D"):
        cd.hellinger(from_np(np.ones((2, 2))), from_np(np.ones(2)))
    with pytest.raises(TypeError, match="cuarray.asarray"):
        cd.kl_divergence(np.ones(3), np.ones(3))
