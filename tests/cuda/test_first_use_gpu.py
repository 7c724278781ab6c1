"""The first call of each library family (issue 51) gives NumPy's answer in a fresh process, whether
the process's first device use happens in the main thread or in another one, and with a warm kernel
cache that first use imports no cuda.core (contexts, copies, kernel loads and launches, and
user-created streams go through cuda.bindings' driver module; the math libraries' bindings load
without nvmath's package).
Fresh processes, since a first use happens once per process."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

# Each family's first call on fresh random data, checked against NumPy on the host; FAMILIES picks
# which, IN_THREAD runs them in a new thread (the process's first device use there).
_CHILD = textwrap.dedent(r"""
    import sys, threading
    import numpy
    import cuarray

    rng = numpy.random.default_rng()
    failures = []

    def check(name, got, want, rtol, atol):
        if got.shape != want.shape or not numpy.allclose(got, want, rtol=rtol, atol=atol):
            failures.append(name)

    def run():
        if "matmul" in FAMILIES:
            h = rng.standard_normal((64, 64)).astype(numpy.float32)
            check("matmul", cuarray.asnumpy(cuarray.asarray(h) @ cuarray.asarray(h)), h @ h, 1e-4, 1e-4)
        if "solve" in FAMILIES:
            A = rng.standard_normal((64, 64)) + 64 * numpy.eye(64)
            b = rng.standard_normal(64)
            check("solve", cuarray.asnumpy(cuarray.linalg.solve(cuarray.asarray(A), cuarray.asarray(b))),
                  numpy.linalg.solve(A, b), 1e-10, 1e-12)
        if "fft" in FAMILIES:
            x = (rng.standard_normal(4096) + 1j * rng.standard_normal(4096)).astype(numpy.complex64)
            check("fft", cuarray.asnumpy(cuarray.fft.fft(cuarray.asarray(x))), numpy.fft.fft(x), 1e-4, 1e-3)
        if "sort" in FAMILIES:
            s = rng.standard_normal(4096).astype(numpy.float32)
            check("sort", cuarray.asnumpy(cuarray.sort(cuarray.asarray(s))), numpy.sort(s), 0, 0)
        if "add" in FAMILIES:
            a = rng.standard_normal(1000)
            check("add", cuarray.asnumpy(cuarray.asarray(a) + cuarray.asarray(a)), a + a, 0, 0)
        if "random" in FAMILIES:
            r = cuarray.asnumpy(cuarray.random.default_rng(0).random(4096, dtype=numpy.float32))
            if r.shape != (4096,) or not (0 <= r.min() and r.max() < 1) or numpy.unique(r).size < 4000:
                failures.append("random")
        if "streams" in FAMILIES:  # user-created streams (the streams-workspace bench row makes 16)
            h = rng.standard_normal((64, 64)).astype(numpy.float32)
            x = (rng.standard_normal(1024) + 1j * rng.standard_normal(1024)).astype(numpy.complex64)
            made = [cuarray.cuda.Stream(non_blocking=True), cuarray.cuda.Stream(), cuarray.cuda.Stream(priority=-1)]
            if [(s.is_non_blocking, s.priority) for s in made] != [(True, 0), (False, 0), (False, -1)]:
                failures.append("streams' flags and priorities")
            for s in made:
                with s:
                    a = cuarray.asarray(h)
                    m, f = a @ a, cuarray.fft.fft(cuarray.asarray(x))
                s.synchronize()
                check("stream matmul", cuarray.asnumpy(m), h @ h, 1e-4, 1e-4)
                check("stream fft", cuarray.asnumpy(f), numpy.fft.fft(x), 1e-4, 1e-3)
        cuarray.cuda.Device().synchronize()

    if IN_THREAD:
        t = threading.Thread(target=run)
        t.start()
        t.join()
    else:
        run()
    print("FAILED", failures)
    print("cuda.core imported:", "cuda.core" in sys.modules)
    print("nvmath packages imported:", sorted(m for m in ("nvmath.fft", "nvmath.linalg") if m in sys.modules))
""")

_ALL = ("matmul", "solve", "fft", "sort", "add", "random", "streams")


def _child(families, in_thread: bool, cache_dir) -> str:
    env = dict(os.environ)
    env["CUARRAY_CACHE_DIR"] = str(cache_dir)
    code = "FAMILIES = {!r}\nIN_THREAD = {!r}\n".format(tuple(families), in_thread) + _CHILD
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


@pytest.mark.parametrize("in_thread", [False, True], ids=["main-thread", "fresh-thread"])
@pytest.mark.parametrize("family", _ALL)
def test_first_call_in_a_fresh_process_matches_numpy(family, in_thread, tmp_path):
    out = _child((family,), in_thread, tmp_path)
    assert "FAILED []" in out, out


def test_warm_cache_first_calls_import_no_cuda_core_nor_nvmath_packages(tmp_path):
    _child(_ALL, False, tmp_path)  # fills the private kernel cache (NVRTC may need cuda.core here)
    out = _child(_ALL, False, tmp_path)
    assert "FAILED []" in out, out
    assert "cuda.core imported: False" in out, out
    assert "nvmath packages imported: []" in out, out
