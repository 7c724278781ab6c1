"""cuarray.scipy.optimize.elementwise's algorithms on the host (NumPy standing in for the cuarray
routines, `host_elementwise` of conftest.py) against scipy.optimize.elementwise: the same
iterations on fresh random problems, so every field (x, f_x, brackets, status, nit, nfev) is
SciPy's to the bit, over dtypes, 0-d and N-D broadcast shapes, maxiter, failed brackets, NaN
inputs, tolerances, args/kwargs and callback stops; then the input validation and signatures."""

import inspect

import numpy as np
import pytest
import scipy.optimize.elementwise as se
from scipy.optimize._tstutils import _CHANDRUPATLA_TESTS

import cuarray.scipy.optimize.elementwise as ce
from elementwise_compare import BEFORE_118, assert_same

NAMES = ["find_root", "find_minimum", "bracket_root", "bracket_minimum"]
DTYPES = [np.float32, np.float64]


def cubic(x, p):
    return x ** 3 - p


def valley(x, p):
    return (x - p) ** 2 + 0.1 * np.cos(3 * x)


@pytest.mark.parametrize("case", _CHANDRUPATLA_TESTS, ids=[c[-1] for c in _CHANDRUPATLA_TESTS])
def test_find_root_scipys_test_functions(host_elementwise, case):
    f, bracket = case[0], case[1]
    a, b = np.float64(bracket[0]), np.float64(bracket[1])
    assert_same(host_elementwise.find_root(f, (a, b)), se.find_root(f, (a, b)))


@pytest.mark.parametrize("dtype", DTYPES, ids=["float32", "float64"])
@pytest.mark.parametrize("shape", [(), (7,), (3, 1, 4)], ids=["0d", "1d", "3d"])
def test_find_root_grid(host_elementwise, dtype, shape):
    rng = np.random.default_rng()
    p = (rng.random(shape) * 4 - 2).astype(dtype)
    lo = (-3 - rng.random(shape[-1:])).astype(dtype)  # broadcasts against p
    init = (lo, dtype(3))
    assert_same(host_elementwise.find_root(cubic, init, args=(p,)), se.find_root(cubic, init, args=(p,)))
    tol = dict(xatol=1e-3, xrtol=1e-3, fatol=1e-4, frtol=1e-3)
    assert_same(host_elementwise.find_root(cubic, init, args=(p,), tolerances=tol),
                se.find_root(cubic, init, args=(p,), tolerances=tol))


@pytest.mark.parametrize("maxiter", [0, 2])
def test_find_root_statuses(host_elementwise, maxiter):
    # converged, sign error (no root inside), maxiter, NaN bracket, NaN function values
    a = np.array([0., 0., 0., np.nan, 0., -1.])
    b = np.array([5., 1., 3., 2., 2., 1.])
    p = np.array([1., 8., 2., 1., np.nan, 0.])
    with np.errstate(invalid="ignore"):
        assert_same(host_elementwise.find_root(cubic, (a, b), args=(p,), maxiter=maxiter),
                    se.find_root(cubic, (a, b), args=(p,), maxiter=maxiter))
        assert_same(host_elementwise.find_root(cubic, (a, b), args=(p,)), se.find_root(cubic, (a, b), args=(p,)))


@pytest.mark.parametrize("which", ["find_root", "find_minimum"])
def test_callback_sees_scipys_iterates_and_stops(host_elementwise, which):
    rng = np.random.default_rng()
    p = rng.random(5)
    f, init = (cubic, (-1., 2.)) if which == "find_root" else (valley, (-1., 0.5, 2.))

    def recorder(log):
        def callback(res):
            log.append({k: (tuple(np.copy(v) for v in res[k]) if isinstance(res[k], tuple) else np.copy(res[k]))
                        for k in res if not k.startswith("_")})
            if len(log) == 3:
                raise StopIteration
        return callback

    got, ref = [], []
    res = getattr(host_elementwise, which)(f, init, args=(p,), callback=recorder(got))
    want = getattr(se, which)(f, init, args=(p,), callback=recorder(ref))
    assert len(got) == len(ref) == 3
    for g, r in zip(got, ref):
        assert_same(g, r)
    assert_same(res, want)
    assert (np.asarray(res.status) == -4).all()


