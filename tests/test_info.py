"""`python -m cuarray info` and `cuarray.show_config()` work with or without a device; the `cu13`
extra installs every CUDA library cuarray loads (the table in `cuarray/cuda/libs/_catalog.py`)."""

from __future__ import annotations

import glob
import importlib.metadata
import io
import os
import re
import subprocess
import sys
import tomllib

import pytest

from cuarray.cuda.libs import _catalog

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _run(*args):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (ROOT, os.environ.get("PYTHONPATH")) if p))
    return subprocess.run([sys.executable, "-m", "cuarray", *args], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=120)


def _device_available() -> bool:
    from cuarray.cuda import _backend

    return _backend.is_available()


def test_info_exits_0_and_reports_devices():
    proc = _run("info")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for heading in ("cuarray:", "NumPy", "cuda-core", "cuda-bindings", "cuda-pathfinder", "driver", "NVRTC",
                    "CUDA libraries", "nvrtc", "cublas", "nvJitLink", "CUDA headers", "cccl",
                    "nvmath-python", "Kernel cache", "Devices:"):
        assert heading in out, heading
    if _device_available():
        assert "device 0" in out and "compute capability" in out
    else:
        assert "no usable device" in out
        assert "no CUDA driver" in out or "no CUDA device" in out


def test_no_arguments_prints_usage():
    proc = _run()
    assert proc.returncode == 0
    assert "usage: python -m cuarray" in proc.stdout and "info" in proc.stdout


def test_unknown_command_fails():
    proc = _run("frobnicate")
    assert proc.returncode == 2 and "unknown command" in proc.stderr


def test_show_config_in_process():
    from cuarray._info import show_config

    buf = io.StringIO()
    show_config(file=buf)
    text = buf.getvalue()
    assert text.startswith("cuarray:") and "Devices:" in text


# -- the cu13 extra and the libraries cuarray loads ------------------------------------------------
# nvmath.bindings module -> the catalogue's library (cuda.pathfinder name) it loads.
_BINDING_LIBRARY = {"cublas": "cublas", "cublasLt": "cublasLt", "cusolverDn": "cusolver", "cufft": "cufft",
                    "cusparse": "cusparse", "curand": "curand", "cudss": "cudss"}


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _extra(name: str) -> set:
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        reqs = tomllib.load(f)["project"]["optional-dependencies"][name]
    return {_norm(re.match(r"[A-Za-z0-9._-]+", r).group(0)) for r in reqs}


def test_cu13_extra_lists_every_wheel_of_the_catalogue():
    missing = {_norm(w) for w in _catalog.wheels()} - _extra("cu13")
    assert not missing, "pyproject.toml's cu13 extra lacks {}".format(sorted(missing))


def test_every_binding_cuarray_imports_has_a_catalogue_row():
    """A new `nvmath_bindings("x")` in cuda/libs must come with its library (and wheel) in the table."""
    used = set()
    for path in glob.glob(os.path.join(ROOT, "cuarray", "cuda", "libs", "*.py")):
        with open(path) as f:
            used |= set(re.findall(r'nvmath_bindings\("(\w+)"\)', f.read()))
    assert used, "no nvmath_bindings(...) call found: the pattern is stale"
    unknown = used - set(_BINDING_LIBRARY)
    assert not unknown, "add these bindings to _BINDING_LIBRARY and the catalogue: {}".format(unknown)
    names = {lib.name for lib in _catalog.LIBRARIES} | {lib.name for _, lib in _catalog.OPTIONAL}
    for binding in used:
        assert _BINDING_LIBRARY[binding] in names, binding
    by_name = {lib.name: lib for lib in _catalog.LIBRARIES}
    for lib in _catalog.LIBRARIES:  # dependencies are rows too, listed before the library
        for dep in lib.needs:
            assert dep in by_name and _catalog.LIBRARIES.index(by_name[dep]) < _catalog.LIBRARIES.index(lib)


def test_optional_extras_list_their_wheels():
    for extra, lib in _catalog.OPTIONAL:
        assert _norm(lib.wheel) in _extra(extra), (extra, lib.wheel)
        assert all(dep in {x.name for x in _catalog.LIBRARIES} for dep in lib.needs)


def test_each_library_row_names_its_own_library():
    """The cuBLAS row names libcublas (not libcublasLt), cuSOLVER's libcusolver, found or not."""
    from cuarray._info import library_status

    for lib, loaded, text in library_status():
        stem = lib.soname.split(".so")[0]
        if loaded:
            path = text.split()[-2] if text.endswith("]") else text.split()[-1]
            assert os.path.basename(path).startswith(stem + ".so"), (lib.name, text)
        else:
            assert lib.soname in text and lib.wheel in text, (lib.name, text)


def test_info_reports_the_cores():
    proc = _run("info")
    assert "cuarray cores:" in proc.stdout
    assert re.search(r"memory pool\s+(native|python)", proc.stdout)
    assert re.search(r"kernel launch\s+(native|cuda\.core)", proc.stdout)


@pytest.mark.skipif(os.environ.get("CUARRAY_EXPECT_CUDA_LIBS", "0") in ("", "0"),
                    reason="set CUARRAY_EXPECT_CUDA_LIBS=1 (.ci/run does) where pip install -e '.[test]' "
                    "(which includes the cu13 extra) made the environment")
def test_every_library_loads_where_the_extra_is_installed():
    """CI's fresh venv has `.[test]`, which includes `.[cu13]`: every library cuarray needs must load
    (no GPU needed)."""
    from cuarray._info import library_status

    bad = [(lib.name, text) for lib, loaded, text in library_status() if not loaded]
    assert not bad, bad
    for pkg in _catalog.PACKAGES:
        assert importlib.metadata.version(pkg)
    # nvmath's bindings import without a GPU: the first library call would find them.
    subprocess.run([sys.executable, "-c", "import nvmath.bindings.cublas, nvmath.bindings.cufft"], check=True,
                   timeout=120)


def test_info_calls_a_device_below_sm_75_too_old():
    """CUDA 13 and its NVRTC start at compute capability 7.5 (the README's requirement): an older
    device's row in `python -m cuarray info` says so, with the reason."""
    from cuarray._info import MIN_COMPUTE_CAPABILITY, too_old

    assert MIN_COMPUTE_CAPABILITY == (7, 5)
    for cc in ("70", "72", "61"):
        assert too_old(cc).startswith("TOO OLD: compute capability {}.{} is below the 7.5 (sm_75)".format(*cc))
    assert [too_old(cc) for cc in ("75", "80", "86", "90", "100", "120")] == [""] * 6
    readme = open(os.path.join(ROOT, "README.md")).read()
    assert "compute capability 7.5" in readme and "7.0+" not in readme
