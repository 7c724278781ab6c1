"""cuarray.scipy.linalg's `check_finite`, lstsq/polar batching checks and invhilbert's exact
result without a GPU: the all-finite reduction compiled by NVRTC for sm_90; which operands each
function checks (SciPy's), with one host read for all, on host-backed arrays whose reduction is
emulated on the host; that `check_finite=False` does nothing and that internal calls never check
twice (read from the source); argument errors of the batched lstsq against SciPy's."""

from __future__ import annotations

import ast
import inspect

import numpy as np
import pytest

sla = pytest.importorskip("scipy.linalg")

from cuarray.testing.fake_device import from_np, host_packages, to_np  # noqa: E402  (tests/ is on sys.path)

from cuarray.cuda import compiler  # noqa: E402
from cuarray._core import reduction  # noqa: E402
from cuarray.scipy import linalg as cla  # noqa: E402
from cuarray.scipy.linalg import _validate  # noqa: E402

NAN_MESSAGE = "array must not contain infs or NaNs"


# -- the reduction kernel ------------------------------------------------------------------------
@pytest.mark.parametrize("dt", ["float16", "float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("shape,strides", [((1 << 22,), None), ((300, 7), (8, 2400)), ((5,), None)],
                         ids=["long", "strided", "short"])
def test_all_finite_reduction_compiles_for_sm90(dt, shape, strides):
    dt = np.dtype(dt)
    d = _validate.all_finite_definition(dt)
    if strides is None:
        strides = tuple(int(s) for s in np.empty(shape, dt).strides)
    p = reduction.plan(shape, (strides,), (dt.itemsize,), (), tuple(range(len(shape))))
    for st, _grid, _role in d.stages(p):
        kname, src = d.source(st)
        assert "cuarray::isfinite(x)" in src
        cubin, _ = compiler.compile_cubin(src, arch="sm_90", options=d.options, name=kname)
        assert cubin


# -- which operands, how many reads --------------------------------------------------------------
class _HostFlags:
    """The flags array on the host: `_all_finite` (emulated) writes one flag per operand."""

    reads = 0

    def __init__(self, shape, dtype):
        self.values = np.ones(shape, bool)

    def __getitem__(self, i):
        return (self, i)

    def get(self):
        _HostFlags.reads += 1
        return self.values


_CHECKED: list = []  # the operands the emulated reduction saw (NumPy copies), in order


def _fake_all_finite(a, out):
    flags, i = out
    host = to_np(a)
    _CHECKED.append(host.copy())
    flags.values[i] = np.isfinite(host).all()


@pytest.fixture(scope="module")
def host_linalg():
    """Private copies of cuarray.scipy.linalg's modules whose require_finite runs over host-backed
    arrays: the reduction runs on the host, the flags array is on the host."""
    return host_packages([cla], {_validate: {"_all_finite": _fake_all_finite,
                                             "empty": lambda shape, dtype: _HostFlags(shape, dtype)}})


@pytest.fixture
def host_check(host_linalg):
    """The checked operands (NumPy copies) of the copies' require_finite, recorded in order, from
    none; the flags read is counted from zero."""
    _CHECKED.clear()
    _HostFlags.reads = 0
    return _CHECKED


def _nan(shape, at=0, rng=None):
    rng = rng or np.random.default_rng(sum(shape) + at)
    a = rng.normal(size=shape) + 3 * np.eye(shape[-2], shape[-1])
    a.flat[at] = np.nan
    return a


A, B, V = _nan((4, 4)), np.ones((4, 2)), np.ones(4)
SPD = np.eye(4) * 2
AB = np.ones((3, 4))
# name -> (call with NaN somewhere, how many operands SciPy checks)
CASES = {
    "solve": (lambda m: m.solve(A, B), 2),
    "solve-pos": (lambda m: m.solve(A, V, assume_a="pos"), 2),
    "solve-upper": (lambda m: m.solve(A, V, assume_a="upper triangular"), 2),
    "solve_banded": (lambda m: m.solve_banded((1, 1), _nan((3, 4)), V), 2),
    "solveh_banded": (lambda m: m.solveh_banded(_nan((2, 4)), V), 2),
    # solve_triangular queues its checks before the solve and reads them once after its launch:
    # tests/scipy/test_linalg_triangular_cpu.py::test_checks_queued_before_the_solve_read_once_after
    "inv": (lambda m: m.inv(A), 1),
    "inv-pos": (lambda m: m.inv(A, assume_a="pos"), 1),
    "det": (lambda m: m.det(A), 1),
    "lstsq": (lambda m: m.lstsq(A, B), 2),
    "lstsq-stack": (lambda m: m.lstsq(np.stack([A, A]), V), 2),
    "pinv": (lambda m: m.pinv(A), 1),
    "norm": (lambda m: m.norm(A), 1),
    "lu": (lambda m: m.lu(A), 1),
    "lu_factor": (lambda m: m.lu_factor(A), 1),
    "lu_solve": (lambda m: m.lu_solve((np.eye(4), np.arange(4, dtype=np.int32)), _nan((4, 2))), 1),
    "qr": (lambda m: m.qr(A), 1),
    "cholesky": (lambda m: m.cholesky(A), 1),
    "cho_factor": (lambda m: m.cho_factor(A), 1),
    "cho_solve": (lambda m: m.cho_solve((SPD, False), _nan((4, 2))), 2),
    "eigh": (lambda m: m.eigh(A), 1),
    "eigh-b": (lambda m: m.eigh(A, SPD), 2),
    "eigvalsh": (lambda m: m.eigvalsh(A), 1),
    "eig": (lambda m: m.eig(A), 1),
    "eigvals": (lambda m: m.eigvals(A), 1),
    "svd": (lambda m: m.svd(A), 1),
    "svdvals": (lambda m: m.svdvals(A), 1),
    "null_space": (lambda m: m.null_space(A), 1),
    "orth": (lambda m: m.orth(A), 1),
    "polar": (lambda m: m.polar(A), 1),
    "orthogonal_procrustes": (lambda m: m.orthogonal_procrustes(A, A), 2),
}


class _OnHost:
    """cuarray.scipy.linalg (or its copy) with NumPy arguments made host-backed cuarray arrays."""

    def __init__(self, module=cla):
        self.module = module

    def __getattr__(self, name):
        fn = getattr(self.module, name)

        def conv(x):
            if isinstance(x, np.ndarray):
                return from_np(x)
            if isinstance(x, tuple):
                return tuple(conv(y) for y in x)
            return x

        return lambda *args, **kw: fn(*[conv(a) for a in args], **kw)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("case", sorted(CASES))
def test_non_finite_input_raises_scipys_error(host_check, host_linalg, case):
    call, operands = CASES[case]
    with pytest.raises(ValueError, match=NAN_MESSAGE):
        call(sla)
    with pytest.raises(ValueError, match=NAN_MESSAGE):
        call(_OnHost(host_linalg[cla]))
    # one reduction per operand SciPy checks, all read back at once
    assert len(host_check) == operands, [c.shape for c in host_check]
    assert _HostFlags.reads == 1


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_lu_solve_checks_b_only_as_scipy(host_check, host_linalg):
    # SciPy's lu_solve checks `b`, not the factors: a NaN factor is no ValueError there.
    lu, piv = _nan((4, 4)), np.arange(4, dtype=np.int32)
    assert np.isnan(sla.lu_solve((lu, piv), np.ones(4))).any()
    with pytest.raises(ValueError, match=NAN_MESSAGE):
        host_linalg[cla].lu_solve((from_np(lu), from_np(piv)), from_np(_nan((4, 1))))
    assert len(host_check) == 1 and host_check[0].shape == (4, 1)


def test_require_finite_skips_integer_bool_and_empty(host_check, host_linalg):
    host_linalg[_validate].require_finite(True, from_np(np.arange(6).reshape(2, 3)), from_np(np.ones((2, 2), bool)),
                             from_np(np.empty((0, 3))), None)
    assert host_check == [] and _HostFlags.reads == 0


def test_require_finite_false_does_nothing(host_check, host_linalg):
    host_linalg[_validate].require_finite(False, from_np(_nan((3, 3))))
    assert host_check == [] and _HostFlags.reads == 0


def test_require_finite_inf_and_complex(host_check, host_linalg):
    with pytest.raises(ValueError, match=NAN_MESSAGE):
        host_linalg[_validate].require_finite(True, from_np(np.ones(3)),
                                              from_np(np.array([1 + 1j, complex(0, np.inf)])))
    assert len(host_check) == 2 and _HostFlags.reads == 1
    host_linalg[_validate].require_finite(True, from_np(np.ones((2, 2), np.float16)))  # finite: nothing raised
    assert _HostFlags.reads == 2


# -- the source: every check_finite reaches require_finite; no internal call checks again ----------
_MODULES = ["_basic", "_decomp_extra", "_decomp_lu", "_decomp_qr", "_triangular", "_structured", "_host_lapack",
            "_decomp_rq", "_decomp_update", "_expm_cond", "_solvers", "_symmetry", "_decomp_forms", "_sketches",
            "_blas_lapack"]


def _functions():
    import importlib

    for mod in _MODULES:
        m = importlib.import_module("cuarray.scipy.linalg." + mod)
        tree = ast.parse(inspect.getsource(m))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                yield mod, node


_CHECKING = {name for name in dir(cla) if callable(getattr(cla, name)) and not isinstance(getattr(cla, name), type)
             and "check_finite" in inspect.signature(getattr(cla, name)).parameters}


def test_every_check_finite_is_honoured():
    """A public function's `check_finite` goes to require_finite, to a delegate's check_finite,
    or to a helper that calls require_finite with it."""
    seen = set()
    for _mod, fn in _functions():
        if fn.name not in _CHECKING:
            continue
        seen.add(fn.name)
        uses = [n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == "check_finite"
                and isinstance(n.ctx, ast.Load)]
        assert uses, "{} ignores check_finite".format(fn.name)
    assert seen == _CHECKING


def test_internal_calls_do_not_check_again():
    """Every call inside cuarray.scipy.linalg to one of its own checking functions passes
    check_finite explicitly (False, or the caller's flag when it delegates): a default True
    would check the same operand twice (one more reduction and read)."""
    bad = []
    for mod, fn in _functions():
        for node in ast.walk(fn):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _CHECKING:
                if not any(k.arg == "check_finite" for k in node.keywords):
                    bad.append("{}.{} calls {}".format(mod, fn.name, node.func.id))
    assert not bad, bad


# -- batched lstsq, polar, solve_banded: argument errors before any device work -------------------------------
LSTSQ_ERRORS = {
    "a-1d": (lambda m: m.lstsq(np.ones(3), np.ones(3))),
    "rows": (lambda m: m.lstsq(np.ones((2, 4, 3)), np.ones(3))),
    "batch-without-trailing": (lambda m: m.lstsq(np.ones((4, 3)), np.ones((5, 4)))),
    "batches": (lambda m: m.lstsq(np.ones((2, 4, 3)), np.ones((3, 4, 1)))),
    "driver": (lambda m: m.lstsq(np.ones((2, 4, 3)), np.ones(4), lapack_driver="gelsx")),
    # (SciPy reaches the third matrix's counts after solving the first two: non-singular ones)
    "banded-counts": (lambda m: m.solve_banded(([2, 1, 0], [0, 1, 1]),
                                               np.random.default_rng(3).normal(size=(2, 3, 3, 5)) + 4, np.ones(5))),
    "banded-counts-batch": (lambda m: m.solve_banded(([1, 1], [1, 1]), np.ones((2, 3, 3, 5)), np.ones(5))),
    "banded-fractional": (lambda m: m.solve_banded((1.5, 0.5), np.ones((3, 5)), np.ones(5))),
    "procrustes-core": (lambda m: m.orthogonal_procrustes(np.ones((2, 4, 3)), np.ones((2, 3, 4)))),
    "procrustes-batch": (lambda m: m.orthogonal_procrustes(np.ones((2, 4, 3)), np.ones((3, 4, 3)))),
    "procrustes-1d": (lambda m: m.orthogonal_procrustes(np.ones((4, 3)), np.ones(3))),
    "polar-1d": (lambda m: m.polar(np.ones(3))),
    "polar-side": (lambda m: m.polar(np.ones((2, 3, 3)), side="x")),
}


@pytest.mark.parametrize("case", sorted(LSTSQ_ERRORS))
def test_batched_argument_errors_are_scipys(case):
    with pytest.raises(Exception) as ours:
        LSTSQ_ERRORS[case](_OnHost())
    with pytest.raises(Exception) as theirs:
        LSTSQ_ERRORS[case](sla)
    assert type(ours.value) is type(theirs.value), (ours.value, theirs.value)


# -- invhilbert(exact=True) beyond int64 -----------------------------------------------------------
@pytest.mark.parametrize("n", [15, 16, 21])
def test_invhilbert_exact_large_is_scipys_object_array(n):
    got, want = cla.invhilbert(n, exact=True), sla.invhilbert(n, exact=True)
    assert isinstance(got, np.ndarray) and got.dtype == want.dtype == object
    assert got.shape == want.shape and (got == want).all()
    assert isinstance(got[n // 2, n // 2], int)


def test_invhilbert_float_does_not_overflow_on_the_host():
    # entries beyond the double range become +-inf (SciPy's floating products do the same),
    # rather than an OverflowError converting a Python int
    from cuarray.scipy.linalg import _special_matrices as sm

    assert sm._float(10 ** 400) == np.inf and sm._float(-(10 ** 400)) == -np.inf and sm._float(3) == 3.0
