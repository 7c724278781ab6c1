"""Why the library's exp float64 kernel (vec2) runs at 605 us where a plain one-double2-per-thread
kernel takes 513 us (1 GiB; a copy takes 508 us). Variants of the generated source, each compiled
and launched raw with the same grid; registers per thread printed. Run on the GPU machine."""

import numpy

import cuarray
from _timing import event_us as timed
from cuarray._core.ufunc import _Loop


def main():
    n = 1 << 27
    x = cuarray.asarray(numpy.random.default_rng(1).random(n))
    y = cuarray.empty_like(x)
    ref = numpy.exp(x.get())
    f64 = numpy.dtype("f8")
    for name, tname in (("exp", "float64"), ("multiply", None)):
        if tname is None:
            break
        d = cuarray.exp._definition(_Loop((f64,), (f64,)), (f64,), (f64,), False)
        kname, src = d.source("vec", 1, numpy.int64)
    loop_hdr = "for (long long _v = (long long)blockIdx.x * blockDim.x + threadIdx.x; _v < _nvec; _v += _stride) {"
    assert loop_hdr in src
    variants = {
        "as generated": src,
        "no __restrict__": src.replace("__restrict__", ""),
        "if instead of loop": src.replace(loop_hdr, "{ const long long _v = (long long)blockIdx.x * blockDim.x + threadIdx.x; if (_v < _nvec) {").replace(
            "    reinterpret_cast<cuarray::vec<double, 2>*>(out0_ptr)[_v] = _vout0;\n  }",
            "    reinterpret_cast<cuarray::vec<double, 2>*>(out0_ptr)[_v] = _vout0;\n  }}"),
        "launch_bounds(256)": src.replace('extern "C" __global__ void', 'extern "C" __global__ void __launch_bounds__(256)'),
        "no tail loop": src[:src.index("  for (long long i = _nvec * 2")] + "}\n",
    }
    no_tail = src[:src.index("  for (long long i = _nvec * 2")] + "}\n"
    variants["no restrict, no tail"] = no_tail.replace("__restrict__", "")
    variants["no tail, if"] = no_tail.replace(loop_hdr, "{ const long long _v = (long long)blockIdx.x * blockDim.x + threadIdx.x; if (_v < _nvec) {").replace(
        "    reinterpret_cast<cuarray::vec<double, 2>*>(out0_ptr)[_v] = _vout0;\n  }",
        "    reinterpret_cast<cuarray::vec<double, 2>*>(out0_ptr)[_v] = _vout0;\n  }}")
    variants["restrict, no const on in"] = src.replace("const double* __restrict__ in0_ptr", "double* __restrict__ in0_ptr").replace(
        "reinterpret_cast<const cuarray::vec<double, 2>*>(in0_ptr)", "reinterpret_cast<cuarray::vec<double, 2>*>(in0_ptr)")
    variants["plain double2"] = r"""
extern "C" __global__ void KNAME(const double* in0_ptr, double* out0_ptr, const long long _n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < _n / 2) { double2 v = reinterpret_cast<const double2*>(in0_ptr)[i];
    reinterpret_cast<double2*>(out0_ptr)[i] = make_double2(exp(v.x), exp(v.y)); }
}""".replace("KNAME", kname)
    variants["as generated (again)"] = src
    grid = (n // 2 + 255) // 256
    for label, code in variants.items():
        k = cuarray.RawKernel(code, kname)
        try:
            t = timed(lambda: k((grid,), (256,), (x, y, numpy.int64(n))))
        except Exception as exc:  # a variant that does not compile: say so and go on
            print("{:22s} failed: {}".format(label, str(exc)[:200]))
            continue
        regs = k.attributes.get("num_regs")
        ok = numpy.array_equal(y.get(), ref) or numpy.allclose(y.get(), ref, rtol=1e-15, atol=0)
        print("{:22s} {:7.1f} us  regs {}  {}".format(label, t, regs, "ok" if ok else "WRONG"))


if __name__ == "__main__":
    main()
