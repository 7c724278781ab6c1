"""scripts/ecosystem's runner of SciPy's and scikit-learn's own array API tests with cuarray among
their backends, on the CPU: the pytest plugins that add cuarray (on stand-in conftest and
namespace modules; a real SciPy collection where SciPy's tests are installed), the test-id
reading, the junit counts and the peer comparison."""

from __future__ import annotations

import pathlib
import subprocess
import sys
import types

import pytest

ECO = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "ecosystem"
sys.path.insert(0, str(ECO))

import array_api_suites as suites  # noqa: E402
import scipy_backends  # noqa: E402
import sklearn_namespaces  # noqa: E402


@pytest.mark.parametrize("name, backend", [
    ("test_x[cuarray]", "cuarray"), ("test_x[float32-cuarray]", "cuarray"),
    ("test_y[cuarray-None-None]", "cuarray"), ("test_y[torch-cuda-float32]", "torch"),
    ("test_z[jax.numpy]", "jax.numpy"), ("test_plain", None), ("test_w[float64]", None),
    ("test_two[numpy-cupy]", None),  # (not one backend: not counted)
])
def test_backend_of_a_test_id(name, backend):
    assert suites.backend_of(name) == backend


_JUNIT = """<?xml version="1.0"?><testsuites><testsuite>
<testcase classname="scipy.special.tests.test_a" name="test_f[float32-numpy]"/>
<testcase classname="scipy.special.tests.test_a" name="test_f[float32-cupy]"/>
<testcase classname="scipy.special.tests.test_a" name="test_f[float32-cuarray]"><failure message="x"/></testcase>
<testcase classname="scipy.special.tests.test_a" name="test_g[cuarray]"><skipped/></testcase>
<testcase classname="scipy.special.tests.test_a" name="test_h[torch]"><failure message="y"/></testcase>
<testcase classname="scipy.special.tests.test_a" name="test_h[cuarray]"><error message="z"/></testcase>
<testcase classname="scipy.special.tests.test_a" name="test_k[cuarray]"><failure message="TypeError: Implicit conversion to a NumPy array is not allowed.">scipy/special/tests/test_a.py:10: in test_k
scipy/special/_logsumexp.py:120: in logsumexp
    a = np.asarray(a)
cuarray/_core/ndarray.py:420: TypeError</failure></testcase>
<testcase classname="" name="scipy.special.tests.test_b"><error message="ImportError">E   ImportError: no</error></testcase>
</testsuite></testsuites>"""


def test_junit_counts_per_backend_and_the_gaps(tmp_path):
    path = tmp_path / "j.xml"
    path.write_text(_JUNIT)
    r = suites.parse_junit(str(path))
    assert (r["cuarray"]["passed"], r["cuarray"]["failed"], r["cuarray"]["skipped"]) == (0, 3, 1)
    assert suites.limits(r) == {"scipy/special/_logsumexp.py:120": ["scipy.special.tests.test_a::test_k[{}]"]}
    assert (r["numpy"]["passed"], r["cupy"]["passed"], r["torch"]["failed"]) == (1, 1, 1)
    assert r["uncollected"] == [["scipy.special.tests.test_b", "ImportError: no"]]
    # test_f passes on CuPy and fails on cuarray; test_h fails on both peers: not a gap
    assert suites.gaps(r) == ["scipy.special.tests.test_a::test_f[float32-{}]"]
    text = suites.report({"scipy": {"special": {"results": r, "seconds": 1.0}}})
    assert "| special |" in text and "test_f[float32-cuarray]" in text and "test_h" not in text
    assert "`scipy/special/_logsumexp.py:120`: 1 tests" in text


def _conftest(array_api=True):
    import numpy

    @pytest.fixture(params=[pytest.param(numpy, id="numpy")])
    def xp(request):
        return request.param

    return types.SimpleNamespace(
        SCIPY_ARRAY_API=array_api, xp=xp, xp_known_backends={"numpy", "cupy"},
        xp_available_backends=[pytest.param(numpy, id="numpy")], xp_skip_cpu_only_backends={"cupy"})


def test_scipy_conftest_gains_cuarray_as_a_device_only_backend():
    import cuarray

    c = _conftest()
    before = c.xp
    scipy_backends.add_backend(c)
    assert [p.id for p in c.xp_available_backends] == ["numpy", "cuarray"]
    assert c.xp_available_backends[1].values == (cuarray,)
    assert "cuarray" in c.xp_known_backends and c.xp_skip_cpu_only_backends == {"cupy", "cuarray"}
    assert c.xp is not before and scipy_backends._wrapped(c.xp) is scipy_backends._wrapped(before)
    c2 = _conftest()
    scipy_backends.add_backend(c2, keep=("cuarray",))
    assert [p.id for p in c2.xp_available_backends] == ["cuarray"]
    with pytest.raises(pytest.UsageError, match="torch"):
        scipy_backends.add_backend(_conftest(), keep=("torch",))
    with pytest.raises(pytest.UsageError, match="SCIPY_ARRAY_API"):
        scipy_backends.add_backend(_conftest(array_api=False))


