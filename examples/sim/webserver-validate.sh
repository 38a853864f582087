#!/bin/sh
# The web-server validation of docs/simulation-results.md §4 (Tarvo & Reiss
# §5): trace the example web server (examples/webserver/server.c) once with
# thread events (4 workers, both cores, one rate), build its model with
# `proper sim build`, then for workers x cores x rates measure the
# uninstrumented server (RUNS runs of examples/sim/httpload.c, an open
# Poisson workload) and predict with `proper sim run`. One tab-separated row
# per configuration on stdout, with the 1-minute load average before and
# after its measurement and the arrival rate the runs' samples actually had
# (`offered`); the raw runs, the table (OUTDIR/table.tsv) and its plots
# (examples/sim/webserver-plot.sh: OUTDIR/throughput-cC.svg,
# OUTDIR/response-cC.svg) are kept in OUTDIR.
#
#   sh examples/sim/webserver-validate.sh [--quick] [OUTDIR]
#
# The request: GET /dir5/ with `--probe scan` over a directory of FILLER
# files (the server reads the default-names file, scans the directory for
# each name until the 5th exists, then sends the 50 KB file), so most of a
# request is the worker's own CPU time. The server is pinned to cores
# 0..c-1 with taskset; with one core the client runs on core 1, with two it
# is not pinned (this machine has two cores: the client then shares them).
# Server and client run in the real-time class (chrt -f RT, RT=10) when the
# script may raise their priority (root): they then preempt every ordinary
# process at once (the kernel still leaves the others 5% of each second),
# so that other processes on a shared machine disturb the measurements as
# little as they can. RT=0 runs them at nice NICE (-20) instead, which on
# this machine's scheduler did not stop them from waiting for others (docs/
# simulation-results.md §4.1). The model runs at nice NICE (NICE=0: as is).
# Each row is predicted at the rate its runs were actually offered (the
# mean of the samples' own rates: RUN_SECONDS of Poisson arrivals deviate
# from the nominal rate by a few per cent).
#
# The part of a request the server cannot see (connection set-up, the
# client's own reading and waking, the network) is measured on the traced
# run, at a light rate (TRACE_RATE 1000/s: a quarter of a core's capacity;
# at 200/s, cores idle between requests woke slowly and doubled it): the
# client's mean response time (all requests)
# less the server's (from accept() returning to the connection's close:
# the mean of the trace's `done` times less the mean of its `arrive`
# times). It goes into the trace as its `latency` declaration, whence the
# model's source gets it (src/sim.h).
# Environment: PROPER (bin/proper), RUNS (3), WORKERS ("1 2 4 8 16"),
# CORES ("1 2"), RATES ("500 1500 3000"), RUN_SECONDS per run (4), FILLER (200),
# TRACE_RATE (200), HORIZON (30) and REPLICATIONS (5) of each prediction.
# --quick: RUNS 1, WORKERS "1 4", CORES 2, RATES 1500, RUN_SECONDS 2.
set -eu
cd "$(dirname "$0")/../.."
quick=0
if [ "${1:-}" = "--quick" ]; then quick=1; shift; fi
out=${1:-build/sim-webserver}
P=${PROPER:-bin/proper}
if [ $quick = 1 ]; then
    RUNS=${RUNS:-1}; WORKERS=${WORKERS:-"1 4"}; CORES=${CORES:-2}; RATES=${RATES:-1500}; SECONDS_PER_RUN=${RUN_SECONDS:-2}
else
    RUNS=${RUNS:-3}; WORKERS=${WORKERS:-"1 2 4 8 16"}; CORES=${CORES:-"1 2"}; RATES=${RATES:-"500 1500 3000"}
    SECONDS_PER_RUN=${RUN_SECONDS:-4}
fi
FILLER=${FILLER:-200}
TRACE_RATE=${TRACE_RATE:-1000}
NICE=${NICE:--20}
RT=${RT:-10}
model=""
if [ "$NICE" != 0 ] && nice -n "$NICE" true 2>/dev/null && [ "$(nice -n "$NICE" nice)" = "$NICE" ]; then
    model="nice -n $NICE"
