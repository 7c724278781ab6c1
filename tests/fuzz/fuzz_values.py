"""The fuzzer's values: random arrays of every dtype with IEEE special values (signed zeros,
infinities, NaN, the largest and smallest normals, subnormals) in every float argument and in each
part of complex ones independently (inf+nanj, huge+tinyj), integer edge values, arrays of a few
distinct values (many duplicates: sort, unique and set inputs), and matrices for linalg: stacks,
rank-deficient, ill-conditioned, exactly diagonal with singular values at NumPy's cutoffs.

Plain NumPy in, NumPy out: fuzzlib wraps the arrays in specs. A generator that shapes a matrix
says so in `tags` (fuzz_traits counts them per row in the summary)."""

from __future__ import annotations

import contextlib
import functools
import math

import numpy as np

import fuzz_legacy

# Which generators draw (fuzz_legacy): 2, these; 1, the first ones (fuzz_regressions' cases).
GENERATION = 2


@contextlib.contextmanager
def generation(g):
    """Draw with generation `g`'s generators inside the block (1: re-make a generation-1 case)."""
    global GENERATION
    old, GENERATION = GENERATION, g
    try:
        yield
    finally:
        GENERATION = old

DTYPES = [np.dtype(c) for c in "?bBhHiIlLefdFD"]  # bool, ints, uints, float16/32/64, complex64/128
_SIZES = (0, 1, 1, 2, 3, 3, 4, 5, 7)

# Levels of special values (a row's `edges`): True every IEEE special value; "finite" the finite
# ones whose sums and products cannot overflow (factorisations: LAPACK can loop forever on NaN and
# inf, and overflows inside); False none (random normals only).
_P_SPECIAL = 0.5   # an array gets special values
_P_POOL = 0.3      # ... and then is drawn from a pool of a few distinct values (duplicates)
_P_SCALE = 0.3     # random values scaled by 10**k, |k| <= 8 (small and large magnitudes, not only ~3)
# edges="dups" (sort, unique and set rows): special values in most arrays, most of them pools of a
# few values (NaN, both zeros, ordinary values), many duplicates
_DUPS = (0.85, 0.6)


@functools.lru_cache(maxsize=None)
def special_groups(dtype, level=True) -> tuple:
    """The special values of a real float dtype in groups drawn alike (so NaN is as likely as any
    one of the tiny values): signed zeros; ordinary (±1, 0.5, 2, eps, 1 ± eps); tiny (the smallest
    normals, subnormals); and, unless level="finite", NaN; ±inf; huge (the largest finite values,
    half and a third of it, around sqrt(max), where a square or a modulus overflows, 1e30)."""
    dt = np.dtype(dtype)
    fi = np.finfo(dt)
    mx, tiny, sub, eps = float(fi.max), float(fi.tiny), float(fi.smallest_subnormal), float(fi.eps)
    groups = [[0.0, -0.0], [1.0, -1.0, 0.5, 2.0, -1.5, eps, 1.0 + 2 * eps, -(1.0 - eps)],
              [tiny, -tiny, sub, -sub, tiny / 8, -tiny / 3, 1e-30]]
    if level != "finite":
        groups += [[np.nan], [np.inf, -np.inf], [mx, -mx, mx / 2, -mx / 3, math.sqrt(mx) * 2, -math.sqrt(mx) / 2, 1e30,
                                                   -1e30]]
    out = []
    with np.errstate(all="ignore"):
        for g in groups:
            a = np.array(g, np.float64).astype(dt)
            a.setflags(write=False)
            out.append(a)
    return tuple(out)


@functools.lru_cache(maxsize=None)
def float_specials(dtype, level=True) -> np.ndarray:  # (dtype: an np.dtype, for the caches)
    """Every special value of `special_groups` in one array."""
    out = np.concatenate(special_groups(dtype, level))
    out.setflags(write=False)
    return out


@functools.lru_cache(maxsize=None)
def _special_cdf(dtype, level):
    groups = special_groups(dtype, level)
    w = np.concatenate([np.full(len(g), 1.0 / (len(g) * len(groups))) for g in groups])
    return np.cumsum(w)


def draw_specials(rng, dtype, k, level=True) -> np.ndarray:
    """`k` special values of a real float dtype: each group alike, then a member alike."""
    cdf = _special_cdf(np.dtype(dtype), level)
    i = np.minimum(np.searchsorted(cdf, rng.random(k) * cdf[-1], side="right"), len(cdf) - 1)
    return float_specials(np.dtype(dtype), level)[i]


