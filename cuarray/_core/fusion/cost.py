"""The cost model for shared subexpressions: recompute a shared node in each kernel that reads
it, or compute it once into memory?

For a node `t` of `size` elements read by `k` kernels (per element: `W` its subtree's arithmetic,
in bytes of memory traffic that take as long; `L` the bytes of the subtree's inputs; `S` its
own itemsize):
- recomputing: each of the k kernels reads the inputs and does the arithmetic: k (L + W);
- materialising: one more kernel reads the inputs, computes, writes t; the k kernels read t:
  L + W + S + k S, plus one launch (`LAUNCH_BYTES`).
Materialise when (k - 1)(L + W) > (k + 1) S + LAUNCH_BYTES / size. A node computed into memory
anyway (a matmul operand, a matmul epilogue's bias) is read rather than recomputed when
S < L + W.

Arithmetic per element is the sum of the subtree's op weights (`WEIGHTS`, in units of one
float32 add; unlisted ufuncs weigh 1) times `BYTES_PER_UNIT`; float64 and complex ops weigh
more. The weights and `BYTES_PER_UNIT` were calibrated by `scripts/perf/shared_subexpr.py`
(docs/perf-notes.md, "Shared subexpressions"). The model runs once per graph structure: plans
are cached by structure.
"""

from __future__ import annotations

__all__ = ["WEIGHTS", "BYTES_PER_UNIT", "LAUNCH_BYTES", "weight", "subtree", "materialise"]

_MID = ("divide", "reciprocal", "sqrt", "floor_divide", "remainder", "fmod", "divmod", "hypot", "cbrt")
_TRANS = ("exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "sinh", "cosh", "tanh",
          "arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh")
_HEAVY = ("power", "float_power", "arctan2", "logaddexp", "logaddexp2", "nextafter", "spacing", "gcd", "lcm")
WEIGHTS = dict([(n, 4.0) for n in _MID] + [(n, 8.0) for n in _TRANS] + [(n, 16.0) for n in _HEAVY])
# Multipliers by the loop's compute kind: float64 arithmetic runs at half float32's rate on an
# H100/H200 and its transcendentals much slower; complex ops are several real ones.
_KIND = {"d": (2.0, 4.0), "D": (4.0, 8.0), "F": (4.0, 4.0)}
# Bytes of memory traffic per unit of arithmetic (one float32 add per element): calibrated.
BYTES_PER_UNIT = 0.25
# A launch, in bytes of traffic at the memory rate (~3 us at 3 TB/s): what a materialised node
# costs beyond its traffic, so small arrays are always recomputed.
LAUNCH_BYTES = 8e6


def weight(n) -> float:
    """Arithmetic units of one elementwise node per element."""
    if n.kind != "ufunc":
        return 1.0
    uf, loop = n.attr
    w = WEIGHTS.get(uf.__name__, 1.0)
    m = _KIND.get(loop.out_dtypes[0].char) if loop.out_dtypes else None
    if m is not None:
        w *= m[0] if w == 1.0 else m[1]
    return w


def subtree(t, stop):
    """(arithmetic units, input bytes) per element of `t`'s value: the elementwise nodes below it
    that are not computed into memory (`stop(node)` true for those), each counted once, and
    the inputs read (scaled by their size against t's: a broadcast row costs little)."""
    units, inbytes, seen = 0.0, 0.0, set()
    size = max(t.size, 1)
    stack = [t]
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        if n.kind == "scalar":
            continue
        if n is not t and (n.value is not None or not n.elementwise or stop(n)):
            inbytes += n.dtype.itemsize * min(n.size / size, 1.0)
            continue
        units += weight(n)
        stack.extend(n.args)
    return units, inbytes


def materialise(t, k, stop, forced=False) -> bool:
    """Whether `t`, read by `k` kernels, is cheaper computed once into memory (see the module
    docstring); `forced`: it is computed into memory anyway."""
    units, L = subtree(t, stop)
    W = units * BYTES_PER_UNIT
    S = t.dtype.itemsize
    if forced:
        return S < L + W
    return (k - 1) * (L + W) > (k + 1) * S + LAUNCH_BYTES / max(t.size, 1)
