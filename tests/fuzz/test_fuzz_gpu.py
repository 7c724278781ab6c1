"""The differential fuzzer on the GPU: cuarray against NumPy on values, dtypes, shapes and
exception classes, for a time box or a number of calls. Prints calls/s, the mismatches with a
reproducer each, and the kernels this run loaded and compiled (NVRTC runs).

    pytest -m gpu -s tests/fuzz/test_fuzz_gpu.py --fuzz-seconds 120 --fuzz-seed 1
    pytest -m gpu -s tests/fuzz/test_fuzz_gpu.py --fuzz-rows issue35b --fuzz-seconds 500 --fuzz-seed 2

    CUARRAY_FUZZ_CALLS=100000 pytest -m gpu -n 15 tests/fuzz/test_fuzz_gpu.py -k fuzz_against --fuzz-seed 3
    pytest -m gpu -s tests/fuzz/test_fuzz_gpu.py --fuzz-rows issue54 --fuzz-calls 20000

(--fuzz-rows: substrings of row keys, or a row group's name: issue35b, the rows of the second pass;
issue54, the rows of issue 54's classes; edges, the keywords and call forms of the edge pass. --fuzz-calls, or $CUARRAY_FUZZ_CALLS, bounds the run by
calls instead of the time box, split into --fuzz-chunks tests, 15 by default, for xdist; the terminal
summary prints the total calls and mismatches, then the counts per kind of input, per kind of mismatch,
per listed difference, per function with a mismatch or a listed difference, and the gaps (rows NumPy
never answered, rows with float input never given NaN, inf, -0.0, a subnormal or a huge value);
$CUARRAY_FUZZ_REPORT=PATH writes the table of every function there. No row is left out and no mismatch
is counted as known: a difference docs/differences.md lists ("Differences the fuzzer lists",
fuzz_allowances.py) is reported as listed, apart from the mismatches.)

200 000 calls in one device call (the fuzzer's host side adds ~0.5 ms a call to cuarray's own time;
on a cold kernel cache the first NVRTC compiles of each worker dominate):

    CUARRAY_FUZZ_CALLS=200000 CUARRAY_FUZZ_REPORT=$OUT/fuzz-report.txt \
        pytest -m gpu -n 15 tests/fuzz/test_fuzz_gpu.py -k fuzz_against --fuzz-seed N
"""

from __future__ import annotations

import numpy as np
import pytest

import cuarray as cp
import fuzz_catalog as fc
import fuzz_regressions
import fuzz_values
import fuzzlib
from cuarray.cuda import compiler

pytestmark = pytest.mark.gpu


def _sync():
    cp.cuda.Stream.null.synchronize()
    cp.check_index_errors()


def _gpu_side():
    return fuzzlib.Side(cp, name="cuarray", upload=cp.asarray, to_host=lambda x: x.get() if isinstance(x, cp.ndarray) else x,
                        sync=_sync)


@pytest.fixture
def nvrtc_runs(monkeypatch):
    """Counts NVRTC compiles (a test may wrap the compiler's one NVRTC entry point)."""
    runs = []
    real = compiler._nvrtc_compile

    def counted(*a, **k):
        runs.append(1)
        return real(*a, **k)

    monkeypatch.setattr(compiler, "_nvrtc_compile", counted)
    return runs


def test_fuzz_against_numpy(request, nvrtc_runs, fuzz_chunk, record_property):
    """Every row (none left out, no mismatch counted as known). With a number of calls the run is
    split into chunks (--fuzz-chunks, 15 by default), consecutive case ranges of the seed, one test
    each, which xdist runs in parallel; the terminal summary adds up their counts."""
    opt = request.config.getoption
    seconds, calls, seed = opt("--fuzz-seconds"), opt("--fuzz-calls"), opt("--fuzz-seed")
    chunk, chunks = fuzz_chunk
    pick = [p for p in opt("--fuzz-rows").split(",") if p]
    rows = [r for r in fc.ROWS if not pick or any(p in r.key or p == r.group for p in pick)]
    modules_before = len(compiler._modules)
    if calls:
        first, count = fuzzlib.chunk_cases(calls, chunks, chunk)
        st = fuzzlib.fuzz(rows, seed, fuzzlib.Side(np), _gpu_side(), calls=count, start=first)
    else:
        st = fuzzlib.fuzz(rows, seed, fuzzlib.Side(np), _gpu_side(), seconds=seconds / chunks,
                          start=chunk * 10 ** 9)
    loaded = len(compiler._modules) - modules_before
    record_property("fuzz_calls", st.calls)
    record_property("fuzz_mismatches", len(st.mismatches))
    record_property("fuzz_stats", st.to_json())  # (tests/fuzz/conftest.py adds the chunks' counts up)
    print("\n" + st.summary())
    for x in st.listed[:20]:
        print(x)
    print("fuzz: seed {}, chunk {} of {}, {} rows; kernels (modules) loaded: {}, NVRTC compiles: {} ({:.2f} per "
          "call)".format(seed, chunk, chunks, len(rows), loaded, len(nvrtc_runs), len(nvrtc_runs) / max(1, st.calls)))
    by_row = {}
    for m in st.mismatches:
        by_row.setdefault(m.row, []).append(m)
    for key, ms in sorted(by_row.items()):
        print("\n{} mismatch(es) in {}; first:\n{}".format(len(ms), key, ms[0]))
    assert not st.mismatches, "{} mismatches in {} rows (printed above)".format(len(st.mismatches), len(by_row))


@pytest.mark.parametrize("key,seed,index,generation", fuzz_regressions.all_cases())
def test_regression_cases(key, seed, index, generation):
    if fuzz_regressions.numpy_too_old((key, seed, index)):
        pytest.skip("NumPy {} answers this case as an older NumPy did".format(np.__version__))
    with fuzz_values.generation(generation):  # (the generators the case was found with)
        res = fuzzlib.run_case(fc.BY_KEY[key], seed, index, fuzzlib.Side(np), _gpu_side())
    assert not isinstance(res, fuzzlib.Mismatch), str(res)
