#!/bin/sh
# Command-line tests for `proper crosscheck`. PRISM and Storm are stood in for
# by shell scripts that replay transcripts of tests/transcripts/ (prism_*.txt:
# real PRISM 4.9 output; storm_*.txt: real Storm 1.12.0 output), hang, or
# fail; PROPER_PRISM / PROPER_STORM point at them. Native values: minPathSum
# exactly 32504164372/51699390625 and 9503884062/2067975625 (see
# tests/test_prism.c). The real tools are used when installed (SKIP otherwise).
REAL_PRISM=${PROPER_PRISM:-}
REAL_STORM=${PROPER_STORM:-}
. "$(dirname "$0")/cli_lib.sh"
M=tests/corpus/prism P=tests/corpus/props
TR=$(pwd)/tests/transcripts
MPS=p1=0.0912,p2=0.8181,p3=0.8,p4=0.8181,p5=0.8181
NO=$T/not-installed
export PROPER_PRISM="$NO" PROPER_STORM="$NO"
# xc ARGS...: proper crosscheck ARGS...
xc() { "$PROPER" crosscheck "$@"; }

# replay NAME TRANSCRIPT: a stand-in executable $T/NAME printing the transcript
# (header stripped) with its recorded exit status; -version/--version print
# the version transcripts.
replay() {
    status=$(sed -n 's/^#> exit status: //p' "$TR/$2")
    cat > "$T/$1" <<EOF
#!/bin/sh
case "\$1" in -version) sed '/^#>/d' '$TR/prism_version.txt'; exit 0 ;;
  --version) sed '/^#>/d' '$TR/storm_version.txt'; exit 0 ;; esac
sed '/^#>/d' '$TR/$2'
exit $status
EOF
    chmod +x "$T/$1"
}

expect_text crosscheck_help 0 "proper crosscheck MODEL.pm PROPS" xc --help

# --- deadlocks: a self-loop and a warning by default, as check and PRISM do ---
# (deadlock.pm: x climbs 0 -> 1 -> 2 and stops, so P[F x=2] = 1 once state 2 loops)
expect_text crosscheck_fixdl_default 0 "1 deadlock state given a self-loop" xc $M/deadlock.pm 'P=? [ F x=2 ]'
contains crosscheck_fixdl_value "$T/out" "P=? [ F x=2 ]  native   1 "
expect_error crosscheck_nofixdl "deadlock" xc $M/deadlock.pm 'P=? [ F x=2 ]' --nofixdl

# --- an interval DTMC is a set of chains: refused by name, pointing at check ---
printf 'dtmc\nmodule M\n s : [0..2];\n [] s=0 -> [0.1,0.2]:(s'"'"'=1) + [0.8,0.9]:(s'"'"'=2);\n [] s>0 -> true;\nendmodule\n' > "$T/iv.pm"
expect_error crosscheck_interval_model "an interval DTMC (probabilities [lo,hi]): crosscheck compares single chains" \
    xc "$T/iv.pm" 'Pmax=? [ F s=1 ]'

# --- several initial states: a range of values is refused by name (was a library message) ---
printf 'dtmc\nmodule M\n s : [0..2];\n [] s=0 -> 0.5:(s'"'"'=1) + 0.5:(s'"'"'=2);\n [] s>0 -> true;\nendmodule\ninit s<2 endinit\n' > "$T/init2.pm"
expect_error crosscheck_initial_range "property 1 has a range of values [0.5, 1] over several initial states: crosscheck compares single values" \
    xc "$T/init2.pm" 'P=? [ F s=1 ]'

# --- no external tool: native column only, exit 0, said so ---
expect_text crosscheck_no_tool 0 "no external model checker is installed" xc $M/minpathsum.pm $P/minpathsum.pctl --const $MPS
if grep -q '^"time": R{"time"}=? \[ F "end" \]  *native  *0.62871465174063' "$T/out" &&
   grep -q 'prism: not installed (PROPER_PRISM=' "$T/out"; then ok crosscheck_no_tool_table
