"""The `compilers` bench group on the CPU: its twenty rows are declared and run only when named; the
NumPy code of each workload computes what it says (against SciPy or a float64 formula, on small
shapes); lazy mode records it, NumPy evaluating the graph gives NumPy's values, and the cuarray
column's loop and cold-cache plumbing run with NumPy data; the result check rejects wrong answers."""

from __future__ import annotations

import dataclasses
import os

import numpy as np
import pytest
import scipy.ndimage as ndi
import scipy.special as sp

import cuarray
from cuarray.bench import __main__ as cli
from cuarray.bench import cases, libs
from cuarray.bench.cases import _compiler_workloads as W
from cuarray.bench.cases import compilers as C

BY_NAME = {w.name: w for w in W.WORKLOADS}
# Small sizes: the NumPy code is checked here, not timed.
SMALL = {"logreg": 256, "grad": 128, "softmax": 64, "layernorm": 64, "stencil": 64, "gelu-bias": 64,
         "chain10": 4096, "variance": 4096, "black-scholes": 4096, "kmeans": 2048}


REFERENCES = {w.name: W.Reference(w) for w in W.WORKLOADS}


def _small(name):
    return REFERENCES[name](SMALL[name])


def test_group_declares_a_steady_and_a_first_row_per_workload_run_only_when_named():
    got = cases.select(groups=["compilers"])
    names = [w.name for w in W.WORKLOADS]
    assert [c.id for c in got] == [i for n in names for i in ("cmp-" + n, "cmp-{}-first".format(n))]
    assert len(names) == 10
    for c in got:
        assert c.explicit and set(c.setups) == {"cuarray", "torch", "torch-autotune", "jax"}
        assert (c.timing, c.ops) in (("host", C.OPS), ("host", 1), ("process", 1))
        assert c.timing == ("process" if c.id.endswith("-first") else "host")
    assert not {c.id for c in got} & {c.id for c in cases.select()}  # a run of everything skips them


def test_cli_lists_the_group_and_picks_its_columns(capsys):
    assert cli.main(["--group", "compilers", "--list"]) == 0
    out = capsys.readouterr().out
    assert out.count("(only when named)") == 20 and "[cuarray,torch,torch-autotune,jax]" in out
    assert cli.main(["--list"]) == 0
    assert "cmp-softmax-first" in capsys.readouterr().out  # listed with the rest
    assert cli.default_libs(cases.select(groups=["compilers"])) == ["cuarray", "torch", "torch-autotune", "jax"]
    assert "jax" not in cli.default_libs(cases.select())
    torch_autotune = libs.get_library("torch-autotune")
    assert torch_autotune.present() == libs.get_library("torch").present()


def test_numpy_code_computes_what_it_says():
    x, = _small("softmax")[0]
    np.testing.assert_allclose(_small("softmax")[1], sp.softmax(x.astype(np.float64), axis=1), rtol=1e-5, atol=1e-7)

    (x, g, b), got = _small("layernorm")
    x64 = x.astype(np.float64)
    want = (x64 - x64.mean(1, keepdims=True)) / np.sqrt(x64.var(1, keepdims=True) + 1e-5) * g + b
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)

    (u,), got = _small("stencil")
    lap = ndi.convolve(u.astype(np.float64), [[0, 1, 0], [1, -4, 1], [0, 1, 0]])[1:-1, 1:-1]
    np.testing.assert_allclose(got, u[1:-1, 1:-1] + 0.2 * lap, rtol=1e-5, atol=1e-4)

    (x, Wm, b), got = _small("gelu-bias")
    h = x.astype(np.float64) @ Wm + b
    np.testing.assert_allclose(got, 0.5 * h * (1 + np.tanh(np.sqrt(2 / np.pi) * (h + 0.044715 * h**3))),
                               rtol=1e-4, atol=1e-5)

    (x,), got = _small("chain10")
    x64 = x.astype(np.float64)
    np.testing.assert_allclose(got, np.exp(-(np.sqrt(np.abs(np.sin(1.7 * x64 + 0.3) * x64) + 0.25) + x64)), rtol=1e-5)

    (x,), got = _small("variance")
    assert got == pytest.approx(x.astype(np.float64).var(), rel=1e-5)

    (X, Wm, h, xo, z), got = _small("grad")
    np.testing.assert_allclose(got, X.T.astype(np.float64) @ ((z - xo) @ Wm.astype(np.float64) * h * (1 - h)),
                               rtol=1e-4, atol=1e-4)


