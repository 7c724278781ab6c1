"""The kernel cache key's header folders are found in the NVIDIA wheels without importing
cuda.pathfinder (its import is ~41 ms of a process's first kernel on the H100), and they are the
folders cuda.pathfinder itself finds."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cuarray.cuda import compiler


def test_wheel_folders_are_pathfinders():
    pf = pytest.importorskip("cuda.pathfinder")
    for lib, (rels, marker) in compiler._HEADER_WHEEL_DIRS.items():
        fast = compiler._wheel_dir(rels, marker)
        if fast is None:
            pytest.skip("no NVIDIA header wheel for {} here".format(lib))
        assert fast == pf.find_nvidia_header_directory(lib)


def test_toolchain_id_imports_no_pathfinder():
    code = ("import sys\nfrom cuarray.cuda import compiler\n"
            "if any(compiler._wheel_dir(r, m) is None for r, m in compiler._HEADER_WHEEL_DIRS.values()) "
            "or compiler._nvrtc_wheel_file() is None:\n    print('no wheels')\nelse:\n"
            "    compiler._toolchain_id()\n    print('cuda.pathfinder' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    if out == ["no", "wheels"]:
        pytest.skip("the CUDA wheels are not installed here")
    assert out == ["False"]


def _toolkit(root, cccl_subdir=True):
    """A toolkit's include/ with the two marker files (CCCL in include/cccl, as CUDA 13's)."""
    inc = root / "include"
    cccl = (inc / "cccl") if cccl_subdir else inc
    (cccl / "cuda" / "std").mkdir(parents=True)
    (cccl / "cuda" / "std" / "version").write_text("")
    (inc / "cuda_runtime.h").write_text("")
    return root


def _run(code, env):
    import os

    full = {k: v for k, v in os.environ.items() if k not in ("CUDA_PATH", "CUDA_HOME", "CONDA_PREFIX")}
    full.update(env)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env=full).stdout.split()


@pytest.mark.parametrize("layout", ["cuda-home", "cuda-path-first", "no-cccl-subdir"])
def test_toolkit_folders_are_pathfinders(tmp_path, layout):
    """Pathfinder's $CUDA_PATH / $CUDA_HOME step, run in a fresh process (it caches the variables),
    finds the folders compiler._toolkit_dir finds."""
    pytest.importorskip("cuda.pathfinder")
    home = _toolkit(tmp_path / "home", cccl_subdir=layout != "no-cccl-subdir")
    env = {"CUDA_HOME": str(home)}
    if layout == "cuda-path-first":
        env["CUDA_PATH"] = str(_toolkit(tmp_path / "path"))
        env["CUDA_HOME"] = str(home)
    code = ("import warnings\nwarnings.simplefilter('ignore')\n"
            "from cuarray.cuda import compiler\n"
            "try:\n    from cuda.pathfinder._headers.find_nvidia_headers import find_in_cuda_path\n"
            "    from cuda.pathfinder._headers.header_descriptor import HEADER_DESCRIPTORS\n"
            "except ImportError:\n    print('no step')\nelse:\n"
            "    for lib, (rels, marker) in compiler._HEADER_WHEEL_DIRS.items():\n"
            "        hit = find_in_cuda_path(HEADER_DESCRIPTORS[lib])\n"
            "        print(hit.abs_path if hit else None, compiler._toolkit_dir(compiler._HEADER_TOOLKIT_SUBDIRS[lib], marker))")
    out = _run(code, env)
    if out == ["no", "step"]:
        pytest.skip("this cuda.pathfinder has no $CUDA_PATH header step to compare with")
    assert len(out) == 4 and out[0] == out[1] and out[2] == out[3], out
    inc = tmp_path / ("path" if layout == "cuda-path-first" else "home") / "include"
    assert out[::2] == [str(inc if layout == "no-cccl-subdir" else inc / "cccl"), str(inc)]


_NO_WHEELS = ("import sys\nfrom cuarray.cuda import compiler\n"
              "compiler._wheel_dir = lambda rels, marker: None  # (as on a machine whose headers are a toolkit's)\n"
              "print(*compiler._header_dirs().values(), 'cuda.pathfinder' in sys.modules)")


def test_toolkit_headers_import_no_pathfinder(tmp_path):
    """With the headers in $CUDA_HOME and no wheel, the cache key's folders come without importing
    cuda.pathfinder (42-75 ms of the first kernel of a process on the H200 machine); with a conda
    environment active pathfinder answers (its conda step comes first)."""
    home = _toolkit(tmp_path / "home")
    cccl, cudart, imported = _run(_NO_WHEELS, {"CUDA_HOME": str(home)})
    assert (cccl, cudart, imported) == (str(home / "include" / "cccl"), str(home / "include"), "False")
    *_, imported = _run(_NO_WHEELS, {"CUDA_HOME": str(home), "CONDA_PREFIX": str(tmp_path / "conda")})
    assert imported == "True"
