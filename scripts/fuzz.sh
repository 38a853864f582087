#!/bin/sh
# Fuzzes one target under libFuzzer (its -O1 build, build/libfuzz-O1/), nice'd,
# until it has used CPU_SECONDS of processor time (default 600: ten
# CPU-minutes, however loaded the machine), on a scratch copy of its corpus
# (tests/corpus/NAME is only read). A finding is written to
# build/libfuzz/fuzz_NAME-crash-... (or -timeout-, -oom-); add it to the
# corpus with its fix. Each run appends one line to
# tests/fuzz/ledger.tsv (date, target, commit, CPU s, wall s, executions,
# result), so the fuzzing a target has had adds up across sessions.
# Usage: scripts/fuzz.sh NAME [CPU_SECONDS]
#        scripts/fuzz.sh --totals   (each target's CPU seconds, executions and
#                                    findings in the ledger, against the hour)
set -eu
cd "$(dirname "$0")/.."
if [ "${1:-}" = --totals ]; then
    ls tests/fuzz | sed -n 's/^fuzz_\(.*\)\.c$/\1/p' | awk -F'\t' '
        FILENAME == "-" { cpu[$1] += 0; next }
        /^#/ { next }
        { cpu[$2] += $4; ex[$2] += $6; runs[$2]++; if ($7 != "clean") found[$2]++ }
        END {
            printf "%-12s %8s %6s %14s %8s  %s\n", "target", "CPU s", "runs", "executions", "findings", "hour"
            for (t in cpu)
                printf "%-12s %8d %6d %14d %8d  %s\n", t, cpu[t], runs[t], ex[t], found[t],
                       (cpu[t] >= 3600 ? "met" : sprintf("%d s to go", 3600 - cpu[t]))
        }' - tests/fuzz/ledger.tsv | { read -r head; echo "$head"; sort; }
    exit 0
fi
[ $# -ge 1 ] || { echo "usage: scripts/fuzz.sh NAME [CPU_SECONDS]  (NAME: $(ls tests/fuzz | sed -n 's/^fuzz_\(.*\)\.c$/\1/p' | tr '\n' ' '))" >&2; exit 2; }
name=$1; budget=${2:-600}
[ -f "tests/fuzz/fuzz_$name.c" ] || { echo "scripts/fuzz.sh: no target tests/fuzz/fuzz_$name.c" >&2; exit 2; }
make -s "build/libfuzz-O1/fuzz_$name"
work=build/libfuzz/long-$name
log=build/libfuzz/long-$name.log
mkdir -p "$work"
: > "$log"
cpu=0; wall=0; execs=0; result=clean
# One fuzzer process is single-threaded, so a chunk of W wall seconds uses at
# most W CPU seconds, plus the replay of the work corpus: libFuzzer checks
# -max_total_time only after it, so a last short chunk overshoots the budget
# by about the replay (props, 1,600 inputs: about 250 s).
while [ "$cpu" -lt "$budget" ] && [ "$result" = clean ]; do
    left=$((budget - cpu))
    [ "$left" -ge 5 ] || left=5 # the budget is met, never missed
    start=$(date +%s)
    /usr/bin/time -f 'cpu %U %S' -o "$log.time" nice -n 10 "build/libfuzz-O1/fuzz_$name" \
        -max_total_time="$left" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
        -artifact_prefix="build/libfuzz/fuzz_$name-" "$work" "tests/corpus/$name" 2>> "$log" || result=finding
    wall=$((wall + $(date +%s) - start))
    used=$(awk '/^cpu/ { printf "%d", $2 + $3 + 0.5 }' "$log.time")
    cpu=$((cpu + used))
    n=$(awk -F: '/stat::number_of_executed_units/ { v = $NF } END { printf "%d", v + 0 }' "$log")
    execs=$((execs + n))
    # the next chunk's executions are counted from its own final stats
    sed -i 's/stat::number_of_executed_units/counted::units/' "$log"
done
commit=$(git rev-parse --short HEAD 2>/dev/null || echo none)
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "$name" "$commit" "$cpu" "$wall" "$execs" "$result" \
    >> tests/fuzz/ledger.tsv
echo "fuzz_$name: $cpu CPU s in $wall s, $execs executions, $result (log: $log)"
[ "$result" = clean ]
