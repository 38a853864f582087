#!/bin/sh
# Command-line tests for `proper check`. Expected values: minPathSum by exact
# rational arithmetic (time = 32504164372/51699390625, cost =
# 9503884062/2067975625, see tests/test_prism.c); Knuth-Yao die 1/6 per face
# and 11/3 flips; exports must give the same answers when read back.
PROPER=${PROPER:-bin/proper}
cd "$(dirname "$0")/.." || exit 2
T=$(mktemp -d) || exit 2
trap 'rm -rf "$T"' EXIT
M=tests/models
PARAMS=p1=0.0912,p2=0.8181,p3=0.8,p4=0.8181,p5=0.8181

ok() { echo "ok $1"; }
fail() { echo "FAIL $1: $2"; }

# rel_near A B TOL: |A - B| <= TOL |B|
rel_near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; exit !(a != "" && d <= t * m) }'; }

# json_value FILE N: the "value" of the N-th property (1-based)
json_value() { tr '{' '\n' < "$1" | grep '"value"' | sed -n "$2p" | sed 's/.*"value": *//; s/[},].*//'; }

# expect_status NAME STATUS MESSAGE ARGS...: exit status and a message on stderr
expect_status() {
    name=$1; want=$2; msg=$3; shift 3
    "$PROPER" check "$@" > "$T/out" 2> "$T/err"; status=$?
    if [ "$status" -ne "$want" ]; then fail "$name" "exit status $status, expected $want; stderr: $(cat "$T/err")"
    elif [ -n "$msg" ] && ! grep -qF -- "$msg" "$T/err"; then fail "$name" "stderr '$(cat "$T/err")' lacks '$msg'"
    else ok "$name"; fi
}

# --- help ---
if "$PROPER" check --help > "$T/out" 2>&1 && grep -q "proper check MODEL.pm" "$T/out"; then ok check_help
else fail check_help "no usage text"; fi

# --- minPathSum (PROPER, IST 2023 Fig. 5): exact expected time and cost ---
if "$PROPER" check $M/minpathsum.pm $M/minpathsum.pctl --const $PARAMS --json > "$T/m.json" &&
   rel_near "$(json_value "$T/m.json" 1)" 0.62871465174063650 1e-12 &&
   rel_near "$(json_value "$T/m.json" 2)" 4.5957427868619100 1e-12 &&
   grep -q '"states": 22, "transitions": 27' "$T/m.json" && grep -q '"name": "time"' "$T/m.json"; then ok check_minpathsum_json
else fail check_minpathsum_json "$(cat "$T/m.json")"; fi

# the table prints 15 significant digits
if "$PROPER" check $M/minpathsum.pm $M/minpathsum.pctl --const $PARAMS > "$T/m.txt" &&
   grep -q '"cost": R{"cost"}=? \[ F "end" \]  *4.59574278686191$' "$T/m.txt"; then ok check_minpathsum_table
else fail check_minpathsum_table "$(cat "$T/m.txt")"; fi

# --- a property given as text ---
if "$PROPER" check $M/die.pm 'R{"coin_flips"}=? [ F s=7 ]' > "$T/d.txt" && grep -q ' 3.66666666666667$' "$T/d.txt"; then
    ok check_property_string
else fail check_property_string "$(cat "$T/d.txt")"; fi

if "$PROPER" check $M/die.pm $M/die.pctl --json > "$T/d.json" &&
   rel_near "$(json_value "$T/d.json" 3)" 0.16666666666666667 1e-12 &&
   rel_near "$(json_value "$T/d.json" 7)" 3.6666666666666667 1e-12; then ok check_die_file
else fail check_die_file "$(cat "$T/d.json")"; fi

# infinite expected reward prints as Infinity
if "$PROPER" check $M/gambler.pm 'R=? [ F "win" ]' --const p=0.5 > "$T/g.txt" && grep -q ' Infinity$' "$T/g.txt"; then
    ok check_infinity
else fail check_infinity "$(cat "$T/g.txt")"; fi

# --- boolean properties: exit 1 when one is false ---
expect_status check_bound_true 0 "" $M/die.pm 'P>=0.16 [ F d=1 ]'
expect_status check_bound_false 1 "" $M/die.pm 'P>0.2 [ F d=1 ]'

