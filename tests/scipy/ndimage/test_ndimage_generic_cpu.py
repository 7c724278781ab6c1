"""generic_filter / generic_filter1d without a device: the kernels NVRTC makes around a user's
RawKernel or ReductionKernel for sm_90, the ReductionKernel's type binding, and the argument
checks (SciPy's exception types, CuPy's for the function's type) with NumPy arrays for cuarray
arrays."""

import numpy as np
import pytest
import scipy.ndimage as snd

import cuarray
from cuarray.cuda import compiler
from cuarray.scipy.ndimage import _generic as g
from cuarray.testing.fake_device import host_packages

RMS = r"""extern "C" __global__ void rms(const double* x, int filter_size, double* y) {
  double ss = 0;
  for (int i = 0; i < filter_size; ++i) ss += x[i] * x[i];
  y[0] = ss / filter_size;
}"""
SMOOTH = r"""extern "C" __global__ void smooth(const double* in, ptrdiff_t n_in, double* out, ptrdiff_t n_out) {
  for (ptrdiff_t i = 0; i < n_out; ++i) out[i] = in[i] + 2 * in[i + 1] + in[i + 2];
}"""
F4, F8, I2, U1 = (np.dtype(c) for c in "fdhB")


def _compiles(src, names):
    cubin, mapping = compiler.compile_cubin(src, arch="sm_90", name_expressions=names)
    assert cubin and set(mapping) == set(names)


def test_raw_kernels_compile_for_sm90():
    rms = cuarray.RawKernel(RMS, "rms")
    names = [g.nd_kernel_name(i, o, "double", "double", nnz, idx64)
             for i, o, nnz, idx64 in [(F4, F4, 9, False), (I2, F8, 25, False), (U1, U1, 300, True)]]
    _compiles(g.source(g._raw_user(rms), "rms"), names)
    # footprints past 1024 values: the scratch kernel around the same function
    _compiles(g.source(g._raw_user(rms), "rms"), [g.scratch_kernel_name(i, o, "double", "double", idx64)
                                                  for i, o, idx64 in [(F4, F4, False), (U1, F8, True)]])
    smooth = cuarray.RawKernel(SMOOTH, "smooth")
    _compiles(g.source(g._raw_user(smooth), "smooth"), [g.line_kernel_name(i, o, idx64) for i, o, idx64 in
                                                        [(F8, F8, False), (U1, F4, False), (I2, I2, True)]])


REDUCTIONS = [
    (cuarray.ReductionKernel("T x", "T y", "x * x", "a + b", "y = a / _in_ind.size()", "0", "msq"), F4, F4,
     ("float", "float", "float")),
    (cuarray.ReductionKernel("T x", "Y y", "x", "max(a, b)", "y = a", "-1e300", "mx", reduce_type="double"), I2, F8,
     ("short", "double", "double")),
    (cuarray.ReductionKernel("float64 x", "float32 y", "x > 3 ? 1.0 : 0.0", "a + b", "y = a", "0", "count3"), I2,
     I2, ("double", "float", "float")),
]


@pytest.mark.parametrize("rk,in_dt,out_dt,ctypes_", REDUCTIONS, ids=[r[0].name for r in REDUCTIONS])
def test_reduction_kernels_bind_types_and_compile(rk, in_dt, out_dt, ctypes_):
    # a type variable binds to the input's dtype (input) or the output's (output), as in CuPy
    vin, vout, red, typedefs = g._reduction_types(rk, in_dt, out_dt)
    assert (cuarray._core.dtypes.ctype(vin), cuarray._core.dtypes.ctype(vout), red) == ctypes_
    src = g.source(g._reduction_user(rk, vin, vout, red, typedefs), rk.name)
    _compiles(src, [g.nd_kernel_name(in_dt, out_dt, ctypes_[0], ctypes_[1], 25, False),
                    g.scratch_kernel_name(in_dt, out_dt, ctypes_[0], ctypes_[1], False)])