else fail crosscheck_no_tool_table "$(cat "$T/out")"; fi
run xc $M/minpathsum.pm $P/minpathsum.pctl --const $MPS --json
status_is crosscheck_no_tool_json 0 && json_valid crosscheck_no_tool_json_valid "$T/out" &&
    check crosscheck_no_tool_json [ "$(json_get "$T/out" compared) $(json_get "$T/out" agree)" = "false true" ] &&
    check crosscheck_no_tool_json_backend [ "$(json_get "$T/out" backends.1.name) $(json_get "$T/out" backends.1.installed)" = "prism false" ]

# --require: no external model checker is a failed check (exit 1), said on stderr
expect_text crosscheck_require_no_tool 1 "crosscheck --require: no external model checker is installed" xc \
    $M/die.pm 'P=? [ F d=1 ]' --require
run xc $M/die.pm 'P=? [ F d=1 ]' --require --json
status_is crosscheck_require_json 1 && json_valid crosscheck_require_json_valid "$T/out" &&
    check crosscheck_require_json [ "$(json_get "$T/out" compared)" = false ]
# PROPS with no property: exit 2 (was exit 0 with nothing checked)
: > "$T/empty.pctl"
expect_error crosscheck_empty_props "proper: $T/empty.pctl: no property in $T/empty.pctl" xc $M/die.pm "$T/empty.pctl"
printf '\000' > "$T/nul.pctl"
expect_error crosscheck_nul_props "$T/nul.pctl:1:1: unexpected byte 0x00" xc $M/die.pm "$T/nul.pctl"
expect_error crosscheck_missing_props_file "proper: $T/nosuch.pctl: cannot open" xc $M/die.pm "$T/nosuch.pctl"

# --- PRISM with -epsilon 1e-14 agrees; its default precision does not ---
replay prism-eps prism_minpathsum_eps.txt
PROPER_PRISM=$T/prism-eps expect_text crosscheck_prism_agrees 0 "all values agree" xc $M/minpathsum.pm $P/minpathsum.pctl --const $MPS
PROPER_PRISM=$T/prism-eps expect_text crosscheck_require_with_tool 0 "all values agree" xc $M/minpathsum.pm $P/minpathsum.pctl --const $MPS --require
if grep -q '^  *prism  *0.6287146517400535  *5.8e-13  *9.3e-13 .* ok$' "$T/out" &&
   grep -q 'PRISM 4.9' "$T/out"; then ok crosscheck_prism_row
else fail crosscheck_prism_row "$(cat "$T/out")"; fi

replay prism-default prism_minpathsum_default.txt
PROPER_PRISM=$T/prism-default expect_text crosscheck_prism_default_differs 1 "DIFFERS" xc $M/minpathsum.pm $P/minpathsum.pctl --const $MPS
# 5.8e-5 absolute is 9.3e-5 relative: inside a 1e-4 tolerance
PROPER_PRISM=$T/prism-default expect_text crosscheck_tolerance 0 "all values agree (tolerance 0.0001" xc \
    $M/minpathsum.pm $P/minpathsum.pctl --const $MPS --tolerance 1e-4
# ... and inside an absolute 1e-3
PROPER_PRISM=$T/prism-default expect_text crosscheck_abs_tolerance 0 "all values agree" xc \
    $M/minpathsum.pm $P/minpathsum.pctl --const $MPS --abs-tolerance 1e-3

# --- a CTMC whose Fox-Glynn computation PRISM cannot do at the default -epsilon ---
# (tests/transcripts/prism_mm1k_*.txt, PRISM 4.10.2-dev on an M/M/1/K queue,
# q t = 90: at 1e-12 two properties fail with "Overflow in Fox-Glynn
# computation"; at 1e-8 all three agree with proper; S=? [ n=0 ] is
# (1-rho)/(1-rho^21) = 0.2018618469136... with rho = 0.8)
IN=tests/transcripts/inputs
replay prism-fg prism_mm1k_foxglynn.txt
PROPER_PRISM=$T/prism-fg expect_text crosscheck_prism_foxglynn_hint 1 \
    "FAILED: Overflow in Fox-Glynn computation (time bound too big?) (PRISM's Fox-Glynn fails at a small -epsilon: ask for less precision, e.g. --precision 1e-8)" \
    xc $IN/mm1k.sm $IN/mm1k.csl --const T=10
