"""Shared by the ndimage and signal tests that run without a device: `host_lib` builds a C++ test
driver against a folder of CUDA templates (CUARRAY_DEVICE empty) with g++ into a ctypes library."""

import pathlib
import shutil

import host_build  # tests/ is on sys.path
import pytest


@pytest.fixture(scope="session")
def host_lib():
    """build(name, source, include_dir) -> ctypes.CDLL of `source` compiled with -I include_dir."""
    if shutil.which("g++") is None:
        pytest.skip("no g++")
    built = {}
    core = pathlib.Path(__file__).resolve().parents[3] / "cuarray" / "_core" / "templates"  # cuarray/*.cuh

    def build(name, source, include_dir):
        key = (name, source, str(include_dir))
        if key not in built:
            # -ffp-contract=off: cuarray/rounded.cuh's host operations round each step, as the kernels do
            built[key] = host_build.library_of(source, ["-O2", "-ffp-contract=off", "-shared", "-fPIC", "-I",
                                                        include_dir, "-I", core])
        return built[key]

    return build


def ni_select(buf, k):
    """SciPy's NI_Select (scipy/ndimage/src/ni_filters.c) in Python: its value for a window with
    NaNs or both signed zeros, where the order of comparisons decides."""
    buf = list(buf)
    lo, hi = 0, len(buf) - 1
    while lo != hi:
        x = buf[lo]
        i, j = lo - 1, hi + 1
        while True:
            j -= 1
            while buf[j] > x:
                j -= 1
            i += 1
            while buf[i] < x:
                i += 1
            if i < j:
                buf[i], buf[j] = buf[j], buf[i]
            else:
                break
        left = j - lo + 1
        if k < left:
            hi = j
        else:
            lo, k = j + 1, k - left
    return buf[lo]


def emulate_rank_tile(x, pl, k, mode, cval):
    """NumPy model of templates/rank_tile.cu driven by a _rank_tile.Plan: each block's tile built
    through map_index, each output's window read at the plan's tile offsets, the pruned network
    (fmin/fmax as fminf/fmaxf; in vertical pairs where _rank_tile.pairing says so) or, in a block
    whose tile holds a NaN or both signed zeros, SciPy's selection over every window. `cval`
    already in x's dtype. Returns an array like x."""
    import numpy as np

    from cuarray.scipy.ndimage import _boundary, _rank_network, _rank_tile

    xs = np.ascontiguousarray(x).reshape(pl.pre, pl.depth, pl.mid0, pl.rows, pl.mid, pl.cols, pl.post)
    out = np.empty_like(xs)
    th, tw = pl.bh * pl.rpt, pl.bw
    ops = _rank_network.select_ops(len(pl.taps), k)
    offs = [_rank_tile.tile_offset(pl, *t) for t in pl.taps]
    lr, lc = np.meshgrid(np.arange(th), np.arange(tw), indexing="ij")
    floating = x.dtype.kind == "f"
    pr = _rank_tile.pairing(pl, k)
    for a, d, m0, m, p in np.ndindex(pl.pre, pl.depth, pl.mid0, pl.mid, pl.post):
        vol = xs[a, :, m0, :, m, :, p]
        for r0 in range(0, pl.rows, th):
            for c0 in range(0, pl.cols, tw):
                zz = _boundary.map_index(d + pl.oz + np.arange(pl.sd), pl.depth, mode)
                rr = _boundary.map_index(r0 + pl.oy + np.arange(pl.sh), pl.rows, mode)
                cc = _boundary.map_index(c0 + pl.ox + np.arange(pl.sw), pl.cols, mode)
                tile = vol[np.clip(zz, 0, None)][:, np.clip(rr, 0, None)][:, :, np.clip(cc, 0, None)]
                outside = (zz < 0)[:, None, None] | (rr < 0)[None, :, None] | (cc < 0)[None, None, :]
                tile = np.where(outside, cval, tile).astype(x.dtype)
                flat = tile.ravel()
                ok = (r0 + lr < pl.rows) & (c0 + lc < pl.cols)
                base = (lr * pl.sw + lc)[ok]
                wins = np.stack([flat[base + o] for o in offs], axis=1)
                zsign = np.signbit(flat[flat == 0])
                if floating and (np.isnan(flat).any() or (zsign.any() and not zsign.all())):
                    res = np.array([ni_select(w, k) for w in wins], dtype=x.dtype)
                elif pr is None:
                    res = _rank_network.apply(ops, list(wins.T), np.fmin, np.fmax)[k]
                else:  # vertical pairs: upper outputs on even tile rows, lower ones below
                    odd_row = (lr[ok] % 2).astype(bool)
                    up = base - odd_row * pl.sw
                    v = _rank_network.apply(pr.shared_ops, [flat[up + o] for o in pr.shared], np.fmin, np.fmax)
                    own = [np.where(odd_row, flat[up + lo_], flat[up + uo])
                           for uo, lo_ in zip(pr.upper, pr.lower)]
                    w = _rank_network.apply(pr.final_ops, v[pr.lo:pr.hi + 1] + own, np.fmin, np.fmax)
                    res = w[k - pr.lo]
                out[a, d, m0, (r0 + lr)[ok], m, (c0 + lc)[ok], p] = res
    return out.reshape(x.shape)


@pytest.fixture(scope="session")
def rank_tile_model():
    return emulate_rank_tile


@pytest.fixture(scope="session")
def scipy_select_model():
    return ni_select