# CuPy's documented forms: non-const pointers, int or ptrdiff_t lengths (the call converts)
CUPY_FORMS = [
    (r"""extern "C" __global__ void f(double* buffer, int filter_size, double* return_value) {
  double m = buffer[0];
  for (int i = 1; i < filter_size; ++i) m = buffer[i] > m ? buffer[i] : m;
  *return_value = m;
}""", "nd"),
    (r"""extern "C" __global__ void f(const double* buffer, ptrdiff_t filter_size, double* return_value) {
  *return_value = buffer[filter_size - 1];
}""", "nd"),
    (r"""extern "C" __global__ void f(double* input_line, int input_length, double* output_line, int output_length) {
  for (int i = 0; i < output_length; ++i) output_line[i] = input_line[i] * input_line[i + input_length - output_length];
}""", "1d"),
    (r"""extern "C" __global__ void f(double *input_line, ptrdiff_t input_length, double *output_line,
                                ptrdiff_t output_length) {
  for (ptrdiff_t i = 0; i < output_length; ++i) output_line[i] = input_line[i];
}""", "1d"),
]


@pytest.mark.parametrize("code,kind", CUPY_FORMS)
def test_cupy_kernel_forms_compile(code, kind):
    k = cuarray.RawKernel(code, "f")
    if kind == "nd":
        names = [g.nd_kernel_name(F8, F4, "double", "double", 9, False),
                 g.scratch_kernel_name(I2, F8, "double", "double", True)]
    else:
        names = [g.line_kernel_name(F8, F8, False), g.line_kernel_name(U1, F4, True)]
    _compiles(g.source(g._raw_user(k), "f"), names)


@pytest.fixture(scope="module")
def host_arrays():
    """scipy.ndimage's private copy (every module of it; nothing of cuarray patched) in which NumPy
    arrays stand for cuarray arrays up to the first allocation on the device."""
    from cuarray.scipy import ndimage
    from cuarray.scipy.ndimage import _support

    return host_packages([ndimage], {_support: dict(as_array=lambda x, fn: np.asarray(x))})[ndimage]


BAD = [
    (lambda m, x, f: m.generic_filter(x, f), "no size"),
    (lambda m, x, f: m.generic_filter(x, f, 3, origin=2), "origin"),
    (lambda m, x, f: m.generic_filter(x + 1j, f, 3), "complex"),
    (lambda m, x, f: m.generic_filter(x, f, 3, mode="bogus"), "mode"),
    (lambda m, x, f: m.generic_filter(x, f, 3, mode=["reflect", "wrap"]), "mode list"),
    (lambda m, x, f: m.generic_filter(x, f, footprint=np.ones((2, 2, 2))), "footprint ndim"),
    (lambda m, x, f: m.generic_filter1d(x, f, 0), "filter size"),
    (lambda m, x, f: m.generic_filter1d(x, f, 3, origin=2), "1d origin"),
    (lambda m, x, f: m.generic_filter1d(x, f, 3, axis=2), "axis"),
    (lambda m, x, f: m.generic_filter1d(x + 1j, f, 3), "1d complex"),
]


@pytest.mark.parametrize("call,what", BAD, ids=[b[1] for b in BAD])
def test_argument_errors_are_scipys(host_arrays, call, what):
    ndimage = host_arrays  # (the private copy)

    x = np.arange(20.0).reshape(4, 5)
    with pytest.raises(Exception) as ref:
        call(snd, x, lambda *a: 0.0)
    with pytest.raises(ref.type):
        call(ndimage, x, cuarray.RawKernel(RMS, "rms"))


def test_the_function_must_be_a_kernel(host_arrays):
    ndimage = host_arrays  # (the private copy)

    x = np.ones((4, 4))
    with pytest.raises(TypeError, match="Python function"):
        ndimage.generic_filter(x, np.mean, 3)
    with pytest.raises(TypeError, match="ElementwiseKernel"):
        ndimage.generic_filter(x, cuarray.ElementwiseKernel("T x", "T y", "y = x", "copy"), 3)
    with pytest.raises(TypeError, match="1 input"):
        ndimage.generic_filter(x, cuarray.ReductionKernel("T x, T w", "T y", "x * w", "a + b", "y = a", "0", "dot"),
                               3)
    with pytest.raises(TypeError):
        ndimage.generic_filter1d(x, REDUCTIONS[0][0], 3)  # generic_filter1d takes a RawKernel only
    with pytest.raises(TypeError, match="extra_arguments"):
        ndimage.generic_filter(x, cuarray.RawKernel(RMS, "rms"), 3, extra_arguments=(1,))