# --prism-arg: each argument reaches PRISM's command line as given, after the others
replay prism-eps8 prism_mm1k_eps8.txt
printf '#!/bin/sh\n[ "$1" = -version ] || echo "$*" > %s\nexec %s "$@"\n' "'$T/prism-argv'" "'$T/prism-eps8'" > "$T/prism-args"
chmod +x "$T/prism-args"
PROPER_PRISM=$T/prism-args expect_text crosscheck_prism_arg 0 "all values agree" \
    xc $IN/mm1k.sm $IN/mm1k.csl --const T=10 --precision 1e-8 --prism-arg -sor --prism-arg -maxiters --prism-arg 100000
matches crosscheck_prism_arg_argv "$T/prism-argv" ' -const T=10 -epsilon 1e-0?8 -sor -maxiters 100000$'
matches crosscheck_prism_arg_value "$T/out" '^S=\? \[ n=0 \] +native +0\.20186184691'

args=""; i=0; while [ $i -lt 33 ]; do args="$args --prism-arg -sor"; i=$((i + 1)); done
expect_error crosscheck_prism_arg_limit "--prism-arg: at most 32 arguments" xc $IN/mm1k.sm $IN/mm1k.csl --const T=10 $args
expect_error crosscheck_prism_arg_missing "option '--prism-arg' needs a value" xc $IN/mm1k.sm $IN/mm1k.csl --prism-arg

# --- native refuses one property: that row fails, the others are still compared ---
# (a gambler who falls back to x=7 needs about 2^512 steps to win: no bound
# can be proven; the stand-in answers with PRISM 4.9's transcript of R=? [ F "win" ])
replay prism-gambler prism_gambler_infinity.txt
PROPER_PRISM=$T/prism-gambler expect_text crosscheck_native_refuses 1 "not compared (native failed)" \
    xc $M/gambler_unsettled_steady.pm 'R=? [ F "win" ]' --const p=0.5
matches crosscheck_native_refuses_row "$T/out" '^R=\? \[ F "win" \] +native +- .*FAILED: no error bound can be proven'
PROPER_PRISM=$T/prism-gambler run xc $M/gambler_unsettled_steady.pm 'R=? [ F "win" ]' --const p=0.5 --json
status_is crosscheck_native_refuses_json 1 && json_valid crosscheck_native_refuses_json_valid "$T/out" &&
    check crosscheck_native_refuses_json_agree [ "$(json_get "$T/out" properties.0.tools.0.agree)" = false ]

replay prism-exact prism_minpathsum_exact.txt
PROPER_PRISM=$T/prism-exact expect_text crosscheck_exact 0 "[exact 32504164372/51699390625]" xc \
    $M/minpathsum.pm $P/minpathsum.pctl --const $MPS --exact

# the values as PRISM printed them: 0.6287146517400535 (+/- 6.217248937900938E-14 estimated)
PROPER_PRISM=$T/prism-eps run xc $M/minpathsum.pm $P/minpathsum.pctl --const $MPS --json
status_is crosscheck_json 0 && json_valid crosscheck_json_valid "$T/out" &&
    check crosscheck_json [ "$(json_get "$T/out" properties.0.tools.0.backend)" = prism ] &&
    check crosscheck_json_value [ "$(json_get "$T/out" properties.0.tools.0.value)" = 0.6287146517400535 ] &&
    check crosscheck_json_stated_error [ "$(json_get "$T/out" properties.0.tools.0.stated_error)" = 6.217248937900938e-14 ] &&
    check crosscheck_json_agree [ "$(json_get "$T/out" compared) $(json_get "$T/out" agree)" = "true true" ]

# --- an infinite value on both sides agrees ---
replay prism-inf prism_gambler_infinity.txt
PROPER_PRISM=$T/prism-inf expect_text crosscheck_infinity 0 "all values agree" xc $M/gambler.pm 'R=? [ F "win" ]' --const p=0.5
if grep -q '^  *prism  *Infinity .* ok$' "$T/out"; then ok crosscheck_infinity_row
else fail crosscheck_infinity_row "$(cat "$T/out")"; fi
# JSON has no Infinity: the value is null and value_text says which
PROPER_PRISM=$T/prism-inf run xc $M/gambler.pm 'R=? [ F "win" ]' --const p=0.5 --json
status_is crosscheck_infinity_json 0 && json_valid crosscheck_infinity_json_valid "$T/out" &&
    check crosscheck_infinity_json [ "$(json_get "$T/out" properties.0.native.value) $(json_get "$T/out" properties.0.native.value_text)" = "null Infinity" ] &&
    check crosscheck_infinity_json_tool [ "$(json_get "$T/out" properties.0.tools.0.value_text) $(json_get "$T/out" properties.0.tools.0.abs_diff)" = "Infinity null" ]

