"""Elementwise cases (docs/bench-targets.md): ew-large, ew-strided, ew-small and the seed slides' cases.

Bytes counted are the logical bytes each call must move (each input element read once, each
output element written once), so "fraction of the copy rate" compares with a device copy of the
same traffic.
"""

from __future__ import annotations

from . import register, random_array

GIB = 2**30

_OPS = {
    "x*2": (1, lambda xp, x, y: x * 2),
    "x+y": (2, lambda xp, x, y: x + y),
    "exp(x)": (1, lambda xp, x, y: xp.exp(x)),
}


def _large_params():
    return tuple((op, dt) for dt in ("float32", "float64") for op in _OPS)


def _itemsize(dt):
    return 4 if dt == "float32" else 8


ew_large = register(
    "ew-large", group="ew-large",
    description="x*2, x+y, exp(x) on 1 GiB contiguous arrays (per operand)",
    size=GIB, quick=GIB // 4, params=_large_params(),
    param_label=lambda p: "{} {}".format(p[0], p[1]),
    nbytes=lambda n, p: n * (_OPS[p[0]][0] + 1),
    size_label=lambda n: "{} MiB".format(n // 2**20),
)


@ew_large.setup("cuarray", "cupy", "torch")
def _(xp, nbytes, param):
    # NumPy is not timed here: 1 GiB on the host says nothing about the GPU targets.
    op, dt = param
    n = nbytes // _itemsize(dt)
    x = random_array(xp, n, dt, seed=1)
    y = random_array(xp, n, dt, seed=2)
    f = _OPS[op][1]
    return lambda: f(xp, x, y)


_STRIDED = ("x.T*2", "x[::2]*2")
ew_strided = register(
    "ew-strided", group="ew-strided",
    description="x.T*2 on a 16384^2 float32 matrix (collapsible to one flat loop); x[::2]*2 on 1 GiB float32",
    size=16384, quick=8192, params=_STRIDED,
    nbytes=lambda n, p: 2 * 4 * n * n if p == "x.T*2" else 2 * 4 * (n * n // 2),
    size_label=lambda n: "{0}x{0} f32".format(n),
)


@ew_strided.setup("cuarray", "cupy", "torch")
def _(xp, n, param):
    if param == "x.T*2":
        x = random_array(xp, (n, n), "float32", seed=3)
        return lambda: x.T * 2
    x = random_array(xp, n * n, "float32", seed=4)
    return lambda: x[::2] * 2


ew_small = register(
    "ew-small", group="ew-small",
    description="16-element a + b, 1000 ops then one sync: host overhead per op",
    size=1000, quick=1000, timing="host", ops=1000, rounds=5,
    size_label=lambda n: "16 el x {}".format(n),
)


@ew_small.setup("cuarray", "cupy", "torch", "numpy")
def _(xp, n, param):
    a = random_array(xp, 16, "float32", seed=5)
    b = random_array(xp, 16, "float32", seed=6)

    def run():
        for _ in range(n):
            a + b

    return run


def _arange_T2(xp, n):
    if getattr(xp, "__name__", "") == "torch":
        return xp.arange(n, device="cuda").reshape(1000, -1).T * 2
    return xp.arange(n).reshape(1000, -1).T * 2


seed_slide = register(
    "seed-slide", group="seed",
    description="arange(1_000_000).reshape(1000, -1).T * 2, 1000 times (one sync)",
    size=1000, quick=200, timing="host", ops=1,
    size_label=lambda n: "{} times".format(n),
)


@seed_slide.setup("cuarray", "cupy", "torch", "numpy")
def _(xp, reps, param):
    def run():
        for _ in range(reps):
            _arange_T2(xp, 1_000_000)

    return run


seed_table1 = register(
    "seed-table1", group="seed",
    description="arange(n).reshape(1000, -1).T * 2 (one call, synced)",
    size=None, params=(10**4, 10**5, 10**6, 10**7, 10**8), timing="host",
    param_label=lambda n: "n=1e{}".format(len(str(n)) - 1),
    size_label=lambda _: "1 call",
    nbytes=lambda s, n: 8 * n * 3,
)


@seed_table1.setup("cuarray", "cupy", "torch", "numpy")
def _(xp, size, n):
    return lambda: _arange_T2(xp, n)


seed_exp = register(
    "seed-exp", group="seed",
    description="exp of 230400 float32, 1000 times, without / with copying the result back",
    size=1000, quick=200, params=("device", "to host"), timing="host",
    size_label=lambda n: "{} times".format(n),
)


@seed_exp.setup("cuarray", "cupy", "torch", "numpy")
def _(xp, reps, param):
    x = random_array(xp, 230400, "float32", seed=7)
    name = getattr(xp, "__name__", "")
    back = param == "to host"

    def to_host(r):
        if name == "torch":
            return r.cpu()
        if name == "numpy":
            return r
        return r.get()

    def run():
        for _ in range(reps):
            r = xp.exp(x)
            if back:
                to_host(r)

    return run
