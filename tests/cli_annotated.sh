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
# the chain at a point, exported and checked like any other model: at
# p1 = 0.6 the expected time is 14.5 (above)
expect synth_export 0 "$PROPER" synth "$T/f.c" --function f --const p1=0.6 \
    --export-prism "$T/f06.pm" --export-drn "$T/f06.drn" --export-explicit "$T/f06"
contains synth_export_prism_point "$T/f06.pm" "Parameters instantiated: p1=0.6"
contains synth_export_drn "$T/f06.drn" "@type: DTMC"
contains synth_export_explicit_lab "$T/f06.lab" '"end"'
printf 'R{"time"}=? [ F "end" ]\n' > "$T/f06.props"
expect_text synth_export_checked 0 "14.5" "$PROPER" check "$T/f06.pm" "$T/f06.props"
expect_error synth_export_missing_param "proper: --const: no value for p1 (the loop at line 3)" \
    "$PROPER" synth "$T/f.c" --function f --export-drn "$T/x.drn"
expect_error synth_export_not_probability "p1: expected a number in [0,1], got '1.5'" \
    "$PROPER" synth "$T/f.c" --function f --const p1=1.5 --export-drn "$T/x.drn"
expect_error synth_export_unknown_param "the model has no parameter 'q'" \
    "$PROPER" synth "$T/f.c" --function f --const q=0.5 --export-drn "$T/x.drn"
expect_error synth_const_without_export "--const is for the exports" \
    "$PROPER" synth "$T/f.c" --function f --const p1=0.5

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
# (The box of probabilities; the box of mean counts is finite: the time is
# mu1 + mu2, whose upper end is 0.25 + 1.25 + z (0.5 + 2.5) / 2 with z at
# 0.95^(1/2), and whose lower end is clamped at 0.)
run_proper analyze "$T/g.c" --function g --log "$T/g.csv" --json --box probabilities
status_is analyze_json_infinite 0 && json_valid analyze_json_infinite_valid "$T/out" &&
    check analyze_json_infinite_null [ "$(json_get "$T/out" rewards.0.hi) $(json_get "$T/out" parameters.1.hi)" = "null 1" ]
expect_text analyze_infinite_text 0 "inf]" "$PROPER" analyze "$T/g.c" --function g --log "$T/g.csv" --box probabilities
run_proper analyze "$T/g.c" --function g --log "$T/g.csv" --json
status_is analyze_means_finite 0 &&
    check analyze_means_finite rel_near "$(json_get "$T/out" rewards.0.hi)" \
        "$(awk 'BEGIN { printf "%.17g", 1.5 + 2.2364766445577895 * 3 / 2 }')" 1e-12 &&
    check analyze_means_finite_lo [ "$(json_get "$T/out" rewards.0.lo)" = 0 ]

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

# --- no silent misreading (issue 17) ---
# The shape of the artifact's FastSineTransformer.fst: each guard's `throw`
# spans three lines with //@cost=5 on the last. Artifact logs at the
# artifact's sizes, scaled down 1000x: 100 runs, 31 take the first throw, 7
# of the other 69 the second; 62 reach the loops. The expected cost is
# 5 (31 + 7) / 100 = 1.9 (proper said 5 (0.69 + 0.62) = 6.55: the first
# @cost went to the second `if`, the second to `int n`).
cat > "$T/T.java" <<'SRC'
class T {
  double[] fst(double[] f) {
    double[] t = new double[f.length];
    if (!isPowerOfTwo(f.length)) {
      throw new IllegalArgumentException(
          "not a power of two",
          Integer.valueOf(f.length)); //@cost=5
    }
    if (f[0] != 0.0) {
      throw new IllegalArgumentException(
          "first element not zero",
          Double.valueOf(f[0])); //@cost=5
    }
    int n = f.length;
    if (n == 1) {
      return t;
    }
    int i = 1;
    while (i < (n >> 1)) {
      double a = Math.sin(i * Math.PI / n); //@time=1.5
      i++;
    }
    return t;
  }
}
SRC
awk 'BEGIN { for (k = 0; k < 100; k++) print (k < 31 ? 1 : 0) }' > "$T/fst1.csv"
awk 'BEGIN { for (k = 0; k < 69; k++) print (k < 7 ? 1 : 0) }' > "$T/fst2.csv"
awk 'BEGIN { for (k = 0; k < 62; k++) print (k < 2 ? 1 : 0) }' > "$T/fst3.csv"
awk 'BEGIN { for (k = 0; k < 60; k++) print k % 4 }' > "$T/fst4.csv"
run_proper analyze "$T/T.java" --function fst --artifact "p1=$T/fst1.csv,p2=$T/fst2.csv,p3=$T/fst3.csv,p4=$T/fst4.csv" --json
status_is artifact_fst_cost 0 &&
    check artifact_fst_cost rel_near "$(json_get "$T/out" rewards.0.estimate)" 1.9 1e-12