# --- the tool rejects the model: its own message, exit 1 ---
replay prism-syntax prism_syntax_error.txt
PROPER_PRISM=$T/prism-syntax expect_text crosscheck_tool_parse_error 1 \
    'prism failed: tests/transcripts/inputs/syntax_error.pm:5:32: prism: Syntax error ("(", line 5, column 32)' \
    xc $M/die.pm 'P=? [ F d=1 ]'

# --- a stated error that is not a finite number >= 0 is not agreement: the
# die's P=? [ F d=1 ] is 1/6, and 0.9 is far from it whatever error is stated ---
for e in 1e400 -0.5 Infinity; do
    printf '#!/bin/sh\ncase "$1" in -version) echo "PRISM version 4.9"; exit 0 ;; esac\nprintf "Model checking: P=? [ F d=1 ]\\nResult: 0.9 (+/- %s estimated; rel err 1.0)\\n"\n' "$e" > "$T/prism-err"
    chmod +x "$T/prism-err"
    PROPER_PRISM=$T/prism-err expect_text "crosscheck_stated_error_$e" 1 "the stated error is not a finite number >= 0" xc \
        $M/die.pm 'P=? [ F d=1 ]'
done
# a finite stated error still counts (0.2 is 0.033 from 1/6)
printf '#!/bin/sh\ncase "$1" in -version) echo "PRISM version 4.9"; exit 0 ;; esac\nprintf "Model checking: P=? [ F d=1 ]\\nResult: 0.2 (+/- 0.04 estimated; rel err 0.2)\\n"\n' > "$T/prism-err"
PROPER_PRISM=$T/prism-err expect_text crosscheck_stated_error_finite 0 "ok (within the stated error 0.04)" xc $M/die.pm 'P=? [ F d=1 ]'

# --- a tool that hangs is killed after --timeout ---
printf '#!/bin/sh\ncase "$1" in -version) echo "PRISM version 4.9"; exit 0 ;; esac\nsleep 60\n' > "$T/prism-hang"
chmod +x "$T/prism-hang"
PROPER_PRISM=$T/prism-hang expect_text crosscheck_timeout 1 "prism: timed out after 1 s (killed)" xc \
    $M/die.pm 'P=? [ F d=1 ]' --timeout 1

# --- a tool that hangs on -version: the probe obeys --timeout and the tool is
# reported as not answering (a failed check, exit 1), not as "not installed" ---
printf '#!/bin/sh\nsleep 60\n' > "$T/prism-probe-hang"
chmod +x "$T/prism-probe-hang"
probe_start=$(date +%s)
PROPER_PRISM=$T/prism-probe-hang expect_text crosscheck_probe_hang 1 "prism: FAILED: $T/prism-probe-hang -version did not answer within 1 s (killed)" xc \
    $M/die.pm 'P=? [ F d=1 ]' --timeout 1
check crosscheck_probe_hang_fast [ $(( $(date +%s) - probe_start )) -lt 20 ]
lacks crosscheck_probe_hang_not_missing "$T/out" "prism: not installed"
PROPER_PRISM=$T/prism-probe-hang expect_text crosscheck_probe_hang_backend 1 "did not answer within 1 s" xc \
    $M/die.pm 'P=? [ F d=1 ]' --timeout 1 --backend prism
run env PROPER_PRISM=$T/prism-probe-hang "$PROPER" crosscheck $M/die.pm 'P=? [ F d=1 ]' --timeout 1 --json
status_is crosscheck_probe_hang_json 1 && json_valid crosscheck_probe_hang_json_valid "$T/out" &&
    check crosscheck_probe_hang_json [ "$(json_get "$T/out" backends.1.found) $(json_get "$T/out" backends.1.installed)" = "true false" ]

