"""Without a driver, `launch.implementation()` and `python -m cuarray info` give one answer (they
said cuda.core and native), and asking decides nothing for a later driver."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from cuarray.cuda import _backend

pytestmark = pytest.mark.skipif(_backend.unavailable_reason() is None, reason="checks a machine without a driver")

_CODE = ("import cuarray._info as i; from cuarray.cuda import launch; impl = launch.implementation(); "
         "row = dict(i._cores())['kernel launch']; assert launch._raw is None; print(impl, '|', row)")


@pytest.mark.parametrize("pure, want", [("0", "native"), ("1", "cuda.core")])
def test_implementation_agrees_with_info(pure, want):
    env = dict(os.environ, CUARRAY_PURE_PYTHON_LAUNCH=pure)
    out = subprocess.run([sys.executable, "-c", _CODE], capture_output=True, text=True, env=env, check=True)
    impl, row = (part.strip() for part in out.stdout.split("|"))
    if want == "native" and "not built" in row:
        want = "cuda.core"
    assert impl == want and row.split()[0] == want
