"""The `compilers` bench group's cuarray column on the device, at small sizes: each workload's NumPy
code under `cuarray.lazy` (the loop: a lazy step called 100 times) agrees with NumPy's (the
case's own check, which raises AssertionError with the count of values that differ), and the
first-run row times a cold run (empty in-process caches, an empty kernel disk cache folder) and a
disk-warm one and checks both. The PyTorch and JAX columns run in the bench itself."""

from __future__ import annotations

import dataclasses

import pytest

import cuarray
from cuarray.bench.cases import _compiler_workloads as W
from cuarray.bench.cases import compilers as C

pytestmark = pytest.mark.gpu

SMALL = {"logreg": 1024, "grad": 1024, "softmax": 256, "layernorm": 256, "stencil": 256, "gelu-bias": 256,
         "chain10": 2**16, "variance": 2**16, "black-scholes": 2**16, "kmeans": 2**14}


@pytest.mark.parametrize("w", W.WORKLOADS, ids=[w.name for w in W.WORKLOADS])
def test_steady_row_setup_checks_the_lazy_result_against_numpy(w):
    n = SMALL[w.name]
    run = C._steady("cuarray", w, W.Reference(w))(cuarray, n, None)  # raises if NumPy disagrees
    run()


@pytest.mark.parametrize("name", ["chain10", "softmax"])
def test_first_row_times_a_cold_and_a_disk_warm_run(name):
    w = dataclasses.replace({v.name: v for v in W.WORKLOADS}[name], size=SMALL[name])
    result = C.first_run(C._Cuarray(cuarray, "cuarray"), w, W.Reference(w))()
    assert set(result) == {"time_s", "disk_warm_s"}
    # the cold run compiles its kernels with NVRTC; the second reads them from the disk cache
    assert result["time_s"] > result["disk_warm_s"] > 0
