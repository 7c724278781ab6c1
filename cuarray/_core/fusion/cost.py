"""The cost model for shared subexpressions: recompute a shared node in each kernel that reads
it, or compute it once into memory?

An elementwise kernel costs about max(bytes it moves, its arithmetic), the arithmetic counted
in bytes of memory traffic that take as long (a roofline: up to that point arithmetic hides
under the memory traffic, which is why cheap subtrees are always recomputed). For a node `t`
read by `k` kernels, per element (`W` its subtree's arithmetic, `L` the bytes of the subtree's
inputs, `S` its itemsize; each reader writes about S):
- recomputing: each reader reads the inputs and does the arithmetic: k max(L + S, W);
- materialising: one kernel computes t (max(L + S, W)), each reader reads t and writes 2 S,
  plus one launch (`LAUNCH_BYTES`, so small arrays are always recomputed).
A node computed into memory anyway (a matmul operand, a matmul epilogue's bias) is read by the
other kernels rather than recomputed when max(L + S, W) > 2 S.

Arithmetic per element is the sum of the subtree's op weights (`WEIGHTS`, in units of one
float32 add; unlisted ufuncs weigh 1) times `BYTES_PER_UNIT`. The float32 weights and
`BYTES_PER_UNIT` were calibrated on an H100 with `scripts/perf/shared_subexpr.py`
(docs/perf-notes.md, "Shared subexpressions: a cost model"); the float64/complex multipliers
are reasoned, not measured. The model runs once per graph structure: plans are cached by
structure.
"""

from __future__ import annotations

__all__ = ["WEIGHTS", "BYTES_PER_UNIT", "LAUNCH_BYTES", "MAX_RECOMPUTE_NODES", "weight", "subtree", "materialise"]

_MID = ("divide", "reciprocal", "sqrt", "floor_divide", "remainder", "fmod", "divmod", "hypot", "cbrt")
_EXP = ("exp", "exp2", "expm1", "log", "log2", "log10", "log1p")
_TRIG = ("sin", "cos", "tan", "sinh", "cosh", "tanh", "arcsin", "arccos", "arctan", "arcsinh", "arccosh",
         "arctanh")
_HEAVY = ("power", "float_power", "arctan2", "logaddexp", "logaddexp2", "nextafter", "spacing", "gcd", "lcm")
# Measured (float32, H100, per element, in bytes of traffic): sin 2.6, exp+log 2 each, power 8,
# divide ~1.5-2; cheap ops hide under the traffic (at most ~0.25 each).
WEIGHTS = dict([(n, 6.0) for n in _MID] + [(n, 7.0) for n in _EXP] + [(n, 10.0) for n in _TRIG]
               + [(n, 32.0) for n in _HEAVY])
# Multipliers by the loop's output kind (cheap ops, the others): float64 arithmetic runs at
# half float32's rate on an H100/H200 and its transcendentals slower still; complex ops are
# several real ones. Reasoned, not measured.
_KIND = {"d": (2.0, 4.0), "D": (4.0, 8.0), "F": (4.0, 4.0)}
# Bytes of memory traffic per unit of arithmetic (one float32 add per element).
BYTES_PER_UNIT = 0.25
# A launch, in bytes of traffic at the memory rate (~3 us at 3 TB/s).
LAUNCH_BYTES = 8e6
# A shared subtree of more nodes than this is computed once whatever the arithmetic says: each
# kernel recomputing it would carry its whole code (compile time, registers). Reasoned.
MAX_RECOMPUTE_NODES = 64


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
    the inputs read (scaled by their size against t's: a broadcast row costs little). More
    than `MAX_RECOMPUTE_NODES` nodes: infinite arithmetic (the walk stops there)."""
    units, inbytes, seen, count = 0.0, 0.0, set(), 0
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
            # One array read through several nodes (`x * x`: two array nodes) is read once.
            if n.value is not None:
                if id(n.value) in seen:
                    continue
                seen.add(id(n.value))
            inbytes += n.dtype.itemsize * min(n.size / size, 1.0)
            continue
        units += weight(n)
        count += 1
        if count > MAX_RECOMPUTE_NODES:
            return float("inf"), inbytes
        stack.extend(n.args)
    return units, inbytes


def materialise(t, k, stop, forced=False) -> bool:
    """Whether `t`, read by `k` kernels, is cheaper computed once into memory (see the module
    docstring); `forced`: it is computed into memory anyway."""
    units, L = subtree(t, stop)
    if units == float("inf"):
        return True
    S = t.dtype.itemsize
    own = max(L + S, units * BYTES_PER_UNIT)  # a kernel computing t, per element
    if forced:
        return own > 2 * S
    return k * own > own + 2 * S * k + LAUNCH_BYTES / max(t.size, 1)
