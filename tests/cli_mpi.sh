#!/bin/sh
# Command-line tests for proper-mpi (cli/mpi/): on 1, 2 and 4 ranks the
# counts, the fitted PST and the other sums must be byte-identical to what
# the single-process `proper` writes for the same inputs, and errors must
# read as the single-process ones. Also: `proper vlmc merge` is associative
# and commutative (any order, any grouping, the same bytes). proper-mpi
# trace is checked against `proper sre --csv` of trace(FILE, STEP); proper-mpi
# counts (a totals file proper has no single-process writer for) against
# awk's sums of the same logs and `proper analyze`'s taken/reached totals,
# and `proper analyze --log TOTALS` against `proper analyze --log` of the rows.
# Inputs are generated here by bench/bench_mpi.awk (MINSTD, so every awk
# writes the same files).
. "$(dirname "$0")/cli_lib.sh"
PROPER_MPI=${PROPER_MPI:-build/proper-mpi-san}

if ! command -v mpirun > /dev/null 2>&1; then
    echo "SKIP cli_mpi: mpirun not installed (Debian: apt-get install openmpi-bin libopenmpi-dev)"; exit 0
fi
if [ ! -x "$PROPER_MPI" ]; then
    if command -v mpicc > /dev/null 2>&1; then fail cli_mpi "$PROPER_MPI was not built (make $PROPER_MPI)"
    else echo "SKIP cli_mpi: mpicc not installed, so $PROPER_MPI was not built"; fi
    exit 0
fi
# Open MPI refuses root without these; its own allocations are not ours to
# leak-check (tests/mpi.supp), and the full unwinder is needed to see that.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export LSAN_OPTIONS="suppressions=$(pwd)/tests/mpi.supp:print_suppressions=0:fast_unwind_on_malloc=0"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# run_mpi NP ARGS...: proper-mpi on NP ranks (stdout, stderr in $T/out, $T/err)
run_mpi() {
    np=$1; shift
    run mpirun --oversubscribe -x LSAN_OPTIONS -x ASAN_OPTIONS -x UBSAN_OPTIONS -np "$np" "$PROPER_MPI" "$@"
    return $status
}
gen() { awk -v runs="$1" -v seed="$2" -v format="${3:-runs}" -v first="${4:-1}" -f bench/bench_mpi.awk; }

# Shards of different sizes and formats: runs text (split by byte ranges),
# a trace (whole), a counts file (whole), one tiny file.
gen 3000 1 > "$T/a.runs"
gen 900 2 > "$T/b.runs"
gen 700 3 trace > "$T/c.trace"
gen 500 4 > "$T/d.runs"
"$PROPER" vlmc count "$T/d.runs" -o "$T/d.counts" 2> /dev/null
printf 'main.c:10 main.c:99\n' > "$T/e.runs"
IN="$T/a.runs $T/b.runs $T/c.trace $T/d.counts $T/e.runs"

# the single-process reference
"$PROPER" vlmc count $IN -o "$T/ref.counts" 2> /dev/null &&
    "$PROPER" vlmc fit "$T/ref.counts" --pst "$T/ref.pst" --json > "$T/ref.json" 2> /dev/null &&
    "$PROPER" vlmc fit $IN --pst "$T/ref-direct.pst" > /dev/null &&
    "$PROPER" vlmc fit "$T/ref.counts" --general --alpha 0.05 --nmin 3 --max-order 5 --pst "$T/ref-g.pst" > /dev/null ||
    fail mpi_reference "the single-process proper failed"
if cmp -s "$T/ref.pst" "$T/ref-direct.pst"; then ok mpi_reference_count_then_fit_is_fit
else fail mpi_reference_count_then_fit_is_fit "fitting the counts and fitting the runs differ"; fi

