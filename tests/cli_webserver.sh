#!/bin/sh
# Smoke test of the instrumented web server example: builds server and
# loadgen with sanitizers, records every scenario for a few requests with
# examples/webserver/record.sh, and checks the merged traces (counts below
# follow from the scenario definitions in loadgen.c and the document root
# of mkdocroot.sh). Also the error page path and a merge of a broken trace.
# SKIPs when loopback sockets are unavailable.
. "$(dirname "$0")/cli_lib.sh"
work=$T
server_pid=
at_exit 'if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null; fi'

CFLAGS="-std=c99 -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined -Wall -Wextra -Wpedantic -Werror"
export CFLAGS
if ! sh examples/webserver/build.sh "$work/bin" > "$work/build.log" 2>&1; then
    cat "$work/build.log"; fail webserver_build "server or loadgen did not compile"; exit 1
fi
ok webserver_build
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}

# Can this machine listen on loopback at all?
sh examples/webserver/mkdocroot.sh "$work/root" "$work/defaults.conf"
"$work/bin/server" --root "$work/root" --defaults "$work/defaults.conf" --port 0 --port-file "$work/port" \
    --workers 2 --trace "$work/errors.server.trace" --max-seconds 30 2> "$work/server.log" &
server_pid=$!
tries=0
while [ ! -s "$work/port" ] && [ $tries -lt 50 ] && kill -0 "$server_pid" 2>/dev/null; do
    sleep 0.1; tries=$((tries + 1))
done
if [ ! -s "$work/port" ]; then
    skip webserver "cannot listen on 127.0.0.1 ($(tail -1 "$work/server.log"))"
    exit 0
fi

# Error paths: /empty/ has no default file (10 probes, found=no), /nothing
# is missing; both get the 404 page, so loadgen reports failures (exit 1).
"$work/bin/loadgen" --port "$(cat "$work/port")" --path /empty/ --path /nothing --requests 4 \
    --trace "$work/errors.client.trace" 2> "$work/loadgen.log"
rc=$?
kill -TERM "$server_pid"; wait "$server_pid"; src=$?; server_pid=
if [ $rc -eq 1 ] && [ $src -eq 0 ] && grep -q "0 request(s) ok, 4 failed" "$work/loadgen.log" &&
   [ "$(grep -c '^B found no' "$work/errors.server.trace")" -eq 2 ] &&
   [ "$(grep -c '^L probe 10' "$work/errors.server.trace")" -eq 2 ] &&
   [ "$(grep -c '^B target missing' "$work/errors.server.trace")" -eq 2 ] &&
   [ "$(grep -c '^S sendError' "$work/errors.server.trace")" -eq 4 ]; then
    ok webserver_error_page
else
    cat "$work/loadgen.log" "$work/server.log"; fail webserver_error_page "unexpected trace or exit codes ($rc, $src)"
fi

# All four scenarios through the recording script.
if REQUESTS=20 CONCURRENT_REQUESTS=40 WARMUP=4 WORKERS=2 sh examples/webserver/record.sh "$work/out" \
    > "$work/record.log" 2>&1; then
    ok webserver_record_script
else
    cat "$work/record.log"; fail webserver_record_script "record.sh failed"
fi

# count PATTERN FILE
count() { grep -c "$1" "$2" 2>/dev/null || true; }
check_trace() {
    name=$1 want=$2
    f="$work/out/$name.trace"
    n=$(count '^R ' "$f"); t=$(count '^T ' "$f"); c=$(count '^C ' "$f"); e=$(count '^E$' "$f")
    if [ "$n" -eq "$want" ] && [ "$t" -eq "$want" ] && [ "$c" -eq "$want" ] && [ "$e" -eq "$want" ] &&
       head -1 "$f" | grep -qx 'proper-trace 1' && grep -q '^# recorded: ' "$f"; then
        return 0
    fi
    echo "  $name: $n records, $t T, $c C, $e E (want $want each)"; return 1
}
if check_trace sequence 20 && [ "$(count '^B target file' "$work/out/sequence.trace")" -eq 20 ] &&
   [ "$(count '^S sendContent' "$work/out/sequence.trace")" -eq 20 ]; then
    ok webserver_sequence_trace
else fail webserver_sequence_trace "wrong counts"; fi
# alternative: even request ids get the file, odd ids the directory /dir1/ (1 probe)
if check_trace alternative 20 && [ "$(count '^B target dir' "$work/out/alternative.trace")" -eq 10 ] &&
   [ "$(count '^L probe 1$' "$work/out/alternative.trace")" -eq 10 ] &&
   [ "$(count '^S sendContent' "$work/out/alternative.trace")" -eq 20 ]; then
    ok webserver_alternative_trace
else fail webserver_alternative_trace "wrong counts"; fi
# loop: /dir5/ whose 5th default name exists: 5 probes per request
if check_trace loop 20 && [ "$(count '^L probe 5$' "$work/out/loop.trace")" -eq 20 ] &&
   [ "$(count '^S probeDefault' "$work/out/loop.trace")" -eq 100 ]; then
    ok webserver_loop_trace
else fail webserver_loop_trace "wrong counts"; fi
if check_trace concurrent 40; then ok webserver_concurrent_trace; else fail webserver_concurrent_trace "wrong counts"; fi

# A broken server trace: the merge names file:line:col and exits 2.
printf 'proper-trace 1\nR 1\nS buildPath -3\nE\n' > "$work/bad.trace"
"$work/bin/loadgen" --merge "$work/bad.trace" "$work/bad.trace" --out "$work/merged.trace" 2> "$work/merge.log"
rc=$?
if [ $rc -eq 2 ] && grep -q "bad.trace:3:13: negative duration" "$work/merge.log"; then
    ok webserver_merge_rejects_bad_trace
else
    cat "$work/merge.log"; fail webserver_merge_rejects_bad_trace "exit $rc"
fi

# The slow-disk variant of scripts/webserver-tables.sh: the file read 10
# bytes per read() and default names found by a case-insensitive directory
# scan among 300 filler files. The control flow, and so every count, is the
# loop scenario's; the content delivered is the same 51200 bytes, so a
# sendContent of 5120 read()s takes longer than the default's 4 (compared by
# median, robust to a few slow requests on a shared machine).
if SERVER_ARGS="--read-size 10 --probe scan" DOCROOT_FILLER=300 REQUESTS=20 WARMUP=4 WORKERS=2 SCENARIOS=loop \
    sh examples/webserver/record.sh "$work/slow" > "$work/slow.log" 2>&1; then
    ok webserver_slow_disk_record
else
    cat "$work/slow.log"; fail webserver_slow_disk_record "record.sh failed"
fi
median_content() {
    awk '$1 == "S" && $2 == "sendContent" { print $3 }' "$1" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
if [ "$(count '^L probe 5$' "$work/slow/loop.trace")" -eq 20 ] &&
   [ "$(count '^S probeDefault' "$work/slow/loop.trace")" -eq 100 ] &&
   grep -q 'options --read-size 10 --probe scan, 300 filler files' "$work/slow/loop.trace" &&
   [ "$(median_content "$work/slow/loop.trace")" -gt "$(median_content "$work/out/loop.trace")" ]; then
    ok webserver_slow_disk_trace
else fail webserver_slow_disk_trace "wrong counts, comment or times"; fi
"$work/bin/server" --root "$work/root" --read-size 0 > /dev/null 2>&1
if [ $? -eq 2 ]; then ok webserver_bad_read_size; else fail webserver_bad_read_size "--read-size 0 accepted"; fi
