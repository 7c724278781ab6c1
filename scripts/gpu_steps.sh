#!/usr/bin/env bash
# Steps of a device call on a GPU machine, in order, everything written to $OUT (or OUTDIR):
#
#   OUT=DIR scripts/gpu_steps.sh STEP...
#
#   gpu          the GPU tests (pytest -m gpu tests) for SUITE_T seconds
#   rest:DIR     the GPU tests not in DIR/done*.txt (--done-log files of earlier calls, carried in
#                DIR): the whole suite in two calls of one machine's time limit
#   list:FILE    the test ids in FILE, one a line (ids with spaces too)
#   fuzz         the GPU fuzzer, FUZZ_CALLS calls (200000) of seed FUZZ_SEED, FUZZ_T seconds
#   bench:CASES[:LIBS]   python -m cuarray.bench --cases CASES [--libs LIBS], BENCH_T seconds
#
# Wheels in WHL (default .whl; see README "Tests") are installed first. Every pytest step writes
# failures_<step>.txt (each traceback as it happens) and done_<step>.txt (each finished test, its
# outcome and seconds), so a step stopped by its time limit still says what failed and what ran.
# One kernel cache serves every step of a call and later calls on the same machine.
set -uo pipefail
OUT=${OUT:?set OUT to the output folder}
mkdir -p "$OUT"
WHL=${WHL:-.whl}
if compgen -G "$WHL/*.whl" > /dev/null; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/cuarray-site \
        "$WHL"/*.whl || exit 1
    export PYTHONPATH=/tmp/cuarray-site${PYTHONPATH:+:$PYTHONPATH}
fi
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
export CUARRAY_CACHE_DIR=${CUARRAY_CACHE_DIR:-/tmp/cuarray-kernel-cache}
python3 -m compileall -q -j 0 cuarray > /dev/null 2>&1
python3 -c "import numpy, scipy; print('numpy', numpy.__version__, 'scipy', scipy.__version__)"
WORKERS=${WORKERS:-$(nproc)}

run_pytest() {  # step name, then pytest's arguments
    local tag=$1
    shift
    timeout "${SUITE_T:-300}" python3 -m pytest -q -n "$WORKERS" -p no:cacheprovider --timeout 200 \
        --failure-log "$OUT/failures_$tag.txt" --done-log "$OUT/done_$tag.txt" "$@" > "$OUT/pytest_$tag.txt" 2>&1
    local rc=$?
    touch "$OUT/done_$tag.txt"
    echo "[$tag] rc=$rc finished=$(wc -l < "$OUT/done_$tag.txt") failed=$(grep -c ' failed [0-9.]*$' "$OUT/done_$tag.txt")"
    tail -n 2 "$OUT/pytest_$tag.txt"
    grep "^=== " "$OUT/failures_$tag.txt" 2> /dev/null | head -n 60
}

for step in "$@"; do
    case $step in
        gpu) run_pytest gpu -m gpu tests ;;
        rest:*)
            python3 -m pytest --collect-only -q -p no:cacheprovider -m gpu tests 2> /dev/null | grep "::" > /tmp/all_ids.txt
            # a done line is "<id> <outcome> <seconds>"; the id may hold spaces
            cat "${step#rest:}"/done*.txt 2> /dev/null | sed -E 's/ [a-z]+ [0-9.]+$//' | sort -u > /tmp/done_ids.txt
            grep -vxF -f /tmp/done_ids.txt /tmp/all_ids.txt > "$OUT/rest_ids.txt"
            echo "rest: $(wc -l < "$OUT/rest_ids.txt") of $(wc -l < /tmp/all_ids.txt) GPU tests"
            mapfile -t ids < "$OUT/rest_ids.txt"
            [ "${#ids[@]}" -eq 0 ] || run_pytest rest "${ids[@]}" ;;
        list:*)
            mapfile -t ids < "${step#list:}"
            run_pytest list "${ids[@]}" ;;
        fuzz)
            CUARRAY_FUZZ_CALLS=${FUZZ_CALLS:-200000} CUARRAY_FUZZ_REPORT=$OUT/fuzz-report.txt timeout "${FUZZ_T:-300}" \
                python3 -m pytest -m gpu -n 15 -p no:cacheprovider tests/fuzz/test_fuzz_gpu.py -k fuzz_against \
                --fuzz-seed "${FUZZ_SEED:-1}" --failure-log "$OUT/failures_fuzz.txt" > "$OUT/fuzz.txt" 2>&1
            echo "[fuzz] rc=$?"
            grep -h "^MISMATCH\|fuzz total\|fuzz summary" "$OUT/fuzz.txt" "$OUT/failures_fuzz.txt" 2> /dev/null | sort -u | head -n 40 ;;
        bench:*)
            spec=${step#bench:}
            cases=${spec%%:*}
            libs=()
            [ "$spec" = "$cases" ] || libs=(--libs "${spec#*:}")
            timeout "${BENCH_T:-300}" python3 -m cuarray.bench --cases "$cases" "${libs[@]}" --json "$OUT/bench.json" \
                > "$OUT/bench.txt" 2>&1
            echo "[bench] rc=$?"
            tail -n 40 "$OUT/bench.txt" ;;
        *) echo "unknown step: $step"; exit 2 ;;
    esac
done
