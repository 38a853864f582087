#!/bin/sh
# Command-line tests for `proper check`. Expected values: minPathSum by exact
# rational arithmetic (time = 32504164372/51699390625, cost =
# 9503884062/2067975625, see tests/test_prism.c); Knuth-Yao die 1/6 per face
# and 11/3 flips; exports must give the same answers when read back. The
# external backends are stood in for by shell scripts (PROPER_PRISM), as in
# tests/cli_crosscheck.sh.
. "$(dirname "$0")/cli_lib.sh"
M=tests/corpus/prism P=tests/corpus/props
PARAMS=p1=0.0912,p2=0.8181,p3=0.8,p4=0.8181,p5=0.8181
# chk ARGS...: proper check ARGS...
chk() { "$PROPER" check "$@"; }

# --- help ---
expect_text check_help 0 "proper check MODEL.pm" chk --help
expect_text check_help_after_error 0 "proper check MODEL.pm" chk --bogus --help

# --- a proven bound wider than --precision relative to the value is printed beside it ---
# (an M/M/1/K queue from 0: reaching 12 by t = 0.5 has probability 2.3142e-7;
# uniformisation's bound is absolute, 1.2e-13; PRISM 4.10.2-dev at -epsilon 1e-8
# gives 2.3141994e-07)
IN=tests/transcripts/inputs
run chk $IN/mm1k.sm 'P=? [ F<=T n>=12 ]' --const T=0.5
status_is check_bound_shown 0 && matches check_bound_shown_row "$T/out" '^P=\? \[ F<=T n>=12 \]  2\.314207[0-9]*e-07  \(\+/- 1\.[0-9]e-13 proven\)$'
run chk $IN/mm1k.sm 'P=? [ F<=T n>=12 ]' --const T=0.5 --precision 1e-5
status_is check_bound_within_precision 0 && matches check_bound_within_precision_row "$T/out" '^P=\? \[ F<=T n>=12 \]  2\.314207[0-9]*e-07$'

# --- LTL on an interval model (tests/test_prism.c's model: Pmax [ G F a ] = 35/43,
# Pmin [ F>=2 a ] = 25/43; PRISM 4.10.2-dev: 0.8139534883719663, and it refuses F>=2) ---
printf 'dtmc\nmodule M\n s : [0..4] init 0;\n [] s=0 -> [0.5,0.7]:(s'"'"'=1) + [0.2,0.4]:(s'"'"'=2) + [0.05,0.15]:(s'"'"'=0);\n [] s=1 -> [0.3,0.6]:(s'"'"'=3) + [0.4,0.7]:(s'"'"'=1);\n [] s=2 -> [0.1,0.2]:(s'"'"'=0) + [0.8,0.9]:(s'"'"'=4);\n [] s=3 -> 1:(s'"'"'=1);\n [] s=4 -> 1:(s'"'"'=4);\nendmodule\nlabel "a" = s=3;\n' > "$T/iv.pm"
run chk "$T/iv.pm" 'Pmax=? [ G F "a" ]' --json
status_is check_interval_ltl 0 && rel_near "$(json_get "$T/out" properties.0.value)" 0.81395348837209302 1e-10 &&
    ok check_interval_ltl_value || fail check_interval_ltl_value "$(cat "$T/out")"
run chk "$T/iv.pm" 'Pmin=? [ F>=2 "a" ]' --json
status_is check_interval_lower_bound 0 && rel_near "$(json_get "$T/out" properties.0.value)" 0.58139534883720930 1e-10 &&
    ok check_interval_lower_bound_value || fail check_interval_lower_bound_value "$(cat "$T/out")"

# --- minPathSum (PROPER, IST 2023 Fig. 5): exact expected time and cost ---
run chk $M/minpathsum.pm $P/minpathsum.pctl --const $PARAMS --json
status_is check_minpathsum_json 0 && json_valid check_minpathsum_json_valid "$T/out" &&
    check check_minpathsum_time rel_near "$(json_get "$T/out" properties.0.value)" 0.62871465174063650 1e-12 &&
    check check_minpathsum_cost rel_near "$(json_get "$T/out" properties.1.value)" 4.5957427868619100 1e-12 &&
    check check_minpathsum_size [ "$(json_get "$T/out" states) $(json_get "$T/out" transitions)" = "22 27" ] &&
    check check_minpathsum_name [ "$(json_get "$T/out" properties.0.name)" = time ]

# the table prints 15 significant digits
run chk $M/minpathsum.pm $P/minpathsum.pctl --const $PARAMS
status_is check_minpathsum_table 0 &&
    matches check_minpathsum_table "$T/out" '^"cost": R\{"cost"\}=\? \[ F "end" \]  *4\.59574278686191$'

# --- a property given as text ---
run chk $M/die.pm 'R{"coin_flips"}=? [ F s=7 ]'
status_is check_property_string 0 && matches check_property_string "$T/out" ' 3\.66666666666667$'

run chk $M/die.pm $P/die.pctl --json
status_is check_die_file 0 &&
    check check_die_face rel_near "$(json_get "$T/out" properties.2.value)" 0.16666666666666667 1e-12 &&
    check check_die_flips rel_near "$(json_get "$T/out" properties.6.value)" 3.6666666666666667 1e-12

# infinite expected reward prints as Infinity in the table ...
run chk $M/gambler.pm 'R=? [ F "win" ]' --const p=0.5
status_is check_infinity 0 && matches check_infinity "$T/out" ' Infinity$'
# ... and as null with value_text in JSON (was the string "Infinity" where a number belongs)
run chk $M/gambler.pm 'R=? [ F "win" ]' --const p=0.5 --json
status_is check_infinity_json 0 && json_valid check_infinity_json_valid "$T/out" &&
    check check_infinity_json_null [ "$(json_get "$T/out" properties.0.value) $(json_get "$T/out" properties.0.value_text)" = "null Infinity" ]

# names are escaped in JSON
printf '"a\\\\b": P=? [ F d=1 ]\n' > "$T/named.pctl"
run chk $M/die.pm "$T/named.pctl" --json
status_is check_json_escaped 0 && json_valid check_json_escaped_valid "$T/out" &&
    check check_json_escaped_name [ "$(json_get "$T/out" properties.0.name)" = 'a\\b' ] &&
    check check_json_escaped_type [ "$(json_get "$T/out" properties.0.type)" = double ]

