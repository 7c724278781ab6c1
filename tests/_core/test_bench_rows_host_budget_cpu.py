"""Python work per call of the host-bound bench rows' operations, on the fake device: a budget of
Python calls (function and C calls, as sys.setprofile counts them), the launches and the cuBLAS
calls. Host timings of a few µs move by 30% between runs and machines; these counts do not, so a
change that adds work to one of these paths fails here instead of surfacing as a bench row "within
noise or not" (issue 49's before/after bench: seed-exp[device], seed-table1 and matmul-host were
flagged in one pair of runs; their counts were equal in both trees, 18 / 45-46 / 19).

The launch is counted by a launch hook that does not call the fake launch (its cuda.core-style
plumbing is the fake's, not the GPU's C launcher), cuBLAS by an observer that makes no call. To
raise a budget, say in the commit what the new calls buy.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from cuarray.testing.fake_device import COUNTING_PRELUDE, SCRIPT_PRELUDE

_SCRIPT = SCRIPT_PRELUDE + COUNTING_PRELUDE + textwrap.dedent('''
    import json, sys
    import numpy as np
    import cuarray as cp
    from cuarray.testing.fake_device import python_calls

    x = cp.empty(230400, np.float32)        # seed-exp
    a16 = cp.empty(16, np.float32)           # ew-small
    o16 = cp.empty(16, np.float32)           # an output given: out=, in-place operators
    m = cp.empty((64, 64), np.float32)       # matmul-host
    kept = {}
    cases = {
        "exp": lambda: kept.__setitem__("r", cp.exp(x)),  # the previous result freed as in the row
        "add": lambda: a16 + a16,
        "arange_T2": lambda: cp.arange(10**6).reshape(1000, -1).T * 2,  # seed-table1, seed-slide
        "matmul": lambda: m @ m,
        "add_out": lambda: cp.add(a16, a16, out=o16),
        "iadd": lambda: o16.__iadd__(a16),      # o16 += a16
        "imul_scalar": lambda: o16.__imul__(2.0),
    }

    count = python_calls

    out = {}
    for name, f in cases.items():
        for _ in range(5):  # warm: kernels, configs, pool bins, memoised plans
            f()
        del launches[:], blas[:]
        out[name] = [count(f), len(launches), list(blas)]
    print(json.dumps(out))
''')

# name: (Python calls at most, launches, cuBLAS calls). The counts include the launch hook's call
# and, for matmul, the observer's `library` call (19 without an observer).
_BUDGET = {
    "exp": (18, 1, []),
    "add": (18, 1, []),
    "arange_T2": (46, 2, []),
    "matmul": (20, 0, ["gemm"]),
    # an output given (the full path: 59 / 62 / 59 calls before the prepared launcher's `into`)
    "add_out": (20, 1, []),
    "iadd": (22, 1, []),
    "imul_scalar": (22, 1, []),
}


def test_host_bound_rows_stay_within_their_python_call_budget():
    proc = subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    for name, (calls, n_launch, blas) in _BUDGET.items():
        c, nl, b = got[name]
        assert (nl, b) == (n_launch, blas), (name, got[name])
        assert c <= calls, "{}: {} Python calls a call, budget {}".format(name, c, calls)
