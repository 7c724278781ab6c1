"""NVRTC's output kept on disk for a test run (CUARRAY_TEST_NVRTC_CACHE=DIR; .ci/run sets it).

.ci/run tests twice: Python 3.11 with the pinned minimums, then Python 3.12 with the newest SciPy
and NumPy. The code-generation tests of the second run compile, for sm_90, the same kernel sources
the first run compiled (about a third of the second run's time on CI's two cores). With the cache,
the second run reads the first's cubins where the input is the same, and compiles where it is not.

The key is everything NVRTC reads: its version, the source, the name expressions, the program
name and the option list, each include directory in it replaced by a digest of its files' names
and contents (the two runs install the same headers under different paths). A hit is therefore
the output NVRTC would give; a compile error is not cached (it is raised again). The cache holds
(cubin bytes, symbol mapping): what `compiler.compile_cubin` reads of NVRTC's result.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import os
import pickle

ENV = "CUARRAY_TEST_NVRTC_CACHE"


@functools.cache
def dir_digest(path: str, suffixes: frozenset | None = None) -> str:
    """A digest of the files under `path` (only those ending in one of `suffixes`, outside
    __pycache__, where given): relative names and contents, in a fixed order."""
    h = hashlib.sha256()
    for root, dirs, files in os.walk(path):
        dirs[:] = sorted(d for d in dirs if suffixes is None or d != "__pycache__")
        for name in sorted(files):
            if suffixes is not None and os.path.splitext(name)[1] not in suffixes:
                continue
            full = os.path.join(root, name)
            h.update(os.path.relpath(full, path).encode() + b"\0")
            with open(full, "rb") as f:
                h.update(hashlib.sha256(f.read()).digest())
    return h.hexdigest()


def _argument(arg: bytes) -> str:
    s = arg.decode()
    for flag in ("--include-path=", "-I"):
        if s.startswith(flag):
            return flag + "#" + dir_digest(s[len(flag):])
    return s


class _Result:
    """What compile_cubin reads of cuda.core's ObjectCode."""

    __slots__ = ("code", "symbol_mapping")

    def __init__(self, code: bytes, symbol_mapping: dict):
        self.code, self.symbol_mapping = code, symbol_mapping


def key(version, source: str, opts, name_expressions) -> str:
    args = tuple(_argument(a) for a in opts.as_bytes("nvrtc"))
    return hashlib.sha256(repr((tuple(version), source, args, getattr(opts, "name", None),
                                tuple(name_expressions))).encode()).hexdigest()


def cached(real, directory: str):
    """`real` (compiler._nvrtc_compile's signature: source, opts, name_expressions) through the
    cache in `directory` (shared by processes: written once a key, atomically)."""
    from cuda.bindings import nvrtc

    version = nvrtc.nvrtcVersion()[1:]
    os.makedirs(directory, exist_ok=True)

    def compile_through_cache(source, opts, name_expressions):
        path = os.path.join(directory, key(version, source, opts, name_expressions) + ".pkl")
        try:
            with open(path, "rb") as f:
                return _Result(*pickle.load(f))
        except (OSError, EOFError, pickle.UnpicklingError):
            pass
        obj = real(source, opts, name_expressions)
        tmp = "{}.{}".format(path, os.getpid())
        with open(tmp, "wb") as f:
            pickle.dump((bytes(obj.code), dict(obj.symbol_mapping)), f)
        os.replace(tmp, path)
        return obj

    return compile_through_cache


# The option `fast` adds (NVRTC 12.8 and later): the fastest compile, its code the least optimised.
FAST = "--Ofast-compile=max"


def fast(real):
    """`real` (compiler._nvrtc_compile's signature) with FAST added to each compile's options: what
    a test marked `nvrtc_fast` compiles with (tests/conftest.py)."""

    def fast_compile(source, opts, name_expressions):
        return real(source, fast_options(opts), name_expressions)

    return fast_compile


def fast_options(opts):
    """A copy of the ProgramOptions `opts` (compiler._program_options's) with FAST appended to the
    flags it passes verbatim."""
    out = copy.copy(opts)
    out._extra = tuple(opts._extra) + (FAST,)
    return out
