#!/bin/sh
# Command-line tests of `proper synth` and `proper analyze`.
# $PROPER is the binary under test (the runner passes the sanitizer build).
P=${PROPER:-bin/proper}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# expect NAME WANTED_STATUS COMMAND... : checks the exit status
expect() {
    name=$1; want=$2; shift 2
    "$@" > "$T/out" 2> "$T/err"; got=$?
    if [ "$got" -eq "$want" ]; then echo "ok $name"; else echo "FAIL $name: exit $got, wanted $want"; cat "$T/err"; fi
}
# contains NAME FILE TEXT : checks that FILE holds TEXT
contains() {
    if grep -qF -- "$3" "$2"; then echo "ok $1"; else echo "FAIL $1: no '$3' in:"; cat "$2"; fi
}

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

expect synth_prints_prism 0 "$P" synth "$T/f.c" --function f
contains synth_has_parameter "$T/out" "const double p1; // line:3 loop"
contains synth_has_reward "$T/out" 'rewards "time"'
expect synth_table 0 "$P" synth "$T/f.c" --function f --table
contains synth_table_line "$T/out" "while     p1"
expect synth_unknown_function 2 "$P" synth "$T/f.c" --function g
contains synth_unknown_function_message "$T/err" "proper: $T/f.c: no definition of function 'g' found"
printf 'void f() {\n  goto x;\n}\n' > "$T/goto.c"
expect synth_goto 2 "$P" synth "$T/goto.c" --function f
contains synth_goto_position "$T/err" "proper: $T/goto.c:2:3: goto is not supported"
expect synth_help 0 "$P" synth --help

expect analyze_point 0 "$P" analyze "$T/f.c" --function f --log "$T/log.csv"
contains analyze_estimate "$T/out" "0.6"
contains analyze_reward "$T/out" "14.5"
expect analyze_bound_violated 1 "$P" analyze "$T/f.c" --function f --log "$T/log.csv" --bound 'time<=5'
contains analyze_bound_verdict "$T/out" "bound time<=5: violated"
expect analyze_bound_satisfied 0 "$P" analyze "$T/f.c" --function f --log "$T/log.csv" --bound 'time>=5' --confidence 0.5
expect analyze_json 0 "$P" analyze "$T/f.c" --function f --log "$T/log.csv" --json --wilson
contains analyze_json_field "$T/out" '"name": "time", "estimate": 14.4999'
printf 'run,p1\n1,0\n2,-1\n' > "$T/neg.csv"
expect analyze_negative_count 2 "$P" analyze "$T/f.c" --function f --log "$T/neg.csv"
contains analyze_negative_position "$T/err" "proper: $T/neg.csv:3:3: negative count -1"
printf 'run,p2\n1,0\n2,1\n' > "$T/nocol.csv"
expect analyze_missing_column 2 "$P" analyze "$T/f.c" --function f --log "$T/nocol.csv"
contains analyze_missing_column_message "$T/err" "no column p1"
expect analyze_bad_confidence 2 "$P" analyze "$T/f.c" --function f --log "$T/log.csv" --confidence 1.5
expect analyze_bad_bound 2 "$P" analyze "$T/f.c" --function f --log "$T/log.csv" --bound 'energy<=1'
expect analyze_missing_log 2 "$P" analyze "$T/f.c" --function f --log "$T/none.csv"
expect analyze_svg 0 "$P" analyze "$T/f.c" --function f --log "$T/log.csv" --svg "$T/levels.svg"
contains analyze_svg_written "$T/levels.svg" "confidence level"
