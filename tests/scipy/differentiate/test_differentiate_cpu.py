"""cuarray.scipy.differentiate's algorithm on the host (NumPy standing in for the cuarray
routines, `host_differentiate` of tests/scipy/optimize/conftest.py) against scipy.differentiate:
the same steps, so status, nit and nfev equal SciPy's and df, error equal to rounding (the
weighted sums run over all rows at once here, over the central and one-sided rows apart in
SciPy), over dtypes, 0-d and N-D points, orders, step directions and sizes, maxiter, NaN points,
preserve_shape, callback stops, Jacobians and Hessians of SciPy's test functions; then the input
validation and signatures."""

import inspect

import numpy as np
import pytest
import scipy.differentiate as sd
from scipy import optimize

import cuarray.scipy.differentiate as cd
from elementwise_compare import BEFORE_118, assert_same

DTYPES = [np.float32, np.float64]


def same(got, ref):
    # df is a weighted sum of function values over a step h: its rounding, and so that of the
    # error estimate (a difference of two such sums), is about eps * sum|w f| / h, 1e4 eps bounds it
    dt = np.asarray(ref.get("df", ref.get("ddf"))).dtype
    tol = 1e4 * np.finfo(dt).eps
    assert_same(got, ref, exact=False, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", DTYPES, ids=["float32", "float64"])
@pytest.mark.parametrize("shape", [(), (5,), (2, 3)], ids=["0d", "1d", "2d"])
@pytest.mark.parametrize("order", [2, 5, 8])
def test_derivative_grid(host_differentiate, dtype, shape, order):
    rng = np.random.default_rng()
    x = (rng.random(shape) * 2 - 1).astype(dtype)
    f = lambda x: np.exp(x) * np.sin(3 * x)  # noqa: E731
    same(host_differentiate.derivative(f, x, order=order), sd.derivative(f, x, order=order))


def test_derivative_steps_and_directions(host_differentiate):
    rng = np.random.default_rng()
    x = rng.random((3, 4)) * 2
    p = rng.random(4) + 1
    f = lambda x, p: np.log(x + 1) * p  # noqa: E731
    for kw in [dict(step_direction=np.array([-1, 0, 1, 1])), dict(initial_step=np.array([0.1, 1., 0, 0.5])),
               dict(step_factor=3., maxiter=3), dict(tolerances=dict(atol=1e-4, rtol=1e-3)),
               dict(maxiter=1), dict(order=3, step_direction=-1)]:
        same(host_differentiate.derivative(f, x, args=(p,), **kw), sd.derivative(f, x, args=(p,), **kw))


def test_derivative_statuses_nan_and_preserve_shape(host_differentiate):
    x = np.array([1., np.nan, 0.3])
    with np.errstate(invalid="ignore"):
        same(host_differentiate.derivative(np.sqrt, x), sd.derivative(np.sqrt, x))
    def flags(seed):  # converges, error increases, reaches maxiter, NaN (SciPy's test_flags_preserve_shape)
        rng = np.random.default_rng(seed)
        return lambda x: np.stack([x - 2.5, np.exp(x) * rng.random(), np.exp(x), np.full_like(x, np.nan)])

    kw = dict(tolerances=dict(rtol=1e-14), order=2, preserve_shape=True)
    got, ref = host_differentiate.derivative(flags(5651219684984213), 1., **kw), sd.derivative(flags(5651219684984213), 1., **kw)
    same(got, ref)
    np.testing.assert_array_equal(got.status, [0, -1, -2, -3])


def test_derivative_callback_stops_as_scipys(host_differentiate):
    x = np.linspace(0.1, 2, 5)

    def recorder(log):
        def callback(res):
            log.append({k: np.copy(v) for k, v in res.items() if not k.startswith("_")})
            if len(log) == 3:
                raise StopIteration
        return callback

    got, ref = [], []
    with np.errstate(invalid="ignore"):  # the first steps reach below 0
        res = host_differentiate.derivative(np.log, x, callback=recorder(got))
        want = sd.derivative(np.log, x, callback=recorder(ref))
    assert len(got) == len(ref) == 3
    for g, r in zip(got, ref):
        same(g, r)
    same(res, want)
    assert (res.status == -4).any()


def _f3(z):
    r, phi, th = z
    return np.stack([r * np.sin(phi) * np.cos(th), r * np.sin(phi) * np.sin(th), r * np.cos(phi)])


def _f4(x):
    x1, x2, x3 = x
    return np.stack([x1, 5 * x3, 4 * x2 ** 2 - 2 * x3, x3 * np.sin(x1)])


@pytest.mark.parametrize("dtype", DTYPES, ids=["float32", "float64"])
@pytest.mark.parametrize("func", [_f3, _f4, optimize.rosen], ids=["f3", "f4", "rosen"])
@pytest.mark.parametrize("size", [(), (2, 3)], ids=["1pt", "batch"])
def test_jacobian_of_scipys_examples(host_differentiate, dtype, func, size):
    m = 5 if func is optimize.rosen else 3
    x = np.random.default_rng().random((m,) + size).astype(dtype)
    same(host_differentiate.jacobian(func, x), sd.jacobian(func, x))


def test_jacobian_directions(host_differentiate):
    x = np.random.default_rng().random(3)
    same(host_differentiate.jacobian(_f4, x, step_direction=np.array([1, -1, 0]), order=4),
         sd.jacobian(_f4, x, step_direction=np.array([1, -1, 0]), order=4))


@pytest.mark.parametrize("dtype", DTYPES, ids=["float32", "float64"])
@pytest.mark.parametrize("size", [(), (2,)], ids=["1pt", "batch"])
def test_hessian(host_differentiate, dtype, size):
    x = (np.random.default_rng().random((3,) + size) + 0.5).astype(dtype)
    same(host_differentiate.hessian(optimize.rosen, x), sd.hessian(optimize.rosen, x))


def test_hessian_small_rtol_warns(host_differentiate):
    with pytest.warns(RuntimeWarning, match="unreliable"):
        host_differentiate.hessian(np.sin, np.array([1.]), tolerances=dict(rtol=1e-15))


BAD = [
    lambda m: m.derivative(None, 1.),
    lambda m: m.derivative(lambda x: x, 1., tolerances=dict(atol=-1)),
    lambda m: m.derivative(lambda x: x, 1., tolerances=dict(rtol="ekki")),
    lambda m: m.derivative(lambda x: x, 1., maxiter=0),
    lambda m: m.derivative(lambda x: x, 1., order=1.5),
    lambda m: m.derivative(lambda x: x, 1., preserve_shape="herring"),
    lambda m: m.derivative(lambda x: x, 1., callback="shrubbery"),
    lambda m: m.derivative(lambda x: x + 0j, 1.),
    lambda m: m.derivative(lambda x: x[:1], np.array([1., 2.])),
    lambda m: m.jacobian(np.sin, 1.),
]


@pytest.mark.parametrize("call", BAD, ids=[str(i) for i in range(len(BAD))])
def test_bad_input_raises_scipys_error(host_differentiate, call):
    with pytest.raises(Exception) as ref:
        call(sd)
    with pytest.raises(type(ref.value)) as got:
        call(host_differentiate)
    assert str(got.value) == str(ref.value)


@pytest.mark.parametrize("name", ["derivative", "jacobian", "hessian"])
def test_signature(name):
    got = inspect.signature(getattr(cd, name))
    if BEFORE_118:  # SciPy 1.18 added kwargs=
        got = got.replace(parameters=[p for p in got.parameters.values() if p.name != "kwargs"])
    assert got == inspect.signature(getattr(sd, name))
