"""Compiled sampling kernels of cuarray.random and their launches.

Three modules, each compiled once per process (and once per machine: the disk cache): "core"
(uniform, normal, exponential, integers, choice), "distributions" (every other sampler) and
"permutation". Each source is philox.cuh + distributions.cuh + its .cu file, read once; the
kernels are a kernel family per module (cuda/kernel_family.py), looked up by name.
"""

from __future__ import annotations

import functools
import os
import pathlib

import numpy

from ..cuda import launch as _launch
from ..cuda.kernel_family import KernelFamily

__all__ = ["fill", "integers", "choice_cdf", "permutation", "SAMPLERS", "module_sources", "C_TYPES"]

_DIR = pathlib.Path(__file__).parent / "templates"
_THREADS = 256

# Sampler of each op: "u" from_uniform, "n" from_normal, "s" sequential, "r" rejection
# (distributions.cuh).
SAMPLERS = {
    "random": "u", "uniform": "u", "standard_exponential": "u", "exponential": "u",
    "standard_normal": "n", "normal": "n",
    "gumbel": "u", "laplace": "u", "logistic": "u", "rayleigh": "u", "weibull": "u", "pareto": "u",
    "power": "u", "geometric": "u", "triangular": "u", "lognormal": "n",
    "standard_gamma": "r", "gamma": "r", "beta": "s", "chisquare": "s", "noncentral_chisquare": "s",
    "f": "s", "noncentral_f": "s", "standard_t": "s", "standard_cauchy": "s", "poisson": "r",
    "binomial": "r", "negative_binomial": "s", "wald": "s", "vonmises": "s", "zipf": "s",
    "logseries": "s", "hypergeometric": "s",
}
_CORE_OPS = ("random", "uniform", "standard_exponential", "exponential", "standard_normal", "normal")
_WRAPPER = {"u": "from_uniform", "n": "from_normal", "s": "sequential", "r": "rejection"}
C_TYPES = {numpy.dtype(k): v for k, v in (
    ("float32", "float"), ("float64", "double"), ("int64", "long long"), ("int32", "int"), ("int16", "short"),
    ("int8", "signed char"), ("uint64", "unsigned long long"), ("uint32", "unsigned int"),
    ("uint16", "unsigned short"), ("uint8", "unsigned char"), ("bool", "bool"))}
# Output types each op is instantiated for: float32 where NumPy offers dtype=, and for the other
# samplers of the core module (CuPy's dtype= on uniform/normal/exponential); the rest of CuPy's
# float32 requests are sampled in double and rounded (Generator._sample_as).
F32_OPS = ("random", "standard_normal", "standard_exponential", "standard_gamma", "uniform", "normal",
           "exponential")
_INT_OPS = ("geometric", "poisson", "binomial", "negative_binomial", "zipf", "logseries", "hypergeometric")


def fill_name(op: str, ctype: str) -> str:
    return "cuarray_random_fill<cuarray::random::{}<cuarray::random::op_{}>, {}>".format(
        _WRAPPER[SAMPLERS[op]], op, ctype)


def _fill_names(ops) -> list:
    names = []
    for op in ops:
        types = ("long long",) if op in _INT_OPS else (("float", "double") if op in F32_OPS else ("double",))
        names += [fill_name(op, t) for t in types]
    return names


def integers_name(ctype: str, wide: bool) -> str:
    return "cuarray_random_integers<{}, {}>".format(ctype, "unsigned long long" if wide else "unsigned int")


_INT_CTYPES = [C_TYPES[numpy.dtype(c)] for c in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                                 "uint64", "bool")]
_PERM_NAMES = ["cuarray_random_permutation<unsigned int>", "cuarray_random_permutation<unsigned long long>"]


def module_sources() -> dict:
    """{module: (source, name expressions)}: what is compiled (CPU tests compile each for sm_90)."""
    head = (_DIR / "philox.cuh").read_text() + (_DIR / "distributions.cuh").read_text()
    inv_max = os.environ.get("CUARRAY_POISSON_INV_MAX")
    if inv_max:
        # Measurement hook (scripts/perf/linperf_losses.py): poisson's inversion/PTRS switch point,
        # read once per process like CUARRAY_SCAN_KNOBS; it changes the source, so the cache key.
        head = "#define CUARRAY_POISSON_INV_MAX {!r}\n".format(float(inv_max)) + head
    rnd = head + (_DIR / "random.cu").read_text()
    perm = (_DIR / "philox.cuh").read_text() + (_DIR / "permutation.cu").read_text()
    return {m: (rnd if m != "permutation" else perm, list(_module_names(m))) for m in ("core", "distributions",
                                                                                      "permutation")}


