"""SciPy's own functions called on cuarray arrays right after `import cuarray`, with SCIPY_ARRAY_API
unset and set (docs/scipy.md, "SciPy itself on cuarray arrays"): the result is a cuarray array equal
to SciPy's on the host, and a SciPy call with no route raises a TypeError naming the cuarray function.
One fresh interpreter per mode (SciPy reads the variable at its first import). The routes
themselves are checked for every name on the CPU: tests/scipy/test_scipy_dispatch_cpu.py."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]
pytest.importorskip("scipy")

SCRIPT = r'''
import sys
import numpy as np
import scipy.special as sps, scipy.ndimage
import cuarray
assert "cuarray.scipy" not in sys.modules
rng = np.random.default_rng(50)
x = rng.uniform(0.1, 4.0, 257)[::2]           # a non-contiguous view on the device too
n = rng.integers(0, 5, 129).astype(np.float64)
p = rng.uniform(0.05, 0.95, 129)
gx = cuarray.asarray(rng.uniform(0.1, 4.0, 257))[::2]
gx_host = gx.get()
cases = {
    "erf": (sps.erf, (gx,), (gx_host,)),
    "gammaln": (sps.gammaln, (gx,), (gx_host,)),
    "expit": (sps.expit, (-gx,), (-gx_host,)),
    "i0e": (sps.i0e, (gx,), (gx_host,)),
    "ndtr": (sps.ndtr, (gx - 2,), (gx_host - 2,)),
    "cbrt": (sps.cbrt, (gx,), (gx_host,)),               # a NumPy name: SciPy's loops
    "jn": (sps.jn, (cuarray.asarray(n), gx), (n, gx_host), 1e-11, 1e-12),
    "gammainc": (sps.gammainc, (gx, gx[::-1]), (gx_host, gx_host[::-1]), 5e-12),
    "betainc": (sps.betainc, (gx, gx[::-1], cuarray.asarray(p)), (gx_host, gx_host[::-1], p), 5e-12),
    "wofz": (sps.wofz, (gx + 0.5j,), (gx_host + 0.5j,)),
    "erf_f32": (sps.erf, (gx.astype(np.float32),), (gx_host.astype(np.float32),)),
    "empty": (sps.gammaln, (gx[:0],), (gx_host[:0],)),
    "zeta": (sps.zeta, (gx + 1.5,), (gx_host + 1.5,), 2e-12),  # SciPy's private ufuncs (unset), ours (set)
    "zeta_q": (sps.zeta, (gx + 1.5, gx), (gx_host + 1.5, gx_host), 2e-12),
}
# (rtol, atol) of float64: tests/scipy/test_special_gpu.py's for each function, else 1e-12
for name, (f, gargs, hargs, *tols) in cases.items():
    got, want = f(*gargs), f(*hargs)
    assert isinstance(got, cuarray.ndarray), (name, type(got))
    assert got.dtype == want.dtype and got.shape == want.shape, (name, got.dtype, want.dtype)
    rtol, atol = (tols + [1e-12, 0.0][len(tols):])[:2]
    if want.dtype in (np.float32, np.complex64):
        rtol = 2e-6
    np.testing.assert_allclose(got.get(), want, rtol=rtol, atol=atol, err_msg=name)
assert "cuarray.scipy.special" in sys.modules
try:
    scipy.ndimage.gaussian_filter(cuarray.ones((8, 8)), 1.0)
except TypeError as e:
    assert "call `cuarray.scipy.ndimage.gaussian_filter`" in str(e), str(e)
else:
    raise AssertionError("scipy.ndimage.gaussian_filter ran on a cuarray array")
try:
    sps.spherical_jn(2, gx)
except TypeError as e:
    assert "`cuarray.scipy.special.spherical_jn`" in str(e), str(e)
else:
    raise AssertionError("scipy.special.spherical_jn ran on a cuarray array")
print("ok")
'''


@pytest.mark.parametrize("mode", ["unset", "1"])
def test_scipy_special_on_cuarray_arrays(mode):
    env = dict(os.environ)
    env.pop("SCIPY_ARRAY_API", None)
    if mode != "unset":
        env["SCIPY_ARRAY_API"] = mode
    r = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr[-3000:]