# --- Storm (real Storm 1.12.0 transcripts) next to PRISM ---
# Storm at --precision 1e-14 prints 18 digits: 0.628714651740632791, 5.8e-15
# relative from the exact value, so within tolerance but not within the
# half-unit of its last digit that the printing implies
replay storm-mps storm_minpathsum.txt
PROPER_PRISM=$T/prism-eps PROPER_STORM=$T/storm-mps expect_text crosscheck_two_tools 0 "all values agree" xc \
    $M/minpathsum.pm $P/minpathsum.pctl --const $MPS
if grep -q '^  *storm  *0.6287146517406328 ' "$T/out" && grep -q 'storm (Storm 1.12.0' "$T/out"; then ok crosscheck_storm_row
else fail crosscheck_storm_row "$(cat "$T/out")"; fi
PROPER_STORM=$T/storm-mps expect_text crosscheck_only_storm 0 "all values agree" xc \
    $M/minpathsum.pm $P/minpathsum.pctl --const $MPS --backend storm
if grep -qE '(^|[ ,])prism[ (]' "$T/out"; then fail crosscheck_only_storm_rows "prism shown: $(cat "$T/out")"; else ok crosscheck_only_storm_rows; fi
# --exact: Storm's rationals, equal to native's exact values
replay storm-mps-exact storm_minpathsum_exact.txt
PROPER_STORM=$T/storm-mps-exact expect_text crosscheck_storm_exact 0 "all values agree" xc \
    $M/minpathsum.pm $P/minpathsum.pctl --const $MPS --backend storm --exact
contains crosscheck_storm_exact_value "$T/out" "32504164372/51699390625"
# LTL in a Storm built without Spot: that property fails in Storm's words, the others are compared
replay storm-ltl storm_unsupported.txt
PROPER_STORM=$T/storm-ltl run xc $M/die.pm 'P=? [ F d=1 ]; P=? [ G F s=7 ]; P=? [ F d=2 ]' --backend storm
status_is crosscheck_storm_unsupported 1 && contains crosscheck_storm_unsupported_message "$T/out" \
    "Storm is compiled without Spot support."
# PRISM's forms Storm lacks (label definitions, {F}{max} filters, two-argument
# filters, =>), translated by the adapter: the real Storm's answers to the
# translation agree with native on every property
replay storm-filters storm_filters.txt
PROPER_STORM=$T/storm-filters expect_text crosscheck_storm_filters 0 "all values agree" xc \
    tests/transcripts/inputs/filters.pm tests/transcripts/inputs/filters.props --const K=6 --backend storm
contains crosscheck_storm_filters_max "$T/out" "storm    10.777777777777775 "
# --via-explicit: the DRN Storm gets has labels only, so a property over a
# variable is refused by name before Storm runs (the real Storm's own
# message: tests/transcripts/storm_drn_variable.txt)
PROPER_STORM=$T/storm-mps run xc $M/die.pm 'P=? [ F "done" ]; P=? [ F d=1 & s=7 ]' --via-explicit --backend storm
status_is crosscheck_storm_drn_variables 1 && contains crosscheck_storm_drn_variables_message "$T/out" \
    "storm failed: (property):1:27: storm: the properties name d, s, but the model goes to Storm as DRN"
# a properties file's label naming labels only is fine on DRN (the adapter substitutes it)
PROPER_STORM=$T/storm-mps run xc $M/die.pm 'label "far" = "done"; P=? [ F "far" ]' --via-explicit --backend storm
check crosscheck_storm_drn_label_definition sh -c "! grep -q 'the properties name' '$T/out' '$T/err'"

# --- PRISM explicit files go to PRISM as they are ---
cat > "$T/prism-args" <<EOF
#!/bin/sh
case "\$1" in -version) echo "PRISM version 4.9"; exit 0 ;; esac
printf '%s\n' "\$@" > '$T/args.log'
printf 'Model checking: R=? [ F "end" ]\n\nResult: 0.6287146517400535 (+/- 6.217248937900938E-14 estimated; rel err 9.9E-14)\n'
EOF
chmod +x "$T/prism-args"
I=tests/transcripts/inputs
PROPER_PRISM=$T/prism-args expect_text crosscheck_explicit 0 "all values agree" xc \
    --explicit $I/minpathsum.tra $I/minpathsum.lab 'R=? [ F "end" ]' --srew $I/minpathsum1.srew
