#!/bin/sh
# Command-line tests for `proper annot fit|check|diff`. The logs are written
# here with awk from planted models: time = 100 + 2 s for s < 500 (branch 1
# taken) and 5000 + 9 s otherwise, plus normal noise of sd 3 (Box-Muller on
# awk's seeded rand()); the fitted scopes must be split at s <= 499 with
# slopes 2 and 9, and the log must pass the check of its own fit. The heap
# metric comes from the preload library (build/libproper-preload.so) on
# examples/annot/heap_lock.c: 40-byte nodes, so heap_peak = usable size x n.
. "$(dirname "$0")/cli_lib.sh"
an() { "$PROPER" annot "$@"; }

# planted LOG SHIFT SLOPE2: the two-regime log, the second regime's slope SLOPE2
planted() {
    awk -v shift="$2" -v b="$3" 'BEGIN {
        srand(7)
        print "proper-annot-log 1"; print "function f metrics time features s"
        for (i = 0; i < 1000; i++) { s = i % 1000; small = s < 500
            u = rand(); if (u < 1e-12) u = 1e-12
            noise = 3 * sqrt(-2 * log(u)) * cos(6.283185307179586 * rand())
            y = (small ? 100 + 2 * s : 5000 + b * s) + noise + shift
            printf "f, %g, %d, %d, #\n", y, s, small } }' > "$1"
}
planted "$T/a.log" 0 9
planted "$T/shifted.log" 40 9
planted "$T/slope.log" 0 9.5

expect_text annot_help 0 "proper annot fit LOG" an --help
expect_text annot_fit 0 "[s <= 499] Norm(" an fit "$T/a.log"
contains annot_fit_second_scope "$T/out" "[s > 499] Norm("
if grep -q '1.99[0-9]*\*s\|2.00[0-9]*\*s' "$T/out" && grep -q '8.99[0-9]*\*s\|9.00[0-9]*\*s' "$T/out"; then ok annot_fit_slopes
else fail annot_fit_slopes "$(cat "$T/out")"; fi

run_proper annot fit "$T/a.log" --json
status_is annot_fit_json 0 && json_valid annot_fit_json "$T/out"
if [ "$(json_get "$T/out" functions.0.scopes.0.class)" = linear ] &&
   [ "$(json_get "$T/out" functions.0.scopes.1.condition)" = "s > 499" ] &&
   [ "$(json_get "$T/out" functions.0.records)" = 1000 ]; then ok annot_fit_json_fields
else fail annot_fit_json_fields "$(cat "$T/out")"; fi

expect annot_fit_output 0 an fit "$T/a.log" -o "$T/a.annot" --svg "$T"
contains annot_fit_output_file "$T/a.annot" "f.time(s) {"
contains annot_svg "$T/f.time.svg" "<svg"

expect_text annot_check_same 0 "0 violated" an check "$T/a.annot" "$T/a.log"
expect_text annot_check_shifted 1 "VIOLATED" an check "$T/a.annot" "$T/shifted.log"
run_proper annot check "$T/a.annot" "$T/shifted.log" --json
status_is annot_check_json 1 && json_valid annot_check_json "$T/out"
if [ "$(json_get "$T/out" violations)" = 2 ]; then ok annot_check_json_violations
else fail annot_check_json_violations "$(cat "$T/out")"; fi

expect_text annot_diff_same 0 "new log against this fit: 0 of 2" an diff "$T/a.log" "$T/a.log"
expect_text annot_diff_slope 1 "MOVED  [s > 499] s: old 9" an diff "$T/a.log" "$T/slope.log"
lacks annot_diff_slope_first_regime "$T/out" "MOVED  [s <= 499]"

