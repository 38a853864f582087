#!/bin/sh
# Napolitano's thesis, ch. 4, Tables 1-3 and the random-network what-if
# study: "published vs proper", as Markdown on stdout (docs/qn-results.md
# holds a run). Works from a clean clone: builds examples/qn/tables.c with
# the C compiler and runs it.
#
#   sh scripts/qn-tables.sh [tables options]     e.g. --table 2, --quick
#   sh scripts/qn-tables.sh ctmc [--seed S] [--horizon T]
#
# Options go to examples/qn/tables.c (see its header: --table 1|2|3|whatif,
# --seed, --networks, --train, --test, --runs, --quick). "ctmc" runs
# examples/qn/ctmc.c instead: mean-field, SSA and the exact CTMC on small
# populations.
set -e
cd "$(dirname "$0")/.."
CC=${CC:-cc}
OUT=build/examples/qn
mkdir -p "$OUT"
PROGRAM=tables
if [ "$1" = ctmc ]; then PROGRAM=ctmc; shift; fi
$CC -std=c99 -Wall -Wextra -O2 -o "$OUT/$PROGRAM" "examples/qn/$PROGRAM.c" -lm
"$OUT/$PROGRAM" "$@"
