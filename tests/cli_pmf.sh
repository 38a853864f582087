#!/bin/sh
# Command-line tests for `proper pmf`. Expected means come from closed forms:
# E[A+B] = E[A] + E[B]; a loop with count K has mean E[K] E[body]; the
# geometric count of --reenter p has E[K] = p / (1 - p). The sample files'
# means are computed by hand in the comments.
. "$(dirname "$0")/cli_lib.sh"
EX=examples/pmf
pmf() { "$PROPER" pmf "$@"; }

# --- help ---
expect_text pmf_help 0 "proper pmf conv A B" pmf --help

# --- stats: query.csv by hand: mean = .5*.4 + 1*.25 + 1.5*.05 + 5*.05 + 5.5*.12 + 6*.08 + 6.5*.05 = 2.24 ---
run pmf stats $EX/query.csv --json
status_is pmf_stats_json 0 && json_valid pmf_stats_json_valid "$T/out" &&
    check pmf_stats_json rel_near "$(json_get "$T/out" mean)" 2.24 1e-12 &&
    check pmf_stats_json_width [ "$(json_get "$T/out" width) $(json_get "$T/out" name)" = "0.5 $EX/query.csv" ]

run pmf stats $EX/query.csv
status_is pmf_stats_table 0 && contains pmf_stats_table "$T/out" "2.24" && contains pmf_stats_table_p99 "$T/out" "p99"

# --- conv: parse.csv mean = 1*.1 + 1.5*.35 + 2*.3 + 2.5*.15 + 3*.06 + 4*.04 = 1.94; sum 4.18 ---
run pmf conv $EX/parse.csv $EX/query.csv --json --svg "$T/conv.svg"
status_is pmf_conv_mean 0 && json_valid pmf_conv_json_valid "$T/out" &&
    check pmf_conv_mean rel_near "$(json_get "$T/out" result.mean)" 4.18 1e-12 &&
    check pmf_conv_inputs [ "$(json_get "$T/out" inputs.0.name) $(json_get "$T/out" inputs.1.name)" = "$EX/parse.csv $EX/query.csv" ]

if [ -s "$T/conv.svg" ] && grep -q "<svg" "$T/conv.svg" && grep -q "parse.csv + examples/pmf/query.csv" "$T/conv.svg"; then
    if command -v xmllint > /dev/null 2>&1; then
        if xmllint --noout "$T/conv.svg" 2> "$T/xml"; then ok pmf_conv_svg; else fail pmf_conv_svg "not well-formed: $(cat "$T/xml")"; fi
    else ok pmf_conv_svg; fi
else fail pmf_conv_svg "no SVG with a legend written"; fi

# the CSV of the result sums to 1 and has 7 + 13 - 1 = 19 bins
run pmf conv $EX/parse.csv $EX/query.csv --csv
status_is pmf_conv_csv 0 && check pmf_conv_csv_bins [ "$(count_matches "$T/out" '^[0-9]')" -eq 19 ] &&
    check pmf_conv_csv_sum near "$(awk -F, 'NR > 1 { s += $2 } END { printf "%.15f", s }' "$T/out")" 1 1e-12

# --- loop: E[K] = .3*1 + .35*2 + .2*3 + .1*5 = 2.1, E[T] = 2.1 * 2.24 = 4.704 ---
run pmf loop $EX/query.csv $EX/iters.csv --json --svg "$T/loop.svg"
status_is pmf_loop_mean 0 && check pmf_loop_mean rel_near "$(json_get "$T/out" result.mean)" 4.704 1e-12 &&
    contains pmf_loop_svg "$T/loop.svg" "<svg"

# --- Markovian loop: E[K] = 0.6 / 0.4 = 1.5, E[T] = 1.5 * 2.24 = 3.36 (tail <= 1e-12) ---
run pmf loop $EX/query.csv --reenter 0.6 --json
status_is pmf_markov_loop_mean 0 && check pmf_markov_loop_mean near "$(json_get "$T/out" result.mean)" 3.36 1e-9 &&
    check pmf_markov_loop_tail near "$(json_get "$T/out" result.tail)" 0 1e-12
# --precision sets the mass left to the tail: 0.6^k <= 1e-3 from k = 14 on,
# so the tail is at most 1e-3 and at least 1e-3 * 0.6 (the last cut term)
run pmf loop $EX/query.csv --reenter 0.6 --precision 1e-3 --json
status_is pmf_markov_loop_precision 0 &&
    check pmf_markov_loop_precision awk -v t="$(json_get "$T/out" result.tail)" 'BEGIN { exit !(t > 1e-4 && t <= 1e-3) }'

# --- JSON: a quantile in the tail is null (it was the string "inf") ---
printf '1,0.5\ninf,0.5\n' > "$T/tail.csv"
run pmf stats "$T/tail.csv" --width 1 --json
status_is pmf_json_tail_quantile 0 && json_valid pmf_json_tail_quantile_valid "$T/out" &&
    contains pmf_json_tail_quantile "$T/out" '"quantiles": {"0.5": 1, "0.9": null, "0.95": null, "0.99": null}' &&
    check pmf_json_tail_mass [ "$(json_get "$T/out" tail)" = 0.5 ]