# two files swapped: 62 lines where the model says the second guard is reached 69 times
expect_error artifact_wrong_file "62 line(s), but the model (conditional p2 at source line 9) and the other files say it is reached 69 time(s)" \
    "$PROPER" analyze "$T/T.java" --function fst --artifact "p1=$T/fst1.csv,p2=$T/fst3.csv,p3=$T/fst2.csv,p4=$T/fst4.csv"
# a loop's file given for a conditional
expect_error artifact_loop_file_for_conditional "fst4.csv:3: count 2: the model's p3 is the conditional at source line 15, so each line must be 0 or 1" \
    "$PROPER" analyze "$T/T.java" --function fst --artifact "p1=$T/fst1.csv,p2=$T/fst2.csv,p3=$T/fst4.csv,p4=$T/fst3.csv"
expect_text synth_continuation_table 0 "throw  " "$PROPER" synth "$T/T.java" --function fst --table

# Malformed annotations: an error with file:line:col, a warning with --lenient.
printf 'void k() {\n  m();\n  display(); // @energy:67\n}\n' > "$T/k.c"
expect_error synth_malformed_annotation "proper: $T/k.c:3:17: malformed annotation @energy: expected '=' after the name, found ':'" \
    "$PROPER" synth "$T/k.c" --function k
expect_text synth_lenient_warns 0 "proper: warning: $T/k.c:3:17: malformed annotation @energy" \
    "$PROPER" synth "$T/k.c" --function k --lenient
printf 'void k() {\n  m(); // @time=1\n  display(); // @energy:67\n}\nrun,p1\n' > "$T/k2.c"
expect_error analyze_malformed_annotation "$T/k2.c:3:17: malformed annotation @energy" \
    "$PROPER" analyze "$T/k2.c" --function k --log "$T/log.csv"

# A recursive method (the artifact's binarySearch); an ambiguous name is refused.
cat > "$T/B.java" <<'SRC'
class B {
  int search(int[] a, int key, int left, int right) {
    if (right < left) return -1;
    int median = (left + right) >>> 1;
    if (key == a[median]) return median; //@time=0.0238
    if (key < a[median]) return search(a, key, left, median - 1);
    return search(a, key, median + 1, right);
  }
}
SRC
# the tail calls jump back to the entry (the paper's Fig. 14); a per-run
# log cannot estimate a recursive function; other self-calls are refused
expect_text synth_tail_call 0 "call      -" "$PROPER" synth "$T/B.java" --function search --table
count=$(grep -c "call      -" "$T/out")
check synth_tail_call_both [ "$count" = 2 ]
printf 'p1,p2,p3\n0,1,0\n1,0,0\n' > "$T/bs.csv"
expect_error analyze_recursive_per_run_log "search is recursive (the tail call at source line 6)" \
    "$PROPER" analyze "$T/B.java" --function search --log "$T/bs.csv"
printf 'int fib(int n) {\n  if (n < 2) return n;\n  return fib(n - 1) + fib(n - 2); // @time=1\n}\n' > "$T/fib.c"
expect_error synth_recursion "proper: $T/fib.c:3:10: 'fib' calls itself other than as \`return fib(...);\`" \
    "$PROPER" synth "$T/fib.c" --function fib
