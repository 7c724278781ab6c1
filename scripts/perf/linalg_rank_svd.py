"""rank_svd: gesvd (QR iteration) against gesvdj (Jacobi) on the matrix kinds the fuzz makes (singular
values against NumPy's LAPACK), and their times at 64-4096 (docs/perf-notes.md, "svd: which cuSOLVER routine")."""
import time
import numpy as np
import cuarray as cp
from cuarray.linalg import _svd
from cuarray.cuda import synchronize

rng = np.random.default_rng(1)


def kinds(n, dt):
    yield "random", rng.standard_normal((n, n))
    p = np.eye(n)[rng.permutation(n)] * np.logspace(0, -40, n)[:, None]
    yield "scaled-perm", p
    b = rng.standard_normal((n, max(1, n // 2))) @ rng.standard_normal((max(1, n // 2), n))
    yield "rank-half", b
    u, _ = np.linalg.qr(rng.standard_normal((n, n))); v, _ = np.linalg.qr(rng.standard_normal((n, n)))
    yield "graded", (u * np.logspace(0, -14, n)) @ v.T
    yield "tiny", rng.standard_normal((n, n)) * 1e-300


for n in (5, 7, 16, 40, 100):
    for dt in ("float64", "float32", "complex128"):
        for name, a in kinds(n, dt):
            a = a.astype(dt) if dt != "complex128" else (a + 1j * np.roll(a, 1, 0)).astype(dt)
            ref = np.linalg.svd(a.astype(np.complex128 if dt.startswith("c") else np.float64), compute_uv=False)
            eps = np.finfo(dt).eps
            out = [n, dt, name]
            for algo in ("gesvdj", "gesvd"):
                try:
                    s = _svd._svd(cp.asarray(a), False, False, algorithm=algo).get()
                    abserr = np.max(np.abs(s - ref)) / ref[0] / eps
                    small = ref > 0
                    rel = np.max(np.abs(s[small] - ref[small]) / ref[small])
                    zeros_lost = int(np.sum((s == 0) & (ref > 0)))
                    out.append("%s abs/eps=%.2g rel=%.2g zeros=%d" % (algo, abserr, rel, zeros_lost))
                except Exception as e:
                    out.append("%s %s" % (algo, type(e).__name__))
            print(*out, flush=True)


def t(f, reps=3):
    f(); synchronize()
    best = 1e9
    for _ in range(reps):
        t0 = time.perf_counter(); f(); synchronize(); best = min(best, time.perf_counter() - t0)
    return best * 1e3


for n in (64, 256, 1024, 2048, 4096):
    for dt in ("float64", "float32"):
        a = cp.asarray(rng.standard_normal((n, n)).astype(dt))
        row = [n, dt]
        for algo in ("gesvdj", "gesvd"):
            for uv in (False, True):
                row.append("%s uv=%d %.2f ms" % (algo, uv, t(lambda: _svd._svd(a, False, uv, algorithm=algo), 2 if n >= 2048 else 3)))
        row.append("pinv %.2f ms" % t(lambda: cp.linalg.pinv(a), 2))
        print(*row, flush=True)
