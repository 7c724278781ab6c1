"""CSR @ CSR: cuarray's row-wise SpGEMM (hash tables per row; rows too long for them through
expand-sort: `rowwise`, or dense accumulators: `rowwise-dense`) against its expand-sort path, CuPy
and PyTorch (both cuSPARSE), in one process, on the same matrices: the bench's two 1e6 x 1e6 float32
matrices of 1e7 nonzeros (and float64), a power-law-rows matrix squared, and a small 1000 x 1000
one. Prints the median us of CUDA-event pairs per variant, the ratio to CuPy, and a BAD line
wherever a row-wise result differs from expand-sort's (indptr/indices exactly, data to the
dtype's tolerance) or its nnz from CuPy's; then, with --profile, the row-wise kernels' GPU time
for the bench case.

    PYTHONPATH=. python scripts/perf/spgemm_variants.py [--libs cuarray,cupy,torch] [--quick] [--profile]
"""

from __future__ import annotations

import argparse
import statistics

import numpy as np

import cuarray
import cuarray.sparse
from cuarray.bench.cases import sparse as bench_sparse
from cuarray.sparse import _matmul, _spgemm_plan

METHODS = ("rowwise", "rowwise-dense", "expand-sort")


def _events(lib):
    if lib == "torch":
        import torch

        return (lambda: torch.cuda.Event(enable_timing=True), lambda s, e: s.elapsed_time(e), torch.cuda.synchronize)
    mod = cuarray if lib == "cuarray" else __import__("cupy")
    return lambda: mod.cuda.Event(), lambda s, e: mod.cuda.get_elapsed_time(s, e), lambda: mod.cuda.Device().synchronize()


def time_us(lib, fn, reps):
    make, elapsed, sync = _events(lib)
    for _ in range(2):
        fn()
    sync()
    out = []
    for _ in range(reps):
        s, e = make(), make()
        s.record()
        fn()
        e.record()
        sync()
        out.append(elapsed(s, e) * 1e3)
    return statistics.median(out)


