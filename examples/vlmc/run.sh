#!/bin/sh
# Build the nine instrumented benchmark programs (examples/vlmc/programs.h),
# write their location traces, learn VLMCs with `proper vlmc`, and (with
# --tables) run Figure 16 and Table 4's experiments on them. These are the
# CFG-level programs; the thesis's own tables: scripts/vlmc-tables.sh.
#
#   sh examples/vlmc/run.sh [--runs N] [--tables]
#
# Output goes to build/examples/vlmc/: PROGRAM.runs (traces), PROGRAM.cfg,
# PROGRAM.pst (the tree), PROGRAM.steps.csv (steps to termination,
# empirical and learned), tables.md with --tables.
set -e
cd "$(dirname "$0")/../.."
RUNS=10000
TABLES=0
while [ $# -gt 0 ]; do
    case "$1" in
    --runs) RUNS=$2; shift 2 ;;
    --tables) TABLES=1; shift ;;
    *) echo "usage: sh examples/vlmc/run.sh [--runs N] [--tables]" >&2; exit 2 ;;
    esac
done
CC=${CC:-cc}
OUT=build/examples/vlmc
mkdir -p "$OUT"
[ -x bin/proper ] || make -s bin/proper
$CC -std=c99 -Wall -Wextra -O2 -o "$OUT/vlmc-gen" examples/vlmc/gen.c -lm -lpthread
$CC -std=c99 -Wall -Wextra -O2 -o "$OUT/vlmc-tables" examples/vlmc/tables.c -lm -lpthread
for p in double_loop nested_loop bubble_sort insertion_sort quick_sort binary_search newton_sqrt euclid_gcd miller_rabin; do
    "$OUT/vlmc-gen" $p -n "$RUNS" > "$OUT/$p.runs"
    "$OUT/vlmc-gen" $p --cfg > "$OUT/$p.cfg"
    echo "== $p ($RUNS runs)"
    bin/proper vlmc fit "$OUT/$p.runs" --cfg "$OUT/$p.cfg" --pst "$OUT/$p.pst"
    bin/proper vlmc steps "$OUT/$p.runs" --cfg "$OUT/$p.cfg" --csv > "$OUT/$p.steps.csv"
    bin/proper vlmc steps "$OUT/$p.runs" --cfg "$OUT/$p.cfg" | head -1
done
if [ "$TABLES" = 1 ]; then
    "$OUT/vlmc-tables" -n 100000 > "$OUT/tables.md"
    echo "tables: $OUT/tables.md"
fi
