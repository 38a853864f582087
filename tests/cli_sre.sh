#!/bin/sh
# `proper sre`: evaluation of a small model (expected numbers worked out by
# hand below), comparison with a hand-written trace, --max-mean-dev, what-if
# overrides, automaton conversion, outputs (JSON, CSV, SVG), and errors with
# file:line:col and exit status 2.
P=${PROPER:-bin/proper}
work=$(mktemp -d "${TMPDIR:-/tmp}/proper-cli-sre.XXXXXX")
trap 'rm -rf "$work"' EXIT
ok() { echo "ok $1"; }
fail() { echo "FAIL $1: $2"; }

# a = 3, b = 5 or 7 (1/2 each): d = a b has mean 9, std 1, mode 8 (the first
# of two equal bins).
printf 'symbol a = {3: 1};\nsymbol b = {5: 0.5, 7: 0.5};\ndef d = a b;\n' > "$work/m.sre"
out=$("$P" sre "$work/m.sre" --json)
if [ $? -eq 0 ] && echo "$out" | grep -q '"name": "d", "bins": 3, "tail": 0, "mean": 9, "std": 1, "mode": 8'; then
    ok sre_json
else
    echo "$out"; fail sre_json "unexpected figures"
fi

out=$("$P" sre "$work/m.sre" --csv)
if [ $? -eq 0 ] && echo "$out" | grep -qx '8,0.5' && echo "$out" | grep -qx '9,0' && echo "$out" | grep -qx '10,0.5'; then
    ok sre_csv
else
    echo "$out"; fail sre_csv "unexpected rows"
fi

# Measured T = 8 and 10 us: mean 9 (deviation 0), sample sd sqrt(2).
printf 'proper-trace 1\nR 1\nT 8000\nE\nR 2\nT 10000\nE\n' > "$work/t.trace"
out=$("$P" sre "$work/m.sre" --measured "$work/t.trace" T --max-mean-dev 0.5 --json)
if [ $? -eq 0 ] && echo "$out" | grep -q '"n": 2, "mean": 9, "std": 1.4142135623730951' &&
   echo "$out" | grep -q '"dev_mean_pct": 0,'; then
    ok sre_measured
else
    echo "$out"; fail sre_measured "unexpected comparison"
fi
out=$("$P" sre "$work/m.sre" --measured "$work/t.trace" T)
if [ $? -eq 0 ] && echo "$out" | grep -q '^mean (us) *9.0000 *9.0000 *0.00%' && echo "$out" | grep -q '^KS distance'; then
    ok sre_measured_table
else
    echo "$out"; fail sre_measured_table "unexpected table"
fi

# Measured T = 9 and 11: mean 10, the prediction is 10% low: the check fails (1).
printf 'proper-trace 1\nR 1\nT 9000\nE\nR 2\nT 11000\nE\n' > "$work/u.trace"
"$P" sre "$work/m.sre" --measured "$work/u.trace" T --max-mean-dev 5 > /dev/null 2> "$work/err"
st=$?
if [ $st -eq 1 ] && grep -q 'deviates by -10.00% (more than 5%)' "$work/err"; then
    ok sre_max_mean_dev
else
    cat "$work/err"; fail sre_max_mean_dev "exit $st"
fi

# What-if: b = 10 makes the mean 13; d.loop-free model, so override d itself.
out=$("$P" sre "$work/m.sre" --set 'b={10: 1}' --json)
if [ $? -eq 0 ] && echo "$out" | grep -q '"mean": 13,'; then ok sre_set_symbol; else echo "$out"; fail sre_set_symbol "mean"; fi
out=$("$P" sre "$work/m.sre" --set 'd=a*{4: 1}' --json)
if [ $? -eq 0 ] && echo "$out" | grep -q '"mean": 12,'; then ok sre_set_def; else echo "$out"; fail sre_set_def "mean"; fi
out=$("$P" sre "$work/m.sre" --set 'd=a*{4: 1}' --set 'd.loop={2: 1}' --print)
if [ $? -eq 0 ] && echo "$out" | grep -qx 'def d = a\*{2: 1};'; then ok sre_set_loop_print; else echo "$out"; fail sre_set_loop_print "printed model"; fi
printf '3,0.25\n4,0.75\n' > "$work/a.csv"
out=$("$P" sre "$work/m.sre" --set "a=$work/a.csv" --json)
if [ $? -eq 0 ] && echo "$out" | grep -q '"mean": 9.75,'; then ok sre_set_csv; else echo "$out"; fail sre_set_csv "mean"; fi

# Koziolek & Firus, Fig. 1
printf 'final s2\ns0 a s1 0.3\ns1 b s0 1\ns0 c s2 0.7\n' > "$work/fig1.sea"
out=$("$P" sre --from-automaton "$work/fig1.sea")
if [ $? -eq 0 ] && echo "$out" | grep -qx 'def service = (s0 a s1 b)\*\[0.3\] s0 c s2;'; then
    ok sre_from_automaton
else
    echo "$out"; fail sre_from_automaton "unexpected SRE"
fi

if "$P" sre "$work/m.sre" --svg "$work/p.svg" > /dev/null && grep -q '<svg' "$work/p.svg"; then
    ok sre_svg
else
    fail sre_svg "no SVG written"
fi

# errors: exit 2 and file:line:col
printf 'symbol a = {3: 1};\ndef d = a zz;\n' > "$work/bad.sre"
"$P" sre "$work/bad.sre" > /dev/null 2> "$work/err"
st=$?
if [ $st -eq 2 ] && grep -qx "proper: $work/bad.sre:2:11: unknown symbol or definition 'zz'" "$work/err"; then
    ok sre_error_position
else
    cat "$work/err"; fail sre_error_position "exit $st"
fi
"$P" sre "$work/m.sre" --set 'b={1: 0.5}' > /dev/null 2> "$work/err"
st=$?
if [ $st -eq 2 ] && grep -qx 'proper: --set:1:3: table probabilities sum to 0.5, not 1' "$work/err"; then
    ok sre_set_error
else
    cat "$work/err"; fail sre_set_error "exit $st"
fi
printf 'proper-trace 1\nR 1\nT 8000\n' > "$work/broken.trace"
"$P" sre "$work/m.sre" --measured "$work/broken.trace" T > /dev/null 2> "$work/err"
st=$?
if [ $st -eq 2 ] && grep -q "proper: $work/broken.trace:2:1: record of request 1 is not closed" "$work/err"; then
    ok sre_malformed_trace
else
    cat "$work/err"; fail sre_malformed_trace "exit $st"
fi
"$P" sre "$work/m.sre" --bogus > /dev/null 2>&1
st=$?
if [ $st -eq 2 ]; then ok sre_bad_option; else fail sre_bad_option "exit $st"; fi
if "$P" sre --help | grep -q '^usage: proper sre'; then ok sre_help; else fail sre_help "no usage"; fi
