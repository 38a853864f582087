#!/bin/sh
# Record the web-server traces of Koziolek & Firus 2007's scenarios on this
# machine and write OUTDIR/<scenario>.trace (default OUTDIR: data/webserver).
#
#   sh examples/webserver/record.sh [OUTDIR]
#
# Builds server and loadgen (build.sh), generates the document root
# (mkdocroot.sh) in a temporary directory, then for each scenario: starts a
# fresh server on a free loopback port, sends WARMUP untraced requests and
# REQUESTS traced ones, stops the server (SIGTERM: it flushes its trace),
# and merges the server's and the client's trace by request id.
#
# Environment (defaults): REQUESTS (3000) per non-concurrent scenario,
# CONCURRENT_REQUESTS (4000), WARMUP (200), WORKERS (4) server threads,
# SCENARIOS ("sequence alternative loop concurrent"), SERVER_ARGS (extra
# server options, e.g. "--read-size 10 --probe scan" for the slow-disk server
# of scripts/webserver-tables.sh), DOCROOT_FILLER (0: empty files added to
# the loop scenario's directory, mkdocroot.sh), CC, CFLAGS (build.sh).
set -eu
cd "$(dirname "$0")/../.."
out=${1:-data/webserver}
requests=${REQUESTS:-3000}
concurrent_requests=${CONCURRENT_REQUESTS:-4000}
warmup=${WARMUP:-200}
workers=${WORKERS:-4}
scenarios=${SCENARIOS:-sequence alternative loop concurrent}
server_args=${SERVER_ARGS:-}

work=$(mktemp -d "${TMPDIR:-/tmp}/proper-webserver.XXXXXX")
server_pid=
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

sh examples/webserver/build.sh "$work/bin"
sh examples/webserver/mkdocroot.sh "$work/root" "$work/defaults.conf" "${DOCROOT_FILLER:-0}"
mkdir -p "$out"

when=$(date -u +%Y-%m-%dT%H:%M:%SZ)
machine=$(uname -a)
cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //' || echo unknown)
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo unknown)
echo "recording on: $machine"
echo "cpu: $cpu, $cores core(s); date: $when"

# start_server NAME: a fresh server writing $work/NAME.server.trace; sets $port
start_server() {
    rm -f "$work/port"
    "$work/bin/server" --root "$work/root" --defaults "$work/defaults.conf" --workers "$workers" \
        --port 0 --port-file "$work/port" --log "$work/access.log" \
        --trace "$work/$1.server.trace" --max-seconds 900 $server_args 2> "$work/server.log" &
    server_pid=$!
    tries=0
    while [ ! -s "$work/port" ]; do
        tries=$((tries + 1))
        if [ $tries -gt 100 ] || ! kill -0 "$server_pid" 2>/dev/null; then
            cat "$work/server.log" >&2
            echo "record.sh: the server did not start" >&2
            exit 1
        fi
        sleep 0.1
    done
    port=$(cat "$work/port")
}

stop_server() {
    kill -TERM "$server_pid"
    wait "$server_pid"
    server_pid=
    cat "$work/server.log" >&2
}

# record NAME REQUESTS: one scenario, default client threads of the scenario
record() {
    name=$1; n=$2
    start_server "$name"
    "$work/bin/loadgen" --port "$port" --scenario "$name" --requests "$n" --warmup "$warmup" \
        --seconds 600 --trace "$work/$name.client.trace"
    stop_server
    load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
    "$work/bin/loadgen" --merge "$work/$name.server.trace" "$work/$name.client.trace" \
        --out "$out/$name.trace" --comment "scenario: $name, $n requests after $warmup untraced warm-up requests, server with $workers worker thread(s)${server_args:+ and options $server_args}${DOCROOT_FILLER:+, $DOCROOT_FILLER filler files in /dir5/} (loadgen --help lists each scenario's paths and client threads)
recorded: $when by examples/webserver/record.sh
machine: $machine
cpu: $cpu, $cores core(s); load average after the run: $load
times: nanoseconds, CLOCK_MONOTONIC; T = server's HandleRequest entry to exit, C = client latency (connect to last byte)"
}

for s in $scenarios; do
    case $s in
    concurrent) record "$s" "$concurrent_requests" ;;
    *) record "$s" "$requests" ;;
    esac
done
ls -l "$out"/*.trace
