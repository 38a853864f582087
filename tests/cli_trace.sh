#!/bin/sh
# `proper trace`: summaries of a small hand-written trace (expected numbers
# worked out by hand below), merging of two files, and errors with
# file:line:col and exit status 2.
P=${PROPER:-bin/proper}
work=$(mktemp -d "${TMPDIR:-/tmp}/proper-cli-trace.XXXXXX")
trap 'rm -rf "$work"' EXIT
ok() { echo "ok $1"; }
fail() { echo "FAIL $1: $2"; }

# Step a: 1000, 3000, 2000 ns -> mean 2000, sample sd 1000, median 2000.
# Branch t: x twice, y once. Loop l: counts 2, 2, 0.
# T: 5000, 7000 -> mean 6000; T - steps: 5000-1000-3000 = 1000, 7000-2000 = 5000 -> mean 3000.
cat > "$work/s.trace" <<'T'
proper-trace 1
R 1
S a 1000
S a 3000
B t x
L l 2
T 5000
E
R 2
S a 2000
B t x
B t y
L l 2
L l 0
T 7000
E
T
printf 'proper-trace 1\nR 2\nC 9000\nE\n' > "$work/c.trace"

out=$("$P" trace --csv "$work/s.trace" "$work/c.trace")
if [ $? -eq 0 ] &&
   echo "$out" | grep -qx 'step,a,,3,2000,1000,1000,2000,3000' &&
   echo "$out" | grep -qx 'branch,t,x,2,,,,,' && echo "$out" | grep -qx 'branch,t,y,1,,,,,' &&
   echo "$out" | grep -qx 'loop,l,2,2,,,,,' && echo "$out" | grep -qx 'loop,l,0,1,,,,,' &&
   echo "$out" | grep -qx 'service,T,,2,6000,1414.2135623730951,5000,6000,7000' &&
   echo "$out" | grep -qx 'client,C,,1,9000,0,9000,9000,9000' &&
   echo "$out" | grep -qx 'service_minus_steps,T,,2,3000,2828.4271247461902,1000,3000,5000'; then
    ok trace_csv_summary
else
    echo "$out"; fail trace_csv_summary "unexpected figures"
fi

# Counter c: record 1 totals 4 + 2 = 6, record 2 has none (0): mean 3,
# sample sd sqrt((9 + 9) / 1) = 4.2426406871192848, median 3.
printf 'proper-trace 1\nR 1\nN c 4\nN c 2\nE\nR 2\nE\n' > "$work/n.trace"
out=$("$P" trace --csv "$work/n.trace")
if [ $? -eq 0 ] && echo "$out" | grep -qx 'counter,c,,2,3,4.2426406871192848,0,3,6'; then
    ok trace_counters
else
    echo "$out"; fail trace_counters "unexpected figures"
fi

out=$("$P" trace "$work/s.trace")
if [ $? -eq 0 ] && echo "$out" | grep -q '^2 record(s)' && echo "$out" | grep -q 'branch t (3):  x 2 (0.6667)  y 1 (0.3333)' &&
   echo "$out" | grep -q 'loop l (3):  0x 1  2x 2'; then
    ok trace_table
else
    echo "$out"; fail trace_table "unexpected table"
fi

if "$P" trace --json "$work/s.trace" | grep -q '"branches": {' && "$P" trace --help | grep -q 'usage: proper trace'; then
    ok trace_json_and_help
else
    fail trace_json_and_help "no JSON or help"
fi

printf 'proper-trace 1\nR 1\nS a 5\nX 1\nE\n' > "$work/bad.trace"
err=$("$P" trace "$work/bad.trace" 2>&1 >/dev/null); rc=$?
if [ $rc -eq 2 ] && [ "$err" = "proper: $work/bad.trace:4:1: unknown record kind 'X'" ]; then
    ok trace_bad_input
else
    fail trace_bad_input "exit $rc, stderr '$err'"
fi
"$P" trace --nope "$work/s.trace" 2>/dev/null; rc=$?
"$P" trace 2>/dev/null; rc2=$?
if [ $rc -eq 2 ] && [ $rc2 -eq 2 ]; then ok trace_usage_errors; else fail trace_usage_errors "exit $rc, $rc2"; fi
