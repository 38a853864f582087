#!/bin/sh
# Which fuzz targets can reach a function: builds every target with its
# functions static (PROPER_STATIC), not inlined, and unused sections dropped,
# and lists the targets whose binary still holds any of the named functions.
# A change to a function no target reaches needs no new fuzzing; a target
# listed here does (scripts/fuzz.sh NAME). The call graph is static, so a
# target listed may still never call the function on any input.
# Usage: scripts/fuzz-reach.sh FUNCTION...
set -eu
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: scripts/fuzz-reach.sh FUNCTION...  (e.g. proper__dtmc_ctmc_steady_mean)" >&2; exit 2; }
out=build/reach
mkdir -p "$out"
for src in tests/fuzz/fuzz_*.c; do
    name=$(basename "$src" .c)
    ${CC:-gcc} -O1 -fno-inline -DPROPER_STATIC -ffunction-sections -Wl,--gc-sections -o "$out/$name" "$src" -lm
    found=$(nm "$out/$name" | awk -v want="$*" '
        BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) keep[w[i]] = 1 }
        ($3 in keep) && !seen[$3]++ { printf "%s ", $3 }')
    [ -z "$found" ] || echo "${name#fuzz_}: $found"
done
