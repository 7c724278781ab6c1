"""cuarray.cuda.initialize in a fresh process: each step timed, the libraries loaded with their
handles, and the first operations after it give NumPy's answers."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from cuarray.cuda import _backend

pytestmark = [pytest.mark.gpu, pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason()))]

_CHILD = textwrap.dedent(r"""
    import json, sys
    import numpy
    import cuarray
    from cuarray.cuda.libs import _handles

    times = cuarray.cuda.initialize(libraries="all")
    loaded = sorted(n for n in ("cublas", "cusolverDn", "cusparse", "cufft") if n in _handles._imported)
    rng = numpy.random.default_rng()
    h = rng.standard_normal((64, 64))
    ok = numpy.allclose((cuarray.asarray(h) @ cuarray.asarray(h)).get(), h @ h)
    x = rng.standard_normal(256) + 1j * rng.standard_normal(256)
    ok = ok and numpy.allclose(cuarray.fft.fft(cuarray.asarray(x)).get(), numpy.fft.fft(x))
    print(json.dumps({"times": times, "loaded": loaded, "ok": bool(ok),
                      "device": cuarray.cuda.get_device_id()}))
""")


def test_initialize_in_a_fresh_process():
    out = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert set(got["times"]) == {"context", "memory pool", "shared objects", "cublas", "cusolver", "cusparse",
                                 "cufft"}
    assert all(t >= 0 for t in got["times"].values()) and got["times"]["context"] > 0
    assert got["loaded"] == ["cublas", "cufft", "cusolverDn", "cusparse"] and got["ok"] and got["device"] == 0
