#!/usr/bin/env bash
# cuDSS (the `cuarray[cudss]` extra, wheel nvidia-cudss-cu13 0.x, ~80 MB: nvmath-python 1.0 loads libcudss.so.0) for the GPU machine, whose
# calls carry at most 64 MiB and which cannot reach a package index: split the wheel here into
# parts of at most 40 MiB, send one part a call to ONE warm machine, reassemble and install there.
#
# Here (the machine with the index), once:
#   scripts/cudss_to_device.sh split [WHEEL]
#       downloads the wheel (pip download --no-deps) unless WHEEL is given, and writes
#       .cudss/parts/part-00, part-01, ... (<= 40 MiB each) and .cudss/parts/MANIFEST (the wheel's
#       file name, the number of parts, sha256 of the wheel and of every part). .cudss/ is ignored
#       by git; carry it explicitly.
#
# On the GPU machine (the device `run` tool), consecutive calls to the same warm machine:
#   call k (k = 0 .. N-1), carry [".cudss/parts/part-0k", ".cudss/parts/MANIFEST"]:
#       bash scripts/cudss_to_device.sh receive
#     copies the carried part(s) to /tmp/cudss-parts (kept between calls while the machine is warm);
#   last call (may be the same as the last receive):
#       bash scripts/cudss_to_device.sh install
#     checks every part's sha256, reassembles the wheel under /tmp/cudss-wheel, checks its sha256,
#     and installs it with pip --no-deps --target /tmp/cudss-site (its cuBLAS/NVRTC dependencies are
#     the cu13 extra's, already there).
#   every later command that needs cuDSS first runs:
#       eval "$(bash scripts/cudss_to_device.sh env)"
#     (PYTHONPATH and LD_LIBRARY_PATH for /tmp/cudss-site; cuda.pathfinder then finds
#     libcudss.so.0 by the system search), e.g.
#       eval "$(bash scripts/cudss_to_device.sh env)"; python3 -m pytest -q tests/cuarray_sparse/test_direct_gpu.py
#
#   scripts/cudss_to_device.sh check   (either machine) says whether cuarray loads cuDSS.
set -euo pipefail
HERE=$(cd "$(dirname "$0")/.." && pwd)
PARTS=$HERE/.cudss/parts
RECV=/tmp/cudss-parts
WHEEL_DIR=/tmp/cudss-wheel
SITE=/tmp/cudss-site
PART_SIZE=40M

case "${1:-}" in
split)
    mkdir -p "$HERE/.cudss/download" "$PARTS"
    whl=${2:-}
    if [ -z "$whl" ]; then
        python3 -m pip download -q --no-deps -d "$HERE/.cudss/download" "nvidia-cudss-cu13>=0.8,<1"
        whl=$(ls "$HERE"/.cudss/download/nvidia_cudss_cu13-*.whl | head -n 1)
    fi
    rm -f "$PARTS"/part-* "$PARTS/MANIFEST"
    split -b "$PART_SIZE" -d -a 2 "$whl" "$PARTS/part-"
    {
        echo "wheel $(basename "$whl")"
        echo "parts $(ls "$PARTS"/part-* | wc -l)"
        echo "sha256 $(sha256sum "$whl" | cut -d' ' -f1) wheel"
        (cd "$PARTS" && sha256sum part-*)
    } > "$PARTS/MANIFEST"
    cat "$PARTS/MANIFEST"
    ls -l "$PARTS"
    echo "send each part in its own call: carry [\".cudss/parts/part-NN\", \".cudss/parts/MANIFEST\"], command:"
    echo "  bash scripts/cudss_to_device.sh receive   (then, after the last one: bash scripts/cudss_to_device.sh install)"
    ;;
receive)
    mkdir -p "$RECV"
    test -f "$PARTS/MANIFEST" || { echo "no .cudss/parts/MANIFEST carried"; exit 1; }
    cp "$PARTS/MANIFEST" "$RECV/MANIFEST"
    for p in "$PARTS"/part-*; do
        [ -f "$p" ] && cp "$p" "$RECV/" && echo "received $(basename "$p") ($(stat -c %s "$p") bytes)"
    done
    ls "$RECV"
    ;;
install)
    test -f "$RECV/MANIFEST" || { echo "nothing received in $RECV"; exit 1; }
    name=$(awk '$1 == "wheel" {print $2}' "$RECV/MANIFEST")
    want=$(awk '$1 == "sha256" {print $2}' "$RECV/MANIFEST")
    (cd "$RECV" && grep '^[0-9a-f]\{64\}  part-' MANIFEST | sha256sum -c -) || { echo "a part is missing or damaged"; exit 1; }
    mkdir -p "$WHEEL_DIR"
    cat "$RECV"/part-* > "$WHEEL_DIR/$name"
    echo "$want  $WHEEL_DIR/$name" | sha256sum -c -
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$SITE" \
        "$WHEEL_DIR/$name"
    ls -l "$SITE"/nvidia/cu13/lib/libcudss.so.0
    ;;
env)
    echo "export LD_LIBRARY_PATH=$SITE/nvidia/cu13/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
    echo "export PYTHONPATH=\${PYTHONPATH:+\$PYTHONPATH:}$SITE"
    ;;
check)
    cd "$HERE"
    PYTHONPATH=$HERE${PYTHONPATH:+:$PYTHONPATH} python3 -c \
        "from cuarray.cuda.libs import cudss; print('cuDSS available:', cudss.available())"
    ;;
*)
    sed -n '2,35p' "$0"
    exit 2
    ;;
esac