@pytest.mark.parametrize("dtype", DTYPES, ids=["float32", "float64"])
@pytest.mark.parametrize("shape", [(), (6,), (2, 3)], ids=["0d", "1d", "2d"])
def test_find_minimum_grid(host_elementwise, dtype, shape):
    rng = np.random.default_rng()
    p = (rng.random(shape) * 2 - 1).astype(dtype)
    init = (dtype(-2), (rng.random(shape) * 0.2 - 0.1).astype(dtype), dtype(2.5))
    assert_same(host_elementwise.find_minimum(valley, init, args=(p,)), se.find_minimum(valley, init, args=(p,)))
    assert_same(host_elementwise.find_minimum(valley, init, args=(p,), maxiter=3),
                se.find_minimum(valley, init, args=(p,), maxiter=3))


def test_find_minimum_scipys_functions_and_flags(host_elementwise):
    # four of SciPy's test functions of find_minimum (scipy/optimize/tests/test_chandrupatla.py)
    f1 = lambda x: 100 * (1 - x ** 3.) ** 2 + (1 - x ** 2.) + 2 * (1 - x) ** 2.  # noqa: E731
    f2 = lambda x: 5 + (x - 2.) ** 6  # noqa: E731
    f4 = lambda x: x ** 5. - 5 * x ** 3. - 20. * x + 5.  # noqa: E731
    f5 = lambda x: 8 * x ** 3 - 2 * x ** 2 - 7 * x + 3  # noqa: E731
    for f, init in [(f1, (0.5, 0.9, 1.5)), (f2, (0., 1., 3.)), (f4, (0., 1., 2.)), (f5, (0., 0.5, 1.))]:
        assert_same(host_elementwise.find_minimum(f, init), se.find_minimum(f, init))
    # converged, not a bracket (SciPy's sign error), maxiter, NaN values
    x1, x2, x3 = np.zeros(4), np.array([2., 2., 2., 2.]), np.full(4, np.pi)
    q = np.array([2.5, -1., 2.5, np.nan])
    with np.errstate(invalid="ignore"):
        assert_same(host_elementwise.find_minimum(valley, (x1, x2, x3), args=(q,), maxiter=4),
                    se.find_minimum(valley, (x1, x2, x3), args=(q,), maxiter=4))


@pytest.mark.parametrize("dtype", DTYPES, ids=["float32", "float64"])
def test_bracket_root_grid(host_elementwise, dtype):
    rng = np.random.default_rng()
    p = (rng.random((3, 4)) * 20 - 10).astype(dtype)
    xl0 = (rng.random(4) * 2 - 1).astype(dtype)
    for kw in [{}, dict(xr0=xl0 + 0.5), dict(xmin=dtype(-4), xmax=dtype(6)), dict(factor=np.array([1.5, 3.]).repeat(2)),
               dict(maxiter=2)]:
        assert_same(host_elementwise.bracket_root(cubic, xl0, args=(p,), **kw), se.bracket_root(cubic, xl0, args=(p,), **kw))


def test_bracket_root_failures(host_elementwise):
    # invalid bracket (xl0 >= xr0), no sign change before the limits, NaN start, 0-d
    xl0, xr0 = np.array([0., 2., np.nan, -1.]), np.array([1., 1., 1., 1.])
    p = np.array([1., 2., 1., 300.])
    with np.errstate(invalid="ignore"):
        assert_same(host_elementwise.bracket_root(cubic, xl0, xr0, xmin=-5, xmax=5, args=(p,)),
                    se.bracket_root(cubic, xl0, xr0, xmin=-5, xmax=5, args=(p,)))
    assert_same(host_elementwise.bracket_root(cubic, 0.25, args=(5.,)), se.bracket_root(cubic, 0.25, args=(5.,)))


@pytest.mark.parametrize("dtype", DTYPES, ids=["float32", "float64"])
def test_bracket_minimum_grid(host_elementwise, dtype):
    rng = np.random.default_rng()
    p = (rng.random((2, 5)) * 20 - 10).astype(dtype)
    xm0 = (rng.random(5) * 2 - 1).astype(dtype)
    for kw in [{}, dict(xl0=xm0 - 1, xr0=xm0 + 0.5), dict(xmin=dtype(-4), xmax=dtype(3)), dict(factor=3.),
               dict(maxiter=1)]:
        assert_same(host_elementwise.bracket_minimum(valley, xm0, args=(p,), **kw),
                    se.bracket_minimum(valley, xm0, args=(p,), **kw))
    bad = dict(xl0=xm0 + 1)  # xl0 > xm0: invalid
    assert_same(host_elementwise.bracket_minimum(valley, xm0, args=(p,), **bad),
                se.bracket_minimum(valley, xm0, args=(p,), **bad))