if [ "$(sed -n '1,6p' "$T/args.log" | tr '\n' ' ')" = "-importtrans $I/minpathsum.tra -importlabels $I/minpathsum.lab -importstaterewards $I/minpathsum1.srew " ] &&
   [ "$(sed -n '7p' "$T/args.log")" = "-dtmc" ]; then ok crosscheck_explicit_args
else fail crosscheck_explicit_args "$(cat "$T/args.log")"; fi
# --via-explicit: the DTMC proper built, exported into the tool's private directory
PROPER_PRISM=$T/prism-args expect_text crosscheck_via_explicit 0 "all values agree" xc \
    $M/minpathsum.pm 'R{"time"}=? [ F "end" ]' --const $MPS --via-explicit
if grep -q '/model.tra$' "$T/args.log" && grep -q '/model2.trew$' "$T/args.log" && grep -q '/model.sta$' "$T/args.log"
then ok crosscheck_via_explicit_args; else fail crosscheck_via_explicit_args "$(cat "$T/args.log")"; fi
# a CTMC goes to PRISM as -ctmc (as -dtmc PRISM would read its rates as probabilities)
PROPER_PRISM=$T/prism-args run xc tests/transcripts/inputs/mm1k.sm 'R=? [ F "full" ]' --const T=10 --via-explicit
check crosscheck_via_explicit_ctmc grep -qx -- -ctmc "$T/args.log"
# --via-explicit: the tools see no model text, so the properties go with
# each constant as its value and each formula as its body, and no -const
# (tests/test_prism.c has the whole text; the real PRISM's values below)
cat > "$T/prism-props" <<EOF
#!/bin/sh
case "\$1" in -version) echo "PRISM version 4.9"; exit 0 ;; esac
printf '%s\n' "\$@" > '$T/args.log'
for a; do case "\$a" in *.props) cp "\$a" '$T/props.seen' ;; esac; done
exit 1
EOF
chmod +x "$T/prism-props"
PROPER_PRISM=$T/prism-props run xc tests/transcripts/inputs/standalone.pm tests/transcripts/inputs/standalone.props \
    --const q=0.25 --via-explicit
if grep -qF 'P=? [ F<=3 x=4-0.25*4 ]' "$T/props.seen" && ! grep -q 'const\|formula\|atmax' "$T/props.seen" &&
   ! grep -qx -- -const "$T/args.log"; then ok crosscheck_via_explicit_standalone
else fail crosscheck_via_explicit_standalone "$(cat "$T/props.seen" "$T/args.log")"; fi
# a properties constant the rewrite needs and nobody gave: exit 2, at its use
expect_error crosscheck_via_explicit_undefined "standalone.props:8:16: constant 'q' has no value (give it with --const)" \
    xc tests/transcripts/inputs/standalone.pm tests/transcripts/inputs/standalone.props --via-explicit
# the tools are asked for the CLI's one default precision, 1e-12 (was 1e-14 here)
check crosscheck_default_precision [ "$(grep -A1 -- -epsilon "$T/args.log" | tail -n 1)" = 1e-12 ]

# --- bad input: exit 2 ---
expect_error crosscheck_bad_tolerance "--tolerance" xc $M/die.pm 'P=? [ F d=1 ]' --tolerance abc
expect_error crosscheck_missing_props "expected MODEL.pm and PROPS" xc $M/die.pm
expect_error crosscheck_bad_backend "--backend: expected prism or storm" xc $M/die.pm 'P=? [ F d=1 ]' --backend nusmv
expect_error crosscheck_backend_missing "prism is not installed" xc $M/die.pm 'P=? [ F d=1 ]' --backend prism
expect_error crosscheck_bad_precision "--precision: expected a number in (0,1), got '2'" xc $M/die.pm 'P=? [ F d=1 ]' --precision 2
expect_error crosscheck_bad_timeout "--timeout: expected a positive number, got '0'" xc $M/die.pm 'P=? [ F d=1 ]' --timeout=0
expect_error crosscheck_unknown_option "proper crosscheck: unknown option '--bogus' (see 'proper crosscheck --help')" \
    xc $M/die.pm 'P=? [ F d=1 ]' --bogus