# sufficient statistics: the halves of a log, counted apart and merged in
# either order, give the whole log's statistics byte for byte; the fit from
# them is one regression scope over both regimes (splits need the records)
awk 'NR <= 2 || (NR > 2 && NR % 2 == 1)' "$T/a.log" > "$T/odd.log"
awk 'NR <= 2 || (NR > 2 && NR % 2 == 0)' "$T/a.log" > "$T/even.log"
expect annot_stats_whole 0 an stats "$T/a.log" -o "$T/a.stats"
expect annot_stats_odd 0 an stats "$T/odd.log" -o "$T/odd.stats"
expect annot_stats_even 0 an stats "$T/even.log" -o "$T/even.stats"
expect annot_merge 0 an merge "$T/even.stats" "$T/odd.stats" -o "$T/m1.stats"
expect annot_merge_other_order 0 an merge "$T/odd.stats" "$T/even.stats" -o "$T/m2.stats"
if cmp -s "$T/m1.stats" "$T/a.stats" && cmp -s "$T/m2.stats" "$T/a.stats"; then ok annot_merge_bytes
else fail annot_merge_bytes "$(diff "$T/m1.stats" "$T/a.stats" | head -5)"; fi
# several logs at once: their concatenation's statistics, in either order
expect annot_stats_logs 0 an stats "$T/odd.log" "$T/even.log" -o "$T/l1.stats"
expect annot_stats_logs_other_order 0 an stats "$T/even.log" "$T/odd.log" -o "$T/l2.stats"
if cmp -s "$T/l1.stats" "$T/a.stats" && cmp -s "$T/l2.stats" "$T/a.stats"; then ok annot_stats_logs_bytes
else fail annot_stats_logs_bytes "$(diff "$T/l1.stats" "$T/a.stats" | head -5)"; fi
expect_error annot_stats_logs_no_function "no function 'nope' in any of the 2 logs" an stats "$T/odd.log" "$T/even.log" --function nope
contains annot_stats_header "$T/a.stats" "function f metric time records 1000 features s"
expect_text annot_fit_stats 0 "# 1000 records" an fit "$T/a.stats"
if [ "$(grep -c 'Norm(' "$T/out")" = 1 ]; then ok annot_fit_stats_one_scope
else fail annot_fit_stats_one_scope "$(cat "$T/out")"; fi
expect_error annot_fit_stats_svg "need the log" an fit "$T/a.stats" --svg "$T"
# a metric that does not depend on s: the single regression is weak, and said so
awk 'BEGIN { srand(3); print "proper-annot-log 1"; print "function f metrics time features s"
    for (i = 0; i < 200; i++) printf "f, %d, %d\n", 1000 + int(100 * rand()), i }' > "$T/flat.log"
expect annot_stats_flat 0 an stats "$T/flat.log" -o "$T/flat.stats"
run_proper annot fit "$T/flat.stats"
if status_is annot_fit_stats_weak 0 && grep -q "below 0.9: the records would be split or clustered" "$T/err"; then
    ok annot_fit_stats_says_weak
else fail annot_fit_stats_says_weak "$(last_output)"; fi
printf 'proper-annot-stats 1\nfunction f metric time records 2 features\nmetric min 1 max 3\nrow 0x1p1 0x1p2\nrow 0x5z1\n' > "$T/bad.stats"
expect_error annot_bad_stats "bad.stats:5:8:" an merge "$T/bad.stats"
printf 'proper-annot-log 1\nfunction f metrics time features s\nf, 1, 1e30\n' > "$T/far.log"
expect_error annot_stats_range "record 1: feature 's'" an stats "$T/far.log"

# bad input: exit 2 with the position
printf 'proper-annot-log 1\nfunction f metrics time features s\nf, 1, x\n' > "$T/bad.log"
expect_error annot_bad_log "bad.log:3:7:" an fit "$T/bad.log"
printf 'f.time(s) {\n  Norm(1, 2)\n  Exp(3);\n}\n' > "$T/bad.annot"
expect_error annot_bad_annot "bad.annot:3:3: expected ';'" an check "$T/bad.annot" "$T/a.log"
expect_error annot_missing "cannot open" an fit "$T/none.log"
expect_error annot_no_metric "no column 'heap'" an fit "$T/a.log" --function f --metric heap
expect_error annot_unknown_verb "unknown subcommand 'fix'" an fix "$T/a.log"
expect_error annot_no_file "fit needs one LOG" an fit

# heap metrics through the preload library (Linux/glibc)
if make -s build/libproper-preload.so build/examples/annot/heap_lock > "$T/make.log" 2>&1 &&
   LD_PRELOAD="$(pwd)/build/libproper-preload.so" build/examples/annot/heap_lock "$T/heap.log" 400 2> "$T/err"; then
    run_proper annot fit "$T/heap.log" --metric heap_peak
    slope=$(sed -n 's/.* + \([0-9.]*\)\*n, .*/\1/p' "$T/out")
    if status_is annot_preload_heap 0 && awk -v s="$slope" 'BEGIN { exit !(s >= 39.999 && s <= 48.001) }'; then
        ok annot_preload_heap
    else fail annot_preload_heap "slope '$slope'; $(cat "$T/out")"; fi
else
    skip annot_preload_heap "the preload library or heap_lock did not build: $(cat "$T/make.log")"
fi
