"""The shared-memory tile passes of the separable filters (templates/filter_tile.cu) without a
device: a NumPy model of both kernels driven by _filter_tile's Plan (each block's tile filled
through map_index, each thread's register window read at the kernel's very tile indices, the
rows kernel's swizzled staging and coalesced read-back) against scipy.ndimage for every mode,
origin, op and awkward shape; the plans' choices and shared-memory budget; NVRTC compiles (sm_90)
of every kernel the filters can ask for."""

import re

import numpy as np
import pytest
import scipy.ndimage as snd

from cuarray.cuda import compiler
from cuarray.scipy.ndimage import _boundary
from cuarray.scipy.ndimage import _filter_kernels as fk
from cuarray.scipy.ndimage import _filter_tile as ft
from cubin_info import ptxas_verbose  # tests/ is on sys.path
from cuarray.testing.fake_device import from_np, host_module, new_c

MODES = ["reflect", "mirror", "nearest", "wrap", "constant", "grid-mirror", "grid-wrap", "grid-constant"]
RNG = np.random.default_rng(7)


def window(get, r, size, w, op):
    """tile_window of filter_tile.cu: acc[k] for k < r from get(i) = the window's i-th value (arrays
    over threads); also the largest index read (the kernel reads up to 4 past the last tap). The r
    accumulators are the rows of one array, each updated by the kernel's operation in its order (one
    NumPy call a tap, not one an accumulator: this model took most of the tile tests' 78 s)."""
    win = np.stack([get(i) for i in range(r + 4)])
    top = r + 3
    acc = win[:r].copy() if op in ("min", "max") else np.zeros_like(win[:r])

    def add(a, v, wj):
        if op == "correlate":
            return a + wj * v
        if op == "uniform":
            return a + v
        if op == "min":
            return np.where(v < a, v, a)
        return np.where(v > a, v, a)

    j = 0
    while j + 4 <= size:
        for jj in range(4):
            acc = add(acc, win[jj:jj + r], w[j + jj] if op == "correlate" else 0.0)
        win = np.concatenate([win[4:r + 4], np.stack([get(j + 4 + r + i) for i in range(4)])])
        top = max(top, j + 4 + r + 3)
        j += 4
    for jj in range(size - j):
        acc = add(acc, win[jj:jj + r], w[j + jj] if op == "correlate" else 0.0)
    if op == "uniform":
        acc = acc / size
    return list(acc), top


def swizzle(t, k, r):
    return t * r + ((k + (t >> 2)) & (r - 1))


def oswizzle(t, h, ch):
    return t * ch + (h ^ ((t >> 2) & (ch - 1)))


