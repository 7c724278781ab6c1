"""The CUDA libraries cuarray loads, and the wheel of the `cu13` extra that provides each.

One table, read by `python -m cuarray info` (a row per library: the path it loads from and its
version) and by tests/test_info.py (the extra in pyproject.toml names every wheel here; in CI, where
the extra is installed, every library loads). Adding a library to `cuarray.cuda.libs` adds a row.
Plain data: importing this module loads nothing.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["Library", "LIBRARIES", "OPTIONAL", "HEADERS", "PACKAGES", "wheels"]


class Library(NamedTuple):
    name: str         # cuda.pathfinder's name (`load_nvidia_dynamic_lib(name)`)
    soname: str       # the CUDA 13 file name, what a "not found" row names
    wheel: str        # the PyPI distribution of the `cu13` extra that ships it
    needs: tuple      # libraries it loads first (cuda.pathfinder loads them before it)
    used_for: str


LIBRARIES = (
    Library("nvrtc", "libnvrtc.so.13", "nvidia-cuda-nvrtc", (), "compiling every generated kernel"),
    Library("cudart", "libcudart.so.13", "nvidia-cuda-runtime", (),
            "the CUDA runtime; its wheel also carries the headers NVRTC compiles against"),
    Library("nvJitLink", "libnvJitLink.so.13", "nvidia-nvjitlink", (), "cuFFT, cuSPARSE and cuSOLVER load it"),
    Library("cublasLt", "libcublasLt.so.13", "nvidia-cublas", (), "single matrix products and their epilogues"),
    Library("cublas", "libcublas.so.13", "nvidia-cublas", ("cublasLt",),
            "batched and large matrix products, gemv, batched LU"),
    Library("cufft", "libcufft.so.12", "nvidia-cufft", ("nvJitLink",), "cuarray.fft"),
    Library("curand", "libcurand.so.10", "nvidia-curand", (),
            "loaded by nvmath-python's import (cuarray.random runs its own Philox kernels)"),
    Library("cusparse", "libcusparse.so.12", "nvidia-cusparse", ("nvJitLink",),
            "cuarray.sparse SpMV/SpMM/SpSV; gtsv2 (CubicSpline, solve_banded)"),
    Library("cusolver", "libcusolver.so.12", "nvidia-cusolver", ("cublas", "cusparse", "nvJitLink"),
            "cuarray.linalg factorizations"),
)

# Libraries of optional extras (not in `cu13`): (extra, library). Their absence is normal; the
# code that uses one raises ImportError naming its extra.
OPTIONAL = (
    ("cudss", Library("cudss", "libcudss.so.0", "nvidia-cudss-cu13", ("cublas", "cublasLt"),
                      "cuarray.sparse.linalg's direct solvers (spsolve, splu, spilu, factorized)")),
)

# Header directories (cuda.pathfinder's names) NVRTC compiles against, and their wheels.
HEADERS = (
    ("cudart", "nvidia-cuda-runtime"),   # cuda_runtime.h, cuda_fp16.h, cuda_bf16.h
    ("cccl", "nvidia-cuda-cccl"),        # cuda/std/*, cub/*
)

# Python packages of the extra: the low-level bindings cuarray.cuda.libs calls.
PACKAGES = ("nvmath-python",)


def wheels() -> set:
    """Every distribution the `cu13` extra must list."""
    return {lib.wheel for lib in LIBRARIES} | {w for _, w in HEADERS} | set(PACKAGES)
