"""The fuzzer on CPU: its machinery (catalog, generators, comparison, reproducers) with NumPy on
both sides and with a deliberately wrong NumPy, and cuarray's host-only path (argument checks,
dtypes, shapes; no values) against NumPy. Whole file: well under 30 s."""

from __future__ import annotations

import contextlib
import io
import types

import numpy as np
import pytest

import cuarray as cp
import fuzz_catalog as fc
import fuzz_regressions
import fuzz_values
import fuzzlib
from cuarray.cuda import _backend


def test_numpy_against_itself_agrees():
    """Every generator, call and comparison is consistent: NumPy never disagrees with itself,
    invariant checks included."""
    st = fuzzlib.fuzz(fc.ROWS, 3, fuzzlib.Side(np), fuzzlib.Side(np, name="numpy2"), calls=3 * len(fc.ROWS))
    assert not st.mismatches, "\n".join(map(str, st.mismatches[:3]))


def test_rows_mostly_make_valid_calls():
    """A row whose arguments NumPy always refuses tests only error paths: each row gets a result
    from NumPy at least once in 12 cases."""
    side = fuzzlib.Side(np)
    dead = []
    for row in fc.ROWS:
        for i in range(12):
            args, kw = row.make(fuzzlib.case_rng(row.key, 0, i))
            if side.outcome(row, args, kw)[0] == "ok":
                break
        else:
            dead.append(row.key)
    assert not dead


@pytest.mark.timeout(60, method="thread")  # (a C loop: no signal interrupts it)
def test_numpy_is_not_asked_its_hanging_take():
    """NumPy's take(mode='wrap') can loop forever from an empty axis into an empty result with outer
    rows (a (7, 3, 0, 0) array, axis -2; 2.4 here, 2.5.2 on the GPU machine, whose worker the
    timeout killed): the reference asks clip there, whatever NumPy's version."""
    row = fc.BY_KEY["ndarray.take(a idx){axis,mode}"]
    side = fuzzlib.Side(np)
    args, kw = row.make(fuzzlib.case_rng(row.key, 0, 172))
    a, k = [side.build(s) for s in args], {n: side.build(s) for n, s in kw.items()}
    assert (a[0].shape, k.get("axis"), k.get("mode")) == ((7, 3, 0, 0), -2, "wrap")
    assert fuzzlib.run_case(row, 0, 172, side, fuzzlib.Side(np, name="numpy2")) is None


def test_flat_true_is_not_drawn_for_an_empty_array():
    """NumPy's a.flat[True] reads element 0 unchecked: past the end of an empty array (whatever the
    memory holds), where cuarray raises IndexError. The generator draws False there."""
    row = fc.BY_KEY["flat[](a flatidx1){}"]
    side = fuzzlib.Side(np)
    a, key = (side.build(s) for s in row.make(fuzzlib.case_rng(row.key, 0, 221))[0])  # (drew True)
    assert a.size == 0 and key is False


def test_cases_are_reproducible():
    row = fc.BY_KEY["take(a idx)"]
    a1, k1 = row.make(fuzzlib.case_rng(row.key, 5, 17))
    a2, k2 = row.make(fuzzlib.case_rng(row.key, 5, 17))
    assert [s.code("xp") for s in a1] == [s.code("xp") for s in a2] and k1.keys() == k2.keys()


class _Wrong:
    """NumPy with injected bugs: the fuzzer must find the first three and accept the last two
    (answers that differ from NumPy's where NumPy's is not unique)."""

    def __init__(self):
        self.linalg = types.SimpleNamespace(**{n: getattr(np.linalg, n) for n in dir(np.linalg) if not n.startswith("_")})
        self.linalg.eigh = self._eigh

    def __getattr__(self, name):
        return getattr(np, name)

    @staticmethod
    def full(shape, fill_value, dtype=None):  # the old wrap-around: no OverflowError
        return np.array(fill_value).astype(dtype, casting="unsafe") * np.ones(shape, dtype) if dtype else np.full(shape, fill_value)

    @staticmethod
    def cumsum(a, axis=None):  # wrong dtype
        return np.cumsum(a, axis=axis).astype(np.float32)

    @staticmethod
    def sqrt(a):  # wrong value
        return np.sqrt(a) * 1.01 if np.asarray(a).size and np.asarray(a).dtype.kind == "f" else np.sqrt(a)

    @staticmethod
    def argsort(a, axis=-1):  # another order of ties: right
        return np.argsort(a, axis=axis, kind="stable")

    @staticmethod
    def _eigh(a):  # eigenvectors with flipped signs: right
        w, v = np.linalg.eigh(a)
        return w, -v