@functools.lru_cache(maxsize=None)
def _module_names(module: str) -> tuple:
    """The name expressions of `module`, formatted once (no template is read for them)."""
    if module == "core":
        return tuple(_fill_names(_CORE_OPS) + [integers_name(c, w) for c in _INT_CTYPES for w in (False, True)]
                     + ["cuarray_random_choice_cdf"])
    if module == "distributions":
        return tuple(_fill_names([op for op in SAMPLERS if op not in _CORE_OPS]))
    return tuple(_PERM_NAMES)


_SAMPLER_KERNELS = (
    "cuarray_random_fill<D, T>(T* out, const long long n, const unsigned k0, const unsigned k1, "
    "const unsigned call, const double* p0, const double* p1, const double* p2, const double s0, "
    "const double s1, const double s2)",
    "cuarray_random_integers<T, U>(T* out, const long long n, const unsigned k0, const unsigned k1, "
    "const unsigned call, const unsigned long long* lows, const unsigned long long* highs, "
    "const unsigned long long low_s, const unsigned long long rng_s)",
    "cuarray_random_choice_cdf(long long* out, const long long n, const unsigned k0, const unsigned k1, "
    "const unsigned call, const double* cdf, const long long m)",
)
# random.cu twice: the core samplers and the other distributions are two modules of it (the core
# ones compile in a fraction of the time), as before the families
_FAMILIES = {
    "core": KernelFamily("cuarray_random_core", lambda: module_sources()["core"][0], _SAMPLER_KERNELS),
    "distributions": KernelFamily("cuarray_random_distributions", lambda: module_sources()["distributions"][0],
                                  _SAMPLER_KERNELS),
    "permutation": KernelFamily("cuarray_random_permutation", lambda: module_sources()["permutation"][0], (
        "cuarray_random_permutation<W>(long long* out, const long long total, const long long m, "
        "const int rows_gt1, const unsigned long long n, const int bbits, const unsigned long long mask_a, "
        "const unsigned long long mask_b, const unsigned k0, const unsigned k1, const unsigned call)",
    )),
}


def _kernel(module: str, name: str):
    """Kernel `name` of `module`, whose kernels compile together (only this one is looked up)."""
    return _FAMILIES[module].member(_module_names(module), name)


def _groups(n: int) -> int:
    return _launch.grid_one_pass((n + 3) // 4, _THREADS)


def fill(op: str, out, n: int, draw: tuple, params) -> None:
    """Launch op's sampler into the contiguous `out` (n elements). `params`: three (ptr, scalar)."""
    ctype = C_TYPES[out._dtype]
    module = "core" if op in _CORE_OPS else "distributions"
    k = _kernel(module, fill_name(op, ctype))
    (p0, s0), (p1, s1), (p2, s2) = params
    k.launch(_groups(n), _THREADS, out.data.ptr, n, *draw, p0, p1, p2, s0, s1, s2)


def integers(out, n: int, draw: tuple, lows, highs, low: int, rng: int, wide: bool) -> None:
    """out[i] = low + a uniform integer in [0, rng] (or per element from the uint64 arrays)."""
    k = _kernel("core", integers_name(C_TYPES[out._dtype], wide))
    k.launch(_groups(n), _THREADS, out.data.ptr, n, *draw, lows, highs, low % 2**64, rng)


def choice_cdf(out, n: int, draw: tuple, cdf) -> None:
    k = _kernel("core", "cuarray_random_choice_cdf")
    k.launch(_groups(n), _THREADS, out.data.ptr, n, *draw, cdf.data.ptr, cdf._size)


def permutation(out, rows: int, m: int, n: int, draw: tuple) -> None:
    """out (rows x m, int64) = the first m values of a keyed permutation of [0, n), per row."""
    bits = max(1, (n - 1).bit_length())
    if n == 1 << bits or n == 1:  # keep the domain strictly larger than n (templates/permutation.cu)
        bits += 1
    a = bits // 2
    b = bits - a
    total = rows * m
    k = _kernel("permutation", _PERM_NAMES[0 if bits <= 32 else 1])
    k.launch(_launch.grid_one_pass(total, _THREADS), _THREADS, out.data.ptr, total, m, rows > 1, n, b, (1 << a) - 1,
             (1 << b) - 1, *draw)
