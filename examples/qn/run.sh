#!/bin/sh
# Reproduce the queueing-network experiments of Napolitano's thesis (ch. 4):
# the load balancer of Table 1 through the `proper qn` command line, then
# every table with examples/qn/thesis.c (Markdown to build/examples/qn/
# results.md; docs/qn-results.md keeps a run).
#
#   sh examples/qn/run.sh [--quick] [thesis options...]
#
# Default scale: 10 random networks per size, 20 training population vectors
# (5 at light load, --light 5, so that every station is seen below its
# server count; 15 at mixed loads, --pop-scale 0; the thesis used 100
# vectors, see docs/qn-results.md), 10 test vectors, 20 SSA runs per trace;
# about 30 min. Other options go to thesis.c, e.g. --exact: fit with the
# exact scheme and predict by RK4 (slower).
# --quick: 3 networks, 10 training and 5 test vectors, light loads (1 min).
set -e
cd "$(dirname "$0")/../.."
CC=${CC:-cc}
OUT=build/examples/qn
mkdir -p "$OUT"
[ -x bin/proper ] || make -s bin/proper
$CC -std=c99 -Wall -Wextra -O2 -march=native -o "$OUT/thesis" examples/qn/thesis.c -lm

# The load balancer with the CLI: one SSA trace (a single measured system),
# moving-horizon estimation of the server rates with the think rate known.
bin/proper qn simulate --network examples/qn/loadbalancer.csv --population 5500,0,0 \
    --dt 0.01 --steps 2000 --runs 1 --seed 2022 -o "$OUT/lb_trace.csv"
bin/proper qn fit "$OUT/lb_trace.csv" --method qp --network examples/qn/loadbalancer.csv \
    --known 1,0,0 --horizon 100 -o "$OUT/lb_mhe.csv"
awk -F, 'NR > 1 { e2 += ($3 - 68.97) / 68.97; a2 += ($3 > 68.97 ? $3 - 68.97 : 68.97 - $3) / 68.97;
                  e3 += ($4 - 73.80) / 73.80; a3 += ($4 > 73.80 ? $4 - 73.80 : 73.80 - $4) / 73.80; n++ }
         END { printf "load balancer MHE (%d windows): mean |error| %.2f%% and %.2f%%\n", n, 100 * a2 / n, 100 * a3 / n }' \
    "$OUT/lb_mhe.csv"

if [ "$1" = "--quick" ]; then
    shift
    "$OUT/thesis" --quick "$@" > "$OUT/results.md"
else
    "$OUT/thesis" --train 20 --light 5 --pop-scale 0 "$@" > "$OUT/results.md"
fi
echo "tables: $OUT/results.md"
