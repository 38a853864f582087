#!/bin/sh
# Command-line tests for `proper pmf`. Expected means come from closed forms:
# E[A+B] = E[A] + E[B]; a loop with count K has mean E[K] E[body]; the
# geometric count of --reenter p has E[K] = p / (1 - p). The sample files'
# means are computed by hand in the comments.
PROPER=${PROPER:-bin/proper}
cd "$(dirname "$0")/.." || exit 2
T=$(mktemp -d) || exit 2
trap 'rm -rf "$T"' EXIT
EX=examples/pmf

ok() { echo "ok $1"; }
fail() { echo "FAIL $1: $2"; }

# json_field FILE KEY: the first number after "KEY": in the result object
# (or the only object for `stats`).
result_field() {
    sed 's/.*"result": //' "$1" | tr ',' '\n' | grep "\"$2\":" | head -n 1 | sed 's/.*: *//; s/[^0-9eE.+-].*//'
}

# near A B TOL: |A - B| <= TOL
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d <= t) }'; }

# expect_error NAME EXPECTED_MESSAGE ARGS...: exit status 2 and the message on stderr
expect_error() {
    name=$1; msg=$2; shift 2
    "$PROPER" "$@" > "$T/out" 2> "$T/err"; status=$?
    if [ "$status" -ne 2 ]; then fail "$name" "exit status $status, expected 2"
    elif ! grep -qF -- "$msg" "$T/err"; then fail "$name" "stderr '$(cat "$T/err")' lacks '$msg'"
    else ok "$name"; fi
}

# --- help ---
if "$PROPER" pmf --help > "$T/out" 2>&1 && grep -q "proper pmf conv A B" "$T/out"; then ok pmf_help
else fail pmf_help "no usage text"; fi

# --- stats: query.csv by hand: mean = .5*.4 + 1*.25 + 1.5*.05 + 5*.05 + 5.5*.12 + 6*.08 + 6.5*.05 = 2.24 ---
if "$PROPER" pmf stats $EX/query.csv --json > "$T/s.json" &&
   near "$(result_field "$T/s.json" mean)" 2.24 1e-12 &&
   near "$(result_field "$T/s.json" width)" 0.5 1e-12; then ok pmf_stats_json
else fail pmf_stats_json "$(cat "$T/s.json")"; fi

if "$PROPER" pmf stats $EX/query.csv > "$T/s.txt" && grep -q "2.24" "$T/s.txt" && grep -q "p99" "$T/s.txt"; then ok pmf_stats_table
else fail pmf_stats_table "$(cat "$T/s.txt")"; fi

# --- conv: parse.csv mean = 1*.1 + 1.5*.35 + 2*.3 + 2.5*.15 + 3*.06 + 4*.04 = 1.94; sum 4.18 ---
if "$PROPER" pmf conv $EX/parse.csv $EX/query.csv --json --svg "$T/conv.svg" > "$T/c.json" &&
   near "$(result_field "$T/c.json" mean)" 4.18 1e-12; then ok pmf_conv_mean
else fail pmf_conv_mean "$(cat "$T/c.json")"; fi

if [ -s "$T/conv.svg" ] && grep -q "<svg" "$T/conv.svg" && grep -q "parse.csv + examples/pmf/query.csv" "$T/conv.svg"; then
    if command -v xmllint > /dev/null 2>&1; then
        if xmllint --noout "$T/conv.svg" 2> "$T/xml"; then ok pmf_conv_svg; else fail pmf_conv_svg "not well-formed: $(cat "$T/xml")"; fi
    else ok pmf_conv_svg; fi
else fail pmf_conv_svg "no SVG with a legend written"; fi

# the CSV of the result sums to 1 and has 7 + 13 - 1 = 19 bins
if "$PROPER" pmf conv $EX/parse.csv $EX/query.csv --csv > "$T/c.csv" &&
   [ "$(grep -c '^[0-9]' "$T/c.csv")" -eq 19 ] &&
   near "$(awk -F, 'NR > 1 { s += $2 } END { printf "%.15f", s }' "$T/c.csv")" 1 1e-12; then ok pmf_conv_csv
else fail pmf_conv_csv "$(head -3 "$T/c.csv")"; fi

# --- loop: E[K] = .3*1 + .35*2 + .2*3 + .1*5 = 2.1, E[T] = 2.1 * 2.24 = 4.704 ---
if "$PROPER" pmf loop $EX/query.csv $EX/iters.csv --json --svg "$T/loop.svg" > "$T/l.json" &&
   near "$(result_field "$T/l.json" mean)" 4.704 1e-12 && grep -q "<svg" "$T/loop.svg"; then ok pmf_loop_mean
else fail pmf_loop_mean "$(cat "$T/l.json")"; fi

# --- Markovian loop: E[K] = 0.6 / 0.4 = 1.5, E[T] = 1.5 * 2.24 = 3.36 (tail <= 1e-12) ---
if "$PROPER" pmf loop $EX/query.csv --reenter 0.6 --json > "$T/m.json" &&
   near "$(result_field "$T/m.json" mean)" 3.36 1e-9 &&
   near "$(result_field "$T/m.json" tail)" 0 1e-12; then ok pmf_markov_loop_mean
else fail pmf_markov_loop_mean "$(cat "$T/m.json")"; fi

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
expect_error pmf_unknown_action "unknown action 'mean'" pmf mean $EX/query.csv
expect_error pmf_bad_width "--width" pmf stats $EX/query.csv --width abc

# with a common --width the mismatched files convolve: width 0.5 keeps both exact
if "$PROPER" pmf conv "$T/w1.csv" "$T/w05.csv" --width 0.5 --json > "$T/w.json" &&
   near "$(result_field "$T/w.json" mean)" 0.75 1e-12; then ok pmf_common_width
else fail pmf_common_width "$(cat "$T/w.json")"; fi
exit 0