# --- exports read back give the same values ---
if "$PROPER" check $M/minpathsum.pm --const $PARAMS --export-explicit "$T/mps" --export-drn "$T/mps.drn" \
       --export-prism "$T/flat.pm" --dot "$T/mps.dot" > "$T/out" 2>&1 &&
   [ "$(head -n 1 "$T/mps.tra")" = "22 27" ] && [ "$(head -n 1 "$T/mps.sta")" = "(s)" ] &&
   [ -s "$T/mps1.srew" ] && [ -s "$T/mps2.srew" ] && [ -s "$T/mps.drn" ] && grep -q digraph "$T/mps.dot"; then
    ok check_exports
else fail check_exports "$(cat "$T/out"; ls "$T")"; fi

if "$PROPER" check --explicit "$T/mps.tra" "$T/mps.lab" --srew "$T/mps2.srew" 'R=? [ F "end" ]' --json > "$T/e.json" &&
   rel_near "$(json_value "$T/e.json" 1)" 4.5957427868619100 1e-12; then ok check_explicit_roundtrip
else fail check_explicit_roundtrip "$(cat "$T/e.json")"; fi

if "$PROPER" check "$T/flat.pm" 'R{"time"}=? [ F "end" ]' --json > "$T/f.json" &&
   rel_near "$(json_value "$T/f.json" 1)" 0.62871465174063650 1e-12; then ok check_flat_prism_roundtrip
else fail check_flat_prism_roundtrip "$(cat "$T/f.json")"; fi

# .sta lists states in PRISM's order (sorted valuations), here (s,d) of the die
if "$PROPER" check $M/die.pm --export-explicit "$T/die" > /dev/null 2>&1 &&
   [ "$(sed -n '1p;2p;14p' "$T/die.sta" | tr '\n' ' ')" = "(s,d) 0:(0,0) 12:(7,6) " ]; then ok check_state_order
else fail check_state_order "$(cat "$T/die.sta")"; fi

# --- bad input: exit 2 with file:line:col ---
printf 'dtmc\nmodule M\n  x : [0..2] init 0;\n  [] y=0 -> (x'"'"'=1);\nendmodule\n' > "$T/bad.pm"
expect_status check_unknown_identifier 2 "proper: $T/bad.pm:4:6: unknown identifier 'y'" "$T/bad.pm"

printf 'dtmc\nmodule M\n  x : [0..2] init 0;\n  [] x<2 -> 0.5:(x'"'"'=x+1) + 0.4:(x'"'"'=x);\nendmodule\n' > "$T/sum.pm"
expect_status check_prob_sum 2 "$T/sum.pm:4:3: probabilities of the command sum to 0.9" "$T/sum.pm"

printf 'dtmc\nmodule M\n  x : [0..2] init 0;\n  [] x<2 -> (x'"'"'=x+1);\nendmodule\n' > "$T/dl.pm"
expect_status check_deadlock 2 "deadlock: no command is enabled in state (x=2)" "$T/dl.pm"
expect_status check_fixdl 0 "" "$T/dl.pm" 'P=? [ F "deadlock" ]' --fixdl

expect_status check_missing_const 2 "constant 'p1' has no value" $M/minpathsum.pm $M/minpathsum.pctl
expect_status check_unknown_const 2 "unknown constant 'zz'" $M/die.pm --const zz=1
expect_status check_state_limit 2 "more than 5 reachable states" $M/die.pm --max-states 5
expect_status check_bad_property 2 "proper: (property):1:9: unknown label \"nolabel\"" $M/die.pm 'P=? [ F "nolabel" ]'
printf 'P=? [ F d=1 ]\nP=? [ F d=\n' > "$T/bad.pctl"
expect_status check_props_file_error 2 "$T/bad.pctl:3:1: expected an expression" $M/die.pm "$T/bad.pctl"
expect_status check_missing_props_file 2 "cannot open" $M/die.pm "$T/nosuch.pctl"
expect_status check_unknown_option 2 "unknown option '--frobnicate'" $M/die.pm --frobnicate
expect_status check_missing_model 2 "cannot open" "$T/nosuch.pm"