HOST_SHIM = r"""
#include <math.h>
#include <stddef.h>
struct dim3 { unsigned x = 1, y = 1, z = 1; };
static dim3 threadIdx, blockIdx, blockDim;
#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(n)
#define __restrict__
"""
SCRATCH_DRIVER = r"""
extern "C" void run(const double* in, double* out, double* scratch, const int* meta, const int* offs,
                    const int* loff, int nnz, int nd, int total, int chunk, int mode, double cval) {
  blockDim = dim3{128, 1, 1};
  for (int first = 0; first < total; first += chunk) {
    int count = total - first < chunk ? total - first : chunk;
    for (int b = 0; b * 128 < count; ++b)
      for (int t = 0; t < 128; ++t) {
        blockIdx = dim3{(unsigned)b, 0, 0};
        threadIdx = dim3{(unsigned)t, 0, 0};
        cuarray_ndimage::generic_nd_scratch<double, double, double, double, int>(in, out, scratch, meta, offs, loff,
                                                                                 nnz, nd, first, count, mode, cval);
      }
  }
}
"""


def test_scratch_kernel_on_host_against_scipy(tmp_path):
    """generic.cu's generic_nd_scratch (footprints past 1024 values) built with g++ around a
    position-dependent RawKernel, run thread by thread in chunks, against scipy.ndimage."""
    import ctypes
    import shutil
    import subprocess

    from cuarray.scipy.ndimage import _boundary
    from cuarray.scipy.ndimage import _filter_kernels as fk

    if shutil.which("g++") is None:
        pytest.skip("no g++")
    ramp = cuarray.RawKernel(r"""extern "C" __global__ void ramp(double* x, int n, double* y) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += (i % 7) * x[i];
  *y = s;
}""", "ramp")
    (tmp_path / "g.cpp").write_text(HOST_SHIM + g.source(g._raw_user(ramp), "ramp") + SCRATCH_DRIVER)
    so = tmp_path / "g.so"
    subprocess.run(["g++", "-std=c++17", "-O1", "-w", "-shared", "-fPIC", str(tmp_path / "g.cpp"), "-o", str(so)],
                   check=True)
    lib = ctypes.CDLL(str(so))
    rng = np.random.default_rng(5)
    x = rng.normal(size=(17, 21))
    fp = rng.random((35, 33)) < 0.95
    nnz = int(fp.sum())
    assert nnz > fk.RANK_CAPACITIES[-1]
    offs, loff, lo, hi = fk.tap_table(x.shape, fp, (1, -2))
    meta = np.concatenate([np.asarray(x.shape), lo, hi]).astype(np.int32)
    offs = np.ascontiguousarray(offs, np.int32)
    loff = np.ascontiguousarray(loff, np.int32)
    chunk = 128 * 2
    scratch = np.empty(chunk * nnz)
    P = ctypes.c_void_p
    for mode in ("reflect", "constant", "wrap"):
        out = np.empty_like(x)
        lib.run(x.ctypes.data_as(P), out.ctypes.data_as(P), scratch.ctypes.data_as(P), meta.ctypes.data_as(P),
                offs.ctypes.data_as(P), loff.ctypes.data_as(P), ctypes.c_int(nnz), ctypes.c_int(2),
                ctypes.c_int(x.size), ctypes.c_int(chunk), ctypes.c_int(_boundary.filter_mode(mode)),
                ctypes.c_double(0.5))
        ref = snd.generic_filter(x, lambda v: float(((np.arange(len(v)) % 7) * v).sum()), footprint=fp, mode=mode,
                                 cval=0.5, origin=(1, -2))
        np.testing.assert_allclose(out, ref, rtol=1e-12, atol=1e-9)