# --- boolean properties: exit 1 when one is false ---
expect check_bound_true 0 chk $M/die.pm 'P>=0.16 [ F d=1 ]'
expect check_bound_false 1 chk $M/die.pm 'P>0.2 [ F d=1 ]'
run chk $M/die.pm 'P>0.2 [ F d=1 ]' --json
status_is check_bound_json 1 && check check_bound_json [ "$(json_get "$T/out" properties.0.value) $(json_get "$T/out" properties.0.type)" = "false bool" ]

# --- exports read back give the same values ---
run chk $M/minpathsum.pm --const $PARAMS --export-explicit "$T/mps" --export-drn "$T/mps.drn" \
    --export-prism "$T/flat.pm" --dot "$T/mps.dot"
if [ "$status" -eq 0 ] && [ "$(head -n 1 "$T/mps.tra")" = "22 27" ] && [ "$(head -n 1 "$T/mps.sta")" = "(s)" ] &&
   [ -s "$T/mps1.srew" ] && [ -s "$T/mps2.srew" ] && [ -s "$T/mps.drn" ] && grep -q digraph "$T/mps.dot"; then
    ok check_exports
else fail check_exports "$(last_output); $(ls "$T")"; fi

run chk --explicit "$T/mps.tra" "$T/mps.lab" --srew "$T/mps2.srew" 'R=? [ F "end" ]' --json
status_is check_explicit_roundtrip 0 &&
    check check_explicit_roundtrip rel_near "$(json_get "$T/out" properties.0.value)" 4.5957427868619100 1e-12

# several reward structures from PRISM-style numbered files, in the order given
# (the values are those of the PRISM-language model above)
run chk --explicit "$T/mps.tra" "$T/mps.lab" --srew "$T/mps1.srew" --srew "$T/mps2.srew" \
    'R{"time"}=? [ F "end" ]; R{"cost"}=? [ F "end" ]' --json
status_is check_explicit_two_rewards 0 &&
    check check_explicit_two_rewards rel_near "$(json_get "$T/out" properties.0.value)" 0.62871465174063650 1e-12 &&
    check check_explicit_two_rewards_cost rel_near "$(json_get "$T/out" properties.1.value)" 4.5957427868619100 1e-12
# a CTMC's export says so ("# Transitions (CTMC)", as PRISM writes it) and reads
# back as a CTMC; without the comment --ctmc says the .tra holds rates
run chk tests/transcripts/inputs/mm1k.sm 'P=? [ F<=T "full" ]' --const T=10 --export-explicit "$T/q" --json
want=$(json_get "$T/out" properties.0.value)
contains check_ctmc_export_comment "$T/q.tra" "# Transitions (CTMC)"
run chk --explicit "$T/q.tra" "$T/q.lab" 'P=? [ F<=10 "full" ]' --json
status_is check_ctmc_explicit 0 && check check_ctmc_explicit rel_near "$(json_get "$T/out" properties.0.value)" "$want" 1e-12
grep -v '^#' "$T/q.tra" > "$T/r.tra"
run chk --explicit "$T/r.tra" "$T/q.lab" 'P=? [ F<=10 "full" ]' --ctmc --json
status_is check_ctmc_flag 0 && check check_ctmc_flag rel_near "$(json_get "$T/out" properties.0.value)" "$want" 1e-12
expect_error check_ctmc_missing "probability 4 is above 1" chk --explicit "$T/r.tra" "$T/q.lab" 'P=? [ F<=10 "full" ]'

run chk "$T/flat.pm" 'R{"time"}=? [ F "end" ]' --json
status_is check_flat_prism_roundtrip 0 &&
    check check_flat_prism_roundtrip rel_near "$(json_get "$T/out" properties.0.value)" 0.62871465174063650 1e-12

# .sta lists states in PRISM's order (sorted valuations), here (s,d) of the die
run chk $M/die.pm --export-explicit "$T/die"
check check_state_order [ "$(sed -n '1p;2p;14p' "$T/die.sta" | tr '\n' ' ')" = "(s,d) 0:(0,0) 12:(7,6) " ]
# --sta: properties over the variables of explicit files (Knuth-Yao: each face
# 1/6, faces 4..6 1/2, 11/3 expected flips)
run chk --explicit "$T/die.tra" "$T/die.lab" --sta "$T/die.sta" --trew "$T/die.trew" \
    'P=? [ F s=7 & d=6 ]; P=? [ F d>3 ]; R=? [ F s=7 ]' --json
status_is check_explicit_sta 0 &&
    check check_explicit_sta_face rel_near "$(json_get "$T/out" properties.0.value)" 0.16666666666666667 1e-12 &&
    check check_explicit_sta_half rel_near "$(json_get "$T/out" properties.1.value)" 0.5 1e-12 &&
    check check_explicit_sta_flips rel_near "$(json_get "$T/out" properties.2.value)" 3.6666666666666667 1e-12
expect_error check_explicit_no_sta "(property):1:9: unknown identifier 'd' (explicit files name variables in their .sta: give it with --sta)" \
    chk --explicit "$T/die.tra" "$T/die.lab" 'P=? [ F d=6 ]'
printf '(s,d)\n0:(0,0)\n1:(1,true)\n' > "$T/bad.sta"
expect_error check_explicit_sta_bad "bad.sta:3:6: variable 'd' was an integer in earlier states" \
    chk --explicit "$T/die.tra" "$T/die.lab" --sta "$T/bad.sta" 'P=? [ F d=6 ]'

# --- an external backend (a stand-in for PRISM that logs its arguments) ---
cat > "$T/prism" <<EOS
#!/bin/sh
case "\$1" in -version) echo "PRISM version 4.9"; exit 0 ;; esac
printf '%s\n' "\$@" > '$T/args.log'
printf 'Model checking: R{"time"}=? [ F "end" ]\n\nResult: 0.6287146517400535 (+/- 6.217248937900938E-14 estimated; rel err 9.9E-14)\n'
EOS
chmod +x "$T/prism"
# the property text has quotes: the JSON stays valid (it was printed raw)
PROPER_PRISM=$T/prism run chk $M/minpathsum.pm 'R{"time"}=? [ F "end" ]' --const $PARAMS --backend prism --json
status_is check_tool_json 0 && json_valid check_tool_json_valid "$T/out" &&
    check check_tool_json_property [ "$(json_get "$T/out" properties.0.property)" = 'R{"time"}=? [ F "end" ]' ] &&
    check check_tool_json_value [ "$(json_get "$T/out" properties.0.value)" = 0.6287146517400535 ] &&
    check check_tool_json_error [ "$(json_get "$T/out" properties.0.tool_error)" = 6.217248937900938e-14 ]
