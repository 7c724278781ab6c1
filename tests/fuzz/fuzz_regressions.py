"""Cases the fuzzer found bugs with, kept as regression tests: (row key, seed, index), re-made by
`fuzzlib.case_rng` and run by tests/fuzz/test_fuzz_cpu.py (host-only path) and test_fuzz_gpu.py.
Add a line for each mismatch a fuzz run prints once its fix is in: CASES holds the cases of the
first generators (fuzz_legacy, generation 1), CASES2 those of the current ones (generation 2,
fuzz_values: special values everywhere, the edge rows), since a case is its generators' draws."""

import numpy

# (row key, seed, index) of mismatches found and fixed: printed by the fuzzer with each reproducer.
# The host-only mode's first finds (fixed on h-fuzz) are direct tests in test_issue35_rows.py.
CASES = [
    # power with a 0-d exponent array of 0.5: NumPy's sqrt rule ((-inf)**0.5 is nan), as for a host scalar
    ("power(a b){out,where}", 7, 81),
    # unwrap of int32 steps of 2**30: the corrections' sum in a scan's order (the check's bound)
    ("unwrap(a)", 7, 63),
    # piecewise of an empty x with a 0-d condition: NumPy calls no function (negative of bool raised)
    ("piecewise(a masks funclist)", 9, 13),
    # nanargmax reads NaN as -inf: [nan, -inf] gives 0 (the kernel skipped NaNs and gave 1)
    ("nanargmax(a)", 6, 199),
    # prod with initial= through the float16 loop (cast to the reduction dtype first)
    ("prod(a){initial,axis}", 5, 196),
    # issue 35's second pass (rows for the rest of the namespace), each fixed on h-fuzzcat
    ("argpartition(a axis_int kth)", 2, 3), ("partition(a axis_int kth)", 2, 0), ("tri(smallint)", 2, 9),
    ("cross(vec3 vec3)", 2, 39), ("compress(a cond1)", 2, 1), ("compress(a cond1)", 3, 11),
    ("polymul(a1 a1)", 2, 3), ("select(a masks choices)", 2, 62), ("linspace(s s)", 3, 4), ("logspace(s s)", 3, 54),
    ("linalg.pinv(m)", 3, 224), ("linalg.vector_norm(a)", 3, 130), ("linalg.matrix_norm(m)", 5, 323),
    ("pad(a padw)", 10, 298), ("digitize(a sorted)", 10, 194), ("fft.rfft2(a)", 3, 70),
    ("interp(a sorted sorted)", 4, 63), ("bincount(counts weights)", 14, 621), ("fill_diagonal(a s)", 8, 248),
    ("insert(a idx s)", 3, 15), ("putmask(a mask b)", 2, 1), ("place(a mask a1)", 2, 12),
    ("piecewise(a masks funclist)", 10, 180), ("tensordot(a tdaxes tdb)", 3, 44), ("round(a)", 3, 15),
    # the issue35b rows' GPU run of seed 2 (NumPy 2.5.2), each fixed on h-fuzzfix
    ("place(a mask a1)", 2, 8), ("ravel_multi_index(dims multi)", 2, 5), ("average(a)", 2, 1),
    ("histogramdd(m)", 2, 7), ("iterable(a)", 2, 0),
    # all rows, seed 4 (session 10): complex expm1 of an infinity took exp(z) - 1, not NumPy's formula
    ("expm1(a)", 4, 4),
    # all rows, seed 6 (session 11): round of complex -inf+0j with decimals=-1 scaled the complex
    # value (inf * 0j: NaN), where NumPy rounds the real and imaginary parts each
    ("round(a)", 6, 1),
    # 14 processes of every row, seeds 8-21, 1.4 million calls (session 12, NumPy 2.5.2): C99's special
    # values of complex sqrt and tan, NumPy's reciprocal loop (the sign of a zero part), nanmax/nanmin of
    # an all-NaN complex slice, nanpercentile's dtype when the first row is all NaN, put into an empty
    # array, compress and interp of empty arrays, bool histogram edges, i0 of infinities, and the
    # inverse of unique_inverse's NaNs (compared as NaNs)
    ("sqrt(a)", 10, 193), ("tan(a)", 10, 18), ("reciprocal(a)", 10, 37), ("nanmax(a)", 11, 16),
    ("nanmin(a)", 13, 226), ("nanpercentile(a q)", 16, 218), ("nanquantile(a q01)", 12, 96), ("put(a idx b)", 10, 20),
    ("compress(a cond1)", 12, 135), ("interp(a sorted sorted)", 10, 131), ("histogram_bin_edges(a)", 14, 210),
    ("i0(a)", 10, 103), ("histogram(a)", 10, 2), ("unique_inverse(a)", 12, 59),
    # seeds 22-35 (the same session, nvmath present): pad of a 0-d array in a gather mode was uninitialised
    ("pad(a padw)", 22, 14),
    # seeds 36-49 (the session's last run, 99 342 calls): pad's linear_ramp extended an empty axis
    # where NumPy raises ValueError, as for every mode but constant and empty
    ("pad(a padw)", 36, 5), ("pad(a padw)", 44, 13),
    # seeds 64-77 (session 13, 113 147 calls): complex linspace took the step's product part by part,
    # where NumPy's complex product makes NaN of 0 * inf (linspace(-2 + 0.5j, inf, num=1) is nan + nanj);
    # logspace from a float16 start skipped float16's rounding before the dtype's cast
    ("linspace(s s)", 70, 5), ("linspace(s s)", 71, 9), ("logspace(s s)", 76, 8),
    # seeds 78-91 (the same session, 273 039 calls): logspace's and geomspace's power computed in
    # double for a float32 result (NumPy's power of a weak 10.0 and a float32 y is float32's)
    ("logspace(s s)", 88, 10),
    # seeds 106-119 (session 14, 107 180 calls): complex power by a small integer began its squaring
    # with a, not NumPy's 1 * a, so an infinite step kept a zero part NumPy's makes NaN (complex64
    # (-1e30+0j)**-2 was 0 where NumPy's is nan+nanj)
    ("power(a s)", 109, 6),
    # seeds 120-133 (the same session, 117 732 calls): NumPy's float32/float64 power loop takes sqrt for a
    # scalar exponent of 0.5, so (-inf)**0.5 is nan there (C's pow: inf)
    ("power(a s)", 125, 14),
    # seeds 204-217 (session 16, 119 421 calls): lstsq answered for a matrix holding NaN, where NumPy's
    # gelsd raises LinAlgError (polyfit of x = [0] to degree 2: its scaled Vandermonde matrix is 0 / 0)
    ("polyfit(a1 same smallint)", 211, 19),
    # seeds 260-273 (the same session, 248 953 calls): bincount with a negative value and complex weights
    # raised the weights' TypeError; NumPy looks at the values first (ValueError), then the weights
    ("bincount(counts weights)", 271, 15),
    # seed 3, 100 000 calls (session 20, NumPy 2.5): diff broadcast a prepend/append that is not 0-d
    # ([[-1]] appended to a (1, 7) along axis 0), where NumPy's concatenate raises ValueError
    ("diff(a){prepend,append,axis}", 3, 61), ("diff(a){prepend,append,axis}", 3, 82),
    ("diff(a){prepend,append,axis}", 3, 46),
    # the same run: arctan2 of uint16 and bool into a complex128 out= under where= was right (NumPy's
    # float32 loop, where=False elements kept) but compared at complex128's tolerance, where NumPy's
    # SIMD atan2f is 1 ulp from the GPU's; fuzz_checks.check_where now compares at the loop's precision
    ("arctan2(a b){out,where}", 3, 146),
    # seed 4, 100 000 calls (session 20, NumPy 2.5.5): isclose computed atol + rtol * |y| in the
    # common type, where NumPy takes y's (float16 y: 1e-8 is 0, so complex 1e-30 is not close to
    # -0.0); nancumsum(complex128, dtype=float16) read the input as float32, where NumPy casts it to
    # float16 first (-1e30 is -inf there); prod with initial= of overflowing complex64 lacked the
    # product row's check (where NaN lands follows the order: check_complex_product)
    ("isclose(a b)", 4, 137), ("nancumsum(a){dtype,axis}", 4, 41), ("prod(a){initial,axis}", 4, 127),
]
# (row key, seed, index) of mismatches found by the current generators (generation 2) and fixed
CASES2 = [
    # the host path's seed 0 (session 17): take's checks in NumPy's order (`out`'s shape and the
    # mode before an empty axis; clip into an empty result reads no index), pinv(hermitian=True)'s
    # squareness before float16's TypeError, put_along_axis's value conversion before its bounds,
    # cond's real result for complex input
    ("take(a idx){axis,mode,out}", 0, 19), ("take(a idx){axis,mode,out}", 0, 46),
    ("ndarray.take(a idx){axis,mode}", 0, 55), ("linalg.pinv(m){rcond,hermitian}", 0, 12),
    ("put_along_axis(a axis_int along s)", 0, 29), ("linalg.cond(sq){p}", 0, 29),
    # its seeds 1 and 2, 40 s each: a bool array to a Python int power below int64 (NumPy's
    # OverflowError first), fill_diagonal of a NumPy NaN into int32 (NumPy's unsafe cast)
    ("power(a s)", 1, 52), ("pow(a s)", 2, 197), ("fill_diagonal(a s)", 1, 97),
    # the GPU run of seed 11 (NumPy 2.5.2): sinc's float16 steps (pi and pi x rounded to float16) and
    # complex division (NumPy's 1/d times the parts); histogram's explicit edges holding NaN (NumPy's
    # searchsorted steps); put of device uint8 indices with mode='wrap' into 300 elements
    ("sinc(a)", 11, 56), ("sinc(a)", 11, 50), ("sinc(a)", 11, 14), ("sinc(a)", 11, 27),
    ("histogram(a){bins,range,density,weights}", 11, 40), ("histogram(a){bins,range,density,weights}", 11, 68),
    ("histogram(euarr){bins,range}", 11, 21), ("histogram(euarr){bins,range}", 11, 49),
    ("histogram(euarr){bins,range}", 11, 43), ("put(a idx b){mode}", 11, 5),
    # its rest: hypot at the top of the range (CUDA's hypot rounds to inf, C's gives DBL_MAX), complex
    # sign where |z| overflows (NumPy's +-1j), complex power's b log a as C's product (Annex G's
    # recovery of infinities: 17 ** (-inf + infj) is 0)
    ("hypot(a s)", 11, 39), ("sign(a)", 11, 39), ("float_power(a b)", 11, 20), ("float_power(hugec a){}", 11, 24),
    # complex max/min of several NaNs: NumPy's first in its iterator's order (a second pass)
    ("amax(a){initial,axis}", 11, 65), ("min(a){initial,axis}", 11, 65), ("amax(a)", 11, 36),
    ("amin(a){initial,axis}", 11, 31), ("min(a){initial,axis}", 11, 30), ("min(a)", 11, 23),
    # roots of float16 coefficients whose companion row overflows: eigvals' finiteness before its dtype
    ("roots(pcoef){}", 11, 11),
    # eigh of c I plus subnormal off-diagonal entries: heevd's non-convergence retried on the matrix
    # scaled by a power of 2, entries below eps of its largest zeroed
    ("linalg.eigh(sq)", 11, 31), ("linalg.eigh(sq)", 11, 53),
    # unique's values alone (and union1d) of complex NaNs: NumPy's hash set keeps the input's first NaN
    ("unique(a)", 11, 13), ("union1d(a b)", 11, 38), ("unique(a){return_inverse,equal_nan}", 11, 38),
    ("unique(a){return_inverse,equal_nan}", 11, 66),
    # the GPU run of seed 12: complex max/min of a 0-d array over axis 0 or -1 (NumPy reduces it; the
    # first-NaN pass checked the axes again)
    ("min(a)", 12, 58), ("max(a)", 12, 56), ("amax(a){initial,axis}", 12, 9), ("amin(a){initial,axis}", 12, 179),
    ("ptp(a)", 12, 150), ("apply_over_axes(a axes fn1d)", 12, 254),
    # the GPU run of seed 13: complex linspace's last sample is NumPy's stop itself (an infinite part
    # times 1.0 was a complex product, NaN in the other part)
    ("linspace(s s)", 13, 47), ("linspace(s s)", 13, 58),
    # and cond(p='fro') of a float32 matrix of 1e-20 entries: NumPy inverts in double (the inverse's
    # norm overflowed single: inf for NumPy's 3.41)
    ("linalg.cond(sq){p}", 13, 141),
    # the GPU run of seed 14: histogram over edges holding NaN with int8 weights counts in int8
    # (NumPy's counts take the weights' dtype; the cumulative sum's int64 was returned)
    ("histogram(a){bins,range,density,weights}", 14, 41),
    # the GPU run of seed 13: complex128 cumprod of factors near 1e-308 and 1e307, where the scan's
    # tree took a run of factors out of range that NumPy's order did not (nan+nanj for 0+5.7e-306j):
    # listed (docs/differences.md, product-order), and no difference before such a run
    ("cumprod(a)", 13, 48), ("cumprod(a)", 13, 155),
    # the GPU run of seed 16: complex64 add.reduce whose running sum overflows in NumPy's order
    # (listed: sum-overflow-order), and apply_over_axes(mean) of int64 beyond 2**53 (a moment's
    # float64 order, check_large_int_moments)
    ("add.reduce(a)", 16, 11), ("apply_over_axes(a axes fn1d)", 16, 37),
    # and float16 nanprod whose running product overflows float16 in NumPy's order (listed:
    # product-overflow-order; cuarray's float32 partial products stay finite)
    ("nanprod(a)", 16, 37),
    # the GPU run of seed 17: complex maximum.reduce/minimum.reduce kept the parallel reduction's NaN
    # (the first-NaN pass of max/min was not on the ufunc method's path)
    ("maximum.reduce(a)", 17, 40), ("minimum.reduce(a)", 17, 112),
    # and complex clip as minimum(maximum()): a NaN part of a bound propagated where NumPy's clip
    # compares the real parts only
    ("clip(a s s)", 17, 136),
    # and complex multiply.reduce with a factor of 1.8e308j: nan+nanj in the tree's order (listed:
    # product-reduce-order)
    ("multiply.reduce(a)", 17, 205),
    # and lstsq(rcond=0): LAPACK's gelsd cuts at eps for an rcond outside (0, 1) (rank 2, no
    # residuals), cuarray took 0 as no cut
    ("linalg.lstsq(m rhs){rcond}", 17, 122),
    # the GPU run of seed 18: complex64 nanmedian whose middle values overflow in NumPy's sum (listed:
    # nanmedian-middle-sum-overflow, inf+nanj as in complex128), and vecdot of finite values whose
    # product overflows (inf-infj in NumPy, nan+nanj in the device's complex product: which elements
    # overflow must agree, check_complex_product)
    ("nanmedian(a)", 18, 35), ("vecdot(a b)", 18, 90),
    # the GPU runs of seeds 16 and 19: complex nancumsum/nancumprod with dtype=float16 over elements
    # with one NaN part; the fuzzer's float16 check cast to float16 (dropping the imaginary NaN)
    # before the NaN replacement, so complex(1, nan) counted where NumPy (and cuarray) skip it
    ("nancumsum(a){dtype,axis}", 16, 38), ("nancumprod(a){dtype,axis}", 19, 103),
    # the GPU run of seed 12 (NumPy 2.5.2, 200 000 calls): lstsq of float32/complex64 decomposed in
    # single precision with float32's eps as the cutoff, where NumPy's gelsd works in double with
    # eps(float64) * max(M, N): singular values 1e-7 to 1e-12 of the largest were cut (lower rank, no
    # residuals)
    ("linalg.lstsq(m rhs){rcond}", 12, 133), ("linalg.lstsq(m rhs)", 12, 39), ("linalg.lstsq(m rhs)", 12, 151),
    ("linalg.lstsq(m rhs){rcond}", 12, 257), ("linalg.lstsq(m rhs)", 12, 355), ("linalg.lstsq(m rhs){rcond}", 12, 113),
    ("linalg.lstsq(m rhs)", 12, 289), ("linalg.lstsq(m rhs)", 12, 32),
    # full((1,) * 65, 2**64): NumPy's shape errors (65 dimensions) before cuarray's TypeError for the
    # object dtype (NumPy converts the shape, then the dtype, then checks the shape against it)
    ("full(shape edge){dtype}", 12, 161), ("full(shape s)", 12, 305),
    # histogram over explicit edges: bool weights raise NumPy's UFuncTypeError (its cumulative sum is
    # int64), a weight that is not finite takes NumPy's cumulative steps (NaN into every later bin)
    ("histogram(a){bins,range,density,weights}", 12, 57), ("histogram(a){bins,range,density,weights}", 12, 354),
    # complex divide by NumPy's loop (1/d times the parts): False / (2.8e-309 - 2.8e-309j) is NaN there
    ("true_divide(a b)", 12, 293),
    # det past the range: NumPy's sign * exp(logdet) (inf+infj), where the pivots' product gave NaN
    ("linalg.det(sq)", 12, 298),
    # nanmedian of complex all-NaN rows along kept axes: NumPy's masked median fills nan+0j (the
    # rows' huge single values: listed, nanmedian-middle-sum-overflow)
    ("nanmedian(a)", 12, 154), ("nanmedian(a)", 12, 364),
    # the fuzzer's own rules: complex sign of a subnormal modulus listed (sign-subnormal-modulus);
    # the edge rows' einsum as the catalog's (where an inf lands: the order's), roots sorted, and
    # irfftn's overflow bound counting the Hermitian interior twice
    ("sign(a)", 12, 207), ("einsum(subs op op){dtype,casting}", 12, 113), ("einsum(subs op op){dtype,casting}", 12, 181),
    ("einsum(subs op op){dtype,casting}", 12, 204), ("roots(pcoef){}", 12, 323), ("fft.irfftn(a)", 12, 279),
    ("i0(a)", 12, 358), ("isin(a b)", 12, 95),  # (listed: i0-exp-overflow, NumPy's exp(x) overflows below i0's own overflow)
    # the GPU run of seed 21 (NumPy 2.5, 200 000 calls): pinv(rcond=1e-7) of a stack of 3x3 matrices
    # (the batched Jacobi SVD) kept a singular value 1e-7 beside 1 of a scaled permutation, a few ulps
    # high, that NumPy's exact one ties with the cutoff and drops (now exact for such matrices);
    # histogram2d of float16 whose edges' width overflows float16 counted over NaN edges where NumPy
    # raises ValueError (now cuarray's ValueError), and histogram over float32 edges of -inf and inf
    # (range=(-1e308, 1e308)) answered where NumPy's index arithmetic raises IndexError (listed:
    # histogram-infinite-edges, cuarray's ValueError)
    ("linalg.pinv(m){rcond,hermitian}", 21, 198), ("histogram2d(a1 same){bins,range}", 21, 186),
    ("histogram(euarr){bins,range}", 21, 157),
    # and NumPy's own algorithms' artefacts, listed: a convolution's product past the range rounded to
    # inf before its addition (fused-product-overflow), float16 nanmean summed in float16
    # (nanmean-float16-sum), setdiff1d's uint64 values that collide in float64 (setdiff1d-promoted-collisions)
    ("poly1d**(a1 ppow){}", 21, 135), ("nanmean(a)", 21, 254), ("setdiff1d(a b)", 21, 273),
    ("setdiff1d(a b)", 21, 151),
    # the GPU run of seed 22: nanmedian of an all-NaN complex row returned the NaN its sort order
    # ranks first where NumPy's 1-D path returns the row's last element
    ("nanmedian(a)", 22, 48),
]


