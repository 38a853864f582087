#!/bin/sh
# `proper trace`: summaries of a small hand-written trace (expected numbers
# worked out by hand below), merging of two files, and errors with
# file:line:col and exit status 2.
. "$(dirname "$0")/cli_lib.sh"

# Step a: 1000, 3000, 2000 ns -> mean 2000, sample sd 1000, median 2000.
# Branch t: x twice, y once. Loop l: counts 2, 2, 0.
# T: 5000, 7000 -> mean 6000; T - steps: 5000-1000-3000 = 1000, 7000-2000 = 5000 -> mean 3000.
cat > "$T/s.trace" <<'TRACE'
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
TRACE
printf 'proper-trace 1\nR 2\nC 9000\nE\n' > "$T/c.trace"

run_proper trace --merge --csv "$T/s.trace" "$T/c.trace"
status_is trace_csv_summary 0 &&
    check trace_csv_summary sh -c "grep -qx 'step,a,,3,2000,1000,1000,2000,3000' '$T/out' &&
        grep -qx 'branch,t,x,2,,,,,' '$T/out' && grep -qx 'branch,t,y,1,,,,,' '$T/out' &&
        grep -qx 'loop,l,2,2,,,,,' '$T/out' && grep -qx 'loop,l,0,1,,,,,' '$T/out' &&
        grep -qx 'service,T,,2,6000,1414.2135623730951,5000,6000,7000' '$T/out' &&
        grep -qx 'client,C,,1,9000,0,9000,9000,9000' '$T/out' &&
        grep -qx 'service_minus_steps,T,,2,3000,2828.4271247461902,1000,3000,5000' '$T/out'"

# Counter c: record 1 totals 4 + 2 = 6, record 2 has none (0): mean 3,
# sample sd sqrt((9 + 9) / 1) = 4.2426406871192848, median 3.
printf 'proper-trace 1\nR 1\nN c 4\nN c 2\nE\nR 2\nE\n' > "$T/n.trace"
run_proper trace --csv "$T/n.trace"
status_is trace_counters 0 && check trace_counters grep -qx 'counter,c,,2,3,4.2426406871192848,0,3,6' "$T/out"

run_proper trace "$T/s.trace"
status_is trace_table 0 && contains trace_table_records "$T/out" "2 record(s)" &&
    contains trace_table_branch "$T/out" "branch t (3):  x 2 (0.6667)  y 1 (0.3333)" &&
    contains trace_table_loop "$T/out" "loop l (3):  0x 1  2x 2"

# the same figures as JSON (one valid document; numbers in nanoseconds, the
# shortest decimal that reads back: sqrt(2) 1000 is 1414.213562373095)
run_proper trace --merge --json "$T/s.trace" "$T/c.trace"
status_is trace_json 0 && json_valid trace_json_valid "$T/out" &&
    check trace_json_step [ "$(json_get "$T/out" steps.a.count) $(json_get "$T/out" steps.a.mean_ns) $(json_get "$T/out" steps.a.sd_ns)" = "3 2000 1000" ] &&
    check trace_json_branch [ "$(json_get "$T/out" branches.t.x) $(json_get "$T/out" branches.t.y)" = "2 1" ] &&
    check trace_json_loop [ "$(json_get "$T/out" loops.l.2) $(json_get "$T/out" loops.l.0)" = "2 1" ] &&
    check trace_json_service [ "$(json_get "$T/out" service.mean_ns) $(json_get "$T/out" service.sd_ns)" = "6000 1414.213562373095" ] &&
    check trace_json_gap [ "$(json_get "$T/out" service_minus_steps.mean_ns) $(json_get "$T/out" client.count)" = "3000 1" ]
run_proper trace --json "$T/n.trace"
status_is trace_json_counters 0 && json_valid trace_json_counters_valid "$T/out" &&
    check trace_json_counters [ "$(json_get "$T/out" counters.c.records) $(json_get "$T/out" counters.c.mean) $(json_get "$T/out" counters.c.max)" = "2 3 6" ]

# issue 14: several files are summarised one by one by default (the bundled
# webserver traces all number their requests from 0, so merging them by id
# failed with "second T line"); --merge keeps the merged summary.
printf 'proper-trace 1\nR 1\nS a 4000\nT 5000\nE\n' > "$T/p1.trace"
printf 'proper-trace 1\nR 1\nS a 6000\nS a 8000\nT 9000\nE\n' > "$T/p2.trace"
run_proper trace --csv "$T/p1.trace" "$T/p2.trace"
status_is trace_per_file_csv 0 &&
    check trace_per_file_csv sh -c "head -1 '$T/out' | grep -qx 'file,kind,name,choice,count,mean_ns,sd_ns,min_ns,median_ns,max_ns' &&
        grep -qx '$T/p1.trace,step,a,,1,4000,0,4000,4000,4000' '$T/out' &&
        grep -qx '$T/p2.trace,step,a,,2,7000,1414.2135623730951,6000,7000,8000' '$T/out' &&
        grep -qx '$T/p2.trace,service,T,,1,9000,0,9000,9000,9000' '$T/out'"
