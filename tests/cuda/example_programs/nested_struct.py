"""A program in the style of CuPy's examples/custom_struct (written for cuarray, not copied): a
struct with vector, array and padded members, its layout measured on the device (sizeof and
offsetof), rebuilt as a NumPy dtype with those offsets, and passed by value as a one-element host
structured array. Run as a program: `python nested_struct.py`."""

import sys

import numpy

import cuarray as cp

STRUCT = r"""
struct record {
    float2 pos;
    unsigned char tag;
    int counts[3];
    short2 range;
    double weight;
};
"""

LAYOUT = STRUCT + r"""
extern "C" __global__ void layout(unsigned long long* out) {
    const record* r = nullptr;
    out[0] = sizeof(record);
    out[1] = (unsigned long long)&r->pos;    out[2] = (unsigned long long)&r->tag;
    out[3] = (unsigned long long)&r->counts; out[4] = (unsigned long long)&r->range;
    out[5] = (unsigned long long)&r->weight;
}
"""

USE = STRUCT + r"""
extern "C" __global__ void use(record r, double* out, int n) {
    int i = threadIdx.x;
    if (i >= n) return;
    double s = r.pos.x + r.pos.y + r.tag + r.counts[0] + r.counts[1] + r.counts[2] + r.range.x + r.range.y;
    out[i] = i * s * r.weight;
}
"""


def main():
    info = cp.zeros(6, dtype=numpy.uint64)
    cp.RawKernel(LAYOUT, "layout")((1,), (1,), (info,))
    size, *offsets = (int(v) for v in cp.asnumpy(info))
    dt = numpy.dtype({"names": ["pos", "tag", "counts", "range", "weight"],
                      "formats": [(numpy.float32, 2), numpy.uint8, (numpy.int32, 3), (numpy.int16, 2), numpy.float64],
                      "offsets": offsets, "itemsize": size})
    r = numpy.zeros(1, dt)
    r["pos"] = (1.5, 2.5)
    r["tag"] = 7
    r["counts"] = (1, 2, 3)
    r["range"] = (-4, 9)
    r["weight"] = 0.5
    n = 16
    out = cp.empty(n, dtype=numpy.float64)
    cp.RawKernel(USE, "use")((1,), (n,), (r, out, n))
    total = 1.5 + 2.5 + 7 + 1 + 2 + 3 - 4 + 9
    cp.testing.assert_array_almost_equal(out, numpy.arange(n) * total * 0.5)
    # the struct as a 0-d array and as a structured scalar: the same bytes
    cp.RawKernel(USE, "use")((1,), (n,), (r[0], out, n))
    cp.testing.assert_array_almost_equal(out, numpy.arange(n) * total * 0.5)
    print("struct of {} bytes by value: ok".format(size))
    return 0


if __name__ == "__main__":
    sys.exit(main())