# the one default precision of the CLI, 1e-12, goes to the tool
check check_tool_default_precision [ "$(grep -A1 -- -epsilon "$T/args.log" | tail -n 1)" = 1e-12 ]
PROPER_PRISM=$T/prism run chk $M/minpathsum.pm 'R{"time"}=? [ F "end" ]' --const $PARAMS --backend prism --precision 1e-9
status_is check_tool_precision 0 && check check_tool_precision [ "$(grep -A1 -- -epsilon "$T/args.log" | tail -n 1)" = 1e-09 ]
# a tool that states no error: tool_error is null (was -1)
cat > "$T/prism-plain" <<EOS
#!/bin/sh
case "\$1" in -version) echo "PRISM version 4.9"; exit 0 ;; esac
printf 'Model checking: P=? [ F d=1 ]\n\nResult: 0.16666666666666666\n'
EOS
chmod +x "$T/prism-plain"
PROPER_PRISM=$T/prism-plain run chk $M/die.pm 'P=? [ F d=1 ]' --backend prism --json
status_is check_tool_no_error 0 && json_valid check_tool_no_error_valid "$T/out" &&
    check check_tool_no_error [ "$(json_get "$T/out" properties.0.tool_error)" = null ]

# a tool that hangs on -version: the probe obeys --timeout and says so
printf '#!/bin/sh\nsleep 60\n' > "$T/prism-probe-hang"
chmod +x "$T/prism-probe-hang"
probe_start=$(date +%s)
PROPER_PRISM=$T/prism-probe-hang expect_error check_tool_probe_hang \
    "backend prism ($T/prism-probe-hang) is there but unusable: $T/prism-probe-hang -version did not answer within 1 s (killed)" \
    chk $M/die.pm 'P=? [ F d=1 ]' --backend prism --timeout 1
check check_tool_probe_hang_fast [ $(( $(date +%s) - probe_start )) -lt 20 ]

# a range of one value through a constant given on the command line,
# x : [0..N] with N = 0 (shift exponent 64 in the state packing before; the
# runner passes the sanitizer build): x is 0 in every state
printf 'dtmc\nconst int N;\nmodule M\n x : [0..N];\n y : [0..2] init 0;\n [] y<2 -> (y'"'"'=y+1);\n [] y=2 -> true;\nendmodule\n' > "$T/n0.pm"
run chk "$T/n0.pm" 'P=? [ F<=2 y=2 & x=0 ]' --const N=0 --export-explicit "$T/n0"
status_is check_one_value_range 0 && matches check_one_value_range "$T/out" '^P=\? \[ F<=2 y=2 & x=0 \]  *1$' &&
    check check_one_value_range_sta [ "$(tr '\n' ' ' < "$T/n0.sta")" = "(x,y) 0:(0,0) 1:(0,1) 2:(0,2) " ]

# --- bad input: exit 2 with file:line:col ---
printf 'dtmc\nmodule M\n  x : [0..2] init 0;\n  [] y=0 -> (x'"'"'=1);\nendmodule\n' > "$T/bad.pm"
expect_error check_unknown_identifier "proper: $T/bad.pm:4:6: unknown identifier 'y'" chk "$T/bad.pm"

printf 'dtmc\nmodule M\n  x : [0..2] init 0;\n  [] x<2 -> 0.5:(x'"'"'=x+1) + 0.4:(x'"'"'=x);\nendmodule\n' > "$T/sum.pm"
expect_error check_prob_sum "$T/sum.pm:4:3: probabilities of the command sum to 0.9" chk "$T/sum.pm"
# --noprobchecks: each state's row normalised, as PRISM 4.10.2-dev does with -noprobchecks:
# `prism np.pm -pf 'P=? [ X s=1 ]' -noprobchecks` (also -ex) prints 0.4 for a lone
# command 0.2:(s'=1) + 0.3:(s'=2) and 0.2 when a second command 0.5:(s'=3) overlaps it;
# a command whose probabilities sum to 0 is an error (PRISM -ex: "Probability is zero")
printf 'dtmc\nmodule M\n  s : [0..3] init 0;\n  [] s=0 -> 0.2:(s'"'"'=1) + 0.3:(s'"'"'=2);\n  [] s>0 -> true;\nendmodule\n' > "$T/np.pm"
run chk "$T/np.pm" 'P=? [ X s=1 ]' --noprobchecks
status_is check_noprobchecks 0 && matches check_noprobchecks "$T/out" ' 0\.4$'
printf 'dtmc\nmodule M\n  s : [0..3] init 0;\n  [] s=0 -> 0.2:(s'"'"'=1) + 0.3:(s'"'"'=2);\n  [] s=0 -> 0.5:(s'"'"'=3);\n  [] s>0 -> true;\nendmodule\n' > "$T/np2.pm"
run chk "$T/np2.pm" 'P=? [ X s=1 ]' --noprobchecks
status_is check_noprobchecks_two 0 && matches check_noprobchecks_two "$T/out" ' 0\.2$'
printf 'dtmc\nmodule M\n  s : [0..1] init 0;\n  [] s=0 -> 0:(s'"'"'=1);\n  [] s>0 -> true;\nendmodule\n' > "$T/np0.pm"
expect_error check_noprobchecks_zero "$T/np0.pm:4:3: probabilities of the command sum to 0, not 1" chk "$T/np0.pm" --noprobchecks
expect_error check_noprobchecks_exact "not supported with --exact" chk "$T/np.pm" --noprobchecks --exact

printf 'dtmc\nmodule M\n  x : [0..2] init 0;\n  [] x<2 -> (x'"'"'=x+1);\nendmodule\n' > "$T/dl.pm"
# deadlocks get a self-loop by default, with a warning, as PRISM does; --nofixdl refuses them
run chk "$T/dl.pm" 'P=? [ F "deadlock" ]'
status_is check_deadlock_default 0 && matches check_deadlock_default "$T/out" ' 1$' &&
    contains check_deadlock_warning "$T/err" "warning: 1 deadlock state given a self-loop"
expect_error check_nofixdl "deadlock: no command is enabled in state (x=2)" chk "$T/dl.pm" --nofixdl
expect check_fixdl 0 chk "$T/dl.pm" 'P=? [ F "deadlock" ]' --fixdl
expect_error check_fixdl_nofixdl "contradict" chk "$T/dl.pm" --fixdl --nofixdl

