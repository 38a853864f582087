#!/bin/sh
# Command-line tests of `proper synth` and `proper analyze` (annotated-code
# models, the PROPER method).
. "$(dirname "$0")/cli_lib.sh"

cat > "$T/f.c" <<'SRC'
int f(int n) {
  int s = 0;        // @time=1
  while (n > 0) {   // @time=2
    s += n--;       // @time=3
  }
  return s;         // @time=4
}
SRC
# 4 runs with 0, 1, 2, 3 iterations: p = 6 / (4 + 6) = 0.6, and the expected
# time at p = 0.6 is 1 + 2/(1-p) + 3p/(1-p) + 4 = 14.5
printf 'run,p1\n1,0\n2,1\n3,2\n4,3\n' > "$T/log.csv"

# --- synth ---
expect_text synth_prints_prism 0 "const double p1; // line:3 loop" "$PROPER" synth "$T/f.c" --function f
contains synth_has_reward "$T/out" 'rewards "time"'
expect_text synth_table 0 "while     p1" "$PROPER" synth "$T/f.c" --function f --table
expect synth_output_short 0 "$PROPER" synth "$T/f.c" --function f -o "$T/short.pm"
contains synth_output_short_written "$T/short.pm" "const double p1;"
expect synth_output_long 0 "$PROPER" synth "$T/f.c" --function f --output "$T/long.pm"
check synth_output_same cmp -s "$T/short.pm" "$T/long.pm"
expect_error synth_unknown_function "proper: $T/f.c: no definition of function 'g' found" \
    "$PROPER" synth "$T/f.c" --function g
printf 'void f() {\n  goto x;\n}\n' > "$T/goto.c"
expect_error synth_goto "proper: $T/goto.c:2:3: goto is not supported" "$PROPER" synth "$T/goto.c" --function f
expect_error synth_unknown_option "proper synth: unknown option '--tabel' (see 'proper synth --help')" \
    "$PROPER" synth "$T/f.c" --function f --tabel
expect_error synth_needs_function "--function NAME is required" "$PROPER" synth "$T/f.c"
expect_text synth_help 0 "usage: proper synth" "$PROPER" synth --help

# --- analyze ---
expect_text analyze_point 0 "0.6" "$PROPER" analyze "$T/f.c" --function f --log "$T/log.csv"
contains analyze_reward "$T/out" "14.5"
expect_text analyze_bound_violated 1 "bound time<=5: violated" \
    "$PROPER" analyze "$T/f.c" --function f --log "$T/log.csv" --bound 'time<=5'
expect analyze_bound_satisfied 0 "$PROPER" analyze "$T/f.c" --function f --log "$T/log.csv" --bound 'time>=5' --confidence 0.5

run_proper analyze "$T/f.c" --function f --log "$T/log.csv" --json --method wilson
status_is analyze_json 0 && json_valid analyze_json_valid "$T/out" &&
    check analyze_json_values [ "$(json_get "$T/out" parameters.0.estimate) $(json_get "$T/out" method)" = "0.6 wilson" ] &&
    check analyze_json_reward rel_near "$(json_get "$T/out" rewards.0.estimate)" 14.5 1e-12
# the normal interval is the default; --method normal says so
run_proper analyze "$T/f.c" --function f --log "$T/log.csv" --json --method normal
status_is analyze_method_normal 0 && check analyze_method_normal [ "$(json_get "$T/out" method)" = normal ]
expect_error analyze_method_unknown "--method: expected normal or wilson, got 'exact'" \
    "$PROPER" analyze "$T/f.c" --function f --log "$T/log.csv" --method exact
expect_error analyze_wilson_flag_gone "unknown option '--wilson'" \
    "$PROPER" analyze "$T/f.c" --function f --log "$T/log.csv" --wilson

# The bound's text is printed back in JSON; the verdict decides the status.
run_proper analyze "$T/f.c" --function f --log "$T/log.csv" --json --bound 'time<=5'
status_is analyze_json_bound 1 && json_valid analyze_json_bound_valid "$T/out" &&
    check analyze_json_bound [ "$(json_get "$T/out" bound.text) $(json_get "$T/out" bound.verdict)" = "time<=5 violated" ]

# A loop inside a branch whose count interval reaches 0: the loop's interval
# then reaches 1, so some corner of the box never leaves the loop and the
# upper end of the expected time is infinite: null in JSON (was a bare inf).
cat > "$T/g.c" <<'SRC'
void g() {
  if (a()) {
    while (b()) x(); // @time=1
  }
}
SRC
printf 'p1,p2\n1,5\n0,0\n0,0\n0,0\n' > "$T/g.csv"
run_proper analyze "$T/g.c" --function g --log "$T/g.csv" --json
status_is analyze_json_infinite 0 && json_valid analyze_json_infinite_valid "$T/out" &&
    check analyze_json_infinite_null [ "$(json_get "$T/out" rewards.0.hi) $(json_get "$T/out" parameters.1.hi)" = "null 1" ]
expect_text analyze_infinite_text 0 "inf]" "$PROPER" analyze "$T/g.c" --function g --log "$T/g.csv"

printf 'run,p1\n1,0\n2,-1\n' > "$T/neg.csv"
expect_error analyze_negative_count "proper: $T/neg.csv:3:3: negative count -1" \
    "$PROPER" analyze "$T/f.c" --function f --log "$T/neg.csv"
printf 'run,p2\n1,0\n2,1\n' > "$T/nocol.csv"
expect_error analyze_missing_column "no column p1" "$PROPER" analyze "$T/f.c" --function f --log "$T/nocol.csv"
expect_error analyze_bad_confidence "--confidence" "$PROPER" analyze "$T/f.c" --function f --log "$T/log.csv" --confidence 1.5
expect_error analyze_bad_bound "no reward 'energy'" "$PROPER" analyze "$T/f.c" --function f --log "$T/log.csv" --bound 'energy<=1'
expect analyze_missing_log 2 "$PROPER" analyze "$T/f.c" --function f --log "$T/none.csv"
expect_error analyze_log_or_artifact "give one of --log and --artifact" "$PROPER" analyze "$T/f.c" --function f
expect analyze_svg 0 "$PROPER" analyze "$T/f.c" --function f --log "$T/log.csv" --svg "$T/levels.svg"
contains analyze_svg_written "$T/levels.svg" "confidence level"