def emulate(x, tp, op, w, size, offset, mode, cval, in_isz=8, out_isz=8, acc_isz=8, vin=True, vout=True,
            grid_blocks=None):
    """The tile pass of plan `tp` over x (float64 values, C order), as the kernel runs it (its VAR
    `tp.variant`; in_isz/out_isz/acc_isz: the bytes of T, O and A, which set the 16-byte chunks
    of VAR >= 1; vin/vout: the launch's vflags). VAR 4's rows tiles are VAR 3's blocks (which block
    of the one-wave grid makes a tile changes no value); its strided pass is emulate_cols_pipe's,
    over `grid_blocks` blocks (default ft.grid with 3 SMs)."""
    x = np.asarray(x, np.float64)
    out = np.full(x.size, np.nan)
    flat = x.ravel()
    n, r = tp.n, tp.r
    var = tp.variant
    vw = 16 // in_isz
    flags = ft.vector_flags(0 if vin else 4, 0 if vout else 4, n, tp.inner, in_isz, out_isz)
    vin, vout = bool(flags & 1), bool(flags & 2)
    if tp.kind == "rows":
        tpl, lpb = 1 << tp.ltpl, 256 >> tp.ltpl
        seg = r * tpl
        assert tp.pitch >= seg + size + 4 and tp.pitch % 4 == 0
        vo = 16 // out_isz
        ch = r * out_isz // 16
        ovec = var >= 1 and r * out_isz % 16 == 0 and ch in (1, 2) and vout
        if ovec:
            assert n % vo == 0
        for b in range(tp.blocks):
            g, s = divmod(b, tp.segs)
            seg0 = s * seg
            staged = np.full(lpb * seg, np.nan)
            staged16 = np.full(lpb * seg, np.nan)
            for ly in range(lpb):
                line = g * lpb + ly
                if line >= tp.outer:
                    continue
                if var == 0:
                    m = _boundary.map_index(seg0 - offset + np.arange(tp.pitch), n, mode)
                    row = np.where(m < 0, cval, flat[line * n + np.clip(m, 0, None)])
                else:
                    p0 = seg0 - offset
                    s = p0 & (vw - 1)
                    a0 = p0 - s
                    nch = (s + tp.pitch + vw - 1) // vw
                    assert tp.pitch * acc_isz % 16 == 0  # tile rows start 16-byte aligned
                    assert var < 3 or acc_isz < 4 or tp.pitch * acc_isz % 32 == 0  # whole unit pairs (tile_slot)
                    row = np.full(tp.pitch, np.nan)
                    for k in range(nch):
                        pos = a0 + k * vw + np.arange(vw)
                        if vin and pos[0] >= 0 and pos[-1] < n:
                            vals = flat[line * n + pos]
                        elif var >= 3:  # inside the line unmapped; the halo after the barrier
                            inside = (pos >= 0) & (pos < n)
                            vals = np.where(inside, flat[line * n + np.clip(pos, 0, n - 1)], np.nan)
                        else:
                            m = _boundary.map_index(pos, n, mode)
                            vals = np.where(m < 0, cval, flat[line * n + np.clip(m, 0, None)])
                        q = k * vw - s + np.arange(vw)
                        ok = (q >= 0) & (q < tp.pitch)
                        row[q[ok]] = vals[ok]
                    if var >= 3 and (p0 < 0 or p0 + tp.pitch > n):
                        # the halo from the tile where its mapped position is staged there, read
                        # only from slots of positions inside the line (written before the barrier)
                        q = np.arange(tp.pitch)
                        halo = q[(p0 + q < 0) | (p0 + q >= n)]
                        assert np.isnan(row[halo]).all() or np.isnan(x).any()
                        m = _boundary.map_index(p0 + halo, n, mode)
                        intile = (m >= p0) & (m < p0 + tp.pitch)
                        src = np.clip(m - p0, 0, tp.pitch - 1)
                        assert (((p0 + src) >= 0) & ((p0 + src) < n))[intile & (m >= 0)].all()
                        glob = flat[line * n + np.clip(m, 0, None)]
                        row[halo] = np.where(m < 0, cval, np.where(intile, row[src], glob))
                    assert not np.isnan(row).any() or np.isnan(x).any()  # every slot staged
                tx = np.arange(tpl)
                live = seg0 + tx * r < n
                acc, top = window(lambda i: row[tx[live] * r + i], r, size, w, op)
                assert top + (tpl - 1) * r < tp.pitch  # the window stays in its tile row
                for k in range(r):
                    staged[ly * seg + swizzle(tx[live], k, r)] = acc[k]
                    if ovec:  # chunk h = k // vo of thread t at chunk slot oswizzle(t, h)
                        slot = oswizzle(tx[live], k // vo, ch) * vo + k % vo
                        staged16[ly * seg + slot] = acc[k]
            if ovec:
                lcpl = tp.ltpl + (1 if ch == 2 else 0)
                i = np.arange(lpb << lcpl)
                y, ci = i >> lcpl, i & ((1 << lcpl) - 1)
                slot = (y << lcpl) + oswizzle(ci >> (ch - 1), ci & (ch - 1), ch)
                assert len(set(slot.tolist())) == len(slot)
                for yy, cc, sl in zip(y, ci, slot):
                    ln, c = g * lpb + yy, seg0 + cc * vo
                    if ln < tp.outer and c < n:
                        assert c + vo <= n  # whole 16-byte chunks: n is a multiple of vo
                        out[ln * n + c:ln * n + c + vo] = staged16[sl * vo:sl * vo + vo]
                continue
            lr = r.bit_length() - 1
            i = np.arange(lpb * seg)
            y, p = i >> (tp.ltpl + lr), i & (seg - 1)
            slot = y * seg + swizzle(p >> lr, p & (r - 1), r)
            assert len(set(slot.tolist())) == len(slot)  # the swizzle is a permutation of each row
            ln, c = g * lpb + y, seg0 + p
            ok = (ln < tp.outer) & (c < n)
            out[(ln * n + c)[ok]] = staged[slot[ok]]
        return out.reshape(x.shape)
    inner = tp.inner
    tr = 8 * r + size + 4
    if var >= 4:
        return emulate_cols_pipe(x, flat, out, tp, op, w, size, offset, mode, cval, in_isz, vin, grid_blocks)
    for b in range(tp.blocks):
        q, cb = divmod(b, tp.cblocks)
        o, rb = divmod(q, tp.rblocks)
        r0, c0 = rb * 8 * r, cb * 32
        cols = c0 + np.arange(32)
        m = _boundary.map_index(r0 - offset + np.arange(tr), n, mode)
        if var == 0:
            src = o * n * inner + np.clip(m, 0, None)[:, None] * inner + np.minimum(cols, inner - 1)[None, :]
            tile = np.where(cols[None, :] < inner, np.where(m[:, None] < 0, cval, flat[src]), 0.0)
        else:  # chunks of vw columns of a tile row, the row's mapping once a chunk
            cpr = 32 // vw
            k = np.arange(tr * cpr)
            y, cc = k // cpr, c0 + (k % cpr) * vw
            c = cc[:, None] + np.arange(vw)[None, :]
            my = m[y][:, None]
            vec = (vin & (cc + vw <= inner))[:, None]
            src = o * n * inner + np.clip(my, 0, None) * inner + np.minimum(c, inner - 1)
            vals = np.where(my < 0, cval, np.where(vec | (c < inner), flat[src], 0.0))
            tile = np.full((tr, 32), np.nan)
            tile[y[:, None], (k % cpr)[:, None] * vw + np.arange(vw)[None, :]] = vals
            assert not np.isnan(tile[:, :min(32, inner - c0)]).any() or np.isnan(x).any()
        for ty in range(8):
            acc, top = window(lambda i: tile[ty * r + i], r, size, w, op)
            assert ty * r + top < tr
            for k in range(r):
                row = r0 + ty * r + k
                ok = (cols < inner) & (row < n)
                out[o * n * inner + row * inner + cols[ok]] = acc[k][ok]
    return out.reshape(x.shape)


def emulate_cols_pipe(x, flat, out, tp, op, w, size, offset, mode, cval, in_isz, vin, grid_blocks=None):
    """filter1d_cols_pipe: block b of G walks tiles [b T / G, (b + 1) T / G) (tile t: strip t //
    rblocks, rows (t mod rblocks) 8 r ..), two buffers; a tile continuing its strip takes its first
    size + 4 rows from the previous tile's last rows (copied in shared memory), the rest staged."""
    n, r, inner = tp.n, tp.r, tp.inner
    rb_rows, tr, ov = 8 * r, 8 * r + size + 4, size + 4
    tiles = tp.blocks
    g = grid_blocks or ft.grid(tp, 3)
    staged_rows = 0

    def stage(buf, t, y0):
        strip, rb = divmod(t, tp.rblocks)
        o, cb = divmod(strip, tp.cblocks)
        c0 = cb * 32
        y = np.arange(y0, tr)
        m = _boundary.map_index(rb * rb_rows - offset + y, n, mode)
        cols = c0 + np.arange(32)
        # a 16-byte chunk whole inside the row (vin) or one element at a time: the same values
        src = o * n * inner + np.clip(m, 0, None)[:, None] * inner + np.minimum(cols, inner - 1)[None, :]
        vals = np.where(m[:, None] < 0, cval, np.where(cols[None, :] < inner, flat[src], 0.0))
        buf[y0:tr] = vals
        return len(y)

    for b in range(g):
        t0, t1 = b * tiles // g, (b + 1) * tiles // g
        if t0 >= t1:
            continue
        bufs = [np.full((tr, 32), np.nan), np.full((tr, 32), np.nan)]
        staged_rows += stage(bufs[0], t0, 0)
        for it, t in enumerate(range(t0, t1)):
            tile, nxt = bufs[it & 1], bufs[(it + 1) & 1]
            strip, rb = divmod(t, tp.rblocks)
            o, cb = divmod(strip, tp.cblocks)
            same = t + 1 < t1 and rb + 1 < tp.rblocks
            if t + 1 < t1:
                nxt[:] = np.nan  # nothing of the tile before may survive but the copied rows
                staged_rows += stage(nxt, t + 1, ov if same else 0)
            if same:
                nxt[:ov] = tile[rb_rows:tr]
            cols = cb * 32 + np.arange(32)
            live = cols < inner
            assert not np.isnan(tile[:, live]).any() or np.isnan(x).any()
            for ty in range(8):
                acc, top = window(lambda i: tile[ty * r + i], r, size, w, op)
                assert ty * r + top < tr
                for k in range(r):
                    row = rb * rb_rows + ty * r + k
                    ok = live & (row < n)
                    out[o * n * inner + row * inner + cols[ok]] = acc[k][ok]
    # every tile but the first of each block's strip stages only the rows it does not share
    strips_started = sum(len({t // tp.rblocks for t in range(b * tiles // g, (b + 1) * tiles // g)})
                         for b in range(g))
    assert staged_rows == tiles * rb_rows + strips_started * ov
    return out.reshape(x.shape)


def run_pass(x, op, w, size, axis, origin, mode, cval, force=True, acc="f4", half_r=False, variant=0, io=None,
             vin=True, vout=True, grid_blocks=None):
    """io: (input, output) dtypes when not the accumulator's."""
    a = np.dtype(acc)
    t, o = (a, a) if io is None else (np.dtype(io[0]), np.dtype(io[1]))
    tp = ft.plan(x.shape, axis % x.ndim, size, a, o, op, force=force, half_r=half_r, variant=variant)
    # (variant 4 plans variant 3 where its two tile buffers pass SHARED_MAX)
    assert tp is not None and (tp.variant == variant or variant == 4 and tp.variant == 3)
    assert tp.kind == ("rows" if axis % x.ndim == x.ndim - 1 else "cols")
    return emulate(x, tp, op, w, size, size // 2 + origin, _boundary.filter_mode(mode), cval, t.itemsize, o.itemsize,
                   a.itemsize, vin, vout, grid_blocks)


SCIPY = {"uniform": snd.uniform_filter1d, "min": snd.minimum_filter1d, "max": snd.maximum_filter1d}


SHAPES = [((3, 37), 1), ((5,), 0), ((2, 300), -1), ((40, 5), 0), ((3, 70, 33), 1), ((150, 2), 0), ((60, 8), 0),
          ((20, 3, 48), 0), ((2, 2100), 1)]


# (2 stages and stores as 1; 3 fills the rows' halo after a barrier; 4's rows are 3's, its strided
# pass test_pipe_cols_model_every_split_of_the_tiles's)
@pytest.mark.parametrize("variant,half_r", [(0, False), (1, False), (1, True), (3, False)])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("shape,axis", SHAPES, ids=[str(s) for s in SHAPES])
def test_tile_model_matches_scipy(shape, axis, mode, variant, half_r):
    x = RNG.normal(size=shape)
    for size, origin in [(1, 0), (4, -2), (9, 1), (33, 0)]:
        w = RNG.normal(size=size)
        got = run_pass(x, "correlate", w, size, axis, origin, mode, 1.5, variant=variant, half_r=half_r)
        np.testing.assert_allclose(got, snd.correlate1d(x, w, axis, mode=mode, cval=1.5, origin=origin),
                                   rtol=1e-12, atol=1e-12)
        for op, fn in SCIPY.items():
            o = min(origin, (size - 1) // 2)
            got = run_pass(x, op, None, size, axis, o, mode, 1.5, variant=variant, half_r=half_r)
            np.testing.assert_allclose(got, fn(x, size, axis, mode=mode, cval=1.5, origin=o), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("half_r", [False, True])
@pytest.mark.parametrize("acc", ["f4", "f8", "u1"])
def test_tile_model_per_accumulator_width(acc, half_r):
    # R (outputs a thread) and the rows kernel's pieces depend on the accumulator's width
    x = RNG.normal(size=(3, 1000))
    w = RNG.normal(size=7)
    for axis in (0, 1):
        xx = x if axis == 1 else np.ascontiguousarray(x.T)
        got = run_pass(xx, "correlate", w, 7, axis, 0, "wrap", 0.0, acc=acc, half_r=half_r)
        np.testing.assert_allclose(got, snd.correlate1d(xx, w, axis, mode="wrap"), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("vin,vout", [(True, True), (False, True), (True, False)])
@pytest.mark.parametrize("io,acc,op", [(("f4", "f4"), "f4", "correlate"), (("f8", "f8"), "f8", "correlate"),
                                       (("u1", "f4"), "f8", "correlate"), (("f4", "f8"), "f8", "correlate"),
                                       (("i2", "i2"), "i2", "min"), (("u1", "u1"), "u1", "max")])
@pytest.mark.parametrize("variant", [1, 3, 4])
def test_tile_vec_model_per_width(io, acc, op, vin, vout, variant):
    # VAR >= 1: 16-byte chunks of 16 / sizeof(T) inputs, 16-byte output chunks (1 or 2 a thread,
    # or the scalar swizzle when R sizeof(O) is 8 bytes), misaligned pointers (vflags 0)
    x = RNG.normal(size=(3, 1024))
    w = RNG.normal(size=7)
    ref = {"correlate": lambda xx, ax: snd.correlate1d(xx, w, ax, mode="wrap", origin=1),
           "min": lambda xx, ax: snd.minimum_filter1d(xx, 7, ax, mode="wrap", origin=1),
           "max": lambda xx, ax: snd.maximum_filter1d(xx, 7, ax, mode="wrap", origin=1)}[op]
    for axis, xx in ((1, x), (0, np.ascontiguousarray(x[:, :96].T))):
        got = run_pass(xx, op, w, 7, axis, 1, "wrap", 0.0, acc=acc, variant=variant, io=io, vin=vin,
                       vout=vout)
        np.testing.assert_allclose(got, ref(xx, axis), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("asz", [4, 8])
def test_rows3_swizzle_spreads_the_window_loads_over_the_banks(asz):
    # tile_slot (VAR 3's rows): 16-byte unit u at u xor ((u / 8) mod 2), a permutation of each row
    # (rows of an even number of units); a unit stays whole; the 16-byte window loads of a quarter
    # warp (8 threads, windows R = 32 bytes apart, any group g of the window) hit 8 different 16-byte
    # bank groups (unswizzled: 4, two wavefronts a load)
    f4, f8 = np.dtype("f4"), np.dtype("f8")
    a = f4 if asz == 4 else f8
    r, vw = 32 // asz, 16 // asz

    def slot(q):
        return q ^ (vw if q & (128 // asz) else 0)

    for shape, size in [((4096, 4096), 33), ((64, 256), 9), ((3, 37), 70), ((5, 100), 4)]:
        p2 = ft.plan(shape, 1, size, a, a, "correlate", variant=2)
        p3 = ft.plan(shape, 1, size, a, a, "correlate", variant=3)
        assert p3.pitch * asz % 32 == 0 and 0 <= (p3.pitch - p2.pitch) * asz < 32
        assert p3._replace(pitch=p2.pitch, shared=p2.shared) == p2._replace(variant=3)
        assert p3.shared - p2.shared == (p3.pitch - p2.pitch) * asz * (256 >> p2.ltpl)
        slots = np.array([slot(q) for q in range(p3.pitch)])
        assert sorted(slots.tolist()) == list(range(p3.pitch))
        assert (slots.reshape(-1, vw) == slots[::vw, None] + np.arange(vw)).all() and (slots[::vw] % vw == 0).all()
    for t0 in range(0, 256, 8):
        for g in range(0, 8 * r, 4):
            q = np.array([(t0 + t) * r + g for t in range(8)])
            for part in range(0, 4, vw):  # 8-byte A: two 16-byte loads a group, each a unit
                b = np.array([slot(x + part) for x in q]) * asz // 16 % 8
                assert len(set(b.tolist())) == 8
                assert len(set(((q + part) * asz // 16 % 8).tolist())) == 4
    assert ft.plan((4096, 4096), 0, 33, f4, f4, "correlate", variant=3) == \
        ft.plan((4096, 4096), 0, 33, f4, f4, "correlate")._replace(variant=3)


def test_vector_flags():
    assert ft.vector_flags(256, 512, 4096, 1, 4, 4) == 3
    assert ft.vector_flags(260, 512, 4096, 1, 4, 4) == 2  # a view one float in
    assert ft.vector_flags(256, 512, 4095, 1, 4, 4) == 0  # lines of 4095 floats: every other line misaligned
    assert ft.vector_flags(256, 512, 4096, 6, 4, 4) == 0  # strided axis: the inner extent decides
    assert ft.vector_flags(256, 512, 5, 8, 2, 4) == 3
    assert ft.vector_flags(256, 512, 5, 6, 2, 8) == 2  # 12-byte input rows, 48-byte output rows


def test_plans():
    f4, f8 = np.dtype("f4"), np.dtype("f8")
    p = ft.plan((4096, 4096), 1, 33, f4, f4, "correlate")
    assert p.kind == "rows" and p.r == 8 and p.ltpl == 8 and p.segs == 2 and p.blocks == 8192
    p = ft.plan((4096, 4096), 0, 33, f4, f4, "correlate")
    assert p.kind == "cols" and p.r == 16 and p.blocks == 32 * 128 and p.shared <= ft.SHARED_MAX
    p = ft.plan((256, 256, 256), 2, 33, f4, f4, "correlate")  # short lines: 8 lines a block
    assert p.kind == "rows" and p.ltpl == 5 and p.blocks == 65536 // 8
    p = ft.plan((256, 256, 256), 1, 33, f8, f8, "correlate")
    assert p.kind == "cols" and p.r == 8 and p.outer == 256 and p.inner == 256
    # auto leaves narrow or short strided passes to filter1d; force plans them
    assert ft.plan((100, 3), 0, 5, f4, f4, "correlate") is None
    assert ft.plan((20, 100), 0, 5, f4, f4, "correlate") is None
    assert ft.plan((100, 3), 0, 5, f4, f4, "correlate", force=True).kind == "cols"
    assert ft.plan((1000, 31), 1, 5, f4, f4, "correlate") is None
    assert ft.plan((1000, 32), 1, 5, f4, f4, "correlate").kind == "rows"
    assert ft.plan((1000, 16), 1, 5, f8, f8, "correlate").kind == "rows"
    assert ft.plan((1000, 3), 1, 5, f4, f4, "correlate", force=True).kind == "rows"
    # past 48 KiB of shared memory: filter1d whatever `force` says
    assert ft.plan((100, 100), 0, 400, f8, f8, "correlate", force=True) is None
    assert ft.plan((10, 100000), 1, 9000, f4, f4, "correlate", force=True) is None
    for shape, axis, size, a in [((7, 9), 1, 3, f4), ((9, 7), 0, 65, f8), ((1, 50000), 1, 2001, f4)]:
        p = ft.plan(shape, axis, size, a, a, "correlate", force=True)
        assert p is not None and p.shared <= ft.SHARED_MAX
    assert ft.plan((0, 5), 1, 3, f4, f4, "correlate") is None
    assert ft.plan((4096, 4096), 1, 33, f4, f4, "correlate", half_r=True).r == 4
    assert ft.plan((4096, 4096), 0, 33, f4, f4, "correlate", half_r=True).r == 8
    assert ft.plan((4096, 4096), 1, 33, f8, f8, "correlate", half_r=True).r == 4
    # the variants change the kernel, not the launch shape
    for axis in (0, 1):
        p0 = ft.plan((4096, 4096), axis, 33, f4, f4, "correlate")
        for v in (1, 2):
            assert ft.plan((4096, 4096), axis, 33, f4, f4, "correlate", variant=v) == p0._replace(variant=v)
    assert ft.plan((100, 3), 0, 5, f4, f4, "correlate", variant=1) is None


def test_pipe_plans():
    f4, f8 = np.dtype("f4"), np.dtype("f8")
    # rows: variant 3's launch shape, two tile buffers, 5 blocks an SM (float32), one wave of them
    p3 = ft.plan((4096, 4096), 1, 33, f4, f4, "correlate", variant=3)
    p4 = ft.plan((4096, 4096), 1, 33, f4, f4, "correlate", variant=4)
    assert p4._replace(shared=p3.shared, variant=3, per_sm=0) == p3
    tbytes = (256 >> p3.ltpl) * p3.pitch * 4
    assert p4.shared == p3.shared + tbytes and p4.per_sm == 5
    assert ft.grid(p4, 132) == 660 and ft.grid(p3, 132) == p3.blocks == 8192
    assert ft.grid(ft.plan((64, 256), 1, 9, f4, f4, "correlate", variant=4), 132) == 8  # fewer tiles than the wave
    p = ft.plan((256, 256, 256), 2, 33, f4, f4, "correlate", variant=4)
    assert p.kind == "rows" and p.ltpl == 5 and p.blocks == 8192 and p.per_sm == 5
    assert ft.plan((4096, 4096), 1, 33, f8, f8, "correlate", variant=4).per_sm == 4
    # cols: two tiles of (8 r + size + 4) x 32; float64 halves r to fit 48 KiB; the tiles are the blocks
    p = ft.plan((4096, 4096), 0, 33, f4, f4, "correlate", variant=4)
    assert p.kind == "cols" and p.r == 16 and p.blocks == 32 * 128 and p.per_sm == 4
    assert p.shared == 144 + 2 * (128 + 37) * 32 * 4 <= ft.SHARED_MAX
    p = ft.plan((4096, 4096), 0, 33, f8, f8, "correlate", variant=4)
    assert p.r == 4 and p.rblocks == 128 and p.blocks == 128 * 128 and p.shared <= ft.SHARED_MAX
    p = ft.plan((256, 256, 256), 1, 33, f8, f8, "correlate", variant=4)
    assert p.r == 4 and p.outer == 256 and p.blocks == 256 * 8 * 8
    # past 48 KiB even at r = 4: variant 3's plan (its own kernel); where 3 has none, none
    p = ft.plan((1000, 100), 0, 81, f8, f8, "correlate", force=True, variant=4)
    assert p is not None and p == ft.plan((1000, 100), 0, 81, f8, f8, "correlate", force=True, variant=3)
    assert ft.plan((100, 100), 0, 400, f8, f8, "correlate", force=True, variant=4) is None
    assert ft.plan((100, 3), 0, 5, f4, f4, "correlate", variant=4) is None  # "auto" leaves it to filter1d
    assert ft.kernel_name("cols", f4, f4, f4, 0, True, 16, 4) == \
        "cuarray_ndimage::filter1d_cols_pipe<float, float, float, 0, long long, 16, 4>"


@pytest.mark.parametrize("grid_blocks,modes", [(1, MODES), (5, ("reflect", "constant")), (None, ("wrap", "mirror"))])
def test_pipe_cols_model_every_split_of_the_tiles(grid_blocks, modes):
    # one block walking every strip, ranges that start and end inside strips, more blocks than tiles
    # of a strip; strips of 1..4 tiles; every mode (the copied rows are the mapped ones)
    for shape, axis, size, acc in [((300, 40), 0, 33, "f4"), ((3, 70, 33), 1, 9, "f8"), ((20, 3, 48), 0, 4, "f4"),
                                   ((150, 2), 0, 57, "f8")]:
        x = RNG.normal(size=shape)
        for mode in modes:
            w = RNG.normal(size=size)
            got = run_pass(x, "correlate", w, size, axis, 1, mode, 1.5, acc=acc, variant=4, grid_blocks=grid_blocks)
            np.testing.assert_allclose(got, snd.correlate1d(x, w, axis, mode=mode, cval=1.5, origin=1),
                                       rtol=1e-12, atol=1e-12)
            got = run_pass(x, "max", None, size, axis, 0, mode, 1.5, acc=acc, variant=4, grid_blocks=grid_blocks)
            np.testing.assert_array_equal(got, snd.maximum_filter1d(x, size, axis, mode=mode, cval=1.5))


def kernel_names(variant, every=True):
    """Every dtype through correlate (its own output) and min, both kinds; uniform, max and mixed
    output dtypes on a few; 64-bit indices on float32 and float64. every=False: one dtype of each
    width (and bool, and a 64-bit integer) through correlate and min (each variant costs ptxas
    ~3x the first tile's time)."""
    names = set()

    def add(t, o, op, idx64=False):
        t, o = np.dtype(t), np.dtype(o)
        a = fk.acc_dtype(t, o, op)
        for kind in ("rows", "cols"):
            names.add(ft.kernel_name(kind, t, o, a, fk.OPS[op], idx64, ft._r(kind, a.itemsize), variant))

    for c in "?bBhHiIlLQfd" if every else "?BhfdQ":
        add(c, c, "correlate")
        add(c, c, "min")
    for t, o, op in [("f4", "f4", "uniform"), ("f8", "f8", "uniform"), ("i2", "i2", "uniform"), ("u1", "u1", "max"),
                     ("?", "?", "max"), ("f8", "f8", "max"), ("f4", "f8", "correlate"), ("f8", "f4", "correlate"),
                     ("u1", "f4", "correlate"), ("i4", "f8", "uniform")][:None if every else 8]:
        add(t, o, op)
    for c in "fd":
        add(c, c, "correlate", True)
        add(c, c, "uniform", True)
        a = np.dtype(c)  # the "tile-half-r" variants: half the outputs a thread
        names.add(ft.kernel_name("rows", a, a, a, 0, False, 4, variant))
        names.add(ft.kernel_name("cols", a, a, a, 0, False, ft._r("cols", a.itemsize) // 2, variant))
    return sorted(names)


# (4 and 5: test_pipe_kernels_compile_for_sm90_without_spills, test_short_kernels_compile_...)
@pytest.mark.parametrize("variant", sorted(set(ft.VARIANTS.values()) - {4, 5}))
@pytest.mark.nvrtc_fast
def test_tile_kernels_compile_for_sm90(variant):
    # every kernel of the variant plan="auto" runs (and of the first tile), a sample of the others
    names = kernel_names(variant, every=variant in (0, ft.AUTO_VARIANT))
    cubin, mapping = compiler.compile_cubin(ft.source(fk.source()), arch="sm_90", name_expressions=names)
    assert cubin and set(mapping) == set(names)


def _ptxas_report(names):
    """[(entry, spill stores, spill loads, registers)] of the filter kernels `names` (ptxas -v for
    sm_90), and the log."""
    log = ptxas_verbose(ft.source(fk.source()), names, "filter_tile.cu")[0]
    return re.findall(r"Compiling entry function '(\w+)'.*?(\d+) bytes spill stores, (\d+) bytes spill loads.*?"
                      r"Used (\d+) registers", log, re.S), log


def test_pipe_kernels_compile_for_sm90_without_spills():
    # variant 4 (filter_tile_pipe.cu): float32/float64 both kinds, correlate, uniform and max, 32-
    # and 64-bit indices, the register-staged path (types cp.async cannot copy: converted or narrow;
    # int16 min and float32 -> float64 spilled with 4-8 chunks a thread, bool max at 64 registers),
    # each at the r its plan makes (the strided pass: 16 for 4-byte accumulators and narrower, 4 for
    # 8-byte, r / 2 past 48 KiB); ptxas may not spill any of them
    f4, f8 = np.dtype("f4"), np.dtype("f8")
    names = set()

    def add(t, o, op, idx64=False):
        t, o = np.dtype(t), np.dtype(o)
        a = fk.acc_dtype(t, o, op)
        for kind, axis in (("rows", 1), ("cols", 0)):
            for size in (3, 65):
                tp = ft.plan((300, 300), axis, size, a, o, op, force=True, variant=4)
                if tp.variant == 4:  # (65 float64 taps along a strided axis: variant 3's plan)
                    names.add(ft.kernel_name(kind, t, o, a, fk.OPS[op], idx64, tp.r, 4))

    for a in (f4, f8):
        for op in ("correlate", "uniform", "max"):
            add(a, a, op)
        add(a, a, "correlate", True)
    for t, o, op in [("u1", "f4", "correlate"), ("?", "?", "max")]:
        add(t, o, op)
    names = sorted(names)
    entries, log = _ptxas_report(names)
    assert len(entries) == len(names), log
    assert all("_pipe" in e[0] for e in entries)
    assert [e for e in entries if e[1] != "0" or e[2] != "0"] == []
    # the registers __launch_bounds__ promises for Plan.per_sm blocks of 256 an SM: 48 (5) for float32
    # rows, 64 (4) for the float32 and float64 kernels' others, 85 (3) at most
    for name, _, _, regs in entries:
        pure = re.search(r"pipeI(fff|ddd)", name)
        assert int(regs) <= (48 if "rows_pipeIfff" in name else 64 if pure else 85), (name, regs)


def test_variants_0_to_3_unchanged():
    # variant 4 lives in its own file; the kernels of variants 0-3 (filter_tile.cu) are the bytes
    # measured in docs/perf-notes.md's table, so the lead can time 3 and 4 side by side. Change
    # the digest only with a measurement of the changed variants, or where the change leaves the
    # machine code as it was: scripts/filter_tile_sass.py --base REV compares the SASS of every
    # tile kernel (session 17: the helpers shared with variants 4 and 5 moved here, SASS identical).
    import hashlib

    digest = hashlib.sha256(ft._TEMPLATE.read_bytes()).hexdigest()
    assert digest == "cbd2d562b8d790d8064b1834a7dd56343cfc6fc3365af69fd8621e887133b437"


# -- the launch's packing against the kernels' parameter lists, on the fake device ----------------------
def kernel_params(kind, variant=0):
    """The C types of filter1d_<kind>'s parameters (variant 4: filter1d_<kind>_pipe's), read from
    filter_tile.cu (filter_tile_pipe.cu) itself."""
    src = (ft._PIPE_TEMPLATE if variant >= 4 else ft._TEMPLATE).read_text()
    m = re.search(r"filter1d_{}{}\((.*?)\)\s*\{{".format(kind, "_pipe" if variant >= 4 else ""), src, re.S)
    return [p.strip().rsplit(" ", 1)[0].replace("__restrict__", "").strip() for p in m.group(1).split(",")]


@pytest.mark.parametrize("plan", ["tile", "tile-vec", "tile-vec-u", "tile-rows3", "tile-pipe"])
@pytest.mark.parametrize("shape,axis,kind", [((64, 300), 1, "rows"), ((80, 40), 0, "cols"), ((3, 70, 90), 1, "cols")])
@pytest.mark.parametrize("dt,op", [("f4", "correlate"), ("f8", "uniform"), ("u1", "min"), ("i2", "correlate")])
def test_tile_launch_packs_the_kernels_parameters(recorded_launches, monkeypatch, shape, axis, kind, dt, op, plan):
    host_fk = host_module(fk, {"constant_table": from_np})  # the tables in host memory
    monkeypatch.setattr(fk._device, "_sm_count", lambda device_id: 3)  # variant 4's one-wave grid
    monkeypatch.setattr(fk._launch, "blocks_per_sm", lambda kernel, threads, shared: 2)
    x = new_c(shape, dt)
    host_fk.filter1d(x, np.dtype(dt), op, RNG.normal(size=5), 5, axis, 2, 0, 1.5, plan=plan)
    _, cfg, kernel, *args = recorded_launches[-1]
    a = fk.acc_dtype(np.dtype(dt), np.dtype(dt), op)
    tp = ft.plan(shape, axis, 5, a, np.dtype(dt), op, force=True, variant=ft.VARIANTS[plan])
    assert tp.variant == ft.VARIANTS[plan]
    assert kernel == ft.kernel_name(kind, np.dtype(dt), np.dtype(dt), a, fk.OPS[op], False, tp.r, ft.VARIANTS[plan])
    blocks = tp.blocks if tp.variant < 4 else min(tp.blocks, 3 * 2)
    assert cfg == ("cfg", blocks, 256 if kind == "rows" else (32, 8), tp.shared)
    want = {"int": np.int32, "I": np.int32, "A": a.type}
    params = kernel_params(kind, tp.variant)
    if tp.variant >= 4:
        assert params[-1] == "I" and args[-1] == tp.blocks  # the tiles the grid walks
        params, args = params[:-1], args[:-1]
    assert len(args) == len(params)
    for p, v in zip(params, args):
        if p.endswith("*"):
            assert isinstance(v, int)
        else:
            assert type(v) is want[p], (p, type(v))
    ptr = {p: v for p, v in zip(params, args)}
    assert ptr["const T*"] == x.data.ptr
    assert params[-1] == "int" and args[-1] == ft.vector_flags(x.data.ptr, ptr["O*"], tp.n, tp.inner,
                                                                np.dtype(dt).itemsize, np.dtype(dt).itemsize)


def test_filter1d_rejects_an_unknown_plan(recorded_launches):
    with pytest.raises(ValueError, match="unknown plan"):
        fk.filter1d(new_c((4, 8), "f4"), np.dtype("f4"), "uniform", None, 3, 1, 1, 0, 0.0, plan="tile-fast")


def test_auto_takes_variants_4_and_5_where_they_measured_faster():
    # from 33 taps: strided passes and 8-byte accumulators 4, float32 lines of up to 1024 5; the rest 3
    f4, f8 = np.dtype("f4"), np.dtype("f8")
    auto = ft.auto_variant
    assert auto((4096, 4096), 0, 33, f4) == 4 and auto((4096, 4096), 1, 33, f4) == 3
    assert auto((4096, 4096), 0, 17, f4) == 3 and auto((4096, 4096), 0, 5, f4) == 3
    assert auto((4096, 4096), 1, 33, f8) == 4 and auto((4096, 4096), 1, 17, f8) == 3
    assert auto((256, 256, 256), 0, 33, f4) == auto((256, 256, 256), 1, 33, f4) == 4
    assert auto((256, 256, 256), 2, 33, f4) == 5 and auto((64, 4096, 1), 1, 33, f4) == 3
    assert auto((16384, 1024), 1, 33, f4) == 5 and auto((16384, 1025), 1, 33, f4) == 3
    assert auto((256, 256, 256), 2, 17, f4) == 3 and auto((256, 256, 256), 2, 33, f8) == 4
    assert ft.AUTO_VARIANT == 3


# -- variant 5 ("tile-rows-short", filter_tile_short.cu): whole lines a thread piece ---------------------
def test_short_plans():
    f4, f8 = np.dtype("f4"), np.dtype("f8")
    # 256^3 gaussian sigma 4 rows: 16 threads x 16 outputs a line, 16 lines a block of 256
    p = ft.plan((256, 256, 256), 2, 33, f4, f4, "correlate", force=True, variant=5)
    assert (p.variant, p.kind, p.r, p.ltpl, p.threads, p.blocks, p.segs) == (5, "rows", 16, 4, 256, 4096, 1)
    assert p.pitch == 304 and p.pitch >= 256 + 33 + 4 and p.shared == 144 + 16 * 304 * 4 + 16 * 256 * 4
    # 8-byte accumulators: 8 outputs a thread; 1024: 64 (128) threads a line
    assert ft.plan((9, 1024), 1, 33, f4, f4, "correlate", force=True, variant=5)[1:6] == (16, 1024, 1, 9, 6)
    p8 = ft.plan((9, 1024), 1, 65, f8, f8, "correlate", force=True, variant=5)
    assert (p8.r, p8.ltpl, p8.threads, p8.blocks) == (8, 7, 256, 5) and p8.shared <= ft.SHARED_MAX
    # short lines of many taps: fewer lines a block (threads a multiple of 32 down to 32) within 48 KiB
    for n in (2, 3, 17, 100):
        for size, a in ((3, f4), (65, f4), (65, f8)):
            p = ft.plan((50, n), 1, size, a, a, "correlate", force=True, variant=5)
            assert p.variant == 5 and p.shared <= ft.SHARED_MAX and p.threads % 32 == 0 or p.threads == 1 << p.ltpl
            assert (p.r << p.ltpl) >= n and p.pitch >= (p.r << p.ltpl) + size + 4
            assert p.pitch % (64 // a.itemsize) == 0  # whole groups of four 16-byte units
            assert p.blocks == -(-50 // (p.threads >> p.ltpl))
    # lines past SHORT_MAX and strided passes: variant 3's plan
    for shape, axis in (((4096, 4096), 1), ((4096, 4096), 0), ((256, 256, 256), 1), ((3, 1025), 1)):
        assert ft.plan(shape, axis, 33, f4, f4, "correlate", force=True, variant=5) == \
            ft.plan(shape, axis, 33, f4, f4, "correlate", force=True, variant=3)
    with pytest.raises(ValueError):
        ft.plan((9, 256), 1, 33, f4, f4, "correlate", variant=5, half_r=True)
    assert ft.grid(p, 132) == p.blocks
    # plan="auto" takes it where it measured faster (test_auto_takes_variants_4_and_5_where_they_measured_faster)
    assert ft.auto_variant((256, 256, 256), 2, 33, f4) == 5 and 5 not in (ft.AUTO_VARIANT,)


def short_slot(q, asz):
    p = 16 // asz
    return q ^ ((((q // p) >> 3) & 3) * p)


@pytest.mark.parametrize("asz", [4, 8])
def test_short_slot_layout(asz):
    # a permutation of each row's slots keeping 16-byte units whole; a quarter warp's window loads
    # (threads t < 8 at unit c + 4 t: R = 16 / 8 values of 4 / 8 bytes) hit 8 different bank groups
    pitch = 304 * 4 // asz
    slots = np.array([short_slot(q, asz) for q in range(pitch)])
    assert sorted(slots) == list(range(pitch))
    vw = 16 // asz
    assert (slots.reshape(-1, vw) == slots[::vw, None] + np.arange(vw)).all()
    for c in range(40):
        units = [short_slot((c + 4 * t) * vw, asz) // vw for t in range(8)]
        assert len({u % 8 for u in units}) == 8, (c, units)


def test_short_output_swizzle():
    # short_oslot<CH>: a quarter warp's stores of chunk h hit 8 bank groups; 8 consecutive chunks
    # read back (thread ci / CH, chunk ci mod CH) a permutation of 8 consecutive slots
    for ch in (1, 2, 4):
        def oslot(t, h):
            return t * ch + (h ^ ((t // (8 // ch)) & (ch - 1)))
        for h in range(ch):
            for t0 in range(0, 64, 8):
                assert len({oslot(t, h) % 8 for t in range(t0, t0 + 8)}) == 8
        for i0 in range(0, 64, 8):
            assert sorted(oslot(i // ch, i % ch) for i in range(i0, i0 + 8)) == list(range(i0, i0 + 8))


# Spills ptxas makes in variant 5's kernels by NVRTC version (name expression: (spill store, spill
# load bytes) at most), measured with the kernels of the test below. NVRTC 13.5 (CI's): none. NVRTC
# 13.0.88 (the H200 machine's): bool max keeps its 20-value window and 16 sums of 1-byte values in
# 64 registers (__launch_bounds__(256, 4)) but for one 8-byte spill; 13.5 fits them. A version not
# listed is held to 13.5's answer.
_SHORT_SPILLS_BY_NVRTC = {
    (13, 0): {"cuarray_ndimage::filter1d_rows_short<bool, bool, bool, 3, int, 16, 5>": (8, 8)},
}


def test_short_kernels_compile_for_sm90_without_spills():
    # float32 / float64 (32- and 64-bit indices), uniform, max, a converted and a narrow type; at
    # most the 64 registers __launch_bounds__(256, 4) promises, no spills beyond the NVRTC's known ones
    from cuda.bindings import nvrtc

    names = []
    for t, o, op in [("f4", "f4", "correlate"), ("f8", "f8", "correlate"), ("f4", "f4", "uniform"),
                     ("f4", "f4", "max"), ("u1", "f4", "correlate"), ("?", "?", "max")]:
        t, o = np.dtype(t), np.dtype(o)
        a = fk.acc_dtype(t, o, op)
        r = ft.plan((4, 256), 1, 33, a, o, op, force=True, variant=5).r
        for idx64 in (False, True) if op == "correlate" and t == o else (False,):
            names.append(ft.kernel_name("rows", t, o, a, fk.OPS[op], idx64, r, 5))
    log, lowered = ptxas_verbose(ft.source(fk.source()), names, "filter_tile.cu")
    entries = re.findall(r"Compiling entry function '(\w+)'.*?(\d+) bytes spill stores, (\d+) bytes spill loads.*?"
                         r"Used (\d+) registers", log, re.S)
    assert sorted(lowered.get(e[0], e[0]) for e in entries) == sorted(names), log
    assert [e for e in entries if int(e[3]) > 64] == []
    version = tuple(nvrtc.nvrtcVersion()[1:])
    known = _SHORT_SPILLS_BY_NVRTC.get(version, {})
    spills = {lowered[e[0]]: (int(e[1]), int(e[2])) for e in entries if e[1] != "0" or e[2] != "0"}
    beyond = {n: v for n, v in spills.items() if n not in known or v[0] > known[n][0] or v[1] > known[n][1]}
    assert not beyond, "(spill store, load bytes) with NVRTC {}: {}".format(version, beyond)


@pytest.mark.parametrize("dt,op", [("f4", "correlate"), ("f8", "uniform"), ("u1", "min")])
@pytest.mark.parametrize("shape", [(64, 300), (3, 5, 7)])
def test_short_launch_packs_the_kernels_parameters(recorded_launches, shape, dt, op):
    host_fk = host_module(fk, {"constant_table": from_np})  # the tables in host memory
    x = new_c(shape, dt)
    host_fk.filter1d(x, np.dtype(dt), op, RNG.normal(size=5), 5, len(shape) - 1, 2, 0, 1.5, plan="tile-rows-short")
    _, cfg, kernel, *args = recorded_launches[-1]
    a = fk.acc_dtype(np.dtype(dt), np.dtype(dt), op)
    tp = ft.plan(shape, len(shape) - 1, 5, a, np.dtype(dt), op, force=True, variant=5)
    assert tp.variant == 5 and kernel == ft.kernel_name("rows", np.dtype(dt), np.dtype(dt), a, fk.OPS[op], False,
                                                         tp.r, 5)
    assert cfg == ("cfg", tp.blocks, tp.threads, tp.shared)
    src = ft._SHORT_TEMPLATE.read_text()
    m = re.search(r"filter1d_rows_short\((.*?)\)\s*\{", src, re.S)
    params = [p.strip().rsplit(" ", 1)[0].replace("__restrict__", "").strip() for p in m.group(1).split(",")]
    want = {"int": np.int32, "I": np.int32, "A": a.type}
    assert len(args) == len(params)
    for p, v in zip(params, args):
        assert isinstance(v, int) if p.endswith("*") else type(v) is want[p], (p, type(v))
    named = dict(zip(["in", "out", "w", "size", "n", "lines", "ltpl", "pitch", "offset", "mode", "cval", "vflags"],
                     args))
    assert (named["n"], named["lines"], named["ltpl"], named["pitch"], named["offset"]) == \
        (shape[-1], tp.outer, tp.ltpl, tp.pitch, 2)


def short_oslot(t, h, ch):
    return t * ch + (h ^ ((t // (8 // ch)) & (ch - 1)))


def emulate_short(x, tp, op, w, size, offset, mode, cval, in_isz, out_isz, acc_isz, vin, vout):
    """filter1d_rows_short (variant 5) over x (float64 values, C order, the last axis) as the kernel
    runs it: a block's tile rows in their swizzled slots (short_slot), staging chunks and the halo
    written to disjoint slots, the window, the output staging and the block's contiguous stores."""
    x = np.asarray(x, np.float64)
    flat, n, r = x.ravel(), tp.n, tp.r
    out = np.full(x.size, np.nan)
    tpl = 1 << tp.ltpl
    lpb, seg = tp.threads >> tp.ltpl, r << tp.ltpl
    assert tp.threads <= 256 and lpb >= 1 and seg >= n and tp.pitch >= seg + size + 4
    assert tp.pitch * acc_isz % 64 == 0  # whole groups of four 16-byte units (short_slot)
    slot = np.array([short_slot(q, acc_isz) for q in range(tp.pitch)]) if acc_isz <= 16 else np.arange(tp.pitch)
    vw, vo = 16 // in_isz, 16 // out_isz
    ch = r * out_isz // 16
    ovec = 1 <= ch <= 4 and r * out_isz % 16 == 0 and vout
    for b in range(tp.blocks):
        line0 = b * lpb
        staged = np.full(lpb * seg, np.nan)
        for ly in range(lpb):
            line = line0 + ly
            if line >= tp.outer:
                continue
            row = np.full(tp.pitch, np.nan)
            written = np.zeros(tp.pitch, int)
            src = flat[line * n:(line + 1) * n]
            if vin:
                for k in range(-(-n // vw)):
                    pos = k * vw + np.arange(vw)
                    ok = pos < n
                    row[slot[pos[ok] + offset]] = src[pos[ok]]
                    written[slot[pos[ok] + offset]] += 1
            else:
                row[slot[np.arange(n) + offset]] = src
                written[slot[np.arange(n) + offset]] += 1
            h = np.arange(tp.pitch - n)
            q = np.where(h < offset, h, n + h)
            m = _boundary.map_index(q - offset, n, mode)
            row[slot[q]] = np.where(m < 0, cval, src[np.clip(m, 0, n - 1)])
            written[slot[q]] += 1
            assert (written == 1).all()  # every slot once: no two threads on a slot, none left out
            tx = np.arange(tpl)
            live = tx * r < n
            acc, top = window(lambda i: row[slot[tx[live] * r + i]], r, size, w, op)
            assert top + (tpl - 1) * r < tp.pitch
            for k in range(r):
                if ovec:
                    staged[ly * seg + short_oslot(tx[live], k // vo, ch) * vo + k % vo] = acc[k]
                else:
                    staged[ly * seg + swizzle(tx[live], k, r)] = acc[k]
        nl = min(tp.outer - line0, lpb)
        if ovec:
            assert n % vo == 0
            cpl = n // vo
            i = np.arange(nl * cpl)
            y, ci = i // cpl, i % cpl
            lch = ch.bit_length() - 1
            sl = y * (seg // vo) + short_oslot(ci >> lch, ci & (ch - 1), ch)
            for ii, s in zip(i, sl):
                out[line0 * n + ii * vo:line0 * n + ii * vo + vo] = staged[s * vo:s * vo + vo]
        else:
            lr = r.bit_length() - 1
            i = np.arange(nl * n)
            y, p = i // n, i % n
            out[line0 * n + i] = staged[y * seg + swizzle(p >> lr, p & (r - 1), r)]
    return out.reshape(x.shape)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("acc,io", [("f4", None), ("f8", None), ("f4", ("u1", "f4")), ("f8", ("f4", "f8"))])
def test_short_model_matches_scipy(mode, acc, io):
    if acc == "f8" and mode not in ("mirror", "wrap", "grid-constant"):
        pytest.skip("the float32 cases run every mode; the slots and swizzles only change with the widths")
    a = np.dtype(acc)
    t, o = (a, a) if io is None else (np.dtype(io[0]), np.dtype(io[1]))
    for n, lines in [(2, 20), (7, 3), (64, 17), (100, 5), (256, 17), (1024, 2)]:
        x = RNG.normal(size=(lines, n))
        for size, origin in [(3, 1), (33, 0), (65, -7)]:
            w = RNG.normal(size=size)
            tp = ft.plan(x.shape, 1, size, a, o, "correlate", force=True, variant=5)
            vin = n * t.itemsize % 16 == 0
            vout = n * o.itemsize % 16 == 0
            got = emulate_short(x, tp, "correlate", w, size, size // 2 + origin, _boundary.filter_mode(mode), 1.5,
                                t.itemsize, o.itemsize, a.itemsize, vin, vout)
            np.testing.assert_allclose(got, snd.correlate1d(x, w, 1, mode=mode, cval=1.5, origin=origin),
                                       rtol=1e-12, atol=1e-12)
        if io is None and n in (7, 256):
            for op, fn in SCIPY.items():
                tp = ft.plan(x.shape, 1, 9, a, a, op, force=True, variant=5)
                got = emulate_short(x, tp, op, None, 9, 4 + 1, _boundary.filter_mode(mode), -0.5, a.itemsize,
                                    a.itemsize, a.itemsize, n % 4 == 0, n % 4 == 0)
                np.testing.assert_allclose(got, fn(x, 9, 1, mode=mode, cval=-0.5, origin=1), rtol=1e-12, atol=1e-12)
