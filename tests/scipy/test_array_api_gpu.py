"""SciPy's own array-API code on cuarray arrays (SCIPY_ARRAY_API=1): each function docs/scipy.md
lists as working directly gives SciPy's NumPy answer. Run in a subprocess, since SciPy reads the
variable when it is first imported."""

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

# name: an expression over `xp` (numpy or cuarray), `sp` (the scipy module) and `x`, `y` (arrays).
CASES = {
    "special.logsumexp": "sp.special.logsumexp(x, axis=1)",
    "special.softmax": "sp.special.softmax(x, axis=0)",
    "stats.zscore": "sp.stats.zscore(x, axis=0)",
    "stats.skew": "sp.stats.skew(x, axis=1)",
    "stats.kurtosis": "sp.stats.kurtosis(x, axis=0)",
    "stats.moment": "sp.stats.moment(x, 3, axis=0)",
    "stats.gmean": "sp.stats.gmean(abs(x) + 1, axis=0)",
    "stats.variation": "sp.stats.variation(abs(x) + 1, axis=0)",
    "fft.rfft": "sp.fft.rfft(x, axis=-1)",
    "fft.fft": "sp.fft.fft(x, axis=0)",
    "signal.fftconvolve": "sp.signal.fftconvolve(x, y, mode='same')",
    "signal.correlate": "sp.signal.correlate(x, y, mode='same', method='fft')",
}

SCRIPT = r'''
import sys, numpy as np, scipy, scipy.special, scipy.stats, scipy.fft, scipy.signal, cuarray
sp = scipy
rng = np.random.default_rng(0)
hx, hy = rng.normal(size=(16, 24)), rng.normal(size=(5, 7))
expr = sys.argv[1]
want = eval(expr, {"sp": sp, "x": hx, "y": hy, "abs": abs})
got = eval(expr, {"sp": sp, "x": cuarray.asarray(hx), "y": cuarray.asarray(hy), "abs": abs})
assert isinstance(got, cuarray.ndarray), type(got)
np.testing.assert_allclose(got.get(), want, rtol=1e-10, atol=1e-12)
print("ok")
'''


@pytest.mark.parametrize("name", sorted(CASES))
def test_scipy_array_api_function_runs_on_cuarray(name):
    env = dict(os.environ, SCIPY_ARRAY_API="1")
    r = subprocess.run([sys.executable, "-c", SCRIPT, CASES[name]], capture_output=True, text=True, env=env)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr[-2000:]