printf 'int f(int n) {\n  return n;\n}\nint f(double x) {\n  return 1;\n}\n' > "$T/two.c"
expect_error synth_ambiguous "function 'f' is defined twice, at lines 1 and 4" "$PROPER" synth "$T/two.c" --function f

# A nested loop's file without ':pK' is paired with the enclosing loop the
# model has; a pairing that contradicts the model is refused. Each of the
# 3 runs has an outer loop of 2 iterations and 3 inner runs per iteration:
# the outer header is visited 3 times (2 iterations and the exit test), the
# body statement 6 times: the expected time is 1 * 3 + 10 * 6 = 63 per run
# (as a plain loop, p2 = 18 / (18 + 3) gave 1 * 3 + 10 * 2 * 6 = 123).
cat > "$T/n.c" <<'SRC'
void n() {
  for (int i = 0; i < 2; i++) {   // @time=1
    for (int j = 0; j < 3; j++) { // @time=0
      step();                     // @time=10
    }
  }
}
SRC
printf '2\n2\n2\n' > "$T/outer.csv"
printf '6\n6\n6\n' > "$T/inner.csv"
run_proper analyze "$T/n.c" --function n --artifact "p1=$T/outer.csv,p2=$T/inner.csv" --json
status_is artifact_nested_paired 0 &&
    check artifact_nested_paired rel_near "$(json_get "$T/out" rewards.0.estimate)" 63 1e-12
expect_error artifact_bad_pairing "p1 is paired with p2, but in the model p1 (the loop at source line 2) is not inside a loop: drop the pairing" \
    "$PROPER" analyze "$T/n.c" --function n --artifact "p1=$T/outer.csv:p2,p2=$T/inner.csv"

# A per-run log with a column the model does not have.
printf 'p1,p2\n1,0\n0,1\n' > "$T/extra.csv"
expect_error analyze_extra_column "column 'p2', but the model of f has 1" "$PROPER" analyze "$T/f.c" --function f --log "$T/extra.csv"

# --- issue 14: all-zero counts, infinite ends, nan bounds ---
# Every run logs 0 loop iterations: the normal interval [7, 7] is flagged
# in words; Wilson's is not degenerate: p1 in [0, z^2/(4 + z^2)] with
# z = 1.959963984540054, so time in [7, 5 + (2 + 3 u)/(1 - u)] = [7, 11.8018235...].
printf 'run,p1\n1,0\n2,0\n3,0\n4,0\n' > "$T/zero.csv"
expect_text analyze_zero_width_note 0 "note: p1 (the loop at line 3): every run has the same count, so its normal interval [0, 0] has zero width" \
    "$PROPER" analyze "$T/f.c" --function f --log "$T/zero.csv"
run_proper analyze "$T/f.c" --function f --log "$T/zero.csv" --json --method wilson
status_is analyze_zero_wilson 0 &&
    check analyze_zero_wilson rel_near "$(json_get "$T/out" rewards.0.hi)" \
        "$(awk 'BEGIN { z = 1.959963984540054; u = z * z / (4 + z * z); printf "%.17g", 5 + (2 + 3 * u) / (1 - u) }')" 1e-12 &&
    check analyze_zero_wilson_not_flagged [ "$(json_get "$T/out" parameters.0.zero_width)" = false ]
run_proper analyze "$T/f.c" --function f --log "$T/zero.csv" --json
status_is analyze_zero_json 0 && check analyze_zero_json_flagged [ "$(json_get "$T/out" parameters.0.zero_width)" = true ]
expect_text analyze_infinite_explained 1 "note: time: the upper end is infinite: at some corner of the 95% confidence box loop p2 (line 3" \
    "$PROPER" analyze "$T/g.c" --function g --log "$T/g.csv" --bound 'time<=3' --box probabilities
expect_error analyze_bound_nan "--bound: the limit must be a finite number, got 'nan'" \
    "$PROPER" analyze "$T/f.c" --function f --log "$T/log.csv" --bound 'time<=nan'

