"""The example programs' kernels (tests/cuda/example_programs) compile with NVRTC for sm_90, and the
host values they pass by value convert to the parameter sizes the kernels declare (no GPU)."""

from __future__ import annotations

import importlib.util
import os

import numpy as np
import pytest

from cuarray.cuda import compiler
from cuarray.cuda import module as m

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "example_programs")


def _load(name):
    spec = importlib.util.spec_from_file_location("example_" + name, os.path.join(HERE, name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _compile(src, names=()):
    try:
        return compiler.compile_cubin(src, arch="sm_90", name_expressions=tuple(names))
    except Exception as exc:  # noqa: BLE001
        if "nvrtc" in str(exc).lower() and "not" in str(exc).lower():
            pytest.skip("NVRTC unavailable: {}".format(exc))
        raise


def test_vector_param_compiles_and_converts():
    p = _load("vector_param")
    _compile(p.SOURCE)
    by = np.array([0.5, -1.0, 2.0]).view(p.DOUBLE3)
    scale = np.array([2.0, 3.0, 0.5, 1.0], np.float32).view(p.FLOAT4)
    args = m.convert_args((by, scale, 37), "shift", (24, 16, 4))
    assert args[2] == 37 and args[2].itemsize == 4


def test_nested_struct_compiles():
    p = _load("nested_struct")
    _compile(p.LAYOUT)
    _compile(p.USE)


def test_matrix_param_compiles():
    p = _load("matrix_param")
    _compile(p.SOURCE, ("transform<float>", "transform<double>"))


def test_tiled_sgemm_compiles():
    p = _load("tiled_sgemm")
    _compile("#define TILE 16\n" + p.SOURCE)
    args = m.convert_args((300, 257, 129), "sgemm_tiled", (4, 4, 4))
    assert [a.itemsize for a in args] == [4, 4, 4]
