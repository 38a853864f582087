#!/bin/sh
# `proper sre`: evaluation of a small model (expected numbers worked out by
# hand below), comparison with a hand-written trace, --max-mean-dev, what-if
# overrides, automaton conversion, outputs (JSON, CSV, SVG), and errors with
# file:line:col and exit status 2.
. "$(dirname "$0")/cli_lib.sh"
sre() { "$PROPER" sre "$@"; }
# pred FIELD: the field of the first prediction in $T/out
pred() { json_get "$T/out" "predictions.0.$1"; }

# a = 3, b = 5 or 7 (1/2 each): d = a b has mean 9, std 1, mode 8 (the first
# of two equal bins).
printf 'symbol a = {3: 1};\nsymbol b = {5: 0.5, 7: 0.5};\ndef d = a b;\n' > "$T/m.sre"
run sre "$T/m.sre" --json
status_is sre_json 0 && json_valid sre_json_valid "$T/out" &&
    check sre_json [ "$(pred name) $(pred bins) $(pred tail) $(pred mean) $(pred std) $(pred mode)" = "d 3 0 9 1 8" ]

run sre "$T/m.sre" --csv
status_is sre_csv 0 && check sre_csv sh -c "grep -qx '8,0.5' '$T/out' && grep -qx '9,0' '$T/out' && grep -qx '10,0.5' '$T/out'"

# Measured T = 8 and 10 us: mean 9 (deviation 0), sample sd sqrt(2).
printf 'proper-trace 1\nR 1\nT 8000\nE\nR 2\nT 10000\nE\n' > "$T/t.trace"
run sre "$T/m.sre" --measured "$T/t.trace" T --max-mean-dev 0.5 --json
status_is sre_measured 0 && json_valid sre_measured_valid "$T/out" &&
    check sre_measured [ "$(json_get "$T/out" measured.n) $(json_get "$T/out" measured.mean) $(json_get "$T/out" measured.std)" = "2 9 1.4142135623730951" ] &&
    check sre_measured_dev [ "$(pred dev_mean_pct)" = 0 ]
run sre "$T/m.sre" --measured "$T/t.trace" T
status_is sre_measured_table 0 && matches sre_measured_table "$T/out" '^mean \(us\) *9.0000 *9.0000 *0.00%' &&
    matches sre_measured_table_ks "$T/out" '^KS distance'

# Measured T = 9 and 11: mean 10, the prediction is 10% low: the check fails (1).
printf 'proper-trace 1\nR 1\nT 9000\nE\nR 2\nT 11000\nE\n' > "$T/u.trace"
expect_text sre_max_mean_dev 1 'deviates by -10.00% (more than 5%)' sre "$T/m.sre" --measured "$T/u.trace" T --max-mean-dev 5

# Measured T = 0 twice: a deviation from 0 is not a number, null in JSON
printf 'proper-trace 1\nR 1\nT 0\nE\nR 2\nT 0\nE\n' > "$T/zero.trace"
run sre "$T/m.sre" --measured "$T/zero.trace" T --json
status_is sre_json_null_deviation 0 && json_valid sre_json_null_deviation_valid "$T/out" &&
    check sre_json_null_deviation [ "$(pred dev_mean_pct) $(pred dev_std_pct) $(json_get "$T/out" measured.mean)" = "null null 0" ]

# Names and texts with a quote, a backslash or a tab stay valid JSON strings
# (model path, --title, trace path)
qm="$T/m\"o\\d	el.sre"; qt="$T/t\"r.trace"
cp "$T/m.sre" "$qm"; cp "$T/t.trace" "$qt"
run sre "$qm" --title 'say "hi"	\o/' --measured "$qt" T --json
status_is sre_json_escaped 0 && json_valid sre_json_escaped_valid "$T/out" &&
    check sre_json_escaped_model [ "$(json_get "$T/out" model)" = "$qm" ] &&
    check sre_json_escaped_title [ "$(json_get "$T/out" title)" = 'say "hi"	\o/' ] &&
    check sre_json_escaped_trace [ "$(json_get "$T/out" measured.trace) $(json_get "$T/out" measured.mean)" = "$qt 9" ]

