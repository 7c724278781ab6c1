"""The comparison rules added after the session-12 GPU runs (fuzz_checks, fuzzlib._close), each on
the case that needed it (the mismatch the H100 printed, NumPy 2.5.2 against cuarray) and on a
wrong finite value, which each must still report."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import fuzz_catalog as fc
import fuzz_check_unwrap
import fuzz_checks as ck
import fuzzlib


def _row(key):
    return fc.BY_KEY[key]


def test_products_overflow_one_step_apart():
    row = _row("cumprod(a)")
    e = np.array([1.0, 3.0e38, np.inf, -np.inf], np.float32)
    g = np.array([1.0, 3.0e38, 3.39e38, -np.inf], np.float32)  # the scan's rounding kept it finite
    x = (np.array([1.0, 3e38, 1.13, -1.0], np.float32),)
    assert ck.check_half_accumulation(e, g, row, (x, {})) is None
    assert ck.check_half_accumulation(e, np.array([1.5, 3.0e38, np.inf, -np.inf], np.float32), row, (x, {}))


def test_half_accumulation_follows_the_dtype_argument():
    """A float16 input accumulated with dtype=int16 is an int16 loop (compared as it is), and an
    int input with dtype=float16 a float16 loop (compared with NumPy's float32 sum rounded once);
    the check took every float16 input as a float16 loop and expected float16 (seed 6's rerun)."""
    row = _row("nancumsum(a){dtype,axis}")
    x = np.array([1.5, 2.0, -3.0], np.float16)
    e = np.nancumsum(x, dtype=np.int16)
    assert ck.check_half_accumulation(e, e.copy(), row, ((x,), {"dtype": np.dtype("int16")})) is None
    assert ck.check_half_accumulation(e, e + 1, row, ((x,), {"dtype": np.dtype("int16")}))
    xi = np.array([2048, 1, 1, 1], np.int32)
    ef = np.nancumsum(xi, dtype=np.float16)  # float16 steps: 2048 + 1 rounds back to 2048
    g = np.nancumsum(xi, dtype=np.float32).astype(np.float16)  # one rounding: 2050 at the end
    assert not np.array_equal(ef, g)
    assert ck.check_half_accumulation(ef, g, row, ((xi,), {"dtype": np.dtype("float16")})) is None
    # the input is cast to the float16 loop first, as NumPy casts it: 2049 is 2048 in float16
    xj = np.array([2049, 2049], np.int32)
    gj = np.nancumsum(xj.astype(np.float16).astype(np.float32)).astype(np.float16)  # [2048, 4096]
    assert ck.check_half_accumulation(np.nancumsum(xj, dtype=np.float16), gj, row,
                                      ((xj,), {"dtype": np.dtype("float16")})) is None
    assert ck.check_half_accumulation(gj, gj * np.float16(2), row, ((xj,), {"dtype": np.dtype("float16")}))


def test_list_arguments_are_seen_by_the_checks():
    """multi_dot([float32 with -inf, complex]): nan-infj in NumPy, nan+nanj here; the inf sits in a
    list argument, which checks saw as None before (seeds 50 and 52)."""
    row = _row("linalg.multi_dot(arrays)")
    a = fuzzlib.ArraySpec(np.array([1.5, -np.inf, 2.0], np.float32))
    b = fuzzlib.ArraySpec(np.array([1 + 1j, 2 - 1j, 0.5j]))
    host = fuzzlib._host_value(fuzzlib.Seq([a, b]))
    assert isinstance(host, list) and len(host) == 2 and np.isinf(host[0]).any()
    e, g = np.complex128(complex(np.nan, -np.inf)), np.complex128(complex(np.nan, np.nan))
    assert ck.check_scaled_by_zero(e, g, row, ([host], {})) is None
    finite = [np.array([1.5, 1.0, 2.0], np.float32), host[1]]
    assert ck.check_scaled_by_zero(np.complex128(3 + 1j), np.complex128(3 + 2j), row, ([finite], {}))


def test_complex_values_compare_on_their_magnitude():
    row = _row("cov(a)")
    e, g = np.array(1.42857143e59 + 0j), np.array(1.42857143e59 - 1.253884e13j)  # seed 57
    assert fuzzlib.compare_values(e, g, row) is None
    assert fuzzlib.compare_values(e, np.array(1.44e59 + 0j), row)
    assert fuzzlib.compare_values(np.array([1 + 0j, 2 + 0j]), np.array([1 + 0.5j, 2 + 0j]), row)


def test_transform_of_an_empty_input_is_zeros():
    row = _row("fft.irfft(a)")
    x = np.zeros((1, 3, 1, 0), np.complex64)
    e = np.full((1, 3, 1, 5), 2.7e22, np.float32)  # pocketfft's uninitialised memory (seed 56)
    assert ck.check_transform_nonfinite(e, np.zeros_like(e), row, ((x,), {"n": 5})) is None
    assert ck.check_transform_nonfinite(e, np.ones_like(e), row, ((x,), {"n": 5}))


def test_complex_roots_pair_by_distance():
    row = _row("roots(a1)")
    e = np.array([-1.0, -7.77e-16 - 1j, -7.77e-16 + 1j, 0.0])  # seed 62: the order flips on noise
    g = np.array([-1.0, 0.0, 1.53e-16 - 1j, 1.53e-16 + 1j])
    assert ck.check_sorted_values(e, g, row) is None
    assert ck.check_sorted_values(e, np.array([-1.0, 0.0, 0.1 - 1j, 1.53e-16 + 1j]), row)


def test_complex_power_of_an_infinite_base():
    row = _row("power(a s)")
    x = np.array([0.988 - 0.091j, 4.44 + 0.85j, complex(np.inf, 0)])
    e = np.array([1.0036 + 0.0925j, 0.2172 - 0.0417j, complex(np.nan, np.nan)])  # seed 63
    g = np.array([1.0036 + 0.0925j, 0.2172 - 0.0417j, 0j])
    assert ck.check_complex_power(e, g, row, ((x, -1), {})) is None
    assert ck.check_complex_power(e, np.array([1.1 + 0.0925j, 0.2172 - 0.0417j, 0j]), row, ((x, -1), {}))


def test_complex_power_by_a_large_exponent():
    # seed 158: complex64 z**300 (exp(300 log z) on both sides) differs from NumPy's by 7e-5 relative,
    # past float32's 2e-5; the tolerance grows with |b log a| (an error of 1e-2 still fails)
    row = _row("pow(a s)")
    x = np.array([-1.6970973 + 2.9362693j, -4.7718868 - 0.0917462j], np.complex64)
    e = np.array([1.59943653e-07 + 7.7810434e-08j, 1.00534384e+30 + 2.3105563e+30j], np.complex64)
    g = np.array([1.5994274e-07 + 7.7809993e-08j, 1.0054144e+30 + 2.3105258e+30j], np.complex64)
    assert ck.check_complex_power(e, g, row, ((x, 300), {})) is None
    assert ck.check_complex_power(e, g * np.complex64(1.01), row, ((x, 300), {}))
    assert ck.check_complex_power(e, g, row, ((x, 3), {}))  # a small exponent keeps the row's tolerance


def test_eigvals_of_a_defective_matrix():
    # seed 171: a triple eigenvalue 0 (a Jordan block) spreads by eps**(1/3) differently in LAPACK and
    # cuSOLVER; the cluster's mean compares (and a cluster of other size, or mean, still fails)
    row = _row("linalg.eigvals(sq)")
    e = np.array([[2 + 0j, -2.11112362e-06 + 3.65651092e-06j, -2.11112362e-06 - 3.65651092e-06j, 4.22224724e-06]])
    g = np.array([[2 + 0j, -3.18668092e-06 + 5.51949605e-06j, -3.18668092e-06 - 5.51949605e-06j, 6.37336184e-06]])
    assert ck.check_sorted_values(e, g, row)  # the old comparison failed it
    assert ck.check_eigvals(e, g, row) is None
    assert ck.check_eigvals(e, g + np.array([[0, 1e-3, 1e-3, 1e-3]]), row)  # the cluster's mean moved
    assert ck.check_eigvals(e, np.array([[2 + 0j, 1.0, -1e-9, 1e-9]]), row)  # a member left the cluster
    assert ck.check_eigvals(np.array([1.0, 2.0]), np.array([2.0, 1.0]), row) is None
    assert ck.check_eigvals(np.array([1.0, 2.0]), np.array([2.0, 1.1]), row)


def test_slogdet_of_an_exactly_singular_matrix():
    # seed 184: det([[-6, -9], [-4, -6]]) is 0; LAPACK's pivot came out exactly 0 (-inf), cuSOLVER's not
    row = _row("linalg.slogdet(sq)")
    a = np.array([[[-6, -9], [-4, -6]], [[-2, 9], [-5, 6]]], np.int16)
    e = (np.array([0.0, 1.0]), np.array([-np.inf, 3.49650756]))
    g = (np.array([1.0, 1.0]), np.array([-33.84642881, 3.49650756]))
    assert ck.compare_values(e[1], g[1], row)  # the old rule failed it
    assert ck.check_slogdet(e, g, row, ((a,), {})) is None
    assert ck.check_slogdet(e, (g[0], np.array([-2.0, 3.49650756])), row, ((a,), {}))  # not near singular
    assert ck.check_slogdet(e, (g[0], np.array([-np.inf, 3.6])), row, ((a,), {}))  # the other one differs


def test_cov_without_degrees_of_freedom():
    row = _row("cov(a)")
    x = np.array([3.51 + 1.96j, -5.77 - 2.55j])
    e, g = np.array(complex(np.inf, np.nan)), np.array(complex(np.inf, -np.inf))  # seed 62
    assert row.check(e, g, row, ((x,), {"ddof": 2, "bias": True})) is None
    assert row.check(np.array(2 + 0j), np.array(3 + 0j), row, ((x,), {}))


def test_integer_samples_within_rounding_of_an_integer():
    """geomspace(7, 7, endpoint=False, dtype=int64): NumPy 7s, the H100 6s after the first (its pow
    put 10**log10(7) one ulp below 7; seed 64); geomspace(1e300, 2**40) as int64: one float step (128)
    apart at 8.3e17 (seed 65). A wrong sample away from rounding is still reported."""
    row = _row("geomspace(s s)")
    kw = {"endpoint": False, "dtype": np.dtype(np.int64)}
    e = np.full(50, 7, np.int64)
    g = np.concatenate([[7], np.full(49, 6, np.int64)])
    assert ck.check_space_cast(e, g, row, ((7, 7), kw)) is None
    assert ck.check_space_cast(e, np.full(50, 5, np.int64), row, ((7, 7), kw))
    kw = {"endpoint": True, "dtype": np.dtype(np.int64)}
    e = np.geomspace(1e300, 2 ** 40, dtype=np.int64)
    i = int(np.argmin(np.abs(e.astype(float) - 8.2777e17)))
    g = e.copy()
    g[i] -= 128
    assert ck.check_space_cast(e, g, row, ((1e300, 2 ** 40), kw)) is None
    e2 = np.geomspace(3, 3e3, dtype=np.int64)
    g2 = e2.copy()
    g2[20] += 7
    assert ck.check_space_cast(e2, g2, row, ((3, 3e3), kw))


def test_unwrap_of_huge_integers():
    """unwrap of int64 [-8, 8, -8, 1, 4611686018427387903, 1, 6]: the float64 corrections' sum
    passes 4.6e18 (a step of 512), so the last value is rounding noise in any order (NumPy -0.28,
    the GPU's scan 6; seed 78). Small integers still compare by value."""
    row = _row("unwrap(a)")
    x = np.array([-8, 8, -8, 1, 4611686018427387903, 1, 6], np.int64)
    e = np.array([-8.0, -10.84955592, -8.0, -5.28318531, 0.0, 1.0, -0.28318531])
    g = e.copy()
    g[-1] = 6.0
    assert fuzz_check_unwrap.check_unwrap(e, g, row, ((x,), {})) is None
    small = np.array([-8, 8, -8, 1], np.int64)
    assert fuzz_check_unwrap.check_unwrap(np.unwrap(small), np.unwrap(small) + 1.0, row, ((small,), {}))


def test_unwrap_of_large_steps_summed_in_another_order():
    """unwrap of int32 rows with steps of 2**30 (seed 7, index 63): the corrections (+-1.07e9)
    summed as a scan's tree, (c0 + c1) + (c2 + c3), differ from NumPy's sequence by 4.8e-7 at
    results near 8; the old check compared them at the results' scale (5e-9) and failed. The sums'
    bound (2 gamma(k) sum |c|, ~1e-5 here) admits them; a result one period off still fails, and
    so does a deviation beyond the bound."""
    row = _row("unwrap(a)")
    x = np.array([[-5, 7, 1, 1073741823, 2147483647], [8, -3, 2, 1073741823, 6],
                  [9, 1073741823, 1073741823, -4, 9], [3, 6, -1, 9, -2]], np.int32)
    e = np.unwrap(x, axis=1)
    dd = np.diff(x, axis=1)
    ddmod = np.remainder(dd + np.pi, 2 * np.pi) - np.pi
    np.copyto(ddmod, np.pi, where=(ddmod == -np.pi) & (dd > 0))
    c = ddmod - dd
    np.copyto(c, 0, where=abs(dd) < np.pi)
    tree = np.cumsum(c, axis=1)
    tree[:, 3] = tree[:, 1] + (c[:, 2] + c[:, 3])
    g = x.astype(np.float64)
    g[:, 1:] = x[:, 1:] + tree
    assert np.abs(g - e).max() > 1e-7  # the two orders differ here
    kw = {"axis": 1}
    assert fuzz_check_unwrap.check_unwrap(e, g, row, ((x,), kw)) is None
    off = g.copy()
    off[0, 4] += 2 * np.pi
    assert fuzz_check_unwrap.check_unwrap(e, off, row, ((x,), kw))
    beyond = g.copy()
    beyond[1, 4] += 1e-3  # the bound at [1, 4] is ~1e-5 (four terms summing to ~2.1e9)
    assert fuzz_check_unwrap.check_unwrap(e, beyond, row, ((x,), kw))
    nan = g.copy()
    nan[2, 2] = np.nan
    assert fuzz_check_unwrap.check_unwrap(e, nan, row, ((x,), kw))


def test_float32_samples_cast_to_a_wider_dtype():
    """logspace(float32(-3), True, endpoint=False, dtype=complex128): the samples are float32 powers
    cast up; the H100's powf is 1 ulp off glibc's at some (seed 88, after the fix), compared at
    float32's precision. A power computed in double (the bug: 1e-3 exactly where float32 gives
    1.00000005e-3) is reported."""
    row = _row("logspace(s s)")
    args, kw = (np.float32(-3.0), True), {"endpoint": False, "dtype": np.dtype(np.complex128)}
    e = np.logspace(*args, **kw)
    g = e.copy()
    g[3] = complex(np.nextafter(np.float32(g[3].real), np.float32(0)), 0)  # one float32 ulp
    assert ck.check_space_cast(e, g, row, (args, kw)) is None
    wide = np.logspace(-3.0, 1.0, 50, endpoint=False).astype(np.complex128)  # powers in double
    assert ck.check_space_cast(e, wide, row, (args, kw))


def test_sums_of_integers_past_2_53():
    """trapezoid of int64 [-3, -7, -3, 2**63 - 1, 6, -5, -6]: NumPy -5, the GPU's tree 0 (the
    float64 terms +-4.6e18 absorb the small ones in an order-dependent way; seed 99), and pad's
    'mean' of such integers likewise: dtype and shape compared there; small integers by value."""
    y = np.array([[-3, -7, -3, 9223372036854775807, 6, -5, -6]], np.int64)
    row = _row("trapezoid(a)")
    assert row.check(np.array([-5.0]), np.array([0.0]), row, ((y,), {"axis": -1})) is None
    small = np.array([[-3, -7, -3, 9, 6]], np.int64)
    assert row.check(np.array([4.5]), np.array([5.5]), row, ((small,), {"axis": -1}))
    pad = _row("pad(a padw)")
    x = np.array([2, -2, 4611686018427387903, 9223372036854775807, -9223372036854775808, 5], np.int64)
    e = np.pad(x, (3, 2), mode="mean")
    g = e.copy()
    g[:3] += 128
    assert pad.check(e, g, pad, ((x, (3, 2)), {"mode": "mean"})) is None
    xs = np.array([2, -2, 4, 9, -8, 5], np.int64)
    es = np.pad(xs, (3, 2), mode="mean")
    assert pad.check(es, es + 1, pad, ((xs, (3, 2)), {"mode": "mean"}))
    assert pad.check(es, es + 1, pad, ((xs, (3, 2)), {"mode": "edge"}))


def test_zero_times_an_overflowing_sub_product():
    """nancumprod of float32 [2, -0.0, -1e30, -1e30, 3] (seed 222): NumPy's running product stays
    -0.0, 0.0, ... where a scan's (-1e30 * -1e30) is inf and 0 * inf NaN. Zero against NaN passes
    only where some order of the input's values overflows; a wrong value, or NaN where no order
    overflows, is still reported."""
    row = _row("nancumprod(a)")
    x = np.array([2.0, -0.0, -1e30, -1e30, 3.0], np.float32)
    e = np.array([2.0, -0.0, 0.0, -0.0, -0.0], np.float32)
    g = np.array([2.0, -0.0, 0.0, np.nan, np.nan], np.float32)
    assert ck.check_complex_product(e, g, row, ((x,), {})) is None
    assert ck.check_complex_product(e, np.array([2.5, -0.0, 0.0, np.nan, np.nan], np.float32), row, ((x,), {}))
    small = np.array([2.0, -0.0, -1e3, -1e3, 3.0], np.float32)
    assert ck.check_complex_product(e, g, row, ((small,), {}))


def test_blas_skips_a_zero_multiplicand():
    """tensordot of an int64 zero and float16 holding inf (seed 245): NumPy's float64 gemm skips the
    zero, so its output is 0 where IEEE's 0 * inf, ours, is NaN. With a zero among the inputs a NaN
    on either side passes; inf against a finite value, and a wrong finite value, are still reported,
    and without a zero NaN against a finite value is too."""
    row = _row("tensordot(a tdaxes tdb)")
    a = np.zeros((1, 1), np.int64)
    b = np.array([-4.0, 5.7, np.inf, 0.0, 6.4, -3.8], np.float16).reshape(1, 2, 3)
    e = np.zeros((1, 2, 3))
    g = np.array([[[-0.0, 0.0, np.nan], [0.0, 0.0, -0.0]]])
    assert ck.check_scaled_by_zero(e, g, row, ((a, b), {"axes": 1})) is None
    assert ck.check_scaled_by_zero(e, np.array([[[0.0, 0.0, np.inf], [0.0, 0.0, 0.0]]]), row, ((a, b), {"axes": 1}))
    assert ck.check_scaled_by_zero(e, np.array([[[0.5, 0.0, np.nan], [0.0, 0.0, 0.0]]]), row, ((a, b), {"axes": 1}))
    one = np.ones((1, 1), np.int64)
    b1 = np.array([-4.0, 5.7, np.inf, 1.0, 6.4, -3.8], np.float16).reshape(1, 2, 3)
    e1 = np.array([[[-4.0, 5.7, np.inf], [1.0, 6.4, -3.8]]])
    g1 = np.array([[[-4.0, 5.7, np.inf], [np.nan, 6.4, -3.8]]])
    assert ck.check_scaled_by_zero(e1, g1, row, ((one, b1), {"axes": 1}))


@pytest.mark.usefixtures("generation1")  # (cases of the first generators)
def test_a_large_device_allocation_that_fails_is_not_compared():
    """Seed 268: histogramdd of 7 columns into 16 bins asked for 4.9 GB (18**7 int64 bins, as NumPy's
    own bincount does) while 13 other fuzz processes held the GPU: not a wrong answer. A failed small
    request, or another MemoryError, is still a mismatch."""
    from cuarray.cuda import OutOfMemoryError

    assert fuzzlib._large_device_allocation_failed(OutOfMemoryError(4_897_760_256, 4_934_598_656))
    assert not fuzzlib._large_device_allocation_failed(OutOfMemoryError(1 << 20, 1 << 30))
    assert not fuzzlib._large_device_allocation_failed(MemoryError("host"))

    class Raises(fuzzlib.Side):
        def outcome(self, row, args, kwargs):
            return ("raise", OutOfMemoryError(self.size, 0))

    class Answers(fuzzlib.Side):  # NumPy's answer, without making NumPy's 4.9 GB here
        def outcome(self, row, args, kwargs):
            return ("ok", np.zeros(3), False)

    row = _row("histogramdd(m)")
    big, small = Raises(np), Raises(np)
    big.size, small.size = 1 << 32, 1 << 20
    assert fuzzlib.run_case(row, 268, 41, Answers(np), big) == "memory"
    assert isinstance(fuzzlib.run_case(row, 268, 41, Answers(np), small), fuzzlib.Mismatch)


def test_half_i0_is_compared_with_float32():
    """i0 of float16 11.555 (seed 276): NumPy's float16 exp(x) overflows and its answer is inf; cuarray
    computes in float32 (docs/differences.md) and gives 1.2376e4 (exact 12380). A wrong finite value
    is still reported."""
    row = _row("i0(a)")
    x = np.array([11.555, 2.0, np.nan], np.float16)
    with np.errstate(all="ignore"):
        e = np.i0(x)
    assert np.isinf(e[0])
    g = np.array([1.2376e4, 2.2796, np.nan], np.float16)
    assert row.check(e, g, row, ((x,), {})) is None
    assert row.check(e, np.array([1.3e4, 2.2796, np.nan], np.float16), row, ((x,), {}))


def test_average_of_integers_past_2_53_compares_structure():
    """average of int64 [-2**63, 3, 8, 9, 8, -8, 2**63 - 1] (seed 283): NumPy's float64 sum in order
    cancels to 0, a tree's to 4 (0.571 / 7 elements); either rounding. Small integers still compare
    values, as do large weights' averages of the wrong shape."""
    row = _row("average(a)")
    x = np.array([-2**63, 3, 8, 9, 8, -8, 2**63 - 1], np.int64)
    assert row.check(np.array([0.0]), np.array([4 / 7]), row, ((x,), {"keepdims": True})) is None
    small = np.array([1, 2, 3], np.int64)
    assert row.check(np.array([2.0]), np.array([2.5]), row, ((small,), {"keepdims": True}))
    w = np.array([2**60, 1, 1], np.int64)
    assert row.check(np.array([1.0]), np.array([1.0000001]), row, ((small,), {"weights": w})) is None
    assert row.check(np.array([1.0]), np.array([[1.0]]), row, ((small,), {"weights": w}))


def _arctan2_case_3_146():
    """Seed 3 index 146: arctan2 of uint16 and bool (NumPy's float32 loop) into a complex128 out=
    under where=; (row, exp, inputs, the mask broadcast to out)."""
    row = _row("arctan2(a b){out,where}")
    args, kw = row.make(fuzzlib.case_rng(row.key, 3, 146))
    (a, b), hk = [fuzzlib._host_value(s) for s in args], {k: fuzzlib._host_value(s) for k, s in kw.items()}
    assert a.dtype == np.uint16 and b.dtype == bool and hk["out"].dtype == np.complex128
    exp = hk["out"].copy()
    with warnings.catch_warnings():  # (NumPy's ComplexWarning: out= is buffered through the float32 loop)
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        np.arctan2(a, b, out=exp, where=hk["where"])
    return row, exp, ((a, b), hk), np.broadcast_to(hk["where"], exp.shape)


@pytest.mark.usefixtures("generation1")  # (cases of the first generators)
def test_out_wider_than_the_loop_compares_at_the_loop_precision():
    """NumPy computes in the loop's float32 and casts into out=: a float32 answer 1 ulp from NumPy's
    (the GPU's correctly rounded atan2f(1, 1), where NumPy's SIMD one is 1 ulp low) agrees; an
    answer off by more than float32's rounding, or a where=False element changed, does not."""
    row, exp, inputs, m = _arctan2_case_3_146()
    got = exp.copy()
    f32 = exp[m].real.astype(np.float32)
    got[m] = np.nextafter(f32, np.float32(np.inf))  # 1 ulp of float32 from NumPy's at every element
    assert np.abs(got[m] - exp[m]).max() > 1e-8
    assert row.check(exp, got, row, inputs) is None
    wrong = got.copy()
    wrong[m] = wrong[m] * (1 + 1e-3)
    assert "values differ" in row.check(exp, wrong, row, inputs)
    kept = got.copy()
    kept[~m] = kept[~m] + 1e-3
    assert "values differ" in row.check(exp, kept, row, inputs)
    same = _row("arctan2(a b){out,where}")  # a float64 loop into complex128: still complex128's tolerance
    x, y = np.array([1.0, 3.0]), np.array([1.0, 1.0])
    out = np.zeros(2, np.complex128)
    e = np.arctan2(x, y).astype(np.complex128)
    assert "values differ" in same.check(e, e * (1 + 1e-9), same, ((x, y), {"out": out, "where": np.ones(2, bool)}))


def test_isin_of_integers_colliding_in_the_promoted_float_is_membership():
    """Fuzz seed 12 index 95: int64 elements 2**62 - 1 and 2**62 beside complex64 test elements are
    one complex128 in NumPy's sort, so NumPy calls 2**62 - 1 a member of a set without 2**62;
    the check compares with `x == any test element`, and a wrong membership is still reported."""
    row = _row("isin(a b)")
    a = np.array([2**62 - 1, 2**62, 5, -3], np.int64)
    b = np.concatenate([[5 + 0j], np.arange(20) + 0.5j]).astype(np.complex64)  # (NumPy's sort path)
    e = np.isin(a, b)
    assert e[0]  # (NumPy's collision: 2**62 - 1 sorts beside the equal 2**62, a "member")
    truth = np.array([False, False, True, False])
    assert ck.check_isin_assume_unique(e, truth, row, ([a, b], {})) is None
    assert ck.check_isin_assume_unique(e, ~truth, row, ([a, b], {"invert": True})) is None
    assert ck.check_isin_assume_unique(e, truth ^ [0, 0, 1, 0], row, ([a, b], {})) is not None