@pytest.mark.usefixtures("generation1")  # (cases of the first generators)
def test_finds_injected_bugs_and_prints_reproducers():
    rows = [fc.BY_KEY[k] for k in ("full(shape s)", "cumsum(a)", "sqrt(a)", "argsort(a)", "linalg.eigh(sq)")]
    st = fuzzlib.fuzz(rows, 1, fuzzlib.Side(np), fuzzlib.Side(_Wrong(), name="wrong"), calls=60 * len(rows))
    found = {m.row for m in st.mismatches}
    assert found == {"full(shape s)", "cumsum(a)", "sqrt(a)"}, found
    m = next(m for m in st.mismatches if m.row == "cumsum(a)")
    assert "dtype: expected" in m.what and "seed=1" in str(m)
    # the reproducer is a script: it runs (its cuarray half reports no device here)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(m.reproducer, "<reproducer>", "exec"), {})
    assert out.getvalue().startswith("numpy ")
    again = fuzzlib.run_case(fc.BY_KEY[m.row], m.seed, m.index, fuzzlib.Side(np), fuzzlib.Side(_Wrong()))
    assert isinstance(again, fuzzlib.Mismatch) and again.what == m.what  # (row, seed, index) re-makes it


def _host_only_side():
    def to_host(x):
        return np.empty(x.shape, x.dtype) if isinstance(x, cp.ndarray) else x

    return fuzzlib.Side(cp, name="cuarray (host path)", upload=lambda h: cp.empty(h.shape, h.dtype),
                        to_host=to_host, values=False)


def test_host_path_against_numpy(host_path):
    """cuarray with no device against NumPy: argument checks, exception classes, result dtypes and
    shapes up to the first kernel whose result must be read. Every row, none left out."""
    st = fuzzlib.fuzz(fc.ROWS, 0, fuzzlib.Side(np), _host_only_side(), seconds=8,
                      reached_device=(_backend.NoDeviceError, ImportError))
    print(st.summary())
    open_ = [m for m in st.mismatches if not fuzz_regressions.host_path_blind(m)]
    assert not open_, "\n\n".join(map(str, open_[:5]))


@pytest.mark.parametrize("key,seed,index,generation", fuzz_regressions.all_cases())
def test_regression_cases_host_path(host_path, key, seed, index, generation):
    if fuzz_regressions.numpy_too_old((key, seed, index)):
        pytest.skip("NumPy {} answers this case as an older NumPy did".format(np.__version__))
    with fuzz_values.generation(generation):  # (the generators the case was found with)
        res = fuzzlib.run_case(fc.BY_KEY[key], seed, index, fuzzlib.Side(np), _host_only_side(),
                               reached_device=(_backend.NoDeviceError, ImportError))
    assert not isinstance(res, fuzzlib.Mismatch), str(res)


def test_catalog_covers_the_namespace():
    """Every public NumPy function cuarray has is in a row or in fuzz_regressions.SKIPPED (with why)."""
    names = {r.name.split(".")[0] for r in fc.ROWS} | {r.name for r in fc.ROWS}
    missing = [n for n in dir(np) if not n.startswith("_") and hasattr(cp, n) and callable(getattr(np, n))
               and not isinstance(getattr(np, n), type) and n not in names and n not in fuzz_regressions.SKIPPED]
    assert not missing
    for sub in ("linalg", "fft"):
        have = {r.name for r in fc.ROWS}
        missing = [n for n in dir(getattr(np, sub)) if not n.startswith("_") and hasattr(getattr(cp, sub), n)
                   and callable(getattr(getattr(np, sub), n)) and not isinstance(getattr(getattr(np, sub), n), type)
                   and "{}.{}".format(sub, n) not in have]
        assert not missing, (sub, missing)


