"""The on-disk kernel cache under faults, on a CPU (NVRTC for sm_90, no device): a full disk, many
processes compiling and reading the same kernels in one directory, an entry replaced under a
reader. (Read-only and unwritable directories and corrupt/truncated entries: test_compiler.py.)"""

from __future__ import annotations

import errno
import hashlib
import multiprocessing
import os
import textwrap

import pytest

from cuarray.cuda import _kernel_cache as kc
from cuarray.cuda import compiler as c

ARCH = "sm_90"


def _source(i: int) -> str:
    return textwrap.dedent("""
        extern "C" __global__ void k{0}(float* x, long long n) {{
            long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
            if (i < n) x[i] = x[i] * {0}.5f + 1.0f;
        }}
    """).format(i)


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    d = tmp_path / "kernels"
    monkeypatch.setenv("CUARRAY_CACHE_DIR", str(d))
    monkeypatch.setattr(kc, "_unwritable", set())
    return d


class _FullDisk:
    """A file object whose writes fail with ENOSPC after `room` bytes (a half-written entry)."""

    def __init__(self, f, room):
        self.f, self.room = f, room

    def write(self, data):
        if len(data) > self.room:
            self.f.write(data[: self.room])
            raise OSError(errno.ENOSPC, "No space left on device")
        self.room -= len(data)
        return self.f.write(data)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.f.close()


def test_full_disk_works_warns_once_and_leaves_nothing_half_written(cache_dir, monkeypatch):
    real_fdopen = os.fdopen
    monkeypatch.setattr(kc.os, "fdopen", lambda fd, mode="r": _FullDisk(real_fdopen(fd, mode), 100))
    with pytest.warns(kc.CacheWarning) as record:
        first = [c._load_or_compile_cubin(_source(i), ARCH) for i in range(3)]
    assert len(record) == 1 and "No space left" in str(record[0].message)
    assert all(cubin[:4] == b"\x7fELF" for cubin, _ in first)
    # no torn entry and no temporary file is left behind
    assert not [p for p in cache_dir.iterdir()] if cache_dir.exists() else True
    # the process goes on compiling in memory, without more warnings
    monkeypatch.undo()
    monkeypatch.setenv("CUARRAY_CACHE_DIR", str(cache_dir))
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", kc.CacheWarning)
        assert c._load_or_compile_cubin(_source(0), ARCH) == first[0]


def _worker(args):
    """Compile-or-load kernels 0..n-1 in a worker-specific order, re-reading each entry many
    times: every read is a miss or the whole, right entry (never a torn one)."""
    cache, n, order_seed = args
    os.environ["CUARRAY_CACHE_DIR"] = cache
    compiles = []
    real = c._nvrtc_compile

    def counted(*a):
        compiles.append(1)
        return real(*a)

    c._nvrtc_compile = counted  # this worker process only
    digests = {}
    order = list(range(n))
    order = order[order_seed % n:] + order[:order_seed % n]
    for i in order:
        cubin, mapping = c._load_or_compile_cubin(_source(i), ARCH)
        digests[i] = hashlib.sha256(cubin).hexdigest()
        key = c._cache_key(_source(i), (), (), ARCH)
        for _ in range(20):
            hit = kc.load(key)
            assert hit is None or hashlib.sha256(hit[0]).hexdigest() == digests[i]
    return digests, len(compiles)


def test_many_processes_share_one_directory(cache_dir):
    n, procs = 4, 6
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(procs) as pool:
        results = pool.map(_worker, [(str(cache_dir), n, s) for s in range(procs)])
    digests = [d for d, _ in results]
    assert all(d == digests[0] for d in digests)  # every process loaded the same kernels
    total = sum(k for _, k in results)
    assert n <= total <= n * procs  # each kernel compiled at least once, at most once per process
    files = sorted(p.name for p in cache_dir.iterdir())
    # no .tmp left; beside the kernels, the templates' content digest (compiler._headers_digest)
    assert all(f.endswith((".cukernel", ".cudigest")) for f in files)
    assert len([f for f in files if f.endswith(".cukernel")]) == n
    for i in range(n):
        key = c._cache_key(_source(i), (), (), ARCH)
        cubin, _ = kc.decode((cache_dir / (key + ".cukernel")).read_bytes(), key)
        assert hashlib.sha256(cubin).hexdigest() == digests[0][i]
    # a fresh process now compiles nothing
    _, compiles = _worker((str(cache_dir), n, 0))
    assert compiles == 0


def test_entry_replaced_under_a_reader_is_whole(cache_dir):
    """os.replace swaps whole files: a reader holding the old file reads it whole, the next read
    gets the new one; a rewrite of the same key by another process never tears it."""
    cubin, mapping = c._load_or_compile_cubin(_source(0), ARCH)
    key = c._cache_key(_source(0), (), (), ARCH)
    path = cache_dir / (key + ".cukernel")
    with open(path, "rb") as held:
        kc.store(key, cubin, mapping)  # a second writer of the same key
        assert kc.decode(held.read(), key) == (cubin, mapping)
    assert kc.load(key) == (cubin, mapping)
