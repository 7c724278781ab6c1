"""linalg cases (docs/bench-targets.md "linalg"): solve, cholesky, qr, svd and eigh of a 4096 x 4096 float64
matrix, and 10000 stacked 8 x 8 solves. Peers: CuPy (cupy.linalg) and PyTorch (torch.linalg), in the
same process. solve_toeplitz of one n = 4096 system (float64, complex128; its route chosen by
cuarray/scipy/linalg/_toeplitz_plan.py), against CuPy's and SciPy's on the host. Targets: no case slower than CuPy; svd <= 0.5 x CuPy. The input matrices are made on
the host once (a well-conditioned general matrix, and a symmetric positive definite one)."""

from __future__ import annotations

import functools

import numpy

from . import register
import cuarray.scipy.linalg

OPS = ("solve", "cholesky", "qr", "svd", "eigh")


@functools.lru_cache(maxsize=4)
def _host(n: int, kind: str):
    rng = numpy.random.default_rng(21)
    a = rng.standard_normal((n, n))
    if kind == "spd":
        a = (a + a.T) / 2 + n * numpy.eye(n)
    return a


def _to(xp, h):
    if getattr(xp, "__name__", "") == "torch":
        return xp.from_numpy(h).cuda()
    return xp.asarray(h)


def _linalg(xp):
    if getattr(xp, "__name__", "") == "cuarray":
        return xp.linalg
    return xp.linalg


big = register(
    "linalg-4096", group="linalg",
    description="solve (64 right-hand sides) / cholesky / qr / svd / eigh of a 4096x4096 float64 matrix",
    size=4096, quick=1024, params=OPS,
    flops=lambda n, p: {"solve": 2 / 3 * n**3, "cholesky": n**3 / 3, "qr": 4 / 3 * n**3,
                        "svd": 22 * n**3, "eigh": 9 * n**3}[p],
    size_label=lambda n: "{0}x{0} f64".format(n),
)


@big.setup("cuarray", "cupy", "torch")
def _(xp, n, op):
    la = _linalg(xp)
    a = _to(xp, _host(n, "spd" if op in ("cholesky", "eigh") else "general"))
    if op == "solve":
        b = _to(xp, _host(n, "general")[:, :64].copy())
        return lambda: la.solve(a, b)
    if op == "cholesky":
        return lambda: la.cholesky(a)
    if op == "qr":
        return lambda: la.qr(a)
    if op == "svd":
        return lambda: la.svd(a)
    return lambda: la.eigh(a)


stacked = register(
    "linalg-solve-stacked", group="linalg",
    description="solve of 10000 stacked 8x8 float64 systems (one right-hand side each)",
    size=10000, quick=10000,
    size_label=lambda n: "{} x 8x8 f64".format(n),
)


@stacked.setup("cuarray", "cupy", "torch")
def _(xp, n, param):
    rng = numpy.random.default_rng(22)
    a = _to(xp, rng.standard_normal((n, 8, 8)) + 8 * numpy.eye(8))
    b = _to(xp, rng.standard_normal((n, 8, 1)))
    la = _linalg(xp)
    return lambda: la.solve(a, b)


toeplitz = register(
    "solve_toeplitz", group="linalg",
    description="scipy.linalg.solve_toeplitz of one n x n system (c, r given; one right-hand side)",
    size=4096, quick=4096, params=("float64", "complex128"),
    size_label=lambda n: "n={}".format(n),
)


@toeplitz.setup("cuarray", "cupy", "numpy")
def _(xp, n, dtype):
    rng = numpy.random.default_rng(23)
    c, r, b = (rng.standard_normal(n) for _ in range(3))
    if dtype == "complex128":
        c, r, b = (v + 1j * rng.standard_normal(n) for v in (c, r, b))
    c[0] = r[0] = 8 * numpy.sqrt(n)  # well conditioned: Levinson (SciPy's algorithm) is accurate
    name = getattr(xp, "__name__", "")
    if name == "cuarray":
        sl = cuarray.scipy.linalg
    elif name == "cupy":
        import cupyx.scipy.linalg as sl
    else:
        import scipy.linalg as sl  # the host peer: SciPy's Levinson recursion
    fn = sl.solve_toeplitz  # (AttributeError where a peer has none: the cell says n/a)
    c, r, b = (xp.asarray(v) for v in (c, r, b))
    return lambda: fn((c, r), b)