expect_error check_missing_const "constant 'p1' has no value" chk $M/minpathsum.pm $P/minpathsum.pctl
# a --const name declared nowhere is ignored with a warning, as PRISM ignores it
run chk $M/die.pm 'P=? [ F d=1 ]' --const zz=1
status_is check_unknown_const 0 && matches check_unknown_const "$T/out" ' 0\.166666666666667$' &&
    contains check_unknown_const_warning "$T/err" "ignored (as PRISM does): zz"
# --const values are expressions: p=1/3 is the double nearest 1/3
run chk $M/gambler.pm 'P=? [ F "win" ]' --const p=1/3 --json
v1=$(json_get "$T/out" properties.0.value)
run chk $M/gambler.pm 'P=? [ F "win" ]' --const p=0.3333333333333333 --json
check check_const_expression [ "$v1" = "$(json_get "$T/out" properties.0.value)" ]
expect_error check_const_bad_expression "constant p: value '1/': expected an expression" chk $M/gambler.pm --const p=1/
# ranges: one run per combination (PRISM's -const N=1:6), each the die's 1/6
printf 'const int x;\nP=? [ F s=7 & d=x ]\n' > "$T/face.pctl"
run chk $M/die.pm "$T/face.pctl" --const x=1:6
status_is check_const_range 0 &&
    check check_const_range_runs [ "$(count_matches "$T/out" '^constants: x=[1-6]$')" = 6 ] &&
    check check_const_range_values [ "$(count_matches "$T/out" ' 0\.166666666666667$')" = 6 ]
run chk $M/gambler.pm 'P=? [ F "win" ]' --const p=0:0.5:1 --json
status_is check_const_range_json 0 && json_valid check_const_range_json_valid "$T/out" &&
    check check_const_range_json_runs [ "$(json_get "$T/out" runs.2.constants)" = "p=1" ] &&
    check check_const_range_json_p0 [ "$(json_get "$T/out" runs.0.properties.0.value)" = 0 ]
expect_error check_const_range_empty "is empty" chk $M/gambler.pm --const p=1:0.5:0
expect_error check_const_range_export "no --const ranges" chk $M/gambler.pm --const p=0:0.5:1 --export-drn "$T/g.drn"
# PRISM's test mode: RESULT comments above the properties
printf '// RESULT: 1/6\nP=? [ F d=1 ]\n// RESULT: 0.5\nP=? [ F d=2 ]\n// RESULT: ?\nP=? [ F d=3 ]\n// RESULT (x=2): 1/6\n// RESULT (x=1): 0\nP=? [ F d=x+1 ]\n// RESULT: Error\nP=? [ F "nolabel" ]\n' > "$T/t.pctl"
printf 'const int x;\n' | cat - "$T/t.pctl" > "$T/tx.pctl"
run chk $M/die.pm "$T/tx.pctl" --test --const x=2
status_is check_test_mode 1 &&
    check check_test_pass [ "$(count_matches "$T/out" '^PASS  ')" = 3 ] &&
    matches check_test_wrong "$T/out" '^WRONG  P=\? \[ F d=2 \]  -- expected 0\.5, got 0\.166666666666667$' &&
    matches check_test_skip "$T/out" '^SKIP  P=\? \[ F d=3 \]$'
run chk $M/die.pm "$T/tx.pctl" --test --const x=1 --property 4
status_is check_test_property 1 && matches check_test_property "$T/out" '^WRONG  P=\? \[ F d=x\+1 \]  -- expected 0, got'
# a bound at the value (1/6 exactly: the doubles cannot decide it) is decided exactly;
# where PRISM expects its "accuracy" refusal that is BEYOND, not WRONG (PRISM's own
# functionality/verify/close_bounds.prism: RESULT (exact=false): Error "accuracy",
# RESULT (exact=true): true)
printf '// RESULT: Error "accuracy"\nP>=1/6 [ F d=1 ]\n// RESULT: true\nP>=1/6 [ F d=1 ]\n// RESULT: false\nP>1/6 [ F d=1 ]\n' > "$T/tie.pctl"
run chk $M/die.pm "$T/tie.pctl" --test
status_is check_test_tie 0 && check check_test_tie_pass [ "$(count_matches "$T/out" '^PASS  ')" = 2 ] &&
    matches check_test_tie_beyond "$T/out" '^BEYOND  P>=1/6 \[ F d=1 \]  -- expected an error, got true$'
expect_error check_state_limit "more than 5 reachable states" chk $M/die.pm --max-states 5
expect_error check_bad_max_states "--max-states" chk $M/die.pm --max-states 0
# 40 independent two-state modules: refused at once with the exact count 2^40
# (it took 52 s and 1.7 GB to reach the limit)
i=0; echo dtmc > "$T/m40.pm"
while [ $i -lt 40 ]; do
    printf 'module m%d\n x%d : [0..1] init 0;\n [] true -> 0.5:(x%d'"'"'=0) + 0.5:(x%d'"'"'=1);\nendmodule\n' $i $i $i $i >> "$T/m40.pm"
    i=$((i + 1))
