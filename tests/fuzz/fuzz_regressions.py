"""Cases the fuzzer found bugs with, kept as regression tests: (row key, seed, index), re-made by
`fuzzlib.case_rng` and run by tests/fuzz/test_fuzz_cpu.py (host-only path) and test_fuzz_gpu.py.
Add a line for each mismatch a fuzz run prints once its fix is in."""

# (row key, seed, index) of mismatches found and fixed: printed by the fuzzer with each reproducer.
# The host-only mode's first finds (fixed on h-fuzz) are direct tests in test_issue35_rows.py.
CASES = []

# Found and not fixed yet (the rows are skipped by the host-only test until they are):
#   reason per row; the fuzzer prints each case's reproducer.
KNOWN = {
    "power(a b)": "integer power with a negative *array* exponent: NumPy raises ValueError only when it sees "
                  "the value; cuarray cannot without a sync (documented)",
    "full(shape s)": "full(shape, 2**64) without dtype: NumPy makes an object array (unsupported, TypeError)",
}