# --- JSON: a file name with a quote, a backslash and a tab stays one valid string ---
qname="$T/q\"uo\\te	d.csv"
cp $EX/query.csv "$qname"
run pmf stats "$qname" --json
status_is pmf_json_name_escaped 0 && json_valid pmf_json_name_escaped_valid "$T/out" &&
    check pmf_json_name_escaped [ "$(json_get "$T/out" name)" = "$qname" ]

# --- bad input: exit 2 and "proper: file:line:col: message" ---
printf 'value,prob\n1,0.5\n2;0.5\n' > "$T/semicolon.csv"
expect_error pmf_bad_separator "proper: $T/semicolon.csv:3:2: expected ','" pmf stats "$T/semicolon.csv"
printf '1,1.5\n2,-0.5\n' > "$T/negative.csv"
expect_error pmf_negative_prob "proper: $T/negative.csv:2:3: negative probability -0.5" pmf stats "$T/negative.csv"
printf '1,0.5\n2,nan\n' > "$T/nan.csv"
expect_error pmf_nan_prob "proper: $T/nan.csv:2:3: probability is nan" pmf stats "$T/nan.csv"
printf '1,0\n2,0\n' > "$T/zero.csv"
expect_error pmf_zero_mass "proper: $T/zero.csv: probabilities sum to zero" pmf stats "$T/zero.csv"
printf '1,0.5\n2,0.4\n' > "$T/short.csv"
expect_error pmf_sum_not_one "probabilities sum to 0.9" pmf stats "$T/short.csv"
printf '0,0.5\n1,0.5\n' > "$T/w1.csv"
printf '0,0.5\n0.5,0.5\n' > "$T/w05.csv"
expect_error pmf_mismatched_widths "give a common --width" pmf conv "$T/w1.csv" "$T/w05.csv"
printf 'count,prob\n0,0.5\n1.5,0.5\n' > "$T/fraction.csv"
expect_error pmf_fractional_count "proper: $T/fraction.csv:3:1: iteration count must be an integer" pmf loop $EX/query.csv "$T/fraction.csv"
expect_error pmf_missing_file "proper: $T/none.csv: cannot open" pmf stats "$T/none.csv"
expect_error pmf_reenter_one "re-entry probability 1 must be in [0, 1)" pmf loop $EX/query.csv --reenter 1

# --- usage errors: one wording, naming the command ---
expect_error pmf_unknown_action "proper pmf: unknown action 'mean' (stats, conv or loop) (see 'proper pmf --help')" pmf mean $EX/query.csv
expect_error pmf_unknown_option "proper pmf: unknown option '--eps' (see 'proper pmf --help')" pmf loop $EX/query.csv --reenter 0.5 --eps 1e-3
expect_error pmf_no_action "proper pmf: expected an action" pmf
expect_error pmf_stats_two_files "proper pmf: stats: expected one FILE" pmf stats $EX/query.csv $EX/parse.csv
expect_error pmf_loop_operands "proper pmf: loop: expected BODY ITERS, or BODY --reenter P" pmf loop $EX/query.csv
expect_error pmf_missing_value "proper pmf: option '--svg' needs a value" pmf stats $EX/query.csv --svg
expect_error pmf_bad_width "proper: --width: expected a number (got 'abc')" pmf stats $EX/query.csv --width abc
expect_error pmf_zero_width "proper: --width: expected a positive number, got '0'" pmf stats $EX/query.csv --width 0
expect_error pmf_bad_truncate "proper: --truncate: expected a number in [0,1), got '1'" pmf stats $EX/query.csv --truncate 1
expect_error pmf_json_and_csv "--json and --csv exclude each other" pmf stats $EX/query.csv --json --csv

# with a common --width the mismatched files convolve: width 0.5 keeps both exact
run pmf conv "$T/w1.csv" "$T/w05.csv" --width 0.5 --json
status_is pmf_common_width 0 && check pmf_common_width rel_near "$(json_get "$T/out" result.mean)" 0.75 1e-12
# issue 14: a result beyond the range of doubles is an error (it printed mean
# -inf and NaN quantiles with exit 0); a tiny spread keeps its std (exactly
# half the distance of two equal masses); a BOM is accepted
printf 'value,prob\n0,0.5\n-1e308,0.5\n' > "$T/huge.csv"
expect_error pmf_conv_overflow "proper: the convolution's values would lie beyond the range of a double" pmf conv "$T/huge.csv" "$T/huge.csv"
printf 'value,prob\n0,0.5\n1e-300,0.5\n' > "$T/tiny.csv"
run pmf stats "$T/tiny.csv" --json
status_is pmf_tiny_std 0 && check pmf_tiny_std rel_near "$(json_get "$T/out" std)" 5e-301 1e-12
printf '\357\273\2771,0.5\n3,0.5\n' > "$T/bom.csv"
run pmf stats "$T/bom.csv" --json
status_is pmf_bom 0 && check pmf_bom [ "$(json_get "$T/out" mean)" = 2 ]
exit 0
