"""The fuzzer finds each kind of bug a randomized comparison with NumPy 2.5 found in cuarray where
its draws did not go: run against NumPy with that bug put back by hand (fuzz_faults.Faulty), over
the catalog rows that reach it, it reports a mismatch of the bug's kind within a small budget
(fuzz_faults.FAULTS: about 240 calls, well under a second or two each). The same run reports
nothing in any other row, and the faulty rows only where the fault changed the answer."""

from __future__ import annotations

import numpy as np
import pytest

import fuzz_catalog as fc
import fuzz_faults
import fuzz_report
import fuzzlib


@pytest.mark.parametrize("kind", sorted(fuzz_faults.FAULTS))
def test_fuzzer_finds_the_fault(kind):
    fault = fuzz_faults.FAULTS[kind]
    rows = [fc.BY_KEY[k] for k in fault.rows]
    st = fuzzlib.fuzz(rows, 1, fuzzlib.Side(np), fuzzlib.Side(fuzz_faults.Faulty(kind)), calls=fault.calls)
    kinds = {fuzz_report.mismatch_kind(m.what) for m in st.mismatches}
    assert kinds & set(fault.mismatch), "{}: {} calls found {}".format(kind, st.calls, kinds or "nothing")
    assert not st.listed, [str(x) for x in st.listed]