def test_black_scholes_is_the_closed_form():
    (S, X, T), (call, put) = _small("black-scholes")
    S, X, T = (a.astype(np.float64) for a in (S, X, T))
    r, v = W.RATE, W.VOLATILITY
    d1 = (np.log(S / X) + (r + v * v / 2) * T) / (v * np.sqrt(T))
    d2 = d1 - v * np.sqrt(T)
    # the polynomial's error in the normal CDF is under 7.5e-8: a price within 1e-5 of the
    # strike and spot (at most 100), plus float32 rounding of terms of that size
    np.testing.assert_allclose(call, S * sp.ndtr(d1) - X * np.exp(-r * T) * sp.ndtr(d2), rtol=0, atol=1e-4)
    np.testing.assert_allclose(put, X * np.exp(-r * T) * sp.ndtr(-d2) - S * sp.ndtr(-d1), rtol=0, atol=1e-4)


def test_kmeans_labels_are_the_nearest_centroids():
    (x, c), labels = _small("kmeans")
    d = ((x[:, None, :].astype(np.float64) - c[None]) ** 2).sum(-1)
    assert np.mean(labels == d.argmin(1)) > 0.999 and len(np.unique(labels)) > 32


def test_the_logistic_regression_descends():
    """The loop is the seed's gradient descent: its objective (cross-entropy plus the L2 term)
    decreases; the step 0.1 is far below 2/L (L about 0.5 here: 0.25 |x|^2 / N + 0.02)."""
    w = BY_NAME["logreg"]
    (x, y, w0, b0), w_end = _small("logreg")
    state = (w0, b0)
    for _ in range(w.steps):
        state = w.numpy(np, x, y, *state)
    assert np.array_equal(state[0], w_end) and w.steps == W.LOGREG_STEPS and w.nconst == 2

    def objective(wv, b):
        p = 1 / (1 + np.exp(-(x.astype(np.float64) @ wv) - b))
        return np.mean(-y * np.log(p) - (1 - y) * np.log(1 - p)) + 0.01 * (wv ** 2).sum()

    assert objective(*state) < objective(w0, b0)


@pytest.mark.parametrize("name", [w.name for w in W.WORKLOADS])
def test_lazy_mode_records_the_numpy_code_and_the_cuarray_column_runs_it(name):
    """The cuarray column's function (`_Cuarray.make`: the NumPy code under `cuarray.lazy`, the loop
    calling the lazy step) given NumPy data: lazy mode builds the graph, NumPy evaluates it, NumPy's
    values bit for bit. (The k-means argmin is not recorded: it needs device arrays, so only the
    distances are recorded.)"""
    w = BY_NAME[name]
    args, want = _small(name)
    lib = _HostCuarray(cuarray, "cuarray")
    if name == "kmeans":
        w = dataclasses.replace(w, numpy=lambda np_, x, c: np_.argmin(_distances(np_, x, c), axis=1))
        with pytest.raises(TypeError):
            lib.make(w)(*args)
        got = cuarray.lazy(lambda *a: _distances(cuarray, *a))(*args)
        assert np.array_equal(got, _distances(np, *args))
        return
    got = lib.make(w)(*args)
    for g, r in zip(*(v if isinstance(v, tuple) else (v,) for v in (got, want))):
        assert type(g) is np.ndarray and g.dtype == r.dtype and np.array_equal(g, r)


def _distances(np_, x, c):
    return (x * x).sum(axis=1, keepdims=True) - 2.0 * np_.dot(x, c.T) + (c * c).sum(axis=1)


