#!/usr/bin/env bash
# Builds every fuzz target and runs each for a few seconds from its seeds: proves each still compiles
# against CatalogCore and that no seed or early mutation crashes. `.ci/run` calls it.
# Usage: Fuzz/smoke.sh [SECONDS]   (default 5 per target)
set -euo pipefail
seconds="${1:-5}"
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mkdir -p Fuzz/.build
failed=()
for file in Fuzz/Targets/*.swift; do
    target=$(basename "$file" .swift)
    if Fuzz/run.sh "$target" "$seconds" >"Fuzz/.build/smoke-$target.log" 2>&1; then
        echo "fuzz smoke: $target ok"
    else
        failed+=("$target")
        tail -40 "Fuzz/.build/smoke-$target.log" >&2
        echo "fuzz smoke: $target FAILED"
    fi
done
if [ "${#failed[@]}" -gt 0 ]; then
    echo "fuzz smoke: failed: ${failed[*]} (logs in Fuzz/.build/smoke-*.log)" >&2
    exit 1
fi