# The artifact's DevPerf: @energy on a commented-out line at the end of a
# branch was carried into the else branch (the next statement); now it is
# an error naming the line, and ignored with a warning under --lenient.
printf 'int g(int a) {\n  if (a < 21) {\n    mode = 1;\n    //Animations(mode); //@energy=28\n  } else {\n    mode = 2; // @energy=34\n  }\n  return mode;\n}\n' > "$T/dev.java"
expect_error synth_annotation_leaves_block "proper: $T/dev.java:4:27: annotation @energy is on a line without a statement, and no statement follows it in its block (closed at line 5)" \
    "$PROPER" synth "$T/dev.java" --function g
run_proper synth "$T/dev.java" --function g --lenient --table
status_is synth_annotation_leaves_block_lenient 0 &&
    check synth_annotation_leaves_block_lenient [ "$(awk '$3 == "if" { print $5 }' "$T/out")" = 0 ] &&
    contains synth_annotation_leaves_block_warned "$T/err" "warning: $T/dev.java:4:27: annotation @energy"
expect_error artifact_map_twice "--artifact: two files for p1" \
    "$PROPER" analyze "$T/n.c" --function n --artifact "p1=$T/outer.csv,p1=$T/inner.csv"
expect_error artifact_map_bad_key "--artifact: 'p1x=$T/outer.csv' is not pK=FILE with K in 1..2" \
    "$PROPER" analyze "$T/n.c" --function n --artifact "p1x=$T/outer.csv,p2=$T/inner.csv"

# An annotation in a catch block is not modelled: ignored with a warning, not silently.
printf 'int c() {\n  try {\n    x(); // @time=1\n  } catch (Exception e) {\n    y(); // @time=5\n  }\n  return 0;\n}\n' > "$T/catch.java"
expect_text synth_catch_warns 0 "proper: warning: $T/catch.java:5:13: annotation @time is in a catch block" \
    "$PROPER" synth "$T/catch.java" --function c

# --- issue 17: the box of mean counts (default) and of probabilities ---
# Per-run counts of a loop nested in a loop: time = 1 (mu1 + 1) + 10 mu2 is
# linear in the mean counts, so the default interval is
# [1 + lo1 + 10 lo2, 1 + hi1 + 10 hi2], z at 0.95^(1/2) (awk below); the box
# of probabilities is wider (p2 = mu2/(mu2 + mu1) takes its ends at both ends of mu1).
printf 'p1,p2\n2,5\n1,3\n3,7\n2,6\n' > "$T/nested.csv"
run_proper analyze "$T/n.c" --function n --log "$T/nested.csv" --json
status_is analyze_box_means 0 && check analyze_box_means_name [ "$(json_get "$T/out" box)" = means ] &&
    check analyze_box_means_lo rel_near "$(json_get "$T/out" rewards.0.lo)" \
        "$(awk 'BEGIN { z = 2.2364766445577895; m1 = 2; s1 = sqrt(2/3); m2 = 5.25; s2 = sqrt(8.75/3);
                printf "%.17g", 1 + m1 - z * s1 / 2 + 10 * (m2 - z * s2 / 2) }')" 1e-9
means_width=$(awk -v lo="$(json_get "$T/out" rewards.0.lo)" -v hi="$(json_get "$T/out" rewards.0.hi)" 'BEGIN { print hi - lo }')
run_proper analyze "$T/n.c" --function n --log "$T/nested.csv" --json --box probabilities
status_is analyze_box_probabilities 0 &&
    check analyze_box_probabilities_wider awk -v lo="$(json_get "$T/out" rewards.0.lo)" -v hi="$(json_get "$T/out" rewards.0.hi)" \
        -v w="$means_width" 'BEGIN { exit !(hi - lo > 1.5 * w) }'
expect_error analyze_box_wilson_means "--box means needs normal intervals of the mean counts" \
    "$PROPER" analyze "$T/n.c" --function n --log "$T/nested.csv" --method wilson --box means
expect_error analyze_box_unknown "--box: expected means or probabilities, got 'corners'" \
    "$PROPER" analyze "$T/n.c" --function n --log "$T/nested.csv" --box corners
run_proper analyze "$T/n.c" --function n --log "$T/nested.csv" --json --method wilson
status_is analyze_wilson_box 0 && check analyze_wilson_box [ "$(json_get "$T/out" box)" = probabilities ]