class _HostCuarray(C._Cuarray):
    """The cuarray column with NumPy arrays in place of device arrays (lazy mode then evaluates with
    NumPy): the same `make`, `cold` and `forget`."""

    def put(self, a):
        return a

    def host(self, r):
        return r

    def wait(self, out):
        pass


class _Namespace:
    """cuarray's namespace, with `cuda.clear_caches` recording the kernel disk cache folder set when
    it is called."""

    def __init__(self, cleared):
        self.cuda = type("cuda", (), {"clear_caches": staticmethod(lambda: cleared.append(os.environ["CUARRAY_CACHE_DIR"]))})

    def __getattr__(self, name):
        return getattr(cuarray, name)


def test_first_row_empties_the_caches_and_times_cold_then_disk_warm(monkeypatch, tmp_path):
    """`cmp-*-first`'s callable for cuarray: the run inside `cold()` sees an empty kernel disk cache
    folder of its own and emptied in-process caches; the folder setting is restored after, and the
    second run (in-process caches emptied again, disk kept) is reported apart."""
    cleared, seen = [], []
    monkeypatch.setenv("CUARRAY_CACHE_DIR", str(tmp_path))
    w = dataclasses.replace(BY_NAME["chain10"], size=SMALL["chain10"])
    body = w.numpy
    w = dataclasses.replace(w, numpy=lambda np_, x: seen.append(os.environ["CUARRAY_CACHE_DIR"]) or body(np_, x))
    first = C.first_run(_HostCuarray(_Namespace(cleared), "cuarray"), w, W.Reference(w))
    seen.clear()  # (NumPy's reference ran the body too)
    result = first()
    assert set(result) == {"time_s", "disk_warm_s"} and result["time_s"] > 0 and result["disk_warm_s"] > 0
    cold_dir = seen[0]
    assert seen == [cold_dir, cold_dir] and cold_dir != str(tmp_path) and not os.path.exists(cold_dir)
    assert cleared == [cold_dir, cold_dir, str(tmp_path)]  # before each run, and after the folder went
    assert os.environ["CUARRAY_CACHE_DIR"] == str(tmp_path)
    row = {"libs": {"cuarray": {"extras": {"disk_warm_s": 0.0123}}, "jax": {"extras": {}}}}
    assert C._disk_warm_note(row) == "with the disk caches warm: cuarray 12.3 ms"


def test_check_rejects_wrong_results():
    w = BY_NAME["softmax"]
    args, want = _small("softmax")
    W.check(w, want.copy(), want, args)
    bad = want.copy()
    bad[np.unravel_index(want.argmax(), want.shape)] *= 1.001
    with pytest.raises(AssertionError, match="1 of 4096 values differ"):
        W.check(w, bad, want, args)
    with pytest.raises(AssertionError, match="shape"):
        W.check(w, want[:-1], want, args)
    bs = BY_NAME["black-scholes"]
    args, (call, put) = _small("black-scholes")
    with pytest.raises(AssertionError, match="1 results"):
        W.check(bs, call, (call, put), args)


def test_check_takes_any_nearest_centroid_and_rejects_a_far_one():
    w = BY_NAME["kmeans"]
    (x, c), labels = _small("kmeans")
    W.check(w, labels, labels, (x, c))
    tie = np.concatenate([x[:1] * 0 + (c[0] + c[1]) / 2, x[1:]])  # equidistant from centroids 0 and 1
    c64, t64 = c.astype(np.float64), tie.astype(np.float64)
    d0 = ((t64[0] - c64) ** 2).sum(1)
    if d0.argmin() in (0, 1):  # (the midpoint may be nearer a third centroid)
        for pick in (0, 1):
            W.check(w, np.concatenate([[pick], labels[1:]]), labels, (tie, c))
    far = labels.copy()
    far[7] = ((x[7].astype(np.float64) - c64) ** 2).sum(1).argmax()
    with pytest.raises(AssertionError, match="1 of 2048 points"):
        W.check(w, far, labels, (x, c))