run_proper trace --json "$T/p1.trace" "$T/p2.trace"
status_is trace_per_file_json 0 && json_valid trace_per_file_json_valid "$T/out" &&
    check trace_per_file_json [ "$(json_get "$T/out" files.0.file) $(json_get "$T/out" files.0.steps.a.mean_ns) $(json_get "$T/out" files.1.steps.a.count) $(json_get "$T/out" files.1.service.mean_ns)" = "$T/p1.trace 4000 2 9000" ]
run_proper trace "$T/p1.trace" "$T/p2.trace"
status_is trace_per_file_table 0 && contains trace_per_file_table_head1 "$T/out" "== $T/p1.trace" &&
    contains trace_per_file_table_head2 "$T/out" "== $T/p2.trace" && check trace_per_file_table_records [ "$(grep -c '^1 record(s)' "$T/out")" = 2 ]
expect_error trace_merge_conflict "p2.trace:2:1: request 1 has a T line here" "$PROPER" trace --merge "$T/p1.trace" "$T/p2.trace"
# a bad file among several: exit 2 with its position, nothing on stdout
run_proper trace "$T/p1.trace" "$T/bad.trace.missing"
status_is trace_per_file_missing 2 && check trace_per_file_missing_quiet [ ! -s "$T/out" ]
if [ -d "$(dirname "$0")/../data/webserver" ]; then
    run_proper trace "$(dirname "$0")"/../data/webserver/*.trace --json
    status_is trace_bundled_webserver 0 && json_valid trace_bundled_webserver_json "$T/out"
fi

expect_text trace_help 0 "usage: proper trace" "$PROPER" trace --help

printf 'proper-trace 1\nR 1\nS a 5\nX 1\nE\n' > "$T/bad.trace"
run_proper trace "$T/bad.trace"
status_is trace_bad_input 2 && check trace_bad_input [ "$(cat "$T/err")" = "proper: $T/bad.trace:4:1: unknown record kind 'X'" ]
expect_error trace_unknown_option "proper trace: unknown option '--nope' (see 'proper trace --help')" "$PROPER" trace --nope "$T/s.trace"
expect_error trace_no_file "proper trace: expected at least one trace FILE" "$PROPER" trace
expect_error trace_json_and_csv "--json and --csv exclude each other" "$PROPER" trace --json --csv "$T/s.trace"

# issue 14: --svg draws one histogram panel per step and one for T. Step a
# takes 1, 2, ..., 100 us (T the same): the axis ends at the 99% quantile
# (the 99th smallest of 100, index floor(0.99 * 99) = 98: 99 us), 1 beyond;
# with a second file the panels hold one curve per file.
awk 'BEGIN { print "proper-trace 1"; for (i = 1; i <= 100; i++) printf "R %d\nS a %d\nT %d\nE\n", i, 1000 * i, 1000 * i }' > "$T/h.trace"
run_proper trace "$T/h.trace" --svg "$T/h.svg"
status_is trace_svg 0 &&
    check trace_svg_panels [ "$(grep -c '<g transform="translate(0,' "$T/h.svg")" -eq 2 ] &&
    check trace_svg_axis_end [ "$(grep -c 'axis ends at the 99% quantile, 99 us (1 of 100 samples beyond)' "$T/h.svg")" -eq 2 ] &&
    contains trace_svg_step_title "$T/h.svg" '>a</text>' && contains trace_svg_T_title "$T/h.svg" '>T (service time)</text>'
run_proper trace "$T/h.trace" "$T/p1.trace" --svg "$T/h2.svg"
status_is trace_svg_two_files 0 && check trace_svg_two_files_legend [ "$(grep -c "$T/h.trace</text>" "$T/h2.svg")" -ge 1 ]
printf 'proper-trace 1\nR 1\nB x y\nE\n' > "$T/nosteps.trace"
expect_error trace_svg_nothing "proper: $T/nosteps.trace: nothing to plot: no step durations and no T lines" "$PROPER" trace "$T/nosteps.trace" --svg "$T/n.svg"