# The artifact's layout: --artifact op_logs/<case> stands for p1=DIR/n1.csv,...
mkdir -p "$T/op_logs/n"
cp "$T/outer.csv" "$T/op_logs/n/n1.csv"; cp "$T/inner.csv" "$T/op_logs/n/n2.csv"
run_proper analyze "$T/n.c" --function n --artifact "$T/op_logs/n" --json
status_is artifact_dir 0 && check artifact_dir rel_near "$(json_get "$T/out" rewards.0.estimate)" 63 1e-12
cp "$T/inner.csv" "$T/op_logs/n/n3.csv"
expect_error artifact_dir_extra "n3.csv, but the model of n has 2 conditional(s) and loop(s)" \
    "$PROPER" analyze "$T/n.c" --function n --artifact "$T/op_logs/n"
rm "$T/op_logs/n/n2.csv" "$T/op_logs/n/n3.csv"
expect_error artifact_dir_missing "no file n2.csv for p2 (the loop at line 3)" \
    "$PROPER" analyze "$T/n.c" --function n --artifact "$T/op_logs/n"

# The annotations the model was built with are printed (the artifact's
# Distance.java says @cost=5 where its published model uses 7).
expect_text analyze_annotations_listed 0 "  time: line 2 (for) 1, line 4 (stmt) 10" \
    "$PROPER" analyze "$T/n.c" --function n --log "$T/nested.csv"
run_proper analyze "$T/n.c" --function n --log "$T/nested.csv" --json
status_is analyze_annotations_json 0 &&
    check analyze_annotations_json [ "$(json_get "$T/out" rewards.0.annotations.1.value)" = 10 ]

# A conditional in a loop as per-run totals, paired with the loop's file:
# p2 = (1 + 2 + 0) / (2 + 2 + 2) = 0.5
printf 'void c() {\n  for (int i = 0; i < k(); i++) {\n    if (b()) {\n      x(); // @time=1\n    }\n  }\n}\n' > "$T/c.c"
printf '1\n2\n0\n' > "$T/cond.csv"
run_proper analyze "$T/c.c" --function c --artifact "p1=$T/outer.csv,p2=$T/cond.csv" --json
status_is artifact_conditional_totals 0 && check artifact_conditional_totals rel_near "$(json_get "$T/out" parameters.1.estimate)" 0.5 1e-15
printf '1\n3\n0\n' > "$T/cond.csv"
expect_error artifact_conditional_totals_above "$T/cond.csv:2: count 3, but the paired line of p1's file says its loop (source line 2) iterated 2 time(s)" \
    "$PROPER" analyze "$T/c.c" --function c --artifact "p1=$T/outer.csv,p2=$T/cond.csv"

# --- issue 21: the totals that proper-mpi counts writes, read by analyze --log ---
# (written here from log.csv's rows: 4 runs, sum 6, sum of squares 14)
printf 'proper-count-totals 1\ncolumn,runs,sum,sum_sq\np1,4,6,14\n' > "$T/log.totals"
run_proper analyze "$T/f.c" --function f --log "$T/log.csv" --json
cp "$T/out" "$T/from_rows.json"
run_proper analyze "$T/f.c" --function f --log "$T/log.totals" --json
status_is analyze_totals 0 && check analyze_totals_same_as_rows cmp -s "$T/out" "$T/from_rows.json"
printf 'proper-count-totals 1\ncolumn,runs,sum,sum_sq\np1,4,x,14\n' > "$T/bad.totals"
expect_error analyze_totals_bad "proper: $T/bad.totals:3:6:" "$PROPER" analyze "$T/f.c" --function f --log "$T/bad.totals"

# --- issue 14: the README's bundled example (data/annotated/minPathSum.trace,
# 300 runs of the minPathSum case study): time in [0.49939741, 0.70193593]
# straddles 0.7, so the bound is inconclusive (exit 1)
expect_text analyze_readme_example 1 "bound time<=0.7: inconclusive (interval [0.49939741, 0.70193593])" \
    "$PROPER" analyze examples/annotated/cases.c --function minPathSum --log data/annotated/minPathSum.trace --bound 'time<=0.7'