@pytest.mark.skipif(BEFORE_118, reason="kwargs= is SciPy 1.18's")
def test_kwargs(host_elementwise):
    p = np.array([1., 2., 3.])
    f = lambda x, *, p: x ** 3 - p  # noqa: E731
    assert_same(host_elementwise.find_root(f, (0., 2.), kwargs=dict(p=p)), se.find_root(f, (0., 2.), kwargs=dict(p=p)))
    assert_same(host_elementwise.bracket_root(f, 0., kwargs=dict(p=p)), se.bracket_root(f, 0., kwargs=dict(p=p)))


BAD = [
    ("find_root", lambda m: m.find_root(None, (0., 1.))),
    ("find_root", lambda m: m.find_root(cubic, (0., 1.), args=(1.,), tolerances=dict(xatol=-1))),
    ("find_root", lambda m: m.find_root(cubic, (0., 1.), args=(1.,), maxiter=1.5)),
    ("find_root", lambda m: m.find_root(cubic, (0., 1.), args=(1.,), callback="no")),
    ("find_root", lambda m: m.find_root(lambda x: (x + 0j), (0., 1.))),
    ("find_root", lambda m: m.find_root(lambda x: x[:1], (np.zeros(3), 1.))),
    ("find_minimum", lambda m: m.find_minimum(valley, (0., 1., 2.), args=(1.,), tolerances=dict(frtol=np.nan))),
    ("bracket_root", lambda m: m.bracket_root(cubic, 0., args=(1.,), factor=0.5)),
    ("bracket_root", lambda m: m.bracket_root(cubic, 0., args=(1.,), maxiter=-1)),
    ("bracket_root", lambda m: m.bracket_root(cubic, 0j, args=(1.,))),
    ("bracket_minimum", lambda m: m.bracket_minimum(valley, 0., args=(1.,), factor=1)),
    ("bracket_minimum", lambda m: m.bracket_minimum(valley, 0., args=(1.,), maxiter=[1, 2])),
]


@pytest.mark.parametrize("call", [c for _, c in BAD], ids=["{}-{}".format(n, i) for i, (n, _) in enumerate(BAD)])
def test_bad_input_raises_scipys_error(host_elementwise, call):
    with pytest.raises(Exception) as ref:
        call(se)
    with pytest.raises(type(ref.value), match=None) as got:
        call(host_elementwise)
    assert str(got.value) == str(ref.value)


@pytest.mark.parametrize("name", NAMES)
def test_signature(name):
    got = inspect.signature(getattr(ce, name))
    if BEFORE_118:  # SciPy 1.18 added kwargs=
        got = got.replace(parameters=[p for p in got.parameters.values() if p.name != "kwargs"])
    assert got == inspect.signature(getattr(se, name))
    assert sorted(ce.__all__) == sorted(se.__all__)


def test_one_host_read_an_iteration():
    # the loop's reads of the device: flatnonzero (whose size is read back) and to_host; each
    # iteration makes one, plus one for the termination test before the first iteration
    import cuarray.scipy.optimize as optimize
    from cuarray.scipy import _elementwise_loop
    from cuarray.scipy.optimize import _bracket, _chandrupatla
    from cuarray.testing.fake_device import host_packages
    from elementwise_host import standins

    reads = []
    loop = standins(_elementwise_loop)
    loop["flatnonzero"] = lambda a: reads.append("flatnonzero") or np.flatnonzero(a)
    loop["to_host"] = lambda a: reads.append("to_host") or np.asarray(a)
    copies = host_packages([optimize], {_elementwise_loop: loop, _bracket: standins(_bracket),
                                        _chandrupatla: standins(_chandrupatla)})
    p = np.random.default_rng().random(50) * 4 - 2
    res = copies[optimize].elementwise.find_root(cubic, (-3., 3.), args=(p,))
    assert res.success.all() and len(reads) == res.nit.max() + 1, (reads, res.nit.max())
