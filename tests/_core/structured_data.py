"""The structured dtypes and random data the structured-array tests share (test_structured_cpu.py,
test_structured_gpu.py): aligned, packed and nested layouts, the re/im pair, and NumPy arrays of
them with random values in every leaf field."""

import numpy as np

ALIGNED = np.dtype([("x", "<f8"), ("y", "<i4"), ("b", "?")], align=True)  # 16 bytes, padding at the end
PACKED = np.dtype([("c", "u1"), ("x", "<f8"), ("h", "<i2")])  # 11 bytes: x at offset 1
NESTED = np.dtype([("id", "<i4"), ("p", np.dtype([("u", "<f4"), ("v", "<i2")], align=True)),
                   ("t", "<M8[s]"), ("z", "<c8")], align=True)  # 32 bytes
RE_IM = np.dtype([("re", "<f8"), ("im", "<f8")])


def random_struct(dt, shape, rng=0):
    """Random values in every leaf field (finite floats, negatives, datetimes near 1970); `rng` a
    seed or a Generator."""
    rng = np.random.default_rng(rng)
    out = np.zeros(shape, dt)

    def fill(view):
        for name in view.dtype.names:
            f = view[name]
            if f.dtype.names is not None:
                fill(f)
            elif f.dtype.kind == "b":
                f[...] = rng.random(f.shape) < 0.5
            elif f.dtype.kind in "iu":
                f[...] = rng.integers(0 if f.dtype.kind == "u" else -100, 100, f.shape)
            elif f.dtype.kind == "f":
                f[...] = rng.normal(size=f.shape)
            elif f.dtype.kind == "c":
                f[...] = rng.normal(size=f.shape) + 1j * rng.normal(size=f.shape)
            else:  # datetime64 / timedelta64
                f[...] = rng.integers(-10**9, 10**9, f.shape).astype(f.dtype)

    fill(out)
    return out


def assert_struct_equal(got, expect):
    """Same dtype and shape, every leaf field equal (padding bytes are not compared, as in NumPy)."""
    assert isinstance(got, np.ndarray)
    assert got.dtype == expect.dtype and got.shape == expect.shape
    for name in expect.dtype.names:
        if expect.dtype[name].names is not None:
            assert_struct_equal(got[name], expect[name])
        else:
            np.testing.assert_array_equal(got[name], expect[name])