def test_sklearn_namespaces_gain_cuarray_once():
    def base(include_numpy_namespaces=True):
        yield from (["numpy"] if include_numpy_namespaces else []) + ["cupy"]

    wrapped = sklearn_namespaces.with_cuarray(base)
    assert list(wrapped()) == ["numpy", "cupy", "cuarray"]
    assert list(wrapped(include_numpy_namespaces=False)) == ["cupy", "cuarray"]
    assert list(sklearn_namespaces.with_cuarray(lambda include_numpy_namespaces=True: iter(["cuarray"]))()) == ["cuarray"]


def test_scipy_collects_cuarray_parametrizations(tmp_path):
    """SciPy's own conftest and tests, collected with the plugin: every `xp` test gains a cuarray
    case (SciPy's wheel ships its tests; skipped where this SciPy does not)."""
    scipy = pytest.importorskip("scipy")
    tests = pathlib.Path(scipy.__file__).parent / "special" / "tests" / "test_logsumexp.py"
    if not tests.exists():
        pytest.skip("this SciPy has no tests installed")
    import os

    root = str(ECO.parents[1])  # (cuarray from this checkout, where it is not installed)
    env = dict(os.environ, SCIPY_ARRAY_API="1",
               PYTHONPATH=os.pathsep.join([str(ECO), root] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    out = subprocess.run([sys.executable, "-m", "pytest", "-p", "scipy_backends", "--pyargs",
                          "scipy.special.tests.test_logsumexp", "-m", "array_api_backends", "--collect-only", "-q",
                          "-p", "no:cacheprovider", "--xp-backends", "numpy,cuarray"],
                         capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    ids = [ln for ln in out.stdout.splitlines() if "::" in ln]
    assert ids, out.stdout[-2000:] + out.stderr[-2000:]
    ours = [i for i in ids if suites.backend_of(i) == "cuarray"]
    theirs = [i for i in ids if suites.backend_of(i) == "numpy"]
    assert ours and len(ours) == len(theirs), (len(ours), len(theirs))
    assert {suites.backend_of(i) for i in ids} - {None} == {"numpy", "cuarray"}


def test_scipy_assertions_compare_cuarray_arrays_on_host_copies(monkeypatch):
    """SciPy's xp_assert_* for a backend it has no special case for call np.testing on the arrays,
    which cuarray refuses to convert implicitly: the plugin's replacements run SciPy's checks and
    compare explicit host copies; other arrays go to SciPy's functions unchanged."""
    import numpy as np

    import cuarray

    asked = []

    def strict(actual, desired, xp, **checks):
        asked.append(checks)
        return actual, desired, cuarray

    def original(actual, desired, *args, xp=None, **kw):
        asked.append("original")

    api = types.SimpleNamespace(_strict_check=strict, xp_assert_close=original, xp_assert_equal=original,
                                _xp_copy_to_numpy=lambda x: ("copied", x))
    from cuarray.testing import fake_device as fd

    monkeypatch.setattr(cuarray, "asnumpy", fd.to_np)  # host-backed arrays: no device here
    Dev = fd.from_np

    ours = scipy_backends.host_assertions(api)
    a, b = Dev(np.array([1.0, 2.0])), Dev(np.array([1.0, 2.0 + 1e-12]))
    ours["xp_assert_close"](a, b, check_dtype=False)
    assert asked == [{"check_dtype": False}]
    with pytest.raises(AssertionError):
        ours["xp_assert_equal"](a, b)
    with pytest.raises(AssertionError):
        ours["xp_assert_close"](a, Dev(np.array([1.0, 2.1])))
    ours["xp_assert_close"](np.ones(2), np.ones(2))
    assert asked[-1] == "original"
    assert ours["_xp_copy_to_numpy"](a).tolist() == [1.0, 2.0]
    assert ours["_xp_copy_to_numpy"](np.ones(1))[0] == "copied"
    assert scipy_backends.host_assertions(types.SimpleNamespace(**ours, _strict_check=strict)) \
        ["xp_assert_close"] is ours["xp_assert_close"]  # (installed once)
