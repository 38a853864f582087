#!/bin/sh
# sendContent time against file size on the example web server
# (examples/webserver/, instrumented with trace.h): the bundled traces of
# data/webserver/ serve one 51200-byte file, so this serves sixteen files
# of 1 KiB .. 1 MiB and converts the server's trace to an annot log.
#
#   sh examples/annot/webserver_sizes.sh [OUTDIR]   (default /tmp/proper-webserver-sizes)
#
# Builds the server and its load generator (examples/webserver/build.sh;
# the start-up is examples/annot/webserver_lib.sh's) and for each of two passes of eight sizes starts a fresh server with --trace
# on a free loopback port, sends WARMUP untraced and REQUESTS traced GETs
# (loadgen --path, one per size, requested in rotation: request i asks for
# the (i mod 8)-th size), stops it, and turns each traced request into
# records of the annot log OUTDIR/sizes.log:
#     sendContent, <S sendContent ns>, <size>      (the step's wall time)
#     handleRequest, <T ns>, <size>                (the whole service)
# Then fits both (`proper annot fit`, metric time) into OUTDIR/sizes.annot,
# with the figures OUTDIR/sendContent.time.svg and .density.svg, and
# sendContent's lower envelope (the fastest call per size: the paper's
# heuristic for additive positive noise) into OUTDIR/envelope.annot and
# OUTDIR/envelope/.
#
# Environment (defaults): REQUESTS (1600) and WARMUP (160) per pass, WORKERS
# (4) server threads, PROPER (bin/proper).
set -eu
cd "$(dirname "$0")/../.."
out=${1:-/tmp/proper-webserver-sizes}
requests=${REQUESTS:-1600}
warmup=${WARMUP:-160}
workers=${WORKERS:-4}
proper=${PROPER:-bin/proper}
[ -x "$proper" ] || { echo "webserver_sizes.sh: $proper not built (make bin/proper)" >&2; exit 2; }

. examples/annot/webserver_lib.sh
ws_setup proper-webserver-sizes
mkdir -p "$work/root/sizes" "$out"

# The same bytes on every machine: a repeated line of HTML cut to SIZE.
make_file() {
    yes '<p>A line of the proper example document, repeated to the size wanted.</p>' | head -c "$1" \
        > "$work/root/sizes/f$1.html"
}

# serve PASS SIZES...: one server, WARMUP + REQUESTS requests over the sizes
serve() {
    pass=$1; shift
    paths=
    for size in "$@"; do
        make_file "$size"
        paths="$paths --path /sizes/f$size.html"
    done
    ws_start webserver_sizes.sh --root "$work/root" --workers "$workers" --trace "$work/$pass.trace"
    # shellcheck disable=SC2086 # $paths is a list of options
    "$work/bin/loadgen" --port "$port" $paths --requests "$requests" --warmup "$warmup" \
        --seconds 600 --threads 1
    ws_stop
    # records of the traced requests: request i served the (i mod 8)-th size
    awk -v sizes="$*" '
        BEGIN { n = split(sizes, size, " ") }
        $1 == "R" { id = $2; sc = ""; t = "" }
        $1 == "S" && $2 == "sendContent" { sc = $3 }
        $1 == "T" { t = $2 }
        $1 == "E" && sc != "" && t != "" {
            s = size[id % n + 1]
            print "sendContent, " sc ", " s > "/dev/stderr"
            print "handleRequest, " t ", " s
        }' "$work/$pass.trace" > "$work/$pass.handle" 2> "$work/$pass.send"
}

serve a 1024 2048 4096 8192 16384 32768 65536 131072
serve b 196608 262144 393216 524288 655360 786432 917504 1048576

log=$out/sizes.log
{
    echo "proper-annot-log 1"
    echo "# examples/annot/webserver_sizes.sh: $requests traced requests per pass after $warmup untraced,"
    echo "# server with $workers workers, one client thread; $(date -u +%Y-%m-%dT%H:%MZ),"
    echo "# load average after the run: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
    echo "# times: ns of wall clock (CLOCK_MONOTONIC) from the server's trace"
    echo "function sendContent metrics time features size"
    echo "function handleRequest metrics time features size"
    cat "$work/a.send" "$work/b.send" "$work/a.handle" "$work/b.handle"
} > "$log"
echo "webserver_sizes.sh: $(grep -c '^sendContent,' "$log") sendContent records in $log"
"$proper" annot fit "$log" --svg "$out" -o "$out/sizes.annot"
mkdir -p "$out/envelope"
"$proper" annot fit "$log" --function sendContent --envelope --svg "$out/envelope" -o "$out/envelope.annot"
cat "$out/sizes.annot" "$out/envelope.annot"