done
probe_start=$(date +%s)
expect_error check_state_limit_early "the model has 1099511627776, the product of its 40 independent groups of modules" chk "$T/m40.pm"
check check_state_limit_early_fast [ $(( $(date +%s) - probe_start )) -lt 10 ]
expect_error check_bad_property "proper: (property):1:9: unknown label \"nolabel\"" chk $M/die.pm 'P=? [ F "nolabel" ]'
printf 'P=? [ F d=1 ]\nP=? [ F d=\n' > "$T/bad.pctl"
expect_error check_props_file_error "$T/bad.pctl:3:1: expected an expression" chk $M/die.pm "$T/bad.pctl"
expect_error check_missing_props_file "cannot open" chk $M/die.pm "$T/nosuch.pctl"
expect_error check_missing_model "cannot open" chk "$T/nosuch.pm"
# PROPS with no property in it is bad input, not "nothing to check, exit 0"
: > "$T/empty.pctl"
expect_error check_empty_props "proper: $T/empty.pctl: no property in $T/empty.pctl" chk $M/die.pm "$T/empty.pctl"
printf '// only a comment\nconst int K = 3;\n\n' > "$T/comments.pctl"
expect_error check_comment_only_props "no property in $T/comments.pctl" chk $M/die.pm "$T/comments.pctl"
printf '\000\000\000' > "$T/nul.pctl"
expect_error check_nul_props "proper: $T/nul.pctl:1:1: unexpected byte 0x00" chk $M/die.pm "$T/nul.pctl"
expect_error check_empty_props_text "no property in the text ''" chk $M/die.pm ''
expect_error check_blank_props_text "no property in the text '  '" chk $M/die.pm '  '
# PROPS is a file when one exists, else property text (any expression); text
# that does not parse and ends like a file name is a missing file
run chk $M/gambler.pm 'N+0' --const p=0.5
status_is check_expression_property 0 && matches check_expression_property "$T/out" '^N\+0  *10$'
run chk $M/die.pm '1/4'
status_is check_expression_division 0 && matches check_expression_division "$T/out" '^1/4  *0\.25$'
expect_error check_expression_unknown "proper: (property):1:1: unknown identifier 'N'" chk $M/die.pm 'N+0'
expect_error check_missing_props_name "proper: $T/nosuch.props: cannot open: No such file or directory" chk $M/die.pm "$T/nosuch.props"
# a file whose name reads as a property is still the file
case $PROPER in /*) proper_abs=$PROPER ;; *) proper_abs=$(pwd)/$PROPER ;; esac
(cd "$T" && printf 'P=? [ F d=2 ]\n' > 'x=1' && "$proper_abs" check "$OLDPWD/$M/die.pm" 'x=1' > out2 2>&1)
check check_file_wins grep -q '^P=? \[ F d=2 \]  *0\.166666666666667$' "$T/out2"
# the CLI's one wording for usage errors
expect_error check_unknown_option "proper check: unknown option '--frobnicate' (see 'proper check --help')" chk $M/die.pm --frobnicate
expect_error check_missing_value "proper check: option '--const' needs a value" chk $M/die.pm --const
expect_error check_bad_precision "--precision: expected a number in (0,1), got '2'" chk $M/die.pm --precision 2
expect_error check_no_model "proper check: missing MODEL.pm" chk
expect_error check_too_many "unexpected argument 'extra'" chk $M/die.pm 'P=? [ F d=1 ]' extra
expect_error check_srew_needs_explicit "--srew/--trew/--sta/--ctmc need --explicit" chk $M/die.pm --srew x.srew
expect_error check_sta_needs_explicit "--srew/--trew/--sta/--ctmc need --explicit" chk $M/die.pm --sta x.sta
# one --precision default (CLI_DEFAULT_PRECISION) in check, crosscheck and pmf
for c in check crosscheck pmf; do
    run_proper $c --help
    status_is "precision_default_$c" 0 && grep -A1 -e '--precision' "$T/out" | tr -s ' \n' ' ' > "$T/precision.txt" &&
        contains "precision_default_$c" "$T/precision.txt" "default 1e-12"
done

# --- exact and parametric answers: the strings PRISM 4.10.2-dev prints ---
# (prism minpathsum.pm minpathsum.pctl -exact -const p1=0.0912,p2=0.8181,p3=0.8,p4=0.8181,p5=0.8181)
run chk $M/minpathsum.pm $P/minpathsum.pctl --const $PARAMS --exact
status_is check_exact_table 0 &&
    matches check_exact_time "$T/out" '^"time": R\{"time"\}=\? \[ F "end" \]  *32504164372/51699390625  \(exact\)$' &&
    matches check_exact_cost "$T/out" '  9503884062/2067975625  \(exact\)$' &&
    matches check_exact_one "$T/out" '^P=\? \[ F "end" \]  *1  \(exact\)$'
run chk $M/minpathsum.pm $P/minpathsum.pctl --const $PARAMS --exact --json
status_is check_exact_json 0 && json_valid check_exact_json_valid "$T/out" &&
    check check_exact_json_rational [ "$(json_get "$T/out" properties.0.rational)" = 32504164372/51699390625 ] &&
    check check_exact_json_flag [ "$(json_get "$T/out" properties.0.exact)" = true ] &&
    check check_exact_json_value rel_near "$(json_get "$T/out" properties.0.value)" 0.62871465174063650 1e-15
# (prism minpathsum.pm -pf 'R{"cost"}=? [ F "end" ]' -param p1,p4,p5 -const p2=0.8181,p3=0.8)
run chk $M/minpathsum.pm 'R{"cost"}=? [ F "end" ]' --param p1,p4,p5 --const p2=0.8181,p3=0.8
status_is check_param_cost 0 &&
    matches check_param_cost "$T/out" ' \(p4\*p5-p1\*p4\*p5\)/\(4\*p4\*p5-4\*p4-4\*p5\+4\)  \(parametric\)$'
run chk $M/minpathsum.pm 'R{"cost"}=? [ F "end" ]' --param p1=0:1,p4=0:1,p5=0:1 --const p2=0.8181,p3=0.8 --json
status_is check_param_json 0 &&
    check check_param_json_function [ "$(json_get "$T/out" properties.0.function)" = '(p4*p5-p1*p4*p5)/(4*p4*p5-4*p4-4*p5+4)' ]
# a bound decided exactly (prism die.pm -pf 'P>0.16 [ F s=7 & d=6 ]' -exact: true)
run chk $M/die.pm 'P>0.16 [ F s=7 & d=6 ]' --exact
status_is check_exact_bound 0 && matches check_exact_bound "$T/out" '  true  \(exact\)$'
# 0.1 is read as 1/10 (as written), not as the double
printf 'dtmc\nmodule M s:[0..2] init 0; [] s=0 -> 0.1:(s'"'"'=1) + 0.9:(s'"'"'=2); [] s>0 -> true; endmodule\n' > "$T/tenth.pm"
run chk "$T/tenth.pm" 'P=? [ F s=1 ]' --exact
status_is check_exact_literal 0 && matches check_exact_literal "$T/out" '  1/10  \(exact\)$'
# FACT's param declarations: no value is an error naming the parameter; --const gives it, --param keeps it open
expect_error check_param_missing "parameter 'p' has no value" chk $M/fact_params.pm 'P=? [ F s=3 ]'
run chk $M/fact_params.pm 'P=? [ F s=1 ]' --param y1,y2,p,n11,n12
# P(F s=1) = y1/(1 - y2 q) with q = n12/(1+n11), by hand
status_is check_fact_param 0 && matches check_fact_param "$T/out" '  \(-\(y1\*n11\)-y1\)/\(y2\*n12-n11-1\)  \(parametric\)$'
run chk $M/fact_params.pm 'P=? [ F s=1 ]' --exact --const y1=1/4,y2=1/4,p=1/2,n11=1,n12=1/2
status_is check_fact_exact 0 && matches check_fact_exact "$T/out" '  4/15  \(exact\)$'
# what exact checking refuses, clearly
printf 'dtmc\nconst double p;\nmodule M s:[0..2] init 0; [] s=0 & p>0.5 -> p:(s'"'"'=1) + (1-p):(s'"'"'=2); [] s>0 -> true; endmodule\n' > "$T/guard.pm"
expect_error check_param_in_guard "$T/guard.pm:3:30: a parameter may appear only in probabilities, rates and rewards" \
    chk "$T/guard.pm" 'P=? [ F s=1 ]' --param p
expect_error check_exact_unsupported_lower "exact: a lower step bound is not supported" chk $M/die.pm 'P=? [ F>=2 s=7 ]' --exact
expect_error check_param_unknown "--param: the model has no constant 'zz'" chk $M/die.pm 'P=? [ F s=7 ]' --param zz
# a limit of exact arithmetic is named, at the expression: (1+p+q)^1000 has 501501 terms (more than 100000)
printf 'dtmc\nconst double p; const double q;\nmodule M s:[0..1] init 0; [] s=0 -> p:(s'"'"'=1) + (1-p):(s'"'"'=0); [] s=1 -> true; endmodule\n' > "$T/terms.pm"
expect_error check_param_term_limit "(property):1:2: exact: a number or polynomial beyond the exact limits" \
    chk "$T/terms.pm" '(1+p+q)^1000' --param p,q

# --json error_bound: the solver's proven bound contains the exact value
# (minPathSum: 32504164372/51699390625 and 9503884062/2067975625, PRISM -exact above)
run chk $M/minpathsum.pm $P/minpathsum.pctl --const $PARAMS --json
status_is check_error_bound 0 &&
    check check_error_bound_time awk -v v="$(json_get "$T/out" properties.0.value)" -v b="$(json_get "$T/out" properties.0.error_bound)" \
        'BEGIN { d = v - 32504164372 / 51699390625; if (d < 0) d = -d; exit !(b != "null" && b >= 0 && b < 1e-10 && d <= b + 1e-16) }' &&
    check check_error_bound_cost awk -v v="$(json_get "$T/out" properties.1.value)" -v b="$(json_get "$T/out" properties.1.error_bound)" \
        'BEGIN { d = v - 9503884062 / 2067975625; if (d < 0) d = -d; exit !(b != "null" && b >= 0 && b < 1e-9 && d <= b + 1e-15) }'
# bounded until and steady state carry bounds too (3/4 after 3 flips; pi0 = q/(p+q) = 4/7); a lower step
# bound does not (its restricted steps' rounding is not bounded)
run chk $M/die.pm 'P=? [ F<=3 s=7 ]' --json
status_is check_error_bound_bounded 0 &&
    check check_error_bound_bounded awk -v v="$(json_get "$T/out" properties.0.value)" -v b="$(json_get "$T/out" properties.0.error_bound)" \
        'BEGIN { d = v - 0.75; if (d < 0) d = -d; exit !(b != "null" && b >= 0 && b < 1e-10 && d <= b) }'
run chk $M/two_state.pm 'S=? [ s=0 ]' --const p=0.25,q=1/3 --json
status_is check_error_bound_steady 0 &&
    check check_error_bound_steady awk -v v="$(json_get "$T/out" properties.0.value)" -v b="$(json_get "$T/out" properties.0.error_bound)" \
        'BEGIN { d = v - 4 / 7; if (d < 0) d = -d; exit !(b != "null" && b >= 0 && b < 1e-10 && d <= b + 1e-16) }'
# a DTMC's C<=k, I=k and R [ S ] too: the flip with p = q = 1/8, step reward 1 in s=0 and 2 in s=1, from s=0
# (in s=0 after j steps with probability (1 + (3/4)^j)/2): C<=10 = 15 - 2 (1 - (3/4)^10), I=10 (state
# rewards only) = (1 + (3/4)^10)/2, S = 3/2
printf 'R=? [ C<=10 ]\nR=? [ I=10 ]\nR=? [ S ]\n' > "$T/flip.props"
run chk $M/two_state.pm "$T/flip.props" --const p=0.125,q=0.125 --json
status_is check_error_bound_rewards 0 &&
    check check_error_bound_cumul awk -v v="$(json_get "$T/out" properties.0.value)" -v b="$(json_get "$T/out" properties.0.error_bound)" \
        'BEGIN { d = v - (15 - 2 * (1 - 0.75 ^ 10)); if (d < 0) d = -d; exit !(b != "null" && b >= 0 && b < 1e-10 && d <= b + 1e-14) }' &&
    check check_error_bound_instant awk -v v="$(json_get "$T/out" properties.1.value)" -v b="$(json_get "$T/out" properties.1.error_bound)" \
        'BEGIN { d = v - (1 + 0.75 ^ 10) / 2; if (d < 0) d = -d; exit !(b != "null" && b >= 0 && b < 1e-10 && d <= b + 1e-16) }' &&
    check check_error_bound_lra awk -v v="$(json_get "$T/out" properties.2.value)" -v b="$(json_get "$T/out" properties.2.error_bound)" \
        'BEGIN { d = v - 1.5; if (d < 0) d = -d; exit !(b != "null" && b >= 0 && b < 1e-10 && d <= b + 1e-16) }'
# a CTMC's time-bounded answers too (uniformisation's proven bound): the flip 0 -2-> 1 -3-> 0 from 0,
# P(x=1 at t) = (2/5)(1 - e^{-5t}): F<=0.5 x=1 = 1 - e^{-1} (x=1 absorbing), F[1,2] x=1 =
# p1(1) + (1 - p1(1))(1 - e^{-2}), "up" (5 in x=1) I=1 = 5 p1(1), "time" (1 in x=0) C<=2 = 2 - (2/5)(2 - (1 - e^{-10})/5)
printf 'ctmc\nmodule flip x : [0..1] init 0; [] x=0 -> 2:(x'"'"'=1); [] x=1 -> 3:(x'"'"'=0); endmodule\nrewards "time" x=0 : 1; endrewards\nrewards "up" x=1 : 5; endrewards\n' > "$T/flip.sm"
printf 'P=? [ F<=0.5 x=1 ]\nP=? [ F[1,2] x=1 ]\nR{"up"}=? [ I=1 ]\nR{"time"}=? [ C<=2 ]\n' > "$T/flip.csl"
run chk "$T/flip.sm" "$T/flip.csl" --json
status_is check_error_bound_ctmc 0 &&
    check check_error_bound_ctmc_until awk -v v="$(json_get "$T/out" properties.0.value)" -v b="$(json_get "$T/out" properties.0.error_bound)" \
        'BEGIN { d = v - (1 - exp(-1)); if (d < 0) d = -d; exit !(b != "null" && b >= 0 && b < 1e-10 && d <= b + 1e-15) }' &&
    check check_error_bound_ctmc_window awk -v v="$(json_get "$T/out" properties.1.value)" -v b="$(json_get "$T/out" properties.1.error_bound)" \
        'BEGIN { p = 0.4 * (1 - exp(-5)); d = v - (p + (1 - p) * (1 - exp(-2))); if (d < 0) d = -d; exit !(b != "null" && b >= 0 && b < 1e-10 && d <= b + 1e-15) }' &&
    check check_error_bound_ctmc_instant awk -v v="$(json_get "$T/out" properties.2.value)" -v b="$(json_get "$T/out" properties.2.error_bound)" \
        'BEGIN { d = v - 2 * (1 - exp(-5)); if (d < 0) d = -d; exit !(b != "null" && b >= 0 && b < 1e-10 && d <= b + 1e-15) }' &&
    check check_error_bound_ctmc_cumul awk -v v="$(json_get "$T/out" properties.3.value)" -v b="$(json_get "$T/out" properties.3.error_bound)" \
        'BEGIN { d = v - (2 - 0.4 * (2 - (1 - exp(-10)) / 5)); if (d < 0) d = -d; exit !(b != "null" && b >= 0 && b < 1e-10 && d <= b + 1e-15) }'
run chk $M/die.pm 'P=? [ F>=2 s=7 ]' --json
status_is check_error_bound_none 0 && check check_error_bound_none [ "$(json_get "$T/out" properties.0.error_bound)" = null ]
# pow of doubles has no proven rounding bound: the solve's bound is of the stored chain only, named so
printf 'dtmc\nmodule M s : [0..1] init 0; [] s=0 -> pow(0.5,0.5):(s'"'"'=1) + (1-pow(0.5,0.5)):(s'"'"'=0); [] s=1 -> true; endmodule\n' > "$T/pow.pm"
run chk "$T/pow.pm" 'P=? [ F s=1 ]' --json
status_is check_error_bound_stored 0 && check check_error_bound_stored [ "$(json_get "$T/out" properties.0.error_bound)" = null ] &&
    check check_error_bound_stored_given awk -v b="$(json_get "$T/out" properties.0.stored_chain_error_bound)" 'BEGIN { exit !(b != "null" && b >= 0 && b < 1e-12) }'
# expressions without an operator, exactly: 0.5^2 + 1/3 = 7/12; with --param, p1*2 + done (done = 21)
run chk $M/die.pm 'pow(0.5, 2)+1/3' --exact
status_is check_exact_expression 0 && matches check_exact_expression "$T/out" '  7/12  \(exact\)$'
run chk $M/minpathsum.pm 'p1*2+done' --param p1,p2,p3,p4,p5
status_is check_param_expression 0 && matches check_param_expression "$T/out" '  2\*p1\+21  \(parametric\)$'
expect_error check_param_twice "--param: 'p1' is named twice" chk $M/minpathsum.pm 'P=? [ F "end" ]' --param p1,p1
# R=? [ S ] exactly: pi0 = q/(p+q), reward 1 in s=0 and 2 (per transition) in s=1; PRISM 4.10.2-dev:
# (prism two_state.pm -pf 'R{"r"}=? [ S ]' -exact -const p=0.25,q=1/3: 10/7; -param p,q: (2*p+q)/(p+q))
run chk $M/two_state.pm 'R{"r"}=? [ S ]' --exact --const p=0.25,q=1/3
status_is check_exact_lra 0 && matches check_exact_lra "$T/out" '  10/7  \(exact\)$'
run chk $M/two_state.pm 'R{"r"}=? [ S ]' --param p,q
status_is check_param_lra 0 && matches check_param_lra "$T/out" '  \(2\*p\+q\)/\(p\+q\)  \(parametric\)$'

# --- probability intervals (PRISM's interval DTMCs) ---
# synchronised intervals multiply end by end: the lower ends reaching s=1 are
# 0.04 + 0.04 (Pmin 0.08), and the 0.28 left over all lower ends goes up to 0.08
# more to each (Pmax 0.24); PRISM 4.10.2-dev agrees (prism interval_sync.pm
# -pf 'Pmax=? [ F s=1 ]': 0.24, Pmin: 0.08000000000000002)
run chk $M/interval_sync.pm 'Pmax=? [ F s=1 ]'
status_is check_interval_table 0 && matches check_interval_table "$T/out" 'an interval DTMC\)$' &&
    matches check_interval_value "$T/out" '^Pmax=\? \[ F s=1 \]  0\.24'
run chk $M/interval_sync.pm 'Pmin=? [ F s=1 ]' --json
status_is check_interval_json 0 && json_valid check_interval_json_valid "$T/out" &&
    check check_interval_json_min rel_near "$(json_get "$T/out" properties.0.value)" 0.08 1e-9 &&
    check check_interval_json_flag [ "$(json_get "$T/out" intervals)" = true ]
expect check_interval_bound 0 chk $M/interval_sync.pm 'P>=0.05 [ F s=1 ]'
expect_error check_interval_p_query "ask for Pmin=? or Pmax=?" chk $M/interval_sync.pm 'P=? [ F s=1 ]'
expect_error check_interval_export "exports of models with probability intervals" chk $M/interval_sync.pm 'Pmax=? [ F s=1 ]' --export-drn "$T/x.drn"
expect_error check_interval_exact "do not support models with probability intervals" chk $M/interval_sync.pm 'Pmax=? [ F s=1 ]' --exact
expect_error check_interval_empty "interval_empty.pm:4:17: probability interval [0.3, 0.2] is empty" chk $M/interval_empty.pm 'Pmax=? [ F s=1 ]'
expect_error check_interval_two_choices "interval_two_choices.pm:5:2: 2 choices in state (s=0)" chk $M/interval_two_choices.pm 'Pmax=? [ F s=1 ]'

# --- the transition limit (the die has 20 transitions) ---
expect_error check_max_transitions "more than 10 transitions (the transition limit" chk $M/die.pm 'P=? [ F s=7 ]' --max-transitions 10
expect check_max_transitions_enough 0 chk $M/die.pm 'P=? [ F s=7 ]' --max-transitions 20
# X and R on an interval model: one step reaches s=1 with at most 0.24 (above);
# the reward of the first step is 1 (state) + 2 (action a) whatever nature picks
run chk $M/interval_sync.pm 'Pmax=? [ X s=1 ]'
status_is check_interval_next 0 && matches check_interval_next "$T/out" '^Pmax=\? \[ X s=1 \]  0\.24'
run chk $M/interval_sync.pm 'Rmin=? [ F s>0 ]'
# (an interval model's bound is of its intervals as stored: the rounding of their ends is not covered, and the row says so)
status_is check_interval_reward 0 &&
    matches check_interval_reward "$T/out" "^Rmin=\\? \\[ F s>0 \\]  3  \\(\\+/- [0-9.e-]* proven for the chain as stored; the model's own rounding not covered\\)\$"
expect_error check_interval_r_query "ask for Rmin=? or Rmax=?" chk $M/interval_sync.pm 'R=? [ F s>0 ]'

# --- --exact over expressions with operators inside (Knuth-Yao: 1/6 per face) ---
run chk $M/die.pm 'P=? [ F d=1 ] + P=? [ F d=2 ]' --exact
status_is check_exact_sum_of_ops 0 && matches check_exact_sum_of_ops "$T/out" '  1/3  \(exact\)$'
run chk $M/die.pm 'pow(2*P=? [ F d=1 ], 2)' --exact
status_is check_exact_pow_of_op 0 && matches check_exact_pow_of_op "$T/out" '  1/9  \(exact\)$'
# int and bool parts take the operator's double, when one holds it exactly (1/2, 0), else refuse
printf '"six": P=? [ F d=6 ];\n2*"six"\nround(1+P=? [ F<=1 d=6 ])\nP=? [ F<=1 s=1 ] = 1/2\n' > "$T/refs.pctl"
run chk $M/die.pm "$T/refs.pctl" --exact
status_is check_exact_refs 0 && matches check_exact_refs "$T/out" '^2\*"six"  *1/3  \(exact\)$' &&
    matches check_exact_round "$T/out" '^round\(1\+P=\? \[ F<=1 d=6 \]\)  *1  \(exact\)$' &&
    matches check_exact_equal "$T/out" '^P=\? \[ F<=1 s=1 \] = 1/2  *true  \(exact\)$'
expect_error check_exact_inexact_in_bool "no double holds exactly" chk $M/die.pm 'P=? [ F d=1 ] = 1/6' --exact
# --param: a bound decides when the value does not depend on the parameters (PRISM's
# prism-tests/functionality/verify/exact/exact-const-2: P>1/3 false, P>=1/3 true with P = 1/3)
printf 'dtmc\nconst double x;\nmodule M\n s : [0..2];\n [] s=0 -> 1/3:(s'"'"'=1) + 2/3:(s'"'"'=2);\n [] s>0 -> true;\nendmodule\n' > "$T/px.pm"
run chk "$T/px.pm" 'P>1/3 [ F s=1 ]' --param x
status_is check_param_const_bound 1 && matches check_param_const_bound "$T/out" '  false  \(parametric\)$'
run chk "$T/px.pm" 'P>=1/3 [ F s=1 ]' --param x
status_is check_param_const_bound_ge 0 && matches check_param_const_bound_ge "$T/out" '  true  \(parametric\)$'
printf 'dtmc\nconst double x;\nmodule M\n s : [0..2];\n [] s=0 -> x:(s'"'"'=1) + 1-x:(s'"'"'=2);\n [] s>0 -> true;\nendmodule\n' > "$T/pv.pm"
expect_error check_param_varying_bound "a bound has no single truth value" chk "$T/pv.pm" 'P>1/3 [ F s=1 ]' --param x
# a boolean expression under --param (read a rational that is not there: crashed)
run chk $M/minpathsum.pm 'true' --param p1,p2,p3,p4,p5
status_is check_param_bool 0 && matches check_param_bool "$T/out" '^true  *true  \(parametric\)$'
# --exact decides a comparison of non-integer values exactly where the state and the
# given constants do not enter (PRISM's prism-tests/functionality/verify/exact/exact-eval-2:
# 1/3 = 0.333333333333333333333333 is false, so s=1 is never reached; in doubles it is true)
printf 'dtmc\nconst int n = (1/3 = 0.333333333333333333333333 ? 1 : 2);\nconst double y;\nmodule M\n s : [0..2];\n [] s=0 -> 1/2:(s'"'"'=n) + 1/2:(s'"'"'=2);\n [] s>0 -> true;\nendmodule\n' > "$T/ee.pm"
run chk "$T/ee.pm" 'P=? [ F s=1 ]' --exact --const y=0
status_is check_exact_decided_cmp 0 && matches check_exact_decided_cmp "$T/out" '  0  \(exact\)$'
run chk "$T/ee.pm" 'P=? [ F s=1 ]' --const y=0
# (the doubles decide 1/3 = 0.333... true, the exact model false: the answer 0.5 is the stored chain's, and says so)
status_is check_float_decided_cmp 0 &&
    matches check_float_decided_cmp "$T/out" "  0\\.5  \\(\\+/- [0-9.e-]* proven for the chain as stored; the model's own rounding not covered\\)\$"
printf 'dtmc\nconst double y;\nmodule M\n s : [0..2];\n [] s=0 -> 1/2:(s'"'"'=(y = 1/3 ? 1 : 2)) + 1/2:(s'"'"'=2);\n [] s>0 -> true;\nendmodule\n' > "$T/eg.pm"
expect_error check_exact_given_cmp "a comparison of non-integer values that decides the chain" chk "$T/eg.pm" 'P=? [ F s=1 ]' --exact --const y=1/3
# a fractional exponent under --exact is an error (PRISM's bugfixes/exact-pow: RESULT Error:fractional)
printf 'dtmc\nmodule M\n s : [0..2];\n [] s=0 -> pow(1/4,1/2):(s'"'"'=1) + 1-pow(1/4,1/2):(s'"'"'=2);\n [] s>0 -> true;\nendmodule\n' > "$T/fp.pm"
expect_error check_exact_fractional_power "fp.pm:4:20: exact: a power with a fractional exponent" chk "$T/fp.pm" 'P=? [ X s=1 ]' --exact
# A CTL path quantifier whose tableau product is too large is refused before
# its candidate edges are examined (it took 0.17 s, 6.4e8 checks, at -O2)
expect_error check_ctl_tableau_limit "LTL tableau product has more than 640000000 candidate edges" \
    chk $M/die.pm 'A [ (F (G<=8 s<8) | (F>=3 d=6)) | (F G d!=2) ]'