@functools.lru_cache(maxsize=None)
def complex_specials(real) -> np.ndarray:
    """Complex values of C99's special cases (Annex G) and of the range's edges, parts of a real
    dtype: signed zeros in each part, inf and NaN mixed with finite, zero and each other, huge
    beside tiny."""
    fi = np.finfo(real)
    mx, tiny, inf, nan = float(fi.max), float(fi.tiny), np.inf, np.nan
    pairs = [(0.0, 0.0), (-0.0, 0.0), (0.0, -0.0), (-0.0, -0.0), (inf, nan), (nan, inf), (-inf, nan), (inf, inf),
             (-inf, -inf), (inf, 0.0), (-inf, -0.0), (0.0, inf), (-0.0, -inf), (nan, 0.0), (0.0, nan), (1.0, nan),
             (nan, -1.0), (mx, tiny), (tiny, mx), (-mx, -tiny), (mx, mx), (0.0, mx), (-mx, 0.0), (1.0, inf),
             (-1.0, -inf), (1.0, 0.0), (-1.0, -0.0)]
    out = np.array(pairs, np.float64).astype(real)
    return _as_complex(out)


def _as_complex(pairs):
    z = np.empty(len(pairs), np.result_type(pairs.dtype, np.complex64))
    z.real, z.imag = pairs[:, 0], pairs[:, 1]
    z.setflags(write=False)
    return z


