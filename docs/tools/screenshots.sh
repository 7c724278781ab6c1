#!/usr/bin/env bash
# Headless Chromium screenshots of a built site: the home page, an API page, the benchmark page.
# Usage: docs/tools/screenshots.sh SITE_DIR OUT_DIR   (SITE_DIR: sphinx-build's html output)
# Needs chromium (Debian: apt-get install chromium). Not run in CI (the browser is ~300 MB).
set -euo pipefail
site="$(cd "$1" && pwd)"; out="$2"; mkdir -p "$out"
for page in index api/cuarray.linalg api/generated/cuarray.lazy benchmarks; do
    [ -f "$site/$page.html" ] || { echo "skip $page (not built)"; continue; }
    name="$(echo "$page" | tr / _)"
    chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,1000 \
        --screenshot="$out/$name.png" "file://$site/$page.html" 2>/dev/null
    echo "$out/$name.png"
done