# -- CuPy's own test kernels (tests/cupyx_tests/scipy_tests/ndimage_tests/test_filters.py) --------------
CUPY_RMS_RAW = r"""extern "C" __global__
void rms(const double* x, int filter_size, double* y) {
    double ss = 0;
    for (int i = 0; i < filter_size; ++i) { ss += x[i]*x[i]; }
    y[0] = ss/filter_size;
}"""
CUPY_LT_RAW = r"""extern "C" __global__
void lt(const double* x, int filter_size, double* y) {
    int n = 0;
    double c = x[filter_size/2];
    for (int i = 0; i < filter_size; ++i) { n += c>x[i]; }
    y[0] = n;
}"""
CUPY_SHIFT_RAW = r"""extern "C" __global__
void shift(const double* in, ptrdiff_t in_length,
          double* out, ptrdiff_t out_length) {
    for (int i = 0; i < out_length; ++i) { out[i] = in[i]; }
}"""


def cupy_reductions():
    return {"rms_red": cuarray.ReductionKernel("X x", "Y y", "x*x", "a + b", "y = a/_in_ind.size()", "0", "rms"),
            "lt_red": cuarray.ReductionKernel("X x", "Y y", "_raw_x[_in_ind.size()/2]>x", "a + b", "y = a", "0", "lt",
                                              reduce_type="int"),
            "mean_red": cuarray.ReductionKernel("X x", "Y y", "x", "a + b", "y = a / _in_ind.size()", "0", "mean")}


ALL = "?bBhHiIlLQfd"


@pytest.mark.nvrtc_fast
@pytest.mark.parametrize("code,name", [(CUPY_RMS_RAW, "rms"), (CUPY_LT_RAW, "lt")])
def test_cupy_raw_kernels_compile_for_every_dtype(code, name):
    k = cuarray.RawKernel(code, name)
    names = [g.nd_kernel_name(np.dtype(i), np.dtype(i), "double", "double", 9, False) for i in ALL]
    names += [g.nd_kernel_name(np.dtype("B"), np.dtype("d"), "double", "double", 64, True),
              g.scratch_kernel_name(np.dtype("H"), np.dtype("B"), "double", "double", True)]
    _compiles(g.source(g._raw_user(k), name), sorted(set(names)))


@pytest.mark.nvrtc_fast
def test_cupy_line_kernel_compiles_for_every_dtype():
    k = cuarray.RawKernel(CUPY_SHIFT_RAW, "shift")
    _compiles(g.source(g._raw_user(k), "shift"),
              [g.line_kernel_name(np.dtype(i), np.dtype(i), False) for i in ALL] + [g.line_kernel_name(
                  np.dtype("B"), np.dtype("d"), True)])


# CuPy's reductions over its test dtypes (uint8, uint16, float64) and outputs (uint8, float64), and
# the bool and signed inputs SciPy also takes: the typedefs and _raw_x/_in_ind must compile for each
@pytest.mark.nvrtc_fast
@pytest.mark.parametrize("red,in_c,out_c", [("lt_red", "B", "B"), ("lt_red", "H", "d"), ("lt_red", "?", "?"),
                                            ("lt_red", "q", "f"), ("lt_red", "d", "B"), ("rms_red", "d", "d"),
                                            ("rms_red", "f", "B"), ("mean_red", "d", "d")])
def test_cupy_reduction_kernels_compile(red, in_c, out_c):
    rk = cupy_reductions()[red]
    in_dt, out_dt = np.dtype(in_c), np.dtype(out_c)
    vin, vout, r, typedefs = g._reduction_types(rk, in_dt, out_dt)
    vc, rc = cuarray._core.dtypes.ctype(vin), cuarray._core.dtypes.ctype(vout)
    _compiles(g.source(g._reduction_user(rk, vin, vout, r, typedefs), rk.name),
              [g.nd_kernel_name(in_dt, out_dt, vc, rc, 27, False), g.scratch_kernel_name(in_dt, out_dt, vc, rc, True)])