# What-if: b = 10 makes the mean 13; d.loop-free model, so override d itself.
run sre "$T/m.sre" --set 'b={10: 1}' --json
status_is sre_set_symbol 0 && check sre_set_symbol [ "$(pred mean)" = 13 ]
run sre "$T/m.sre" --set 'd=a*{4: 1}' --json
status_is sre_set_def 0 && check sre_set_def [ "$(pred mean)" = 12 ]
run sre "$T/m.sre" --set 'd=a*{4: 1}' --set 'd.loop={2: 1}' --print
status_is sre_set_loop_print 0 && check sre_set_loop_print grep -qx 'def d = a\*{2: 1};' "$T/out"
printf '3,0.25\n4,0.75\n' > "$T/a.csv"
run sre "$T/m.sre" --set "a=$T/a.csv" --json
status_is sre_set_csv 0 && check sre_set_csv [ "$(pred mean)" = 9.75 ]

# Koziolek & Firus, Fig. 1
printf 'final s2\ns0 a s1 0.3\ns1 b s0 1\ns0 c s2 0.7\n' > "$T/fig1.sea"
run sre --from-automaton "$T/fig1.sea"
status_is sre_from_automaton 0 && check sre_from_automaton grep -qx 'def service = (s0 a s1 b)\*\[0.3\] s0 c s2;' "$T/out"

run sre "$T/m.sre" --svg "$T/p.svg"
status_is sre_svg 0 && contains sre_svg "$T/p.svg" '<svg'

# issue 14: the table's columns line up (the "bins / tail mass" row was one
# cell wider than its column): every number of the "bins", "tail mass" and
# "p99" rows ends where the "mean" row's first columns end
run sre "$T/m.sre" --eval d --eval d --measured "$T/t.trace" T
# ends FILE LABEL: end offsets of the cells after the 22-character label
ends() { awk -v l="$2" 'index($0, l) == 1 { s = substr($0, 23); o = 22; out = "";
    while (match(s, /[^ ]+( [^ ]+)*/)) { if (RSTART > 1 && substr(s, RSTART - 1, 1) != " ") break;
        o += RSTART + RLENGTH - 1; out = out " " o; s = substr(s, RSTART + RLENGTH) } print out; exit }' "$1"; }
status_is sre_table_columns 0 &&
    check sre_table_bins_aligned [ "$(ends "$T/out" bins)" = "$(ends "$T/out" 'p99 (us)')" ] &&
    check sre_table_tail_aligned [ "$(ends "$T/out" 'tail mass')" = "$(ends "$T/out" 'KS distance')" ] &&
    check sre_table_three_columns [ "$(ends "$T/out" bins | wc -w)" -eq 3 ]

# issue 14: a p-value below 1e-300 says so instead of printing 0 or a
# subnormal: 3000 requests measured at 20 us against a prediction of 8 or 10
awk 'BEGIN { print "proper-trace 1"; for (i = 1; i <= 3000; i++) printf "R %d\nT 20000\nE\n", i }' > "$T/far.trace"
run sre "$T/m.sre" --measured "$T/far.trace" T
status_is sre_tiny_p 0 && matches sre_tiny_p "$T/out" '^chi-square p-value +< 1e-300$'