def _nonfinite_to_nan(r):
    r = np.asarray(r)
    if r.dtype.kind != "c":
        return r
    return np.where(np.isfinite(r), r, np.asarray(complex(np.nan, np.nan), r.dtype))[()]


def _garbage_where_undefined(name):
    def space(*args, dtype=None, **kw):
        r = getattr(np, name)(*args, dtype=dtype, **kw)
        if dtype is None or np.dtype(dtype).kind not in "iu":
            return r
        with np.errstate(all="ignore"):
            ref = np.asarray(getattr(np, name)(*args, **kw)).real
        return np.where(np.isfinite(ref) & (np.abs(ref) < 2.0**63), r, np.array(-1).astype(dtype))
    return space


class _GpuAnswers:
    """NumPy answering as the GPU run did where NumPy's own answer is not defined: nan+nanj for
    any non-finite complex element of vdot/FFTs/products, isin's membership of input that
    assume_unique=True wrongly calls unique, unique values in another order, a saturated
    cast of samples beyond int64. `wrong=True`: also a wrong finite answer (still found)."""

    def __init__(self, wrong=False):
        self.wrong = wrong
        self.fft = types.SimpleNamespace(ifft2=lambda *a, **k: self._fin(_nonfinite_to_nan(np.fft.ifft2(*a, **k))))
        self.multiply = types.SimpleNamespace(
            reduce=lambda *a, **k: self._fin(_nonfinite_to_nan(np.multiply.reduce(*a, **k))))
        self.linspace, self.logspace = _garbage_where_undefined("linspace"), _garbage_where_undefined("logspace")

    def __getattr__(self, name):
        return getattr(np, name)

    def _fin(self, r):
        return np.where(np.isfinite(r), r * 1.01, r) if self.wrong else r

    def vdot(self, a, b):
        return self._fin(_nonfinite_to_nan(np.vdot(a, b)))

    def unique_values(self, a):
        return np.unique_values(a)[::-1]

    def matvec(self, *a, **k):
        return self._fin(_nonfinite_to_nan(np.matvec(*a, **k)))

    def convolve(self, *a, **k):  # the GPU's sum of C99 products: inf-infj where NumPy's gave nan-infj
        r = np.asarray(np.convolve(*a, **k))
        return self._fin(np.where(np.isnan(r), np.asarray(np.inf, r.dtype), r) if r.dtype.kind == "c" else r)

    def nanprod(self, *a, **k):  # the GPU's tree overflowed to -inf+infj where NumPy's product gave nan+nanj
        r = np.asarray(np.nanprod(*a, **k))
        return self._fin(np.where(np.isfinite(r), r, np.asarray(complex(-np.inf, np.inf), r.dtype))[()])

    def isin(self, a, b, assume_unique=False, invert=False):
        return np.isin(a, b, invert=invert)  # the membership, whatever assume_unique claims


@pytest.mark.usefixtures("generation1")  # (cases of the first generators)
@pytest.mark.parametrize("key,seed,index", [("vdot(a same)", 2, 2), ("fft.ifft2(a)", 2, 1), ("unique_values(a)", 2, 1),
                                            ("linspace(s s)", 2, 5), ("logspace(s s)", 2, 3),
                                            ("multiply.reduce(a)", 4, 3), ("isin(a b)", 4, 0),
                                            ("nanprod(a)", 5, 1), ("matvec(m right)", 5, 1),
                                            ("convolve(a1 a1)", 0, 1)])
def test_comparison_accepts_undefined_differences(key, seed, index):
    """The GPU run's (seed 2) answers that differ from NumPy's only where NumPy's is not defined
    (fuzz_checks: check_nonfinite_spread, check_unordered_values, check_space_cast) agree; a wrong
    finite value is still found."""
    row = fc.BY_KEY[key]
    res = fuzzlib.run_case(row, seed, index, fuzzlib.Side(np), fuzzlib.Side(_GpuAnswers(), name="gpu answers"))
    assert res is None, str(res)


@pytest.mark.usefixtures("generation1")  # (cases of the first generators)
@pytest.mark.parametrize("key", ["vdot(a same)", "fft.ifft2(a)", "multiply.reduce(a)", "nanprod(a)", "matvec(m right)",
                                 "convolve(a1 a1)"])