def power_law(n, seed, alpha=1.3, scale=4, dtype=np.float32):
    """(data, indices, indptr) of an n x n matrix whose row lengths follow a Pareto law (a few rows
    with thousands of entries, most with a handful), columns uniform, sorted and distinct per row."""
    rng = np.random.default_rng(seed)
    lens = np.minimum((rng.pareto(alpha, n) * scale).astype(np.int64) + 1, n // 4)
    rows = np.repeat(np.arange(n, dtype=np.int64), lens)
    keys = np.unique(rows * n + rng.integers(0, n, rows.size))
    rows, cols = keys // n, keys % n
    indptr = np.concatenate(([0], np.cumsum(np.bincount(rows, minlength=n)))).astype(np.int32)
    return (rng.random(keys.size) + 0.5).astype(dtype), cols.astype(np.int32), indptr


def small(n, seed, dtype=np.float64):
    rng = np.random.default_rng(seed)
    h = __import__("scipy.sparse", fromlist=["random"]).random(n, n, density=0.01, format="csr", random_state=rng)
    return (h.data + 0.5).astype(dtype), h.indices.astype(np.int32), h.indptr.astype(np.int32)


def cases(quick):
    nnz = 10**6 if quick else 10**7
    b = bench_sparse
    yield "bench f32 1e6^2 nnz %.0e" % nnz, b._host_csr(b.ROWS, nnz, 5), b._host_csr(b.ROWS, nnz, 6), np.float32, 5
    yield "bench f64 1e6^2 nnz %.0e" % nnz, b._host_csr(b.ROWS, nnz, 5), b._host_csr(b.ROWS, nnz, 6), np.float64, 5
    pl = power_law(20000 if quick else 200000, 7)
    yield "power-law rows, A @ A", pl, pl, np.float32, 5
    sm = small(1000, 8)
    yield "1000^2 density 0.01 f64", sm, small(1000, 9), np.float64, 50


def build(lib, libs, parts, dtype, shape):
    data, idx, ptr = parts
    data = data.astype(dtype)
    if lib == "cuarray":
        return cuarray.sparse.csr_matrix((cuarray.asarray(data), cuarray.asarray(idx), cuarray.asarray(ptr)),
                                         shape=shape)
    if lib == "cupy":
        cp = libs["cupy"]
        import cupyx.scipy.sparse as csp

        return csp.csr_matrix((cp.asarray(data), cp.asarray(idx), cp.asarray(ptr)), shape=shape)
    torch = libs["torch"]
    t = lambda x: torch.as_tensor(x).cuda()  # noqa: E731
    return torch.sparse_csr_tensor(t(ptr.astype(np.int64)), t(idx.astype(np.int64)), t(data), size=shape)


def compare(name, new, old, ref_nnz, dtype):
    bad = []
    hn, ho = (x.get() for x in (new, old))
    if not np.array_equal(hn.indptr, ho.indptr):
        bad.append("indptr differs")
    elif not np.array_equal(hn.indices, ho.indices):
        bad.append("indices differ")
    else:
        tol = 1e-5 if dtype == np.float32 else 1e-12
        if not np.allclose(hn.data, ho.data, rtol=tol, atol=0):
            bad.append("data differs (max rel {:.2e})".format(float(np.max(np.abs(hn.data - ho.data) /
                                                                       np.abs(ho.data)))))
    if hn.dtype != ho.dtype or hn.indices.dtype != ho.indices.dtype:
        bad.append("dtypes {}/{} vs {}/{}".format(hn.dtype, hn.indices.dtype, ho.dtype, ho.indices.dtype))
    if not (new.has_sorted_indices and new.has_canonical_format):
        bad.append("not canonical")
    if ref_nnz is not None and ref_nnz != new.nnz:
        bad.append("nnz {} vs CuPy's {}".format(new.nnz, ref_nnz))
    for b in bad:
        print("BAD {}: {}".format(name, b), flush=True)
    return not bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--libs", default="cuarray,cupy,torch")
    ap.add_argument("--quick", action="store_true", help="1e6 nonzeros instead of 1e7")
    ap.add_argument("--profile", action="store_true", help="the row-wise kernels' GPU time on the bench case")
    ap.add_argument("--table-caps", default="", help="comma-separated _spgemm_plan.TABLE_BIN_CAP values to time "
                    "'rowwise' under (rows past the cap's table take the expand-sort path), e.g. 4,5,6")
    args = ap.parse_args()
    caps = [int(c) for c in args.table_caps.split(",") if c]
    libs = {"cuarray": cuarray}
    for name in args.libs.split(","):
        if name != "cuarray":
            try:
                libs[name] = __import__(name)
            except Exception:  # noqa: BLE001 -- a missing peer is a column of dashes
                pass
    print("libraries:", ", ".join(sorted(libs)))
    rows = []
    for name, pa, pb, dtype, reps in cases(args.quick):
        n = pa[2].size - 1
        shape = (n, n)
        times = {}
        a, b = build("cuarray", libs, pa, dtype, shape), build("cuarray", libs, pb, dtype, shape)
        products = int(cuarray.diff(b.indptr)[a.indices].sum())
        for method in METHODS:
            times[method] = time_us("cuarray", lambda: _matmul.spgemm(a, b, method), reps)
        capped = {}
        for cap in caps:
            _spgemm_plan.TABLE_BIN_CAP = cap
            try:
                capped[cap] = (time_us("cuarray", lambda: _matmul.spgemm(a, b, "rowwise"), reps),
                               _matmul.spgemm(a, b, "rowwise"))
            finally:
                _spgemm_plan.TABLE_BIN_CAP = None
        ref_nnz = None
        for lib in ("cupy", "torch"):
            if lib not in libs:
                continue
            try:
                x, y = build(lib, libs, pa, dtype, shape), build(lib, libs, pb, dtype, shape)
                r = x @ y
                if lib == "cupy":
                    ref_nnz = int(r.nnz)
                del r
                times[lib] = time_us(lib, lambda: x @ y, reps)
                del x, y
            except Exception as exc:  # noqa: BLE001
                print("  {} {}: {}: {}".format(name, lib, type(exc).__name__, str(exc)[:80]))
        old = _matmul.spgemm(a, b, "expand-sort")
        ok = True
        for method in METHODS[:2]:
            new = _matmul.spgemm(a, b, method)
            ok = compare(name + " " + method, new, old, ref_nnz, dtype) and ok
            del new
        for cap, (us, new) in capped.items():
            ok = compare("{} rowwise cap={}".format(name, cap), new, old, ref_nnz, dtype) and ok
            times["rowwise cap={}".format(cap)] = us
        del capped
        rows.append((name, products, old.nnz, times, ok))
        del old, a, b
        cuarray.get_default_memory_pool().free_all_blocks()
        if "cupy" in libs:
            libs["cupy"].get_default_memory_pool().free_all_blocks()
    print("\n{:28s} {:>11} {:>11} {:>11} {:>13} {:>11} {:>11} {:>11} {:>8} {:>8} {:>8}".format(
        "case", "products", "nnz(C)", "rowwise", "rowwise-dense", "expand-sort", "cupy", "torch", "row/cupy",
        "dense/cp", "old/cupy"))
    f = lambda v: "{:11.1f}".format(v) if v is not None else "{:>11}".format("-")  # noqa: E731
    for name, products, nnz, t, ok in rows:
        cp = t.get("cupy")
        r = lambda k: "{:8.2f}".format(t[k] / cp) if cp else "{:>8}".format("-")  # noqa: E731
        print("{:28s} {:11d} {:11d} {} {:>13} {} {} {} {} {} {}{}".format(
            name, products, nnz, f(t.get("rowwise")), f(t.get("rowwise-dense")).strip(), f(t.get("expand-sort")),
            f(cp), f(t.get("torch")), r("rowwise"), r("rowwise-dense"), r("expand-sort"), "" if ok else "  BAD"))
    if caps:
        print("\nrowwise with the table bins capped (_spgemm_plan.TABLE_BIN_CAP; bin b's table: 32 << b slots), us "
              "and / CuPy:")
        for name, products, nnz, t, ok in rows:
            cp = t.get("cupy")
            print("{:28s} {}".format(name, "  ".join("cap {}: {:9.1f} ({})".format(
                c, t["rowwise cap={}".format(c)], "{:.2f}".format(t["rowwise cap={}".format(c)] / cp) if cp else "-")
                for c in caps)))
    if args.profile:
        name, pa, pb, dtype, _ = next(cases(args.quick))
        n = pa[2].size - 1
        a, b = build("cuarray", libs, pa, dtype, (n, n)), build("cuarray", libs, pb, dtype, (n, n))
        pl = power_law(20000 if args.quick else 200000, 7)
        power = lambda: build("cuarray", libs, pl, np.float32, (pl[2].size - 1,) * 2)  # noqa: E731
        for case_name, (x, y) in ((name, (a, b)), ("power-law rows", (power(), power()))):
            for method in METHODS[:2]:
                _matmul.spgemm(x, y, method)
                with cuarray.profile() as prof:
                    _matmul.spgemm(x, y, method)
                print("\n{}, {}, one call:\n{}".format(case_name, method, prof.table(limit=15)))


if __name__ == "__main__":
    main()
