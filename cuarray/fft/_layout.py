"""Planning of cuFFT passes over strided arrays (pure Python: no device, tested on the CPU).

cuFFT's advanced layout addresses element (x, y, z) of batch b at
``b * dist + ((x * embed[1] + y) * embed[2] + z) * stride`` (in elements), for input and output
alike. So one plan covers a strided array when
- the transform axes, outermost first, have strides that divide each other with quotients (the
  embeds) at least the inner axis' extent (`embed[j] = stride[j-1] / stride[j]`), and
- the other axes ("batch") collapse into one dimension of uniform distance, in the input and the
  output alike.
Batch axes that do not collapse become a short loop of executions of the same plan at pointer
offsets (at most `MAX_LOOPS`); past that, or with negative, zero or unaligned strides, the caller
copies the input into a dense layout with the transform axes innermost (`transform_last_order`),
where one plan always fits.
"""

from __future__ import annotations

import math

__all__ = ["Pass", "plan_pass", "k_order", "dense_strides", "transform_last_order", "MAX_LOOPS"]

# Executions of one plan at pointer offsets, for batch axes that do not collapse, before a copy
# into a plannable layout is cheaper (each execution costs a launch, ~5 us of host time).
MAX_LOOPS = 8


class Pass:
    """One plan (`key`, cuFFT's plan arguments) run at byte `offsets` (input, output) pairs."""

    __slots__ = ("key", "offsets")

    def __init__(self, key, offsets):
        self.key = key
        self.offsets = offsets

    def __repr__(self) -> str:
        return "Pass({}, offsets={})".format(self.key, self.offsets)


def k_order(shape, strides) -> list:
    """Axes from the largest stride to the smallest (ties keep axis order): NumPy's 'K' order."""
    return sorted(range(len(shape)), key=lambda ax: (-abs(strides[ax]), ax))


def dense_strides(shape, order, itemsize) -> tuple:
    """Strides of a dense array of `shape` whose axes, outermost first, are `order`."""
    strides = [0] * len(shape)
    s = itemsize
    for ax in reversed(order):
        strides[ax] = s
        s *= max(shape[ax], 1)
    return tuple(strides)


def transform_last_order(ndim, axes) -> list:
    """Axis order (outermost first) with the batch axes outside and `axes`, in that order, inside."""
    t = list(axes)
    return [ax for ax in range(ndim) if ax not in t] + t


def _elem_stride(stride, itemsize):
    if stride <= 0 or stride % itemsize:
        return None
    return stride // itemsize


def _embed(strides, extents):
    """(embed, stride) of nested transform axes, or None when the strides do not nest."""
    inner = strides[-1]
    embed = [extents[0]]
    for j in range(1, len(strides)):
        outer, cur = strides[j - 1], strides[j]
        if outer % cur or outer // cur < extents[j]:
            return None
        embed.append(outer // cur)
    return embed, inner


def order_axes(axes, in_strides, keep_last: bool) -> list:
    """Transform axes in cuFFT's order (outermost first) for the input strides. A real transform
    keeps its last axis (the halved one) last; a complex one orders all by stride."""
    if keep_last:
        rest = sorted(axes[:-1], key=lambda ax: (-in_strides[ax], ax))
        return rest + [axes[-1]]
    return sorted(axes, key=lambda ax: (-in_strides[ax], ax))


def plan_pass(in_shape, in_strides, in_item, out_shape, out_strides, out_item, axes, sizes, typ,
              keep_last: bool):
    """A Pass for a rank-len(axes) transform from the input to the output layout, or None.

    `axes` are distinct transform axes (for a real transform the last is the halved one), `sizes`
    their logical lengths (the complex-to-complex length; the real length of R2C/C2R), `typ` the
    cufftType. Strides are in bytes; shapes are the buffers' (they differ only on the halved axis).
    """
    r = len(axes)
    if not 1 <= r <= 3:
        return None
    n_of = dict(zip(axes, sizes))
    axes = order_axes(list(axes), in_strides, keep_last)
    ist, ost = [], []
    for ax in axes:
        si = _elem_stride(in_strides[ax], in_item)
        so = _elem_stride(out_strides[ax], out_item)
        if si is None or so is None:
            return None
        ist.append(si)
        ost.append(so)
    iext = [in_shape[ax] for ax in axes]
    oext = [out_shape[ax] for ax in axes]
    ie = _embed(ist, iext)
    oe = _embed(ost, oext)
    if ie is None or oe is None:
        return None
    inembed, istride = ie
    onembed, ostride = oe

    # Batch axes: collapse in input order (innermost first) where input and output both allow.
    t = set(axes)
    batch = [ax for ax in k_order(in_shape, in_strides) if ax not in t and in_shape[ax] > 1]
    groups = []  # [count, input distance, output distance], innermost first
    for ax in reversed(batch):
        si = _elem_stride(in_strides[ax], in_item)
        so = _elem_stride(out_strides[ax], out_item)
        if si is None or so is None:
            return None
        if groups:
            g = groups[-1]
            if si == g[0] * g[1] and so == g[0] * g[2]:
                g[0] *= in_shape[ax]
                continue
        groups.append([in_shape[ax], si, so])
    if groups:
        main = max(range(len(groups)), key=lambda k: groups[k][0])
        count, idist, odist = groups[main]
        rest = groups[:main] + groups[main + 1:]
    else:
        count, idist, odist, rest = 1, math.prod(inembed) * istride, math.prod(onembed) * ostride, []
    loops = math.prod(g[0] for g in rest)
    if loops > MAX_LOOPS:
        return None
    offsets = [(0, 0)]
    for c, si, so in rest:
        offsets = [(i + k * si * in_item, o + k * so * out_item) for i, o in offsets for k in range(c)]

    n = tuple(n_of[ax] for ax in axes)
    if (istride == 1 and ostride == 1 and inembed == iext and onembed == oext
            and (count == 1 or (idist == math.prod(iext) and odist == math.prod(oext)))):
        # cuFFT's basic layout: no embeds (the plan key of CuPy and PyTorch for contiguous data).
        key = (r, n, None, 1, math.prod(iext), None, 1, math.prod(oext), typ, count)
    else:
        if count == 1:
            idist, odist = math.prod(inembed) * istride, math.prod(onembed) * ostride
        key = (r, n, tuple(inembed), istride, idist, tuple(onembed), ostride, odist, typ, count)
    return Pass(key, tuple(offsets))
