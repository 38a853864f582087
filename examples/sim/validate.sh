#!/bin/sh
# Trace examples/sim/pool.c once (4 workers, all cores, 1000 requests/s),
# build its model with `proper sim build`, then for workers x cores x rates
# measure the uninstrumented program (RUNS runs, pinned with taskset) and
# predict with `proper sim run`; prints one tab-separated row per
# configuration with the 1-minute load average at the time of the
# measurement. The measurements mean something only on quiet cores.
#
#   examples/sim/validate.sh [OUTDIR]     (PROPER=bin/proper, RUNS=3)
set -eu
cd "$(dirname "$0")/../.."
out=${1:-build/sim-validate}
P=${PROPER:-bin/proper}
RUNS=${RUNS:-3}
WORKERS=${WORKERS:-"1 2 4 8 16"}
CORES=${CORES:-"1 2"}
RATES=${RATES:-"300 900 1500"}
mkdir -p "$out"
make -s build/ex/sim-pool
build/ex/sim-pool --workers 4 --rate 1000 --requests 4000 --trace "$out/pool.trace" > "$out/traced.txt"
"$P" sim build "$out/pool.trace" -o "$out/pool.sim"
printf 'workers\tcores\trate\tload1\tmeasured_tput\tmeasured_resp\tmeasured_p95\tpredicted_tput\tpredicted_resp\tpredicted_p95\n'
for c in $CORES; do
    cpus=$(seq -s, 0 $((c - 1)))
    for w in $WORKERS; do
        for r in $RATES; do
            n=$(awk -v r="$r" 'BEGIN { printf "%d", r * 2 }')
            load=$(cut -d' ' -f1 /proc/loadavg)
            i=0; : > "$out/m.txt"
            while [ $i -lt "$RUNS" ]; do
                taskset -c "$cpus" build/ex/sim-pool --workers "$w" --rate "$r" --requests "$n" --seed $((i + 1)) >> "$out/m.txt"
                i=$((i + 1))
            done
            meas=$(awk '{ t += $6; m += $8; p += $10 } END { printf "%.6g\t%.6g\t%.6g", t / NR, m / NR, p / NR }' "$out/m.txt")
            pred=$("$P" sim run "$out/pool.sim" --workers "$w" --cores "$c" --rate "$r" --horizon 30 --replications 5 --json |
                python3 -c 'import json,sys; d=json.load(sys.stdin); print("%.6g\t%.6g\t%.6g" % (d["throughput"]["estimate"], d["response_mean"]["estimate"], d["response_quantile"]["estimate"]))')
            printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$w" "$c" "$r" "$load" "$meas" "$pred"
        done
    done
done
