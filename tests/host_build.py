"""The CPU tests' host builds (g++): CUDA templates compiled for the host into a ctypes library.

`library(args)` is `g++ *args -o LIB` loaded with ctypes. With CUARRAY_TEST_BUILD_CACHE=DIR (.ci/run
sets it) a library is built once for every test process that asks for it, in this run and in CI's
second run (the newest SciPy/NumPy on Python 3.12): the first process to ask builds it under a
lock, the others wait and load it. Each test process built its own before (two workers, two runs:
four builds of each, 5-15 s of CPU each on CI's cores). The key is everything g++ reads: its
version, the argument list with each file or directory in it replaced by a digest of its contents
(a source's own directory too: its quoted includes), so a hit is the library g++ would build.
Without the variable each call builds into a directory removed once the library is loaded (a
loaded library stays mapped).

`library_of(source, args)` does the same for a driver given as text.
"""

from __future__ import annotations

import ctypes
import fcntl
import functools
import hashlib
import os
import pathlib
import shutil
import subprocess
import tempfile

import nvrtc_cache  # tests/ is on sys.path
import pytest

ENV = "CUARRAY_TEST_BUILD_CACHE"
# What g++ can read from a directory: C and C++ sources and headers (not the __pycache__ the test
# processes write meanwhile, which would make two processes' keys differ)
SOURCES = frozenset({".h", ".hh", ".hpp", ".cuh", ".cu", ".c", ".cc", ".cpp", ".inc", ".def"})


def dir_digest(path: str) -> str:
    """nvrtc_cache's digest of `path`, over the C and C++ files only."""
    return nvrtc_cache.dir_digest(path, SOURCES)


@functools.cache
def _gxx() -> tuple:
    """(g++'s path, its version text); the test is skipped without g++."""
    gxx = shutil.which("g++")
    if gxx is None:
        pytest.skip("no g++ on this machine")
    return gxx, subprocess.run([gxx, "--version"], capture_output=True, text=True, check=True).stdout


def _file_digest(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def key(args) -> str:
    """The digest of g++'s version and `args` (each file by its contents and its directory's, each
    directory by its files')."""
    parts = [_gxx()[1]]
    for a in map(str, args):
        if os.path.isdir(a):
            parts.append("dir#" + dir_digest(os.path.abspath(a)))
        elif os.path.isfile(a):
            parts.append("file#" + _file_digest(a) + "#" + dir_digest(os.path.dirname(os.path.abspath(a))))
        else:
            parts.append(a)
    return hashlib.sha256(repr(parts).encode()).hexdigest()


def _build(args, out: pathlib.Path) -> None:
    subprocess.run([_gxx()[0], *map(str, args), "-o", str(out)], check=True)


def library(args) -> ctypes.CDLL:
    """ctypes.CDLL of `g++ *args -o LIB` (args: the flags, the sources and the include directories)."""
    cache = os.environ.get(ENV)
    if not cache:
        with tempfile.TemporaryDirectory(prefix="cuarray-host-build-") as d:
            so = pathlib.Path(d) / "lib.so"
            _build(args, so)
            return ctypes.CDLL(str(so))
    root = pathlib.Path(cache)
    root.mkdir(parents=True, exist_ok=True)
    so = root / (key(args)[:32] + ".so")
    if not so.exists():
        with open(str(so) + ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # (another process building it: wait, then load its)
            if not so.exists():
                part = so.with_suffix(".part{}".format(os.getpid()))
                _build(args, part)
                os.replace(part, so)
    return ctypes.CDLL(str(so))


def library_of(source: str, args) -> ctypes.CDLL:
    """`library` of the C++ text `source` (written to a file of its own) with the flags `args`."""
    with tempfile.TemporaryDirectory(prefix="cuarray-host-source-") as d:
        path = pathlib.Path(d) / "driver.cpp"
        path.write_text(source)
        return library([*args, path])
