"""The row-wise SpGEMM's plan without a GPU: bins of product counts (Python and the kernels' header,
built with g++, agree on every boundary), shared memory and launch shapes within the limits, and
every kernel compiles with NVRTC for sm_90 for every value dtype and index width."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

from cuarray.sparse import _spgemm_plan as plan
from cuarray.sparse import _spgemm_rowwise as rowwise

DTYPES = "?bBhHiIlLqQfdFD"


def _reference_bin(ub, p, mb):
    d = min(ub, p)
    if d <= 0:
        return 0
    if ub >= 2**31:
        return plan.BIG
    b = 1
    while (16 << b) < d:
        b += 1
    return b if b <= mb else plan.BIG


def _boundaries():
    vals = {0, 1, 2, 2**31 - 1, 2**31, 2**40}
    for b in range(1, 12):
        for x in (16 << b,):
            vals |= {x - 1, x, x + 1}
    return sorted(vals)


@pytest.mark.parametrize("mb", [6, 7])
def test_row_bin_boundaries(mb):
    ub = _boundaries()
    for p in (1, 50, 2048, 2049, 10**6, 2**33):
        got = plan.row_bin(ub, p, mb).tolist()
        assert got == [_reference_bin(u, p, mb) for u in ub], p


def test_row_bin_random():
    rng = np.random.default_rng()
    ub = rng.integers(0, 10**5, 5000)
    for p in (rng.integers(1, 10**5), 10**6):
        assert plan.row_bin(ub, p, 7).tolist() == [_reference_bin(int(u), int(p), 7) for u in ub]


def test_bins_and_tables():
    assert plan.NBINS == plan.BIG + 1
    for b in range(1, plan.BIG):
        t = plan.table_size(b)
        assert t == 2 * (16 << b)                      # load factor at most 1/2
        assert t % (32 * plan.warps_per_row(b)) == 0
        assert 32 * plan.warps_per_row(b) <= plan.MAX_THREADS


@pytest.mark.parametrize("char", DTYPES)
def test_shared_memory_and_launch_shapes(char):
    mb = plan.max_bin(char)
    want = {4: 7, 8: 6, 16: 6}[plan.acc_bytes(char)]
    assert mb == want
    for b in range(1, mb + 1):
        for row_bytes in (plan.symbolic_row_bytes(b), plan.numeric_row_bytes(b, char)):
            threads, rb, shared = plan.launch_shape(b, row_bytes)
            assert threads == rb * 32 * plan.warps_per_row(b) <= plan.MAX_THREADS
            assert rb <= 32                           # the kernels' per-group counters
            assert shared == rb * row_bytes <= plan.SHARED_LIMIT
            assert row_bytes % 16 == 0                # each group's accumulators stay aligned
    assert plan.numeric_row_bytes(mb + 1, char) > plan.SHARED_LIMIT or mb + 1 == plan.BIG


def test_acc_bytes():
    assert [plan.acc_bytes(c) for c in "?bBhHiI"] == [4] * 7
    assert [plan.acc_bytes(c) for c in "qQfdFD"] == [8, 8, 4, 8, 8, 16]


def test_supports():
    assert plan.supports(10, 10) and plan.supports(2**31 - 2, 2**32 - 2)
    assert not plan.supports(2**31 - 1, 5) and not plan.supports(5, 2**32 - 1)


def test_dense_plan():
    assert plan.dense_plan(100, 200000, np.float32) == (6250, 100)
    words, blocks = plan.dense_plan(5000, 200000, np.complex128)
    assert words == 6250 and blocks == min(plan.DENSE_BLOCKS, plan.DENSE_BYTES // (200000 * 16))
    assert blocks * 200000 * 16 <= plan.DENSE_BYTES
    assert plan.dense_plan(10**5, 10**6, np.float32) is None      # bitmaps past the budget
    assert plan.dense_plan(1, 2**27, np.float64) is None          # one accumulator past it
    assert plan.dense_plan(3, 33, "?") == (2, 3)


def test_kernel_names_cover_every_bin():
    names = plan.kernel_names(np.float64, np.int32, np.int64)
    assert names["copy"] == "cuarray_spgemm_copy_rows<double, long long>"
    assert names["dense_numeric"] == "cuarray_spgemm_dense_numeric<double, int, long long>"
    assert names["dense_symbolic"] == "cuarray_spgemm_dense_symbolic<int>"
    assert names[("numeric", 3)] == "cuarray_spgemm_numeric<double, int, long long, 256, 1>"
    assert names[("symbolic", 6)] == "cuarray_spgemm_symbolic<int, 2048, 4>"
    assert ("numeric", 7) not in names
    assert ("numeric", 7) in plan.kernel_names(np.float32, np.int64, np.int32)


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")
def test_header_row_bin_agrees_with_python(tmp_path):
    hdr = (rowwise._DIR / "spgemm_bins.cuh").read_text()
    src = tmp_path / "bins.cpp"
    src.write_text("#define CUARRAY_HD\n" + hdr + """
#include <cstdio>
int main() {
  long long ub, p; int mb;
  while (std::scanf("%lld %lld %d", &ub, &p, &mb) == 3) std::printf("%d\\n", cuarray::spgemm::row_bin(ub, p, mb));
}
""")
    exe = tmp_path / "bins"
    subprocess.run(["g++", "-O1", "-std=c++17", "-o", str(exe), str(src)], check=True)
    rng = np.random.default_rng()
    ub = np.array(_boundaries() + rng.integers(0, 10**5, 300).tolist(), dtype=np.int64)
    cases = [(int(u), p, mb) for p in (7, 100, 5000, 10**7) for mb in (6, 7) for u in ub]
    out = subprocess.run([str(exe)], input="\n".join("{} {} {}".format(*c) for c in cases), capture_output=True,
                         text=True, check=True).stdout.split()
    for (u, p, mb), got in zip(cases, out):
        assert int(got) == int(plan.row_bin([u], p, mb)[0]), (u, p, mb)
    assert len(out) == len(cases)


def _compile(names):
    from cuarray.cuda import compiler

    try:
        return compiler.compile_cubin(rowwise.source(), arch="sm_90", name_expressions=tuple(names))
    except Exception as e:  # noqa: BLE001
        if "nvrtc" in str(e).lower() and "not" in str(e).lower() and "found" in str(e).lower():
            pytest.skip("NVRTC unavailable: {}".format(e))
        raise


@pytest.mark.parametrize("idx", [(4, 4), (4, 8), (8, 4), (8, 8)], ids=["i32-i32", "i32-i64", "i64-i32", "i64-i64"])
@pytest.mark.nvrtc_fast
def test_kernels_compile_for_sm90(idx):
    import cuarray._core  # noqa: F401  (puts the templates' headers on NVRTC's include path)

    i_in, i_out = (np.dtype("i{}".format(k)) for k in idx)
    names = set()
    for c in DTYPES:
        names |= set(plan.kernel_names(np.dtype(c), i_in, i_out).values())
    cubin, mapping = _compile(sorted(names))
    assert cubin and set(mapping) == names
