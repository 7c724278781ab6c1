"""Matmul epilogues: `maximum(s * (a @ b) + bias, 0)` as one cublasLt call.

A float product (float16/32/64, both operands of its dtype) of a matrix or stack of matrices `a`
(..., m, k) by a matrix `b` (k, n) whose only consumer chain starts with a power-of-two scalar
multiple (or division) of it, `+ bias` with `bias` of shape (n,) or (1, ..., 1, n) and the
product's dtype, and/or `maximum(., 0)`, is planned as one GEMM (a stack whose rows collapse
into one matrix, as a C-contiguous one does, is one (... * m, k) matrix) whose store
applies them (`cublas.gemm_epilogue`: alpha, the BIAS / RELU / RELU_BIAS epilogues). Each node
of the chain but the last must have that one consumer and not be requested itself; what reads
the last one (the rest of an elementwise chain, a reduction) is planned as usual, reading the
GEMM's output.

Scalar values are not part of a plan's key (a loop body with another scalar reuses the plan),
so the step checks them when it runs: alpha a power of two (exact: `2**e * acc` rounds as the
eager `2**e * fl(acc)` does), the ReLU's scalar zero. When a check fails, or cublasLt declines
(a dtype, shape or layout without such a kernel, misaligned or strided operands), the step runs
the eager product and the chain as one fused kernel: the results of the unfused plan.
"""

from __future__ import annotations

import math

import numpy

from .. import copying as _copying
from ..ndarray import _new_c
from ...cuda.libs import cublas as _cublas

__all__ = ["match", "Epilogue"]

_PRODUCTS = ("matmul", "dot")
FALLBACKS = [0]  # runs that took the fallback (tests and the perf script read it)
_FLOATS = "efd"


def _uf_name(n):
    return n.attr[0].__name__ if n.kind == "ufunc" else None


def _loop_is(n, dtype) -> bool:
    loop = n.attr[1]
    return n.dtype == dtype and all(d == dtype for d in loop.in_dtypes)


def power_of_two(v, dtype) -> bool:
    """Whether the scalar `v` in `dtype` is +-2**e (a multiplication by it is exact)."""
    try:
        with numpy.errstate(over="ignore", invalid="ignore"):
            f = float(dtype.type(v))
    except (TypeError, ValueError, OverflowError):
        return False
    return f != 0 and math.isfinite(f) and math.frexp(abs(f))[0] == 0.5


def _is_zero(v, dtype) -> bool:
    if (type(v) is float or type(v) is int) and v == 0:
        return True  # (`maximum(., 0.0)`: no NumPy scalar made per call)
    try:
        return float(dtype.type(v)) == 0
    except (TypeError, ValueError, OverflowError):
        return False


def match(mm, user_of, outputs):
    """The epilogue chain starting at the product node `mm`, or None: (last node, chain nodes
    in order, alpha scalar node, alpha divides, bias node, relu scalar node). `user_of(n)`: the
    single consumer node of `n` (None for none or several); `outputs`: ids of requested nodes."""
    if mm.kind != "call" or mm.attr[0] not in _PRODUCTS or mm.value is not None or len(mm.args) != 2:
        return None
    a, b = mm.args
    dt = mm.dtype
    if dt.char not in _FLOATS or a.ndim < 2 or b.ndim != 2 or a.dtype != dt or b.dtype != dt:
        return None
    n_cols, nd = mm.shape[-1], len(mm.shape)
    cur, chain = mm, []
    alpha = relu = bias = None
    div = False
    while id(cur) not in outputs:
        u = user_of(cur)
        if u is None or u.kind != "ufunc" or not _loop_is(u, dt) or len(u.args) != 2:
            break
        name = _uf_name(u)
        other = u.args[1] if u.args[0] is cur else u.args[0]
        if other is cur:
            break
        if name in ("multiply", "divide") and alpha is None and bias is None and relu is None:
            if other.kind != "scalar" or not power_of_two(other.value, dt):
                break
            if name == "divide" and u.args[0] is not cur:
                break
            alpha, div = other, name == "divide"
        elif name == "add" and bias is None and relu is None:
            bs = other.shape
            if other.kind == "scalar" or not bs or bs[-1] != n_cols or len(bs) > nd or any(d != 1 for d in bs[:-1]):
                break
            bias = other
        elif name == "maximum" and relu is None:
            if other.kind != "scalar" or not _is_zero(other.value, dt):
                break
            relu = other
        else:
            break
        chain.append(u)
        cur = u
        if relu is not None:
            break
    if not chain:
        return None
    return cur, chain, alpha, div, bias, relu


