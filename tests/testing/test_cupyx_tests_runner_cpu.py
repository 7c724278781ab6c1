"""scripts/ecosystem's runner of cupyx's own SciPy tests on cuarray, on the CPU: the import aliases
(in a child process: they change the import system), the hash sample, the junit reading and the
comparison that charges a file cuarray cannot import with the reference's tests in it."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

ECO = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "ecosystem"
sys.path.insert(0, str(ECO))

import cupy_alias  # noqa: E402
import cupyx_tests  # noqa: E402


def test_cupy_names_resolve_to_cuarray_modules():
    code = """
import cupy_alias; cupy_alias.install()
import cupy, cupyx.scipy.signal, cuarray, cuarray.scipy.signal
from cupy import testing
from cupy.cuda import runtime, driver
from cupy_backends.cuda.api import runtime as api_runtime
from cupy.testing._helper import skip_if_after_baseline
g = {"cupy": cupy, "cupyx": cupyx, "testing": testing, "runtime": runtime}
cupy_alias.rebind(g)
assert g["cupy"] is cuarray and g["testing"] is cuarray.testing and g["runtime"] is runtime
assert cupyx.scipy.signal.lfilter is cuarray.scipy.signal.lfilter and cupy.float32 is cuarray.float32
assert runtime.is_hip is False and api_runtime.is_hip is False and driver.get_build_version() == 13000
assert cuarray.__spec__.name == "cuarray"
try:
    import cupyx.no_such_module
except ModuleNotFoundError as exc:
    assert "cupyx.no_such_module" in str(exc)
else:
    raise AssertionError("imported a module cuarray does not have")
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=str(ECO))
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_the_sample_keeps_the_same_functions_whatever_their_parametrization():
    ours = ["t/f{}.py::T::test_{}[p={}-{}]".format(i % 7, i, j, d) for i in range(300) for j in range(12)
            for d in ("int8", "float32")]
    cupy = ["t/f{}.py::T::test_{}[_param_{}_{{p={}}}]".format(i % 7, i, j, j) for i in range(300) for j in range(12)]
    a, b = cupy_alias.sample(ours, 36), cupy_alias.sample(cupy, 36)
    assert a == cupy_alias.sample(ours, 36) and 150 < len(a) < 600 and len(b) < len(a)
    assert {cupy_alias.function_id(i) for i in a} == {cupy_alias.function_id(i) for i in b}
    assert cupy_alias.sample(ours, 1) == ours
    # a kept function keeps at least one test, however few it has: one-test functions are kept whole
    single = ["s.py::test_{}".format(i) for i in range(400)]
    kept = cupy_alias.sample(single, 36)
    assert 30 < len(kept) < 120 and kept == [i for i in single if i in set(cupy_alias.sample(single, 36))]


def _junit(path, cases):
    body = "".join(cases)
    path.write_text('<?xml version="1.0"?><testsuites><testsuite>{}</testsuite></testsuites>'.format(body))
    return str(path)


def test_junit_counts_and_the_comparison(tmp_path, capsys):
    pkg = "cupyx_tests.scipy_tests."
    ref = cupyx_tests.parse_junit(_junit(tmp_path / "cupy.xml", [
        '<testcase classname="{}signal_tests.test_a.TestA" name="t1"/>'.format(pkg),
        '<testcase classname="{}signal_tests.test_a.TestA" name="t2"/>'.format(pkg),
        '<testcase classname="{}signal_tests.test_b.TestB" name="t3"/>'.format(pkg),
        '<testcase classname="{}ndimage_tests.test_c.TestC" name="t4"><skipped/></testcase>'.format(pkg),
        '<testcase classname="{}signal_tests.test_a.TestA" name="t5[_param_0_{{n=1}}]"/>'.format(pkg),
        '<testcase classname="{}signal_tests.test_a.TestA" name="t6"/>'.format(pkg)]))
    ours = cupyx_tests.parse_junit(_junit(tmp_path / "cu.xml", [
        '<testcase classname="{}signal_tests.test_a.TestA" name="t1"/>'.format(pkg),
        '<testcase classname="{}signal_tests.test_a.TestA" name="t2"><failure message="x"/></testcase>'.format(pkg),
        '<testcase classname="" name="{}signal_tests.test_b"><error message="m">E   ImportError: no _util\n'
        '</error></testcase>'.format(pkg),
        '<testcase classname="{}signal_tests.test_a.TestA" name="t5[n=1-float32]"/>'.format(pkg),
        '<testcase classname="{}signal_tests.test_a.TestA" name="t5[n=1-int8]"><failure message="E   AssertionError: x"/>'
        '</testcase>'.format(pkg),
        '<testcase classname="{}signal_tests.test_a.TestA" name="t6[int8]"><failure message="Failed: DID NOT RAISE '
        '&lt;class \'NotImplementedError\'&gt;"/></testcase>'.format(pkg)]))
    assert ref["signal"]["passed"] == 5 and ref["ndimage"]["skipped"] == 1
    assert ours["signal"]["passed"] == 2 and ours["signal"]["failed"] == 2 and ours["signal"]["beyond"] == 1
    assert ours["signal"]["uncollected"] == [[pkg + "signal_tests.test_b", "ImportError: no _util"]]
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps({"lib": "cupy", "modules": ref}))
    b.write_text(json.dumps({"lib": "cuarray", "modules": ours}))
    cupyx_tests.main(["compare", str(a), str(b)])
    out = capsys.readouterr().out
    assert "| signal | 5 / 5 (100.0%) | 2 / 5 (40.0%) |" in out  # test_b's t3 charged to cuarray
    assert "3 test functions pass entirely on cupy and fail somewhere on cuarray (3 tests)" in out
    assert "ImportError: no _util" in out and "TestA::t5 (1 failing): E   AssertionError: x" in out
    assert "where the test expects CuPy's NotImplementedError (counted on neither side): signal 1" in out


def test_relative_tests_folder_is_made_absolute(tmp_path, monkeypatch):
    """pytest runs in a temporary directory: a relative --tests (diag/cupy_tests/scipy_tests on the
    GPU machine) was looked for there, and the run collected nothing and wrote no JSON."""
    (tmp_path / "scipy_tests" / "signal_tests").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    root, paths = cupyx_tests.collect_paths("scipy_tests")
    assert root == str(tmp_path / "scipy_tests") and paths == [root]
    root, paths = cupyx_tests.collect_paths("scipy_tests", "signal,ndimage")
    assert paths == [str(tmp_path / "scipy_tests" / "signal_tests"), str(tmp_path / "scipy_tests" / "ndimage_tests")]
