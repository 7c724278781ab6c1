"""Python call counts of one call of `f` (function and C-function calls, as sys.setprofile sees
them): the host-path tests' measure of work, which timing noise hides. (scripts/perf/_calls.py is
the perf scripts' copy: the tests do not import scripts.)"""

import sys


def python_calls(f) -> int:
    n = [0]

    def prof(frame, event, arg):
        if event in ("call", "c_call"):
            n[0] += 1

    sys.setprofile(prof)
    try:
        f()
    finally:
        sys.setprofile(None)
    return n[0]