def _layout(x, rows, cols, isz):
    """('R', ld) or ('C', ld) of a matrix (a stack of matrices whose rows collapse into one: as
    `rows` x `cols`) with unit stride along one dim, in whole elements; None otherwise."""
    st = x._strides
    if len(st) > 2:
        sh = x._shape
        for i in range(len(st) - 2):
            if st[i] != st[i + 1] * sh[i + 1]:
                return None
        if st[-1] != isz:
            return None
    s0, s1 = st[-2], st[-1]
    if s0 % isz or s1 % isz:
        return None
    s0, s1 = s0 // isz, s1 // isz
    if s1 == 1 and s0 >= max(cols, 1) and rows > 1:
        return "R", s0
    if s0 == 1 and s1 >= max(rows, 1) and cols > 1:
        return "C", s1
    if x._c:
        return "R", cols
    if x._f and len(st) == 2:
        return "C", rows
    return None


class Epilogue:
    """The Program step: one `cublas.gemm_epilogue` (slots: `ia`, `ib` operands, `ibias`, `ialpha`,
    `irelu`, -1 for absent), else `fn` (the eager product) and `fallback` (an `_Elementwise` step
    of the chain, over local slots [product, bias?, scalars...] with `fb_scalars` their slots)."""

    __slots__ = ("fn", "name", "ia", "ib", "ibias", "ialpha", "div", "irelu", "kind", "shape", "dtype",
                 "fallback", "fb_scalars")

    def run(self, slots):
        a, b = slots[self.ia], slots[self.ib]
        out = self._lt(slots, a, b)
        if out is None:
            out = self._fallback(slots, a, b)
        return out

    def _lt(self, slots, a, b):
        dt = self.dtype
        if a._dtype != dt or b._dtype != dt:
            return None
        alpha = None
        if self.ialpha >= 0:
            v = slots[self.ialpha]
            if not power_of_two(v, dt):
                return None
            f = float(dt.type(v))
            alpha = numpy.array([1.0 / f if self.div else f], numpy.float64 if dt.char == "d" else numpy.float32)
        if self.irelu >= 0 and not _is_zero(slots[self.irelu], dt):
            return None
        n = self.shape[-1]
        k = a._shape[-1]
        m = 1
        for d in self.shape[:-1]:
            m *= d
        if not (m and n and k):
            return None
        isz = dt.itemsize
        la, lb = _layout(a, m, k, isz), _layout(b, k, n, isz)
        if la is None or lb is None:
            return None
        bp = 0
        if self.ibias >= 0:
            bias = slots[self.ibias]
            if bias._strides[-1] != isz and n > 1 or bias.data.ptr & 255:
                bias = _copying.copy(bias)
            bp = bias.data.ptr
        out = _new_c(self.shape, dt)
        # Row-major C = A B is column-major C^T = B^T A^T: the bias runs along C^T's rows.
        ok = _cublas.gemm_epilogue(dt.char, 0 if lb[0] == "R" else 1, 0 if la[0] == "R" else 1, n, m, k,
                                   b.data.ptr, lb[1], a.data.ptr, la[1], out.data.ptr, n, self.kind, bp, alpha)
        return out if ok else None

    def _fallback(self, slots, a, b):
        FALLBACKS[0] += 1
        y = self.fn(a, b)
        local = [y]
        if self.ibias >= 0:
            local.append(slots[self.ibias])
        local.extend(slots[k] for k in self.fb_scalars)
        return self.fallback.run(local)

    def describe(self):
        parts = ["cublasLt {} epilogue {}".format(self.name, self.kind)]
        if self.ialpha >= 0:
            parts.append("alpha = {}[{}]".format("1/" if self.div else "", self.ialpha))
        if self.ibias >= 0:
            parts.append("bias = [{}]".format(self.ibias))
        return "{} -> {} {}".format(", ".join(parts), self.dtype.name, self.shape)

    def source(self):
        return None