def test_nonfinite_spread_still_finds_wrong_values(key):
    row = fc.BY_KEY[key]
    found = [fuzzlib.run_case(row, 2, i, fuzzlib.Side(np), fuzzlib.Side(_GpuAnswers(wrong=True), name="wrong"))
             for i in range(20)]
    assert any(isinstance(m, fuzzlib.Mismatch) and "values differ" in m.what for m in found)


@pytest.mark.usefixtures("generation1")  # (cases of the first generators)
def test_unordered_values_still_finds_wrong_values():
    row = fc.BY_KEY["unique_values(a)"]
    wrong = types.SimpleNamespace(unique_values=lambda a: np.unique_values(a)[1:])
    found = [fuzzlib.run_case(row, 2, i, fuzzlib.Side(np), fuzzlib.Side(wrong, name="wrong"))
             for i in range(10)]
    assert any(isinstance(m, fuzzlib.Mismatch) for m in found)


@pytest.mark.usefixtures("generation1")  # (cases of the first generators)
def test_space_cast_still_compares_defined_samples():
    row = fc.BY_KEY["linspace(s s)"]
    off = types.SimpleNamespace(linspace=lambda *a, **k: (lambda r: r + r.dtype.type(1))(np.linspace(*a, **k)))
    found = [fuzzlib.run_case(row, 2, i, fuzzlib.Side(np), fuzzlib.Side(off, name="wrong")) for i in range(20)]
    assert any(isinstance(m, fuzzlib.Mismatch) and "values differ" in m.what for m in found)


@pytest.mark.usefixtures("generation1")  # (cases of the first generators)
def test_arctan2_case_3_146_takes_numpys_float32_loop(host_path):
    """Seed 3 index 146's host half: uint16 and bool inputs run NumPy's float32 loop (not a complex
    or float64 one) cast into the complex128 out=, under the where= mask (one launch)."""
    row = fc.BY_KEY["arctan2(a b){out,where}"]
    args, kw = row.make(fuzzlib.case_rng(row.key, 3, 146))
    assert np.arctan2.resolve_dtypes((np.dtype("uint16"), np.dtype(bool), None))[-1] == np.float32
    side = _host_only_side()
    del host_path[:]
    res = side.outcome(row, args, kw)
    assert res[0] == "ok" and res[1].dtype == np.complex128 and res[1].shape == (2, 1, 5, 3, 7)
    names = [c[2][0] for c in host_path if isinstance(c[2], tuple)]
    assert names == ["cuarray_arctan2_asfloat32_asfloat32_to_complex128_where"], names


def _isclose_as_the_kernel(x, y, rtol=1e-5, atol=1e-8):
    """cuarray's isclose kernel on the host: the dtypes and roundings comparison_reduce picks
    (computed in `ct`, each step rounded to the narrower type NumPy takes it in)."""
    from cuarray._logic import comparison_reduce as cr  # the module under test's host logic
    yt = np.result_type(y.dtype, 1.0)
    ct = np.result_type(x.dtype, yt)
    half_diff = ct == np.float16
    ct = np.dtype(np.float32) if half_diff else ct
    real = cr._real(ct)
    ty, t1, t2 = cr._tolerance_types(yt, rtol, atol, real)
    xc, yc = x.astype(ct), y.astype(ct)
    diff = xc - yc
    diff = np.abs(diff.astype(np.float16).astype(real) if half_diff else diff)
    prod = (real.type(t1.type(rtol)) * np.abs(yc).astype(ty).astype(real)).astype(t1).astype(real)
    tol = (real.type(t2.type(atol)) + prod).astype(t2).astype(real)
    return (xc == yc) | (np.isfinite(yc) & (diff <= tol))


@pytest.mark.parametrize("xd,yd", [("D", "e"), ("d", "e"), ("d", "f"), ("D", "F"), ("e", "e"), ("b", "e"),
                                   ("e", "b"), ("q", "f"), ("f", "d"), ("F", "f"), ("e", "f")])