def all_cases():
    """(key, seed, index, generation) of every regression case."""
    return [c + (1,) for c in CASES] + [c + (2,) for c in CASES2]


# Cases whose NumPy answer is a newer NumPy's (older ones answer otherwise): the NumPy version they
# need, for the tests to skip under an older one (CI's NumPy 2.4 raises for interp of no points).
NUMPY_AT_LEAST = {("interp(a sorted sorted)", 10, 131): (2, 5)}


def numpy_too_old(case) -> bool:
    need = NUMPY_AT_LEAST.get(tuple(case))
    return need is not None and tuple(int(p) for p in numpy.__version__.split(".")[:2]) < need


# (seeds 4 and 5's other mismatches are not cuarray's: where inf/NaN land in complex products and
# sums of products depends on the order of arithmetic (fuzz_checks.check_complex_product, and
# check_nonfinite_spread on the matmul family), and isin's assume_unique=True on input that is not
# unique answers by NumPy's algorithm's accident (check_isin_assume_unique).)
# (that run's other mismatches are not cuarray's: NumPy 2.5 removed row_stack (its row is made only
# where NumPy has it) and returns unique_values unsorted (compared sorted: the Array API leaves the
# order unspecified); non-finite elements of vdot and FFTs (fuzz_checks.check_nonfinite_spread) and
# integer linspace/logspace samples beyond int64 (check_space_cast) are undefined; fftshift of no
# axes: NumPy's ValueError for a 0-d array, matched since)
# (session 14, seeds 148-161: complex64 z**300 is exp(300 log z) on both sides, 7e-5 apart; the
# tolerance of a complex power now grows with |b log a|, check_complex_power; seeds 162-175: the
# eigenvalues of a defective matrix spread by eps**(1/k) differently in LAPACK and cuSOLVER, now
# compared by clusters, check_eigvals; seeds 176-189: slogdet of an exactly singular integer matrix
# is -inf where a pivot comes out exactly 0, which follows the order of elimination, check_slogdet)
# (session 16, seeds 218-231, 141 491 calls: a float32 nancumprod holding -0.0 and -1e30 twice, where
# NumPy's running product stays 0 and a scan's (-1e30 * -1e30) is inf and 0 * inf NaN; zero against
# NaN is now either order's answer where some order of the inputs overflows, check_complex_product)
# (the same session, seeds 232-245, 187 684 calls: tensordot of an int64 zero and float16 holding inf,
# where NumPy's float64 gemm skips the zero multiplicand (0) and IEEE's 0 * inf is NaN; with a zero
# element among the operands a NaN on either side is either algorithm's answer, check_scaled_by_zero)