# issue 14: the plot cuts the body's axis at the 95% quantile + 25% and says
# so; a second panel shows the tail to the 99.9% quantile on a log axis. The
# concurrent scenario's measured p99 (125.54 us, far right of the body) must
# be inside the tail panel.
run sre examples/webserver/concurrent.sre --measured data/webserver/concurrent.trace T --width 0.1 --svg "$T/tail.svg"
tail_end=$(sed -n 's/.*to the 99.9% quantile (\([0-9.e+]*\) us).*/\1/p' "$T/tail.svg")
body_end=$(sed -n 's/.*axis ends at \([0-9.e+]*\) us = 95% quantile + 25%.*/\1/p' "$T/tail.svg")
status_is sre_svg_tail 0 &&
    check sre_svg_body_end_said [ -n "$body_end" ] &&
    check sre_svg_tail_reaches_p99 awk -v t="$tail_end" -v b="$body_end" 'BEGIN { exit !(t > 125.54 && b < 125.54) }' &&
    contains sre_svg_log_axis "$T/tail.svg" 'log probability axis' &&
    check sre_svg_two_panels [ "$(grep -c '<g transform="translate(0,' "$T/tail.svg")" -eq 2 ]

# errors: exit 2 and file:line:col
printf 'symbol a = {3: 1};\ndef d = a zz;\n' > "$T/bad.sre"
run sre "$T/bad.sre"
status_is sre_error_position 2 && check sre_error_position grep -qx "proper: $T/bad.sre:2:11: unknown symbol or definition 'zz'" "$T/err"
run sre "$T/m.sre" --set 'b={1: 0.5}'
status_is sre_set_error 2 && check sre_set_error grep -qx 'proper: --set:1:3: table probabilities sum to 0.5, not 1' "$T/err"
printf 'proper-trace 1\nR 1\nT 8000\n' > "$T/broken.trace"
expect_error sre_malformed_trace "proper: $T/broken.trace:2:1: record of request 1 is not closed" sre "$T/m.sre" --measured "$T/broken.trace" T

# issue 14: a negative duration is an error at its position (exit 2)
printf 'symbol a = {-5: 1};\ndef d = a;\n' > "$T/neg.sre"
expect_error sre_negative_duration "proper: $T/neg.sre:1:13: duration -5 is negative" sre "$T/neg.sre"
printf 'value,prob\n-2,0.5\n3,0.5\n' > "$T/neg.csv"
printf 'symbol a = csv("neg.csv");\ndef d = a;\n' > "$T/negcsv.sre"
expect_error sre_negative_csv_duration "proper: $T/negcsv.sre:1:8: symbol 'a': $T/neg.csv has the negative duration -2" sre "$T/negcsv.sre"

# issue 14: steps shorter than the grid are rounded with a warning (the
# bundled models' mean was 16.74 instead of 16.88 us without a word)
printf 'symbol a = {0.3: 0.5, 0.4: 0.5};\nsymbol b = {2: 1};\ndef d = a b;\n' > "$T/sub.sre"
run sre "$T/sub.sre" --json
status_is sre_rounding_warning 0 && json_valid sre_rounding_warning_json "$T/out" &&
    check sre_rounding_warning grep -qF "proper sre: warning: 1 symbol(s) have values off the 1 us grid and were rounded onto it (the mean of 'a' moves by 0.35 us)" "$T/err"
run sre "$T/sub.sre" --width 0.1 --json
status_is sre_rounding_none 0 && check sre_rounding_none [ ! -s "$T/err" ] &&
    check sre_rounding_none_mean rel_near "$(pred mean)" 2.35 1e-12

# usage errors: one wording
expect_error sre_bad_option "proper sre: unknown option '--bogus' (see 'proper sre --help')" sre "$T/m.sre" --bogus
expect_error sre_measured_two_values "proper sre: option '--measured' needs 2 values" sre "$T/m.sre" --measured "$T/t.trace"
expect_error sre_no_model "proper sre: no model file" sre --json
expect_error sre_two_models "proper sre: more than one model file" sre "$T/m.sre" "$T/m.sre"
expect_error sre_json_and_csv "proper sre: --json and --csv exclude each other" sre "$T/m.sre" --json --csv
expect_error sre_bad_width "proper: --width: expected a positive number, got '0'" sre "$T/m.sre" --width 0
expect_text sre_help 0 'usage: proper sre' sre --help
