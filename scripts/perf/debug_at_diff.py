"""Debug probe (GPU): float16 ufunc.at and diff with a scalar prepend."""
import numpy as np
import cuarray as cp
from cuarray._core import indexing

base = np.arange(4, dtype=np.float16)
idx = np.array([0, 1, 1, 3, -1])
vals = np.array([0.5, 0.25, 0.25, 1.0, 2.0], np.float16)
ref = base.copy(); np.add.at(ref, idx, vals)
a = cp.asarray(base)
cp.add.at(a, cp.asarray(idx), cp.asarray(vals))
print("at f16 ref", ref, "got", a.get())
a32 = cp.asarray(base.astype(np.float32)); cp.add.at(a32, cp.asarray(idx), cp.asarray(vals.astype(np.float32)))
print("at f32 got", a32.get())
a8 = cp.asarray(np.arange(4, dtype=np.int8)); cp.add.at(a8, cp.asarray(idx), cp.asarray(np.array([1, 2, 3, 4, 5], np.int8)))
print("at i8 got", a8.get(), "ref", (lambda r: (np.add.at(r, idx, np.array([1,2,3,4,5],np.int8)), r)[1])(np.arange(4, dtype=np.int8)))
ah = cp.asarray(base); cp.multiply.at(ah, cp.asarray(idx), cp.asarray(vals))
r2 = base.copy(); np.multiply.at(r2, idx, vals); print("mul f16 ref", r2, "got", ah.get())
x = np.random.default_rng(0).random((3, 4)).astype(np.float32)
d = cp.asarray(x)
print("diff ref", np.diff(x, axis=0, prepend=1)[0])
print("diff got", cp.diff(d, axis=0, prepend=1).get()[0])
from cuarray._manipulation.dims import broadcast_to
v = cp.asarray(np.asarray(1))
bv = broadcast_to(v, (1, 4))
print("bcast", bv.shape, bv.strides, bv.get())
res = cp.zeros((2, 4), np.float64)
from cuarray._core.elementwise import copyto_unchecked
copyto_unchecked(res[0:1], bv)
print("copy int64 bcast -> f64 row", res.get()[0])
res2 = cp.zeros((2, 4), np.int64); copyto_unchecked(res2[0:1], bv); print("copy int64 bcast -> i64 row", res2.get()[0])
one = cp.asarray(np.array([1.0, 2.0, 3.0], np.float16))
cp.add.at(one, cp.asarray(np.array([2])), cp.asarray(np.array([0.5], np.float16)))
print("single f16 update: expect [1 2 3.5] got", one.get())