@functools.lru_cache(maxsize=None)
def int_specials(dtype) -> np.ndarray:
    dt = np.dtype(dtype)
    info = np.iinfo(dt)
    vals = {info.min, info.max, info.min + 1, info.max - 1, 0, 1, info.max // 2, info.max // 2 + 1}
    if dt.kind == "i":
        vals |= {-1, -2}
    out = np.array(sorted(vals), dt)
    out.setflags(write=False)
    return out


def _real_values(rng, n, real, level, scale=1.0):
    with np.errstate(all="ignore"):
        v = (rng.standard_normal(n) * 3 * scale).astype(real)
    dups = level == "dups"
    p_special, p_pool = _DUPS if dups else (_P_SPECIAL, _P_POOL)
    level = True if dups else level
    if level and n and rng.random() < p_special:
        if rng.random() < p_pool:  # a few distinct values: duplicates, NaN and both zeros among them
            pool = [draw_specials(rng, real, int(rng.integers(1, 4)), level), v[:int(rng.integers(0, 3))]]
            if dups:  # (unique's and sort's cases: both zeros, NaN)
                pool += [np.array([0.0, -0.0][:int(rng.integers(1, 3))], real)] * (rng.random() < 0.6)
                pool += [np.array([np.nan], real)] * (level is True and rng.random() < 0.5)
            pool = np.concatenate(pool)
            return pool[rng.integers(0, len(pool), n)]
        pos = rng.integers(0, n, int(rng.integers(1, n + 1)))
        v[pos] = draw_specials(rng, real, len(pos), level)
    return v


def random_values(rng, shape, dtype, edges=True):
    """Fresh random values of `dtype` of `shape` (never all zeros unless drawn), half of the time
    with special values (`edges`: True, "finite", "dups" or False, as above): some elements
    replaced by them, or the whole array drawn from a pool of a few values; sometimes at another
    magnitude (10**k). Complex parts draw independently."""
    if GENERATION < 2:
        return fuzz_legacy.random_values(rng, shape, np.dtype(dtype), edges)
    n = math.prod(shape)
    dt = np.dtype(dtype)
    k = dt.kind
    if k == "b":
        v = rng.random(n) < (0.5 if rng.random() < 0.8 else rng.random())
    elif k in "iu":
        lo, hi = (-9, 10) if k == "i" else (0, 20)
        v = rng.integers(lo, hi, n).astype(dt)
        p_special, p_pool = _DUPS if edges == "dups" else (0.35, _P_POOL)
        if edges and n and rng.random() < p_special:
            sp = int_specials(dt)
            if rng.random() < p_pool:
                pool = np.concatenate([sp[rng.integers(0, len(sp), int(rng.integers(1, 3)))], v[:1]])
                v = pool[rng.integers(0, len(pool), n)]
            else:
                pos = rng.integers(0, n, int(rng.integers(1, n + 1)))
                v[pos] = sp[rng.integers(0, len(sp), len(pos))]
    else:
        real = np.finfo(dt).dtype
        level = edges if edges in (True, False, "finite", "dups") else True
        scale = 10.0 ** int(rng.choice([-8, -6, -4, -3, -2, -1, 1, 2, 4, 8])) if rng.random() < _P_SCALE else 1.0
        if k == "c":
            re = _real_values(rng, n, real, level, scale)
            im = _real_values(rng, n, real, level, scale)
            if level and n and rng.random() < 0.2:
                im = im[rng.permutation(n)]  # (specials of one part beside finite parts of the other)
            if level and n and rng.random() < 0.3:  # both parts of one class: 0j, -0-0j, inf+infj, huge+hugej
                pos = rng.integers(0, n, int(rng.integers(1, n + 1)))
                with np.errstate(all="ignore"):
                    im[pos] = re[pos] * rng.choice(np.array([1.0, -1.0], real), len(pos))
            if level and level != "finite" and n and rng.random() < 0.25:  # C99's special pairs
                pool = complex_specials(real)
                pos = rng.integers(0, n, int(rng.integers(1, n + 1)))
                pick = pool[rng.integers(0, len(pool), len(pos))]
                re[pos], im[pos] = pick.real, pick.imag
            v = np.empty(n, dt)
            v.real, v.imag = re, im
            if level and n and rng.random() < 0.15:  # duplicates of whole complex values
                v = v[rng.integers(0, max(1, min(n, 3)), n)]
        else:
            v = _real_values(rng, n, real, level, scale)
    return np.asarray(v, dt).reshape(shape)


def random_shape(rng, ndim=None, max_ndim=4):
    if ndim is None:
        ndim = int(rng.integers(0, max_ndim + 1))
    return tuple(int(rng.choice(_SIZES)) for _ in range(ndim))


def pick_dtype(rng, kinds=None):
    """A dtype; `kinds` (e.g. "fc") is preferred 90% of the time (the rest probes the error paths)."""
    if kinds and rng.random() < 0.9:
        pool = [d for d in DTYPES if d.kind in kinds]
        if pool:
            return pool[int(rng.integers(0, len(pool)))]
    return DTYPES[int(rng.integers(0, len(DTYPES)))]


# -- Python scalars at the edges of a dtype (keywords: initial=, fill_value=, prepend=, range=) ----

def int_edges_of(dtype) -> list:
    """Python ints at and just outside `dtype`'s range (an integer dtype), and past int64/uint64."""
    info = np.iinfo(dtype)
    return [int(info.min), int(info.max), int(info.min) - 1, int(info.max) + 1, -1, 0, 2 ** 63, 2 ** 64, -2 ** 63 - 1]


def edge_scalar(rng, dtype=None):
    """A Python or NumPy scalar at an edge of `dtype` (an array's, or a random integer dtype's):
    ints just outside its range, floats NaN/inf/huge/subnormal/-0.0, complex mixes, NumPy scalars
    out of range, bools."""
    r = rng.random()
    dt = np.dtype(dtype) if dtype is not None else None
    if r < 0.45:
        idt = dt if dt is not None and dt.kind in "iu" else DTYPES[int(rng.integers(1, 9))]
        pool = int_edges_of(idt)
        return pool[int(rng.integers(0, len(pool)))]
    if r < 0.7:
        sp = float_specials(np.dtype(np.float64))
        return float(sp[int(rng.integers(0, len(sp)))])
    if r < 0.8:
        sp = float_specials(np.dtype(np.float64))
        return complex(float(sp[int(rng.integers(0, len(sp)))]), float(sp[int(rng.integers(0, len(sp)))]))
    if r < 0.9:
        pool = [np.int64(-1), np.uint64(2 ** 64 - 1), np.float64(1e40), np.float32(-0.0), np.int8(-128), np.float16(np.inf),
                np.uint8(255), np.float64(np.nan)]
        return pool[int(rng.integers(0, len(pool)))]
    return bool(rng.random() < 0.5)


# -- matrices -----------------------------------------------------------------------------------

def _orthogonal(rng, n, dt):
    q, r = np.linalg.qr(rng.standard_normal((n, n)) + (1j * rng.standard_normal((n, n)) if dt.kind == "c" else 0))
    return q * (np.sign(np.diag(r)) if n else 1)


def matrix_values(rng, shape, dtype, hermitian=False, normal=False):
    """Values of a stack of matrices of `shape` (..., m, n) and `dtype`, each one of: random
    normals, rank-deficient (a product of thinner factors), ill-conditioned (singular values down
    to 1e-3 .. 1e-17 of the largest, around NumPy's cutoffs: pinv's 1e-15, matrix_rank's and
    lstsq's max(m, n) eps), exactly diagonal up to a permutation (singular values exact on every
    side: the cutoff decides alone), small integers (exactly singular), or scaled by 1e±20.
    `hermitian`: each matrix Hermitian (eigh, cholesky's positive definite input); `normal`: the
    structured ones normal, Q diag Q^H (eig, eigvals: a non-normal matrix's eigenvalues move by
    kappa eps, which no two implementations share). Returns the array and the tags of the modes."""
    dt = np.dtype(dtype)
    m, n = shape[-2:] if len(shape) >= 2 else (1, shape[-1] if shape else 1)
    batch = shape[:-2] if len(shape) >= 2 else ()
    count = math.prod(batch)
    out = np.empty((count, m, n), dt if dt.kind in "fc" else np.float64)
    tags = set()
    k = min(m, n)
    real = np.finfo(dt).dtype if dt.kind in "fc" else np.dtype(np.float64)
    low = math.log10(float(np.finfo(real).tiny)) + 1  # (1/s stays finite)
    for b in range(count):
        mode = rng.random()
        if k == 0 or mode < 0.3:
            a = _normals(rng, (m, n), dt)
        elif mode < 0.45:
            r = int(rng.integers(0, k))
            s = np.concatenate([10.0 ** rng.uniform(-1, 1, r), np.zeros(k - r)])
            a = _structured(rng, m, n, dt, s, normal) if normal else _normals(rng, (m, r), dt) @ _normals(rng, (r, n), dt)
            tags.add("lowrank")
        elif mode < 0.62:
            eps = float(np.finfo(real).eps)
            cut = [1e-3, 1e-6, 1e-9, 1e-12, 1e-15 * 0.5, 1e-15 * 2, max(m, n) * eps * 0.5, max(m, n) * eps * 2, 1e-17]
            s = np.sort(np.concatenate([[1.0], 10.0 ** rng.uniform(-17, 0, k - 1)]))[::-1]
            s[-1] = cut[int(rng.integers(0, len(cut)))]
            a = _structured(rng, m, n, dt, s * 10.0 ** int(rng.integers(-3, 4)), normal)
            tags.add("illcond")
        elif mode < 0.85:
            s = 10.0 ** rng.choice([e for e in (0, -1, -3, -5, -6, -7, -8, -10, -12, -14.5, -15.5, -16, -20, -40)
                                    if e > low], k)
            s[int(rng.integers(0, k))] = 1.0
            s = s * rng.choice([-1.0, 1.0], k)
            a = np.zeros((m, n))
            rows, cols = (np.arange(k), np.arange(k)) if normal else (rng.permutation(m)[:k], rng.permutation(n)[:k])
            a[rows, cols] = s
            tags.add("exactdiag")
        elif mode < 0.93:
            a = rng.integers(-2, 3, (m, n)).astype(np.float64)
            a[int(rng.integers(0, m))] = a[int(rng.integers(0, m))]
            tags.add("singular")
        else:
            a = _normals(rng, (m, n), dt) * 10.0 ** rng.choice([-20, 20])
            tags.add("scaled")
        if hermitian and m == n:
            a = a @ np.conj(a.T) + (np.eye(m) * 10.0 ** int(rng.integers(-18, 1)) if rng.random() < 0.7 else 0)
            tags.add("hermitian")
        with np.errstate(all="ignore"):
            out[b] = a if dt.kind == "c" or not np.iscomplexobj(a) else a.real
    with np.errstate(all="ignore"):
        if dt.kind in "fc":  # (finite in the dtype too: float16 holds 1e20 as inf, and LAPACK must see no inf)
            top = float(np.finfo(dt).max) / 16
            out = out.real.clip(-top, top) + 1j * out.imag.clip(-top, top) if dt.kind == "c" else out.clip(-top, top)
        v = out.reshape(shape).astype(dt) if dt.kind in "fc" else _as_other(out.reshape(shape), dt)
    if len(shape) > 2:
        tags.add("stack")
    return v, tags


def _normals(rng, shape, dt):
    a = rng.standard_normal(shape) * 3
    return a + 1j * rng.standard_normal(shape) * 3 if dt.kind == "c" else a


def _structured(rng, m, n, dt, s, normal):
    """U diag(s) V^H with orthogonal (unitary) U and V; `normal` and square: Q diag(s) Q^H."""
    k = len(s)
    if normal and m == n:
        q = _orthogonal(rng, m, dt)
        return (q * s) @ np.conj(q.T)
    return _orthogonal(rng, m, dt)[:, :k] @ np.diag(s) @ _orthogonal(rng, n, dt)[:k, :]


def _as_other(a, dt):
    """A float matrix as an integer or bool dtype (the linalg rows' 10% of other dtypes)."""
    if dt.kind == "b":
        return a > 0
    info = np.iinfo(dt)
    return np.clip(np.rint(a), info.min, info.max).astype(dt)