expect_error crosscheck_missing_value "proper crosscheck: option '--const' needs a value" xc $M/die.pm 'P=? [ F d=1 ]' --const
expect_error crosscheck_too_many "unexpected argument 'extra'" xc $M/die.pm 'P=? [ F d=1 ]' extra
expect_text crosscheck_help_after_error 0 "proper crosscheck MODEL.pm PROPS" xc --bogus --help
expect_error crosscheck_missing_const "constant 'p1' has no value" xc $M/minpathsum.pm $P/minpathsum.pctl

# --- `proper check --backend` hands the model to the tool and reports its value ---
replay prism-eps prism_minpathsum_eps.txt
PROPER_PRISM="$T/prism-eps" "$PROPER" check $M/minpathsum.pm 'R{"time"}=? [ F "end" ]' --const $MPS --backend prism > "$T/out" 2> "$T/err"
if [ $? -eq 0 ] && grep -qF '0.628714651740053  (+/- 6.22e-14 stated by prism)' "$T/out"; then ok check_backend_prism
else fail check_backend_prism "$(cat "$T/out" "$T/err")"; fi
PROPER_BACKEND=prism PROPER_PRISM="$T/prism-eps" "$PROPER" check $M/minpathsum.pm 'R{"time"}=? [ F "end" ]' --const $MPS > "$T/out" 2> "$T/err"
if [ $? -eq 0 ] && grep -qF 'backend: prism' "$T/out"; then ok check_backend_from_environment
else fail check_backend_from_environment "$(cat "$T/out" "$T/err")"; fi
PROPER_BACKEND=bogus "$PROPER" check $M/die.pm 'P=? [ F d=1 ]' > "$T/out" 2> "$T/err"
if [ $? -eq 2 ] && grep -qF "unknown backend 'bogus'" "$T/err"; then ok check_backend_unknown
else fail check_backend_unknown "$(cat "$T/out" "$T/err")"; fi

# --- the real tools, when installed ---
real() {
    name=$1; var=$2; given=$3; program=$4
    bin=$given
    [ -n "$bin" ] || bin=$(command -v "$program" 2>/dev/null)
    if [ -z "$bin" ]; then echo "SKIP $name: $program is not installed (set $var or put $program in PATH)"; return; fi
    # --via-explicit with labels only: Storm reads the exported DRN, which
    # has labels but no variables (properties naming them are refused)
    if env "$var=$bin" "$PROPER" crosscheck $M/minpathsum.pm $P/minpathsum.pctl --const $MPS --backend "$program" > "$T/out" 2>&1 &&
       env "$var=$bin" "$PROPER" crosscheck $M/die.pm 'P=? [ F "done" ]; R{"coin_flips"}=? [ F "done" ]' --via-explicit \
           --backend "$program" >> "$T/out" 2>&1 &&
       env "$var=$bin" "$PROPER" crosscheck $M/gambler.pm 'R=? [ F "win" ]' --const p=0.5 --backend "$program" >> "$T/out" 2>&1 &&
       # constants and formulas of the model and the properties, through explicit files (PRISM reads variables from the .sta)
       { [ "$program" != prism ] || env "$var=$bin" "$PROPER" crosscheck tests/transcripts/inputs/standalone.pm \
           tests/transcripts/inputs/standalone.props --const q=0.25 --via-explicit --backend prism >> "$T/out" 2>&1; } &&
       # explicit files PRISM wrote itself, its .sta read by proper and given to PRISM (-importstates)
       { [ "$program" != prism ] || { (cd "$T" && "$bin" "$OLDPWD/$M/die.pm" -exportmodel pdie.all > /dev/null 2>&1) &&
           env "$var=$bin" "$PROPER" crosscheck --explicit "$T/pdie.tra" "$T/pdie.lab" 'P=? [ F s=7 & d=6 ]; P=? [ F d>3 ]' \
               --sta "$T/pdie.sta" --backend prism >> "$T/out" 2>&1; }; }
    then ok "$name"; else fail "$name" "$(cat "$T/out")"; fi
}
real crosscheck_real_prism PROPER_PRISM "$REAL_PRISM" prism
real crosscheck_real_storm PROPER_STORM "$REAL_STORM" storm
