#!/usr/bin/env bash
# One call on the GPU machine: install missing wheels (if a folder of them is given), run the
# whole test suite (GPU tests included) and the benchmarks, and write everything to OUTDIR.
#
#   scripts/gpu_run.sh OUTDIR [WHEELDIR] [BENCH_ARGS...]
#
# OUTDIR gets: info.txt (python -m cuarray info), tests.txt (+ junit.xml, failures.txt, done.txt), bench.txt, bench.json.
# CUARRAY_TESTS: the test paths and options to run (default: tests).
set -uo pipefail
OUT=${1:?usage: scripts/gpu_run.sh OUTDIR [WHEELDIR] [BENCH_ARGS...]}
WHL=${2:-}
shift $(( $# >= 2 ? 2 : 1 ))
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
if [ -n "$WHL" ] && compgen -G "$WHL/*.whl" >/dev/null; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
        --target /tmp/cuarray-site "$WHL"/*.whl || exit 1
    export PYTHONPATH=/tmp/cuarray-site${PYTHONPATH:+:$PYTHONPATH}
fi
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH}
# One kernel cache for all test workers and the benchmark, so each kernel compiles once.
export CUARRAY_CACHE_DIR=${CUARRAY_CACHE_DIR:-/tmp/cuarray-kernel-cache}

# Bytecode for cuarray's own modules, as `pip install` writes it: the copied tree has none, and each
# fresh process (the bench's first-call rows, test workers) would compile ~100 modules from source
# (0.1-0.2 s of a first call on the H100: scripts/perf/first_call_probe.py), which no installed
# library pays. Explicit, so that PYTHONDONTWRITEBYTECODE there does not matter.
python3 -m compileall -q -j 0 cuarray > /dev/null 2>&1 || echo "compileall failed: cuarray runs from source"
python3 -m cuarray info > "$OUT/info.txt" 2>&1
tail -n 25 "$OUT/info.txt"
# --failure-log: each failure's traceback is in failures.txt as it happens, so a run stopped by
# its time limit still says what failed and why (pytest prints its own report only at the end).
timeout 420 python3 -m pytest -q -n 12 -p no:cacheprovider --timeout 240 --failure-log "$OUT/failures.txt" --done-log "$OUT/done.txt" \
    --junitxml "$OUT/junit.xml" --maxfail=300 ${CUARRAY_TESTS:-tests} 2>&1 | tee "$OUT/tests.txt" | tail -n 60
grep "^=== " "$OUT/failures.txt" 2>/dev/null | head -n 80
timeout 420 python3 -m cuarray.bench --json "$OUT/bench.json" "$@" 2>&1 | tee "$OUT/bench.txt" | tail -n 60