ND_DRIVER = r"""
extern "C" void run(const {T}* in, {O}* out, const int* meta, const int* offs, const int* loff, int nnz, int nd,
                    int total, int mode, {V} cval) {
  blockDim = dim3{128, 1, 1};
  for (int b = 0; b * 128 < total; ++b)
    for (int t = 0; t < 128; ++t) {
      blockIdx = dim3{(unsigned)b, 0, 0};
      threadIdx = dim3{(unsigned)t, 0, 0};
      cuarray_ndimage::generic_nd<{T}, {O}, {V}, {R}, 64, int>(in, out, meta, offs, loff, nnz, nd, total, mode, cval);
    }
}
"""


@pytest.mark.parametrize("in_c,out_c", [("B", "B"), ("d", "d")])
def test_cupy_lt_reduction_on_host_against_scipy(tmp_path, in_c, out_c):
    """CuPy's lt_red (`_raw_x[_in_ind.size()/2] > x`, the footprint's middle value against each)
    in generic.cu's generic_nd, built with g++ and run thread by thread, against scipy.ndimage with
    CuPy's Python twin of it, over modes, origins and footprints."""
    import ctypes
    import shutil
    import subprocess

    from cuarray.scipy.ndimage import _boundary
    from cuarray.scipy.ndimage import _filter_kernels as fk

    if shutil.which("g++") is None:
        pytest.skip("no g++")
    rk = cupy_reductions()["lt_red"]
    in_dt, out_dt = np.dtype(in_c), np.dtype(out_c)
    vin, vout, r, typedefs = g._reduction_types(rk, in_dt, out_dt)
    ct = cuarray._core.dtypes.ctype
    driver = ND_DRIVER.replace("{T}", ct(in_dt)).replace("{O}", ct(out_dt)).replace("{V}", ct(vin)).replace(
        "{R}", ct(vout))
    (tmp_path / "g.cpp").write_text(HOST_SHIM + g.source(g._reduction_user(rk, vin, vout, r, typedefs), "lt") + driver)
    so = tmp_path / "g.so"
    subprocess.run(["g++", "-std=c++17", "-O1", "-w", "-shared", "-fPIC", str(tmp_path / "g.cpp"), "-o", str(so)],
                   check=True)
    lib = ctypes.CDLL(str(so))
    rng = np.random.default_rng(7)
    x = (rng.random((6, 7)) * 50).astype(in_dt)
    P, cv = ctypes.c_void_p, np.ctypeslib.as_ctypes_type(vin)
    for fp, origin in [(np.ones((3, 4), bool), (0, 1)), (rng.random((4, 3)) < 0.6, (-1, 1)),
                       (np.ones((3, 3), bool), (1, -1))]:
        offs, loff, lo, hi = fk.tap_table(x.shape, fp, origin)
        meta = np.concatenate([np.asarray(x.shape), lo, hi]).astype(np.int32)
        offs, loff = np.ascontiguousarray(offs, np.int32), np.ascontiguousarray(loff, np.int32)
        for mode, cval in [("reflect", 0.0), ("constant", 1.0), ("nearest", 0.0), ("wrap", 0.0), ("mirror", 0.0)]:
            out = np.empty(x.shape, out_dt)
            lib.run(x.ctypes.data_as(P), out.ctypes.data_as(P), meta.ctypes.data_as(P), offs.ctypes.data_as(P),
                    loff.ctypes.data_as(P), ctypes.c_int(len(offs)), ctypes.c_int(2), ctypes.c_int(x.size),
                    ctypes.c_int(_boundary.filter_mode(mode)), cv(vin.type(cval).item()))
            ref = snd.generic_filter(x, lambda v: (v[len(v) // 2] > v).sum(), footprint=fp, mode=mode, cval=cval,
                                     origin=origin, output=out_dt)
            np.testing.assert_array_equal(out, ref, err_msg="{} {} {}".format(mode, origin, fp.astype(int)))