# No row is left out and no mismatch is counted as known: what NumPy leaves to the implementation
# (LU's exactly-zero pivots of singular matrices, polydiv's trimming of a remainder's rounding noise,
# NumPy's object arrays where cuarray has no object dtype) is compared by the invariants that
# fuzz_checks.check_singular, check_polydiv and fuzzlib.run_case state. The last exclusion list's
# entries were fixed in cuarray (session 20): average of an empty result raises ZeroDivisionError,
# select converts its default only where it writes it, fftshift/roll of a 0-d array over no axes
# raise NumPy's ValueError, piecewise's functions raise only where NumPy calls them, polymul trims
# leading zero coefficients as poly1d, and linspace/logspace/geomspace of a Python int past every
# integer dtype raise NumPy's own TypeError.


# Errors that only the device's values decide (the GPU run compares them): the host-only path's
# arrays hold no values, so its side cannot raise them. Used by the host-only test alone.
HOST_PATH_BLIND = ("expected ValueError(Integers to negative integer powers are not allowed.), got a result",
                   "expected ZeroDivisionError(Weights sum to zero, can't be normalized), got a result")


def host_path_blind(mismatch) -> bool:
    return any(mismatch.what.startswith(t) for t in HOST_PATH_BLIND)


# Public NumPy functions cuarray has and the catalog leaves out (tests/fuzz/test_fuzz_cpu.py checks
# that every other one has a row): name -> why.
_IO = "I/O: files and buffers, not array computation"
_PRINT = "printing and formatting: strings, not arrays"
_DTYPE = "dtype introspection: takes dtypes, not arrays"
_CONFIG = "configuration: global state, not arrays"
SKIPPED = {
    **dict.fromkeys("load save savez savez_compressed savetxt loadtxt genfromtxt fromfile frombuffer fromstring "
                    "fromiter".split(), _IO),
    **dict.fromkeys("array2string array_repr array_str base_repr binary_repr format_float_positional "
                    "format_float_scientific get_printoptions set_printoptions printoptions".split(), _PRINT),
    **dict.fromkeys("can_cast common_type isdtype issubdtype min_scalar_type mintypecode promote_types "
                    "result_type typename datetime_data".split(), _DTYPE),
    **dict.fromkeys("geterr seterr geterrcall seterrcall show_config".split(), _CONFIG),
    "from_dlpack": "interchange with another library's array (a test of its own in tests/)",
    "einsum_path": "returns a contraction plan (strings); einsum's rows cover the computation",
    "mask_indices": "its mask_func argument is a function of the module itself (triu's rows cover it)",
    "fromfunction": "calls a Python function on index arrays (indices' rows cover the indices)",
    "isnat": "datetime64/timedelta64 input, not among the catalog's dtypes yet (tests/_core/test_datetime_*.py "
             "compare it with NumPy)",
}