def test_isclose_tolerance_in_ys_type(xd, yd):
    """NumPy computes isclose's atol + rtol * |y| in y's float type (NEP 50: the default Python
    float tolerances are weak), x - y in x's and y's common type: fuzz seed 4 index 137,
    isclose(complex128 1e-30, float16 -0.0) is False (float16's 1e-8 is 0). Boundary values of
    each pair agree with NumPy's answer."""
    rng = np.random.default_rng(0)
    with np.errstate(all="ignore"):
        y = np.concatenate([np.array([0.0, -0.0, 1.0, 100.0, np.inf]), rng.uniform(-50, 50, 60)]).astype(yd)
        wide = y.astype(np.complex128 if y.dtype.kind == "c" else np.float64)
        tol = 1e-8 + 1e-5 * np.abs(wide)
        steps = np.array([0.0, 0.5, 0.999, 1.0, 1.001, 2.0, 1e-22])
        x = (wide[:, None] + tol[:, None] * steps).astype(xd)
        ys = np.broadcast_to(y[:, None], x.shape)
        assert np.array_equal(_isclose_as_the_kernel(x, ys), np.isclose(x, ys))
        for rtol, atol in ((0.0, 0.0), (1e-3, 0.5), (np.float64(1e-5), 1e-8)):
            assert np.array_equal(_isclose_as_the_kernel(x, ys, rtol, atol), np.isclose(x, ys, rtol, atol))


@pytest.mark.usefixtures("generation1")  # (cases of the first generators)
def test_isclose_case_4_137_rounds_the_tolerance_to_float16():
    """The fuzz case's kernel (complex128 x, float16 y) computes in double and rounds |y|,
    rtol * |y| and the tolerance to float16, and compiles."""
    from cuarray._logic import comparison_reduce as cr  # the module under test's definition
    from cuarray.cuda import compiler  # NVRTC for sm_90, no device
    row = fc.BY_KEY["isclose(a b)"]
    args, _ = row.make(fuzzlib.case_rng(row.key, 4, 137))
    x, y = (fuzzlib.Side(np).build(s) for s in args)
    assert (x.dtype, y.dtype) == (np.complex128, np.float16)
    f2, f8 = np.dtype(np.float16), np.dtype(np.float64)
    assert cr._tolerance_types(np.result_type(y, 1.0), 1e-5, 1e-8, f8) == (f2, f2, f2)
    d = cr._isclose_def(x.dtype, y.dtype, np.dtype(np.complex128), (f2, f2, f2), False)
    assert "cuarray::cast<double>(cuarray::cast<__half>(atol + " in d.operation
    _, src = d.source("flat", 1, np.int32)
    assert compiler.compile_cubin(src, arch="sm_90")[0][:4] == b"\x7fELF"
    assert not _isclose_as_the_kernel(np.array([1e-30 + 0j]), np.array([-0.0], np.float16))[0]
    assert np.array_equal(_isclose_as_the_kernel(x, y), np.isclose(x, y))


def test_initial_goes_through_the_reduction_dtype():
    """prod(float16, initial=2**31): NumPy casts initial to the float16 loop (inf), so a -0.0
    factor gives NaN (fuzz seed 5 index 196); cast straight to the float32 accumulator it was
    2.1e9 and the product -0.0."""
    from cuarray._core.reduction_ops import initial_scalar

    with np.errstate(all="ignore"):
        v = initial_scalar(2**31, np.dtype(np.float16), np.dtype(np.float32))
        assert v.dtype == np.float32 and np.isposinf(v)
        assert np.isnan(np.prod(np.array([-0.0], np.float16), initial=2**31))
    assert initial_scalar(7, np.dtype(np.int64), np.dtype(np.int64)) == 7
    assert initial_scalar(-1.5, np.dtype(np.float64), np.dtype(np.float64)) == -1.5


@pytest.mark.parametrize("key,seed,index", [("nancumsum(a){dtype,axis}", 16, 38), ("nancumprod(a){dtype,axis}", 19, 103)])
def test_half_nan_accumulations_of_complex_agree_with_numpy_itself(key, seed, index):
    """NumPy against itself on the GPU runs' float16 nancumsum/nancumprod of complex input with one
    NaN part: the float16 check replaces such elements before its cast, as NumPy does (it cast first
    and reported NumPy's own answer as a mismatch)."""
    res = fuzzlib.run_case(fc.BY_KEY[key], seed, index, fuzzlib.Side(np), fuzzlib.Side(np, name="numpy2"))
    assert res is None, str(res)