# --- vlmc count and fit on 1, 2, 4 ranks: the same bytes ---
for np in 1 2 4; do
    if run_mpi "$np" vlmc count $IN -o "$T/c$np.counts" && cmp -s "$T/c$np.counts" "$T/ref.counts"; then
        ok "mpi_vlmc_count_np$np"
    else fail "mpi_vlmc_count_np$np" "$(cat "$T/err"; cmp "$T/c$np.counts" "$T/ref.counts")"; fi
    if run_mpi "$np" vlmc fit $IN -o "$T/f$np.counts" --pst "$T/f$np.pst" --json && cmp -s "$T/f$np.pst" "$T/ref.pst" &&
       cmp -s "$T/f$np.counts" "$T/ref.counts" &&
       [ "$(sed 's/"seconds.*//' "$T/out")" = "$(sed 's/"seconds.*//' "$T/ref.json")" ]; then
        ok "mpi_vlmc_fit_np$np"
    else fail "mpi_vlmc_fit_np$np" "$(cat "$T/err" "$T/out" "$T/ref.json"; cmp "$T/f$np.pst" "$T/ref.pst")"; fi
done
# fit options reach the fit (general mode, alpha, nmin, max order)
if run_mpi 4 vlmc fit $IN --general --alpha 0.05 --nmin 3 --max-order 5 --pst "$T/g4.pst" &&
   cmp -s "$T/g4.pst" "$T/ref-g.pst" && ! cmp -s "$T/g4.pst" "$T/ref.pst"; then ok mpi_vlmc_fit_options
else fail mpi_vlmc_fit_options "$(cat "$T/err")"; fi

# one file on 4 ranks: every boundary falls inside a line (the runs average
# ~200 bytes, the ranges are ~40 KB), and on more ranks than lines
if run_mpi 4 vlmc count "$T/b.runs" -o "$T/b4.counts" && "$PROPER" vlmc count "$T/b.runs" -o "$T/b1.counts" 2> /dev/null &&
   cmp -s "$T/b4.counts" "$T/b1.counts"; then ok mpi_vlmc_one_file_split
else fail mpi_vlmc_one_file_split "$(cat "$T/err")"; fi
if run_mpi 4 vlmc count "$T/e.runs" -o "$T/e4.counts" && "$PROPER" vlmc count "$T/e.runs" -o "$T/e1.counts" 2> /dev/null &&
   cmp -s "$T/e4.counts" "$T/e1.counts"; then ok mpi_vlmc_more_ranks_than_lines
else fail mpi_vlmc_more_ranks_than_lines "$(cat "$T/err")"; fi

# --stats: one row per rank, their events add up to the runs' locations
if run_mpi 2 vlmc count $IN -o "$T/s.counts" --stats && [ "$(grep -c '^stats ' "$T/err")" = 2 ] &&
   [ "$(awk '/^stats /{s += $4} END {print s}' "$T/err")" = "$(sed -n 's/^# .* distinct, \([0-9]*\) locations.*/\1/p' "$T/ref.counts")" ]; then
    ok mpi_stats
else fail mpi_stats "$(cat "$T/err")"; fi

# --- errors: the single-process message, exit status 2, no hang ---
{ gen 3000 5; printf 'main.c:10 ^ main.c:99\n'; gen 100 6; } > "$T/bad.runs"
"$PROPER" vlmc count "$T/bad.runs" -o "$T/x.counts" 2> "$T/err1"
single=$(sed 's/^proper: //' "$T/err1")
# (Open MPI adds its own lines about the exit status; ours is one line, the
# single-process message)
if run_mpi 4 vlmc count "$T/a.runs" "$T/bad.runs" -o "$T/x.counts"; then fail mpi_error_position "exit status 0"
elif [ -n "$single" ] && [ "$(grep -c '^proper-mpi: ' "$T/err")" = 1 ] && grep -qxF "proper-mpi: $single" "$T/err"; then
    ok mpi_error_position
else fail mpi_error_position "'$(cat "$T/err")' lacks '$single'"; fi
if run_mpi 2 vlmc fit "$T/a.runs" "$T/missing.runs"; then fail mpi_error_missing "exit status 0"
elif [ "$(grep -c 'missing.runs: cannot open file' "$T/err")" = 1 ]; then ok mpi_error_missing
else fail mpi_error_missing "$(cat "$T/err")"; fi
# Bad options: proper-mpi's one line is the single-process message with the
# program named "proper-mpi" ("proper: --alpha: ..." -> "proper-mpi: --alpha:
# ...", "proper vlmc: ... (see 'proper vlmc --help')" -> "proper-mpi vlmc:
# ... (see 'proper-mpi vlmc --help')"), both exit 2.
# mpi_same_error NAME ARGS...: `proper vlmc ARGS` vs proper-mpi on 2 ranks
mpi_same_error() {
    cl_name=$1; shift
    run_proper vlmc "$@"
    single_status=$status
    single=$(sed "s/^proper/proper-mpi/; s/(see 'proper /(see 'proper-mpi /" "$T/err")
    run_mpi 2 vlmc "$@"
    if [ "$single_status" != 2 ] || [ "$status" != 2 ]; then
        fail "$cl_name" "exit status $single_status (proper), $status (proper-mpi), expected 2; $(last_output)"
    elif [ -n "$single" ] && [ "$(grep -c '^proper-mpi' "$T/err")" = 1 ] && grep -qxF -- "$single" "$T/err"; then
        ok "$cl_name"
    else fail "$cl_name" "'$(cat "$T/err")' lacks '$single'"; fi
}
mpi_same_error mpi_error_option_alpha fit "$T/e.runs" --alpha 2
mpi_same_error mpi_error_option_alpha_count count "$T/e.runs" -o "$T/x.counts" --alpha 2
mpi_same_error mpi_error_option_nmin fit "$T/e.runs" --nmin 0
mpi_same_error mpi_error_option_max_order fit "$T/e.runs" --max-order=1.5
mpi_same_error mpi_error_option_unknown fit "$T/e.runs" --bogus
mpi_same_error mpi_error_option_needs_value fit "$T/e.runs" --pst
mpi_same_error mpi_error_option_flag_value fit "$T/e.runs" --json=1
mpi_same_error mpi_error_no_inputs fit --json
mpi_same_error mpi_error_count_needs_output count "$T/e.runs"
mpi_same_error mpi_error_general_cfg fit "$T/e.runs" --general --cfg "$T/e.runs"

# --json: the single-process summary (cli/json.h; no timing), valid JSON, for
# location names holding a quote and a backslash (the PST names them alike)
printf 'main.c:1 "q\\x main.c:2\nmain.c:1 main.c:2\nmain.c:1 "q\\x "q\\x main.c:2\n' > "$T/q.runs"
"$PROPER" vlmc fit "$T/q.runs" --alpha 0.05 --json --pst "$T/q1.pst" > "$T/q1.json" 2> /dev/null
run_mpi 2 vlmc fit "$T/q.runs" --alpha 0.05 --json --pst "$T/q2.pst"
if status_is mpi_vlmc_fit_json 0; then
    json_valid mpi_vlmc_fit_json_valid "$T/out"
    if grep -qF '"q\x' "$T/q2.pst" && cmp -s "$T/q1.pst" "$T/q2.pst" &&
       [ "$(sed 's/, "seconds.*//' "$T/out")" = "$(sed 's/, "seconds.*//' "$T/q1.json")" ]; then
        ok mpi_vlmc_fit_json_as_proper
    else fail mpi_vlmc_fit_json_as_proper "$(last_output); proper: $(cat "$T/q1.json")"; fi
fi

# --- merging counts: associative and commutative, the same bytes ---
gen 400 11 > "$T/m1.runs"; gen 300 12 > "$T/m2.runs"; gen 500 13 > "$T/m3.runs"; gen 200 14 > "$T/m4.runs"
for k in 1 2 3 4; do "$PROPER" vlmc count "$T/m$k.runs" -o "$T/m$k.counts" 2> /dev/null; done
M=$T/m
"$PROPER" vlmc count "$M"1.runs "$M"2.runs "$M"3.runs "$M"4.runs -o "$T/all.counts" 2> /dev/null
merge() { out=$1; shift; "$PROPER" vlmc merge "$@" -o "$out" 2> /dev/null; }
merge "$T/m12" "$M"1.counts "$M"2.counts && merge "$T/m34" "$M"3.counts "$M"4.counts &&
merge "$T/m21" "$M"2.counts "$M"1.counts && merge "$T/m123" "$T/m12" "$M"3.counts &&
merge "$T/m23" "$M"2.counts "$M"3.counts && merge "$T/m1_23" "$M"1.counts "$T/m23" &&
merge "$T/g1" "$T/m12" "$T/m34" &&                                        # (1 2)(3 4)
merge "$T/g2" "$T/m123" "$M"4.counts &&                                   # ((1 2) 3) 4
merge "$T/m234" "$T/m23" "$M"4.counts && merge "$T/g3" "$M"1.counts "$T/m234" &&  # 1 ((2 3) 4)
merge "$T/g4" "$M"4.counts "$M"3.counts "$M"2.counts "$M"1.counts &&      # 4 3 2 1
merge "$T/m31" "$M"3.counts "$M"1.counts && merge "$T/m42" "$M"4.counts "$M"2.counts &&
merge "$T/g5" "$T/m42" "$T/m31" ||                                        # (4 2)(3 1)
    fail mpi_merge_runs "proper vlmc merge failed"
same=1
for g in g1 g2 g3 g4 g5; do cmp -s "$T/$g" "$T/all.counts" || same=0; done
if [ $same = 1 ] && cmp -s "$T/m12" "$T/m21" && cmp -s "$T/m123" "$T/m1_23"; then ok mpi_merge_associative_commutative
else fail mpi_merge_associative_commutative "groupings/orders give different bytes"; fi
# the recipe of docs/mpi.md for engines users already run: map = `proper
# vlmc count` per shard, here under xargs -P (GNU parallel, Hadoop
# streaming, Spark pipe run the same command), reduce = `proper vlmc merge`
mkdir -p "$T/shards"; cp "$M"1.runs "$M"2.runs "$M"3.runs "$M"4.runs "$T/shards/"
if ls "$T"/shards/*.runs | xargs -P 2 -I{} "$PROPER" vlmc count {} -o {}.counts 2> /dev/null &&
   "$PROPER" vlmc merge "$T"/shards/*.counts -o "$T/mapreduce.counts" 2> /dev/null && cmp -s "$T/mapreduce.counts" "$T/all.counts"; then
    ok mpi_recipe_map_reduce
else fail mpi_recipe_map_reduce "map (count per shard) then reduce (merge) differs from one pass"; fi
# proper-mpi reduces counts files too (the reduce step of a map-reduce)
if run_mpi 2 vlmc count "$M"4.counts "$M"3.counts "$M"1.counts "$M"2.counts -o "$T/r.counts" && cmp -s "$T/r.counts" "$T/all.counts"; then
    ok mpi_reduce_counts_files
else fail mpi_reduce_counts_files "$(cat "$T/err")"; fi

# --- trace: per-step PMFs, each byte-identical to `proper sre --csv` of
# trace(FILE, STEP) (several files: their concatenation) ---
gen 2000 21 timed 1 > "$T/ta.trace"
gen 600 22 timed 5001 > "$T/tb.trace"
# steps whose names need care in file names: '/', a leading '.', '..'
printf 'proper-trace 1\nR 9001\nS .. 1500\nS .hidden 7\nS x@y+z 2.5\nS .. 1499.5\nE\nR 9002\nN p1 3\nE\n' > "$T/tc.trace"
TIN="$T/ta.trace $T/tb.trace $T/tc.trace"
{ cat "$T/ta.trace"; tail -n +2 "$T/tb.trace"; tail -n +2 "$T/tc.trace"; } > "$T/tall.trace"
# the single-process reference: the steps as `proper trace` lists them, each
# one's PMF from `proper sre` (width W) into $T/tref-W/STEP.csv ('/' as %2F)
trace_ref() {
    mkdir -p "$T/tref-$1"
    "$PROPER" trace "$T/tall.trace" --csv | awk -F, '$1 == "step" {print $2}' > "$T/steps"
    while read -r step; do
        printf 'symbol s = trace("%s", "%s");\ndef d = s;\n' "$T/tall.trace" "$step" > "$T/ref.sre"
        "$PROPER" sre "$T/ref.sre" --csv --width "$1" > "$T/tref-$1/$(printf '%s' "$step" | sed 's,/,%2F,g').csv" ||
            fail mpi_trace_reference "proper sre failed for step $step"
    done < "$T/steps"
}
trace_ref 0.25
trace_ref 1
if [ "$(ls -A "$T/tref-1" | wc -l)" = 6 ] && [ -s "$T/tref-1/parse%2Fslow.csv" ] && [ -s "$T/tref-1/...csv" ]; then
    ok mpi_trace_reference
else fail mpi_trace_reference "$(ls "$T/tref-1")"; fi
for np in 1 2 4; do
    if run_mpi "$np" trace $TIN -o "$T/tr$np" --width 0.25 && diff -r "$T/tref-0.25" "$T/tr$np" > "$T/diff"; then
        ok "mpi_trace_np$np"
    else fail "mpi_trace_np$np" "$(cat "$T/err" "$T/diff")"; fi
done
# the default width is sre's (1); -o DIR exists already; --output spelled out
mkdir -p "$T/trw"
if run_mpi 2 trace $TIN --output "$T/trw" && diff -r "$T/tref-1" "$T/trw" > "$T/diff" &&
   grep -qx 'proper-mpi trace: .*: 6 step(s), [0-9]* sample(s), width 1 us' "$T/err"; then ok mpi_trace_default_width
else fail mpi_trace_default_width "$(cat "$T/err" "$T/diff")"; fi
# more ranks than files: the idle ranks add nothing
if run_mpi 4 trace "$T/tc.trace" -o "$T/tr1f" && [ "$(ls -A "$T/tr1f" | wc -l)" = 3 ] &&
   cmp -s "$T/tr1f/x@y+z.csv" "$(printf 'value,prob\n0,1\n' > "$T/xyz.csv"; echo "$T/xyz.csv")"; then
    ok mpi_trace_idle_ranks
else fail mpi_trace_idle_ranks "$(cat "$T/err"; ls "$T/tr1f")"; fi
# --stats: the samples add up to the steps' samples of `proper trace`
if run_mpi 2 trace $TIN -o "$T/trs" --stats &&
   [ "$(awk '/^stats /{s += $4} END {print s}' "$T/err")" = "$("$PROPER" trace "$T/tall.trace" --csv | awk -F, '$1 == "step" {s += $4} END {print s}')" ]; then
    ok mpi_trace_stats
else fail mpi_trace_stats "$(cat "$T/err")"; fi
# errors: a malformed trace reads as the single-process reader says
{ gen 50 23 timed 1; printf 'R 777\nS parse -3\nE\n'; } > "$T/tbad.trace"
"$PROPER" trace "$T/tbad.trace" > /dev/null 2> "$T/err1"
single=$(sed 's/^proper: //' "$T/err1")
if run_mpi 4 trace "$T/ta.trace" "$T/tbad.trace" -o "$T/trx"; then fail mpi_trace_error_position "exit status 0"
elif [ -n "$single" ] && [ "$(grep -c '^proper-mpi' "$T/err")" = 1 ] && grep -qxF "proper-mpi: $single" "$T/err"; then
    ok mpi_trace_error_position
else fail mpi_trace_error_position "'$(cat "$T/err")' lacks '$single'"; fi
if run_mpi 2 trace "$T/ta.trace" "$T/missing.trace" -o "$T/trx"; then fail mpi_trace_error_missing "exit status 0"
elif [ "$(grep -c "^proper-mpi: $T/missing.trace: cannot open" "$T/err")" = 1 ]; then ok mpi_trace_error_missing
else fail mpi_trace_error_missing "$(cat "$T/err")"; fi
# bad options: the wording of `proper trace` / `proper sre` (same parser)
# mpi_same_error2 NAME 'SINGLE ARGS' 'MPI ARGS': the messages, program renamed
mpi_same_error2() {
    run_proper $2
    single_status=$status
    single=$(sed "s/^proper/proper-mpi/; s/(see 'proper /(see 'proper-mpi /" "$T/err")
    run_mpi 2 $3
    if [ "$single_status" != 2 ] || [ "$status" != 2 ]; then
        fail "$1" "exit status $single_status (proper), $status (proper-mpi), expected 2; $(last_output)"
    elif [ -n "$single" ] && [ "$(grep -c '^proper-mpi' "$T/err")" = 1 ] && grep -qxF -- "$single" "$T/err"; then
        ok "$1"
    else fail "$1" "'$(cat "$T/err")' lacks '$single'"; fi
}
printf 'symbol s = {1: 1};\ndef d = s;\n' > "$T/one.sre"
mpi_same_error2 mpi_trace_error_width "sre $T/one.sre --width 0" "trace $T/tc.trace -o $T/trx --width 0"
mpi_same_error2 mpi_trace_error_unknown "trace $T/tc.trace --bogus" "trace $T/tc.trace -o $T/trx --bogus"
mpi_same_error2 mpi_trace_error_no_inputs "trace" "trace -o $T/trx"
run_mpi 2 trace "$T/tc.trace"
if [ "$status" = 2 ] && [ "$(grep '^proper-mpi' "$T/err")" = "proper-mpi trace: -o/--output DIR is required (see 'proper-mpi trace --help')" ]; then
    ok mpi_trace_error_needs_output
else fail mpi_trace_error_needs_output "$(last_output)"; fi
printf 'x\n' > "$T/notadir"
if run_mpi 2 trace "$T/tc.trace" -o "$T/notadir"; then fail mpi_trace_error_not_a_dir "exit status 0"
elif [ "$(grep -c "^proper-mpi: $T/notadir: cannot create directory" "$T/err")" = 1 ]; then ok mpi_trace_error_not_a_dir
else fail mpi_trace_error_not_a_dir "$(cat "$T/err")"; fi

# --- counts: count-log totals (runs, sum, sum of squares per column) ---
gen 3000 31 log 1 > "$T/la.log"
gen 20 32 log 1 > "$T/lb.log"
printf 'run,p1,p3\n1,4,5\n2,0,7\n' > "$T/lc.log"
gen 800 33 timed 1 > "$T/ld.trace"
LIN="$T/la.log $T/lb.log $T/lc.log $T/ld.trace"
# the reference, by awk: CSV columns, and a trace's N counters summed per
# record (0 where a record has none); rows sorted by name
{
    awk -F, 'FNR == 1 {for (i = 1; i <= NF; i++) h[i] = $i; next}
             {for (i = 1; i <= NF; i++) {r[h[i]]++; s[h[i]] += $i; q[h[i]] += $i * $i}}
             END {for (k in r) printf "%s %d %.0f %.0f\n", k, r[k], s[k], q[k]}' "$T/la.log" "$T/lb.log" "$T/lc.log"
    awk '/^R / {n++} /^N / {v[n, $2] += $3; names[$2] = 1}
         END {for (k in names) {s = 0; q = 0; for (i = 1; i <= n; i++) {s += v[i, k]; q += v[i, k] ^ 2}
                                printf "%s %d %.0f %.0f\n", k, n, s, q}}' "$T/ld.trace"
} | awk '{r[$1] += $2; s[$1] += $3; q[$1] += $4} END {for (k in r) printf "%s,%d,%.0f,%.0f\n", k, r[k], s[k], q[k]}' |
    LC_ALL=C sort > "$T/lrows"
{ printf 'proper-count-totals 1\ncolumn,runs,sum,sum_sq\n'; cat "$T/lrows"; } > "$T/lref.tot"
for np in 1 2 4; do
    if run_mpi "$np" counts $LIN -o "$T/l$np.tot" && cmp -s "$T/l$np.tot" "$T/lref.tot"; then ok "mpi_counts_np$np"
    else fail "mpi_counts_np$np" "$(cat "$T/err"; diff "$T/l$np.tot" "$T/lref.tot")"; fi
done
# the totals agree with `proper analyze`'s: for a model with one loop p1,
# its taken total N_1 is the column's sum and reached V_1 = runs + sum
cat > "$T/f.c" <<'SRC'
int f(int n) {
  int s = 0;        // @time=1
  while (n > 0) {   // @time=2
    s += n--;       // @time=3
  }
  return s;         // @time=4
}
SRC
cut -d, -f1,2 "$T/la.log" > "$T/la1.log"   # run,p1: the columns of f's model
"$PROPER" analyze "$T/f.c" --function f --log "$T/la1.log" --json > "$T/an.json" 2> /dev/null
run_mpi 1 counts "$T/la1.log"
p1=$(awk -F, '$1 == "p1"' "$T/out")
taken=$(json_get "$T/an.json" parameters.0.taken); reached=$(json_get "$T/an.json" parameters.0.reached)
if [ -n "$p1" ] && [ "$(echo "$p1" | awk -F, '{print $3, $2 + $3}')" = "$taken $reached" ]; then ok mpi_counts_as_analyze
else fail mpi_counts_as_analyze "totals '$p1', proper analyze taken $taken reached $reached"; fi
# the reduce feeds the estimator: `proper analyze --log` of the totals of
# three shards of la1.log, reduced on 1, 2 and 4 ranks, prints the same JSON
# (estimates, intervals, taken/reached) byte for byte as of la1.log itself
for k in 0 1 2; do awk -F, -v k=$k 'NR == 1 || (NR - 2) % 3 == k' "$T/la1.log" > "$T/shard$k.log"; done
for np in 1 2 4; do
    if run_mpi "$np" counts "$T/shard0.log" "$T/shard1.log" "$T/shard2.log" -o "$T/shards$np.tot" &&
       "$PROPER" analyze "$T/f.c" --function f --log "$T/shards$np.tot" --json > "$T/an$np.json" 2> "$T/err" &&
       cmp -s "$T/an$np.json" "$T/an.json"; then ok "mpi_counts_feed_analyze_np$np"
    else fail "mpi_counts_feed_analyze_np$np" "$(cat "$T/err"; diff "$T/an$np.json" "$T/an.json")"; fi
done
# stdout by default; totals files are inputs too, in any grouping and order
run_mpi 2 counts "$T/la.log" "$T/lc.log"; cp "$T/out" "$T/lac.tot"
run_mpi 1 counts "$T/ld.trace" "$T/lb.log" -o "$T/ldb.tot"
if run_mpi 2 counts "$T/ldb.tot" "$T/lac.tot" -o "$T/lg1.tot" && cmp -s "$T/lg1.tot" "$T/lref.tot" &&
   run_mpi 4 counts "$T/lac.tot" "$T/lb.log" "$T/ld.trace" -o "$T/lg2.tot" && cmp -s "$T/lg2.tot" "$T/lref.tot"; then
    ok mpi_counts_totals_merge
else fail mpi_counts_totals_merge "$(cat "$T/err"; diff "$T/lg1.tot" "$T/lref.tot")"; fi
# exact beyond 64 bits: a sum of squares above 2^64, and the 2^128 limit
printf 'run,p1\n1,4294967296\n2,4294967296\n' > "$T/big.log"
if run_mpi 2 counts "$T/big.log" "$T/big.log" && grep -qx 'p1,4,17179869184,73786976294838206464' "$T/out"; then
    ok mpi_counts_128bit
else fail mpi_counts_128bit "$(last_output)"; fi
printf 'proper-count-totals 1\ncolumn,runs,sum,sum_sq\np1,1,340282366920938463463374607431768211455,0\n' > "$T/max.tot"
if run_mpi 2 counts "$T/max.tot" "$T/max.tot"; then fail mpi_counts_overflow "exit status 0"
elif grep -qxF "proper-mpi: $T/max.tot:3:1: column 'p1': sum beyond 2^128 - 1" "$T/err" ||
     grep -qxF "proper-mpi: (totals from another rank):3:1: column 'p1': sum beyond 2^128 - 1" "$T/err"; then
    ok mpi_counts_overflow
else fail mpi_counts_overflow "$(cat "$T/err")"; fi
# errors: a bad count log reads as `proper analyze --log` says
printf 'run,p1\n1,3\n2,-1\n' > "$T/lbad.log"
"$PROPER" analyze "$T/f.c" --function f --log "$T/lbad.log" > /dev/null 2> "$T/err1"
single=$(sed 's/^proper: //' "$T/err1")
if run_mpi 4 counts "$T/la.log" "$T/lbad.log"; then fail mpi_counts_error_position "exit status 0"
elif [ -n "$single" ] && [ "$(grep -c '^proper-mpi' "$T/err")" = 1 ] && grep -qxF "proper-mpi: $single" "$T/err"; then
    ok mpi_counts_error_position
else fail mpi_counts_error_position "'$(cat "$T/err")' lacks '$single'"; fi
if run_mpi 2 counts "$T/la.log" "$T/missing.log"; then fail mpi_counts_error_missing "exit status 0"
elif [ "$(grep -c "^proper-mpi: $T/missing.log: cannot open" "$T/err")" = 1 ]; then ok mpi_counts_error_missing
else fail mpi_counts_error_missing "$(cat "$T/err")"; fi
run_mpi 2 counts "$T/la.log" --bogus
if [ "$status" = 2 ] && [ "$(grep '^proper-mpi' "$T/err")" = "proper-mpi counts: unknown option '--bogus' (see 'proper-mpi counts --help')" ]; then
    ok mpi_counts_error_unknown
else fail mpi_counts_error_unknown "$(last_output)"; fi
run_mpi 2 counts -o "$T/x.tot"
if [ "$status" = 2 ] && [ "$(grep '^proper-mpi' "$T/err")" = "proper-mpi counts: expected at least one count LOG (see 'proper-mpi counts --help')" ]; then
    ok mpi_counts_error_no_inputs
else fail mpi_counts_error_no_inputs "$(last_output)"; fi
expect_text mpi_usage_names_commands 0 "counts LOG..." mpirun --oversubscribe -np 1 "$PROPER_MPI" --help

# --- annot: annotation records' sufficient statistics (src/annot.h) ---
# Logs of three functions (bench/bench_mpi.awk format=annot): a record log, one
# without `init`, the CSV form of `sort`, a tiny one, so every rank count of
# 1, 2, 4 leaves some rank several logs, one, or none.
gena() { awk -v runs="$1" -v seed="$2" -v format="$3" -v noinit="${4:-0}" -f bench/bench_mpi.awk; }
gena 3000 41 annot > "$T/aa.log"
gena 800 42 annot 1 > "$T/ab.log"
gena 1500 43 annotcsv > "$T/ac.csv"
gena 7 44 annot > "$T/ad.log"
AIN="$T/aa.log $T/ab.log $T/ac.csv $T/ad.log"
"$PROPER" annot stats $AIN -o "$T/aref.stats" 2> /dev/null &&
    "$PROPER" annot fit "$T/aref.stats" -o "$T/aref.annot" 2> /dev/null &&
    "$PROPER" annot stats $AIN --metric heap -o "$T/aref-heap.stats" 2> /dev/null &&
    "$PROPER" annot fit "$T/aref-heap.stats" --metric heap -o "$T/aref-heap.annot" 2> /dev/null &&
    "$PROPER" annot fit "$T/aref.stats" --function lookup -o "$T/aref-lookup.annot" 2> /dev/null ||
    fail mpi_annot_reference "the single-process proper failed"
# the reference's record counts are the logs' records, counted by awk
want=$(cat $AIN | awk -F, '$1 ~ /^(sort|lookup|init)$/ {n[$1]++} END {printf "init %d lookup %d sort %d", n["init"], n["lookup"], n["sort"]}')
got=$(awk '/^function / {printf "%s%s %s", sep, $2, $6; sep = " "}' "$T/aref.stats")
if [ "$got" = "$want" ]; then ok mpi_annot_reference_records
else fail mpi_annot_reference_records "stats say '$got', the logs hold '$want'"; fi
# ... and the statistics of all logs are the merge of each log's
for f in $AIN; do "$PROPER" annot stats "$f" -o "$f.stats" 2> /dev/null; done
"$PROPER" annot merge "$T/ad.log.stats" "$T/ac.csv.stats" "$T/ab.log.stats" "$T/aa.log.stats" -o "$T/aparts.stats" 2> /dev/null
if [ -s "$T/aref.stats" ] && cmp -s "$T/aparts.stats" "$T/aref.stats"; then ok mpi_annot_reference_is_merge
else fail mpi_annot_reference_is_merge "$(diff "$T/aparts.stats" "$T/aref.stats" | head -5)"; fi
# (on 1, 2, 4 ranks `fit --save-stats` writes the statistics and the fit;
# `stats` is the same reduction, written: checked on 4 ranks)
for np in 1 2 4; do
    if run_mpi "$np" annot fit $AIN -o "$T/a$np.annot" --save-stats "$T/af$np.stats" &&
       cmp -s "$T/af$np.stats" "$T/aref.stats" && cmp -s "$T/a$np.annot" "$T/aref.annot"; then ok "mpi_annot_np$np"
    else fail "mpi_annot_np$np" "$(cat "$T/err"; cmp "$T/af$np.stats" "$T/aref.stats"; diff "$T/a$np.annot" "$T/aref.annot")"; fi
done
if run_mpi 4 annot stats $AIN -o "$T/a4.stats" && cmp -s "$T/a4.stats" "$T/aref.stats"; then ok mpi_annot_stats
else fail mpi_annot_stats "$(cat "$T/err"; cmp "$T/a4.stats" "$T/aref.stats")"; fi
# --function and --metric reach the counting and the fit; stdout by default
if run_mpi 4 annot fit $AIN --metric heap && cmp -s "$T/out" "$T/aref-heap.annot" &&
   grep -q '^sort.heap(n, depth)' "$T/out" && run_mpi 2 annot fit $AIN --function lookup && cmp -s "$T/out" "$T/aref-lookup.annot" &&
   [ "$(grep -c '^[a-z]*\.time(' "$T/out")" = 1 ]; then ok mpi_annot_fit_options
else fail mpi_annot_fit_options "$(cat "$T/err"; diff "$T/out" "$T/aref-lookup.annot")"; fi
# statistics files are not logs: the reduce of a map-reduce is `proper annot merge`
# (tests/cli_annot.sh); one log on more ranks than logs
if run_mpi 4 annot stats "$T/aa.log" -o "$T/aa4.stats" && cmp -s "$T/aa4.stats" "$T/aa.log.stats"; then
    ok mpi_annot_more_ranks_than_logs
else fail mpi_annot_more_ranks_than_logs "$(cat "$T/err")"; fi
# --stats: one row per rank, their events add up to the records
if run_mpi 2 annot stats $AIN -o "$T/x.stats" --stats &&
   [ "$(awk '/^stats / {n += $4; r++} END {print r, n}' "$T/err")" = "2 $(awk '/^function / {n += $6} END {print n}' "$T/aref.stats")" ]; then
    ok mpi_annot_stats_rows
else fail mpi_annot_stats_rows "$(cat "$T/err")"; fi
# errors: the single-process message (program renamed), exit status 2
# mpi_annot_same_error NAME NP ARGS...: `proper annot ARGS` vs proper-mpi
mpi_annot_same_error() {
    cl_name=$1; np=$2; shift 2
    run_proper annot "$@"
    single_status=$status
    single=$(sed "s/^proper/proper-mpi/; s/(see 'proper /(see 'proper-mpi /" "$T/err")
    run_mpi "$np" annot "$@"
    if [ "$single_status" != 2 ] || [ "$status" != 2 ]; then
        fail "$cl_name" "exit status $single_status (proper), $status (proper-mpi), expected 2; $(last_output)"
    elif [ -n "$single" ] && [ "$(grep -c '^proper-mpi' "$T/err")" = 1 ] && grep -qxF -- "$single" "$T/err"; then
        ok "$cl_name"
    else fail "$cl_name" "'$(cat "$T/err")' lacks '$single'"; fi
}
sed '100s/.*/sort, 12, x, 3, 4/' "$T/aa.log" > "$T/abad.log"
mpi_annot_same_error mpi_annot_error_position 4 stats "$T/ab.log" "$T/ac.csv" "$T/abad.log" "$T/ad.log"
mpi_annot_same_error mpi_annot_error_missing 2 stats "$T/aa.log" "$T/amissing.log"
mpi_annot_same_error mpi_annot_error_no_function 4 stats $AIN --function nope
# a function declared but never called adds nothing (per-process logs merge)
printf 'proper-annot-log 1\nfunction init metrics time features\nfunction lookup metrics time features len\nlookup, 400, 20, 1, #\n' > "$T/ae.log"
mpi_annot_same_error mpi_annot_error_no_records 2 stats "$T/ab.log" "$T/ae.log" --function init
mpi_annot_same_error mpi_annot_error_no_column 2 stats "$T/aa.log" "$T/ab.log" --function init --metric heap
mpi_annot_same_error mpi_annot_error_r2 2 fit "$T/aa.log" --r2 2
# (the other messages are the library's, tests/test_annot.c; options are
# parsed by the CLI's one parser, as for vlmc above)
# features that differ between logs: the single-process words when the two
# logs meet on one rank, the merge's when they meet in the reduction
printf 'function,time,heap,n,depth\nsort,1,2,3,4\n' > "$T/aconf.csv"
if run_mpi 1 annot stats "$T/aa.log" "$T/aconf.csv"; then fail mpi_annot_error_features "exit status 0"
elif grep -qxF "proper-mpi: $T/aconf.csv: function 'sort': its features differ from those already counted" "$T/err"; then
    ok mpi_annot_error_features
else fail mpi_annot_error_features "$(cat "$T/err")"; fi
if run_mpi 2 annot stats "$T/aa.log" "$T/aconf.csv"; then fail mpi_annot_error_features_reduced "exit status 0"
elif [ "$(grep -c "^proper-mpi: function 'sort': the two statistics have different features" "$T/err")" = 1 ]; then
    ok mpi_annot_error_features_reduced
else fail mpi_annot_error_features_reduced "$(cat "$T/err")"; fi
run_mpi 2 annot stats -o "$T/x.stats"
if [ "$status" = 2 ] && [ "$(grep '^proper-mpi' "$T/err")" = "proper-mpi annot: stats needs at least one LOG (see 'proper-mpi annot --help')" ]; then
    ok mpi_annot_error_no_inputs
else fail mpi_annot_error_no_inputs "$(last_output)"; fi
expect_text mpi_usage_names_annot 0 "annot stats LOG..." mpirun --oversubscribe -np 1 "$PROPER_MPI" --help
