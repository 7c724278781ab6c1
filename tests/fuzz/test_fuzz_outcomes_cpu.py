"""The comparison rules that replaced the fuzzer's exclusion lists (issue 54): each agrees on the
implementation-defined case and still reports a wrong answer of the same shape."""

from __future__ import annotations

import numpy as np

import fuzz_catalog as fc
import fuzz_regressions
import fuzzlib

SINGULAR = np.array([[-6.0, -9.0], [-4.0, -6.0]])  # exactly singular (seed 184's slogdet matrix)
WELL = np.array([[2.0, 1.0], [1.0, 3.0]])


def _lin_alg_error():
    return ("raise", np.linalg.LinAlgError("Singular matrix"))


def test_no_exclusion_list_is_left():
    assert not hasattr(fuzz_regressions, "KNOWN") and not hasattr(fuzz_regressions, "KNOWN_WHAT")
    assert not hasattr(fuzz_regressions, "is_known")


def test_one_side_singular_agrees_only_for_a_singular_matrix():
    for key in ("linalg.inv(sq)", "linalg.solve(sq rhs)", "linalg.matrix_power(sq int)", "linalg.tensorinv(sq tind)",
                "linalg.tensorsolve(sq rhs)"):
        row = fc.BY_KEY[key]
        outcome = row.check.outcome
        huge = ("ok", np.full((2, 2), 1e17))
        for ref, test in ((_lin_alg_error(), huge), (huge, _lin_alg_error())):
            assert outcome(ref, test, row, ([SINGULAR, 3], {})) is None
            assert outcome(ref, test, row, ([SINGULAR.astype(np.float32), 3], {})) is None
            assert "well-conditioned" in outcome(ref, test, row, ([WELL, 3], {}))
        # another exception than LinAlgError is never excused
        assert outcome(("raise", ValueError("x")), huge, row, ([SINGULAR, 3], {}))
    # batched: one singular matrix of the batch is enough
    row = fc.BY_KEY["linalg.inv(sq)"]
    batch = np.stack([WELL, SINGULAR])
    assert row.check.outcome(_lin_alg_error(), ("ok", batch), row, ([batch], {})) is None
    # and an answer both give is compared as values
    assert row.check(np.eye(2), np.eye(2) * 2, row, ([WELL], {}))
    assert row.check(np.eye(2), np.eye(2), row, ([WELL], {})) is None


def test_run_case_asks_the_outcome_rule():
    row = fc.BY_KEY["linalg.inv(sq)"]

    class Side:
        values = True

        def __init__(self, out):
            self.out = out

        def outcome(self, row, args, kwargs):
            return self.out

    args, _ = row.make(fuzzlib.case_rng(row.key, 0, 0))
    res = fuzzlib.run_case(row, 0, 0, Side(_lin_alg_error()), Side(("ok", np.eye(2))))
    m = args[0].host()
    well = np.all(np.linalg.cond(m.astype(np.complex128 if m.dtype.kind == "c" else np.float64)) < 1e-3 / np.finfo(
        np.float32 if m.dtype.char in "fF" else np.float64).eps)
    assert (res is None) == (not well)


def test_polydiv_remainder_trimmed_on_one_side():
    row = fc.BY_KEY["polydiv(a1 a1)"]
    u, v = np.array([1.0, 3.0, 2.0 + 1e-9]), np.array([1.0, 1.0])
    q = np.array([1.0, 2.0])
    kept = (q, np.array([1e-9, 0.75]))
    trimmed = (q, np.array([0.75]))
    assert fc.BY_KEY["polydiv(a1 a1)"].check(kept, trimmed, row, ([u, v], {})) is None
    assert row.check(trimmed, kept, row, ([u, v], {})) is None
    assert row.check(kept, (q, np.array([0.8])), row, ([u, v], {}))  # the common tail differs
    assert row.check((q, np.array([0.5, 0.75])), trimmed, row, ([u, v], {}))  # 0.5 is no rounding noise
    assert row.check(kept, (q * 2, np.array([0.75])), row, ([u, v], {}))  # the quotient differs


def test_numpy_object_arrays_against_cuarray_type_error():
    row = fc.BY_KEY["full(shape s)"]

    class Side:
        values = True

        def __init__(self, out):
            self.out = out

        def outcome(self, row, args, kwargs):
            return self.out

    obj = ("ok", np.full(2, 2 ** 64, dtype=object))
    assert fuzzlib.run_case(row, 0, 0, Side(obj), Side(("raise", TypeError("no object dtype")))) is None
    assert fuzzlib.run_case(row, 0, 0, Side(obj), Side(("raise", ValueError("no")))) is not None
    assert fuzzlib.run_case(row, 0, 0, Side(("ok", np.zeros(2))), Side(("raise", TypeError("x")))) is not None


def test_chunks_cover_each_case_once():
    for calls, chunks in ((100000, 15), (7, 15), (30, 3), (1, 1), (14, 15)):
        seen = []
        for k in range(chunks):
            first, count = fuzzlib.chunk_cases(calls, chunks, k)
            seen += range(first, first + count)
        assert seen == list(range(calls))