fi
hi=$model
if [ "$RT" != 0 ] && chrt -f "$RT" true 2>/dev/null; then hi="chrt -f $RT"; fi
echo "priority: server and client ${hi:-unchanged}, model ${model:-unchanged}" >&2
HORIZON=${HORIZON:-30}
REPLICATIONS=${REPLICATIONS:-5}
URL=/dir5/
mkdir -p "$out"
[ -x "$P" ] || make -s "$P"
CFLAGS="-std=c99 -O2" sh examples/webserver/build.sh "$out/bin" >&2
cc -std=c99 -O2 -o "$out/bin/httpload" examples/sim/httpload.c -lpthread -lm
[ -d "$out/root/dir5" ] || sh examples/webserver/mkdocroot.sh "$out/root" "$out/defaults" "$FILLER"

load1() { cut -d' ' -f1 /proc/loadavg; }

# start_server WORKERS CPUS [extra server flags]: sets $port and $server_pid
start_server() {
    w=$1 cpus=$2
    shift 2
    rm -f "$out/port"
    $hi taskset -c "$cpus" "$out/bin/server" --root "$out/root" --defaults "$out/defaults" --probe scan \
        --workers "$w" --port-file "$out/port" --max-seconds 0 "$@" 2>> "$out/server.log" &
    server_pid=$!
    i=0
    while [ ! -s "$out/port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
    port=$(cat "$out/port")
}

stop_server() {
    kill "$server_pid"
    wait "$server_pid" || true
}

# The trace: 4 workers on both cores, one light rate, every request measured.
start_server 4 0,1 --thread-trace "$out/server.trace"
$hi "$out/bin/httpload" --port "$port" --path $URL --rate "$TRACE_RATE" --requests $((TRACE_RATE * 4)) --warmup 0 > "$out/traced.txt"
stop_server
# the latency: client's mean response time less the server's (ns)
latency=$(awk -v client="$(awk '{ print $10 }' "$out/traced.txt")" '
    $3 == "arrive" || $3 == "done" { if (!t0) t0 = $2 }
    $3 == "arrive" { a += $2 - t0; na++ } $3 == "done" { d += $2 - t0; nd++ }
    END { if (na == 0 || na != nd) exit 1; v = client * 1e9 - (d - a) / na; printf "%d", (v > 0 ? v : 0) }' "$out/server.trace")
echo "latency $latency" >> "$out/server.trace"
echo "measured latency outside the server: $latency ns (client mean $(awk '{ print $10 }' "$out/traced.txt") s)" >&2
$hi "$P" sim build "$out/server.trace" --cores 2 -o "$out/server.sim"

printf 'workers\tcores\trate\tload1_before\tload1_after\tmeasured_tput\tmeasured_resp\tmeasured_p95\tfailed\toffered\tpredicted_tput\tpredicted_resp\tpredicted_p95\n' | tee "$out/table.tsv"
for c in $CORES; do
    cpus=$(seq -s, 0 $((c - 1)))
    if [ "$c" = 1 ]; then client="taskset -c 1"; else client=""; fi
    for w in $WORKERS; do
        start_server "$w" "$cpus"
        for r in $RATES; do
            n=$(awk -v r="$r" -v s="$SECONDS_PER_RUN" 'BEGIN { printf "%d", r * s }')
            before=$(load1)
            i=0; : > "$out/m-$w-$c-$r.txt"
            while [ $i -lt "$RUNS" ]; do
                $hi $client "$out/bin/httpload" --port "$port" --path $URL --rate "$r" --requests "$n" \
                    --seed $((i + 1)) >> "$out/m-$w-$c-$r.txt"
                i=$((i + 1))
            done
            after=$(load1)
            meas=$(awk '{ t += $8; m += $10; p += $12; f += $4; o += $14 } END { printf "%.6g\t%.6g\t%.6g\t%d\t%.6g", t / NR, m / NR, p / NR, f, o / NR }' "$out/m-$w-$c-$r.txt")
            offered=$(awk '{ o += $14 } END { printf "%.6g", o / NR }' "$out/m-$w-$c-$r.txt")
            pred=$($model "$P" sim run "$out/server.sim" --workers "$w" --cores "$c" --rate "$offered" --horizon "$HORIZON" \
                --replications "$REPLICATIONS" --json |
                python3 -c 'import json,sys; d=json.load(sys.stdin); print("%.6g\t%.6g\t%.6g" % (d["throughput"]["estimate"], d["response_mean"]["estimate"], d["response_quantile"]["estimate"]))')
            printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$w" "$c" "$r" "$before" "$after" "$meas" "$pred" | tee -a "$out/table.tsv"
        done
        stop_server
    done
done
sh examples/sim/webserver-plot.sh "$out/table.tsv" "$out"
