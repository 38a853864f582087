#!/bin/sh
# The VLMC experiments of Napolitano's thesis (§5.2: Figure 16, Tables 4
# and 5) with proper, printed as markdown tables with the published values
# (examples/vlmc/thesis-published.tsv, transcribed from the thesis) beside
# proper's. Run from a clean clone:
#
#   sh scripts/vlmc-tables.sh [--scale S] [--r-runs N] [--no-r] > tables.md
#
# --scale S   the three sorting programs use S times the thesis's number of
#             runs (default 1: their Figure 16 rows and Table 4 fits took
#             3.5 minutes of CPU and at most 1.25 GB on a loaded 2-core
#             machine); the other six programs and Table 5 always use the
#             thesis's numbers of runs.
# --r-runs N  runs per Table 5 program for the comparison with R's VLMC
#             package on identical work (default 5000); needs Rscript and
#             the VLMC package (R_LIBS may point at it); --no-r skips it.
# Work files go to build/vlmc-tables/. Programs: examples/vlmc/unrolled.h.
set -e
cd "$(dirname "$0")/.."
SCALE=1
R_RUNS=5000
WITH_R=1
while [ $# -gt 0 ]; do
    case "$1" in
    --scale) SCALE=$2; shift 2 ;;
    --r-runs) R_RUNS=$2; shift 2 ;;
    --no-r) WITH_R=0; shift ;;
    *) echo "usage: sh scripts/vlmc-tables.sh [--scale S] [--r-runs N] [--no-r]" >&2; exit 2 ;;
    esac
done
OUT=build/vlmc-tables
PUB=examples/vlmc/thesis-published.tsv
SEED=20220101
mkdir -p "$OUT"
make -s bin/proper >&2
${CC:-cc} -std=c99 -Wall -Wextra -O2 -o "$OUT/vlmc-thesis" examples/vlmc/thesis.c -lm -lpthread
GEN="$OUT/vlmc-thesis"

# runs for a program: the thesis's, scaled for the sorts
runs_for() {
    n=$(awk -v p="$1" '$1 == "fig16" && $2 == p { print $5 }' "$PUB")
    case "$1" in
    *_sort) awk -v n="$n" -v s="$SCALE" 'BEGIN { printf "%d\n", n * s + 0.5 }' ;;
    *) echo "$n" ;;
    esac
}

# /usr/bin/time's "seconds peak-KB" of a command (its output to $OUT/cmd.out)
timed() {
    /usr/bin/time -f "%e %M" -o "$OUT/time.txt" "$@" > "$OUT/cmd.out"
    cat "$OUT/time.txt"
}

# run the generator with output to $2, appending "step program CPU-s peak-KB" to $OUT/cost
gen_costed() {
    step=$1 out=$2
    shift 2
    /usr/bin/time -f "%U %S %M" -o "$OUT/time.txt" "$GEN" "$step" "$@" > "$out"
    awk -v s="$step" -v p="$1" '{ printf "%s %s %.1f %d\n", s, p, $1 + $2, $3 }' "$OUT/time.txt" >> "$OUT/cost"
}
: > "$OUT/cost"

echo "### Figure 16: accuracy of the steps to termination (alpha = 1, n_min = 1)"
echo
echo "Scale of the sorting programs: $SCALE x the thesis's runs; the others at the thesis's runs. Seed $SEED."
echo "KL(E||V) in nats: E = the steps PMF of as many fresh runs (the thesis's ground truth), V = the model's"
echo "exact PMF (+inf when a fresh run has a length no training run had: the next column sums KL's terms"
echo "over the lengths V gives mass, the one after is the fresh runs' mass outside them); KL(train||V)"
echo "uses the training runs as E. Runs by the KL rule: where the thesis's stopping rule (KL of the steps"
echo "PMFs before and after a batch below 1e-5) stops with batches of 10^4 runs (vlmc-thesis stop)."
echo
echo "| program | runs (thesis) | runs (proper) | locations | KL thesis | KL proper | KL on V's support | E mass outside | KL(train\\|\\|V) | order thesis | order proper | nodes proper | runs by the KL rule |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for p in double_loop nested_loop bubble_sort insertion_sort quick_sort binary_search newton_sqrt euclid_gcd miller_rabin; do
    n=$(runs_for $p)
    gen_costed fig16 "$OUT/fig16.$p" $p "$n" $SEED
    stop=$("$GEN" stop $p 10000 $SEED | cut -f3)
    awk -F'\t' -v p=$p -v stop="$stop" 'NR == FNR { if ($1 == "fig16" && $2 == p) { kl = $3; ord = $4; runs = $5 }; next }
        { printf "| %s | %d | %d | %d | %s | %s | %s | %s | %s | %d | %d | %d | %s |\n", p, runs, $2, $4, kl, $7, $9, $10, $8, ord, $6, $5 - 1, stop }' \
        "$PUB" "$OUT/fig16.$p"
done

echo
echo "#### The alpha = 1 order over seeds (programs not sorting, the thesis's runs)"
echo
echo "At alpha = 1 and n_min = 1 a context is kept when it changes the prediction at all, so the order can"
echo "depend on the sample: the same row with seeds 1 to 8 (vlmc-thesis fig16 PROGRAM RUNS SEED)."
echo
echo "| program | runs | order thesis | order, seeds 1..8 | min | max |"
echo "|---|---:|---:|---|---:|---:|"
for p in double_loop nested_loop binary_search newton_sqrt euclid_gcd miller_rabin; do
    n=$(runs_for $p)
    orders=$(for seed in 1 2 3 4 5 6 7 8; do "$GEN" fig16 $p "$n" $seed | cut -f6; done | tr '\n' ' ')
    awk -v p=$p -v n="$n" -v o="$orders" '$1 == "fig16" && $2 == p {
        k = split(o, v, " "); lo = hi = v[1]; list = v[1]
        for (i = 2; i <= k; i++) { list = list ", " v[i]; if (v[i] < lo) lo = v[i]; if (v[i] > hi) hi = v[i] }
        printf "| %s | %d | %d | %s | %d | %d |\n", p, n, $4, list, lo, hi }' "$PUB"
done

echo
echo "### Table 4: order, log-likelihood and nodes"
echo
echo "Cutoff K = chi2_{|L|-1}(1 - alpha)/2 with |L| the number of locations (the thesis's §5.1.3;"
echo "proper's --cutoff-df alphabet). Nodes: the location-PSTs' nodes without proper's start context ^."
echo "L (thesis) has no stated normalisation; proper's column is -log-likelihood per run, in nats."
for p in double_loop nested_loop bubble_sort insertion_sort quick_sort; do
    n=$(runs_for $p)
    gen_costed table4 "$OUT/table4.$p" $p "$n" $SEED
    echo
    echo "#### $p ($n runs)"
    echo
    echo "| n_min | alpha | order thesis | order proper | L thesis | -loglik/run proper | nodes thesis | nodes proper |"
    echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
    awk -F'\t' -v p=$p 'NR == FNR { if ($1 == "table4" && $2 == p) { k = $3 "/" $4; o[k] = $5; l[k] = $6; nd[k] = $7 }; next }
        { k = $2 "/" $3; printf "| %s | %s | %s | %d | %s | %.4f | %s | %d |\n", $2, $3, o[k], $4, l[k], -$5 / $7, nd[k], $6 - 1 }' \
        "$PUB" "$OUT/table4.$p"
done

echo
echo "#### L against normalisations of proper's log-likelihood (alpha = 1, n_min = 1)"
echo
echo "l: proper's log-likelihood of the training runs (natural log); symbols: the locations visited."
echo "A normalisation that were the thesis's L would give the same ratio L / value for every program."
echo
echo "| program | symbols/run | L thesis | -l/run (nats) | bits/run | log10/run | nats/symbol | L / nats per run | L / bits per run | L / symbols per run |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for p in double_loop nested_loop bubble_sort insertion_sort quick_sort; do
    awk -F'\t' -v p=$p 'NR == FNR { if ($1 == "table4" && $2 == p && $3 == 1 && $4 == "1.0") L = $6; next }
        $2 == 1 && $3 == "1.0" { sym = $8 / $7; nats = -$5 / $7;
            printf "| %s | %.2f | %.2f | %.4f | %.4f | %.4f | %.4f | %.2f | %.2f | %.2f |\n", p, sym, L, nats,
                nats / log(2), nats / log(10), -$5 / $8, L / nats, L * log(2) / nats, L / sym }' "$PUB" "$OUT/table4.$p"
done

echo
echo "### Table 5: time and peak memory (alpha = 1, n_min = 1)"
echo
echo "proper: \`bin/proper vlmc fit RUNS-FILE\` in a fresh process (reading the text file and fitting),"
echo "wall time and peak resident memory from /usr/bin/time; the thesis's runs (10^6 Double Loop,"
echo "6 x 10^5 Nested Loop). Thesis: its Java ProgramToVLMC on a 48-core machine."
echo
echo "| program | #I | runs | nodes | order | T thesis (s) | T proper (s) | M thesis (GB) | M proper (GB) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for row in "double_loop 10" "double_loop 15" "double_loop 20" "double_loop 30" \
           "nested_loop 4" "nested_loop 5" "nested_loop 6" "nested_loop 8"; do
    set -- $row
    n=$(runs_for $1)
    "$GEN" runs $1 "$n" $SEED $2 > "$OUT/t5.runs"
    tm=$(timed bin/proper vlmc fit "$OUT/t5.runs" --json)
    nodes=$(sed 's/.*"nodes": \([0-9]*\).*/\1/' "$OUT/cmd.out")
    order=$(sed 's/.*"order": \([0-9]*\).*/\1/' "$OUT/cmd.out")
    awk -v p=$1 -v I=$2 -v n="$n" -v nodes="$nodes" -v order="$order" -v tm="$tm" \
        '$1 == "table5" && $2 == p && $3 == I { split(tm, t, " ");
            printf "| %s | %d | %d | %d | %d | %s | %.2f | %s | %.3f |\n", p, I, n, nodes - 1, order, $4, t[1], $5, t[2] / 1048576 }' "$PUB"
done
rm -f "$OUT/t5.runs"

echo
echo "#### Cost of the experiments (vlmc-thesis, this run)"
echo
echo "CPU seconds (user + system) and peak resident memory of each generator step above: a Figure 16"
echo "row traces the training and as many fresh runs and fits alpha = 1, n_min = 1; a Table 4 row traces"
echo "the runs once and makes its seven fits."
echo
echo "| step | program | CPU (s) | peak memory (MB) |"
echo "|---|---|---:|---:|"
awk '{ printf "| %s | %s | %.1f | %.0f |\n", $1, $2, $3, $4 / 1024 }' "$OUT/cost"

[ "$WITH_R" = 1 ] || exit 0
if ! command -v Rscript > /dev/null 2>&1 || ! Rscript -e 'suppressMessages(library(VLMC))' > /dev/null 2>&1; then
    echo
    echo "(R's VLMC package not found: the comparison with R was skipped.)"
    exit 0
fi
RVER=$(Rscript -e 'cat(R.version$major, ".", R.version$minor, " VLMC ", as.character(packageVersion("VLMC")), sep = "")')
cat > "$OUT/fit.R" <<'EOF'
suppressMessages(library(VLMC))
t0 <- proc.time()[["elapsed"]]
x <- scan(commandArgs(TRUE)[1], what = "", quiet = TRUE)
f <- suppressWarnings(vlmc(x, quiet = TRUE)) # names longer than one letter are recoded
el <- proc.time()[["elapsed"]] - t0
cat(length(capture.output(draw(f))), f$size[["ord.MC"]], el, "\n")
EOF
echo
echo "#### Against R's VLMC package on identical work"
echo
echo "R $RVER: \`vlmc(x)\` with its defaults (alpha.c = 0.05, threshold.gen = 2) on the runs joined into"
echo "one sequence (what a general-purpose learner is given: contexts cross run boundaries), against"
echo "\`proper vlmc fit FILE --single --alpha 0.05 --nmin 2\` on the same file, which builds the same tree"
echo "(nodes and order compared below); $R_RUNS runs per row. Time: reading the file and fitting, measured"
echo "inside each process (R: proc.time around scan() and vlmc(); proper: its reported seconds); memory:"
echo "each process's peak resident size (/usr/bin/time; R's includes the interpreter, about 60 MB)."
echo
echo "| program | #I | symbols | nodes R | nodes proper | order R | order proper | T R (s) | T proper (s) | M R (MB) | M proper (MB) | R/proper time | R/proper memory |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for row in "double_loop 10" "double_loop 15" "double_loop 20" "double_loop 30" \
           "nested_loop 4" "nested_loop 5" "nested_loop 6" "nested_loop 8"; do
    set -- $row
    "$GEN" runs $1 "$R_RUNS" $SEED $2 --joined > "$OUT/r.seq"
    syms=$(wc -w < "$OUT/r.seq")
    tr=$(timed Rscript "$OUT/fit.R" "$OUT/r.seq")
    rres=$(cat "$OUT/cmd.out")
    tp=$(timed bin/proper vlmc fit "$OUT/r.seq" --single --alpha 0.05 --nmin 2 --json)
    pnodes=$(sed 's/.*"nodes": \([0-9]*\).*/\1/' "$OUT/cmd.out")
    porder=$(sed 's/.*"order": \([0-9]*\).*/\1/' "$OUT/cmd.out")
    psecs=$(sed 's/.*"seconds": \([0-9.e-]*\).*/\1/' "$OUT/cmd.out")
    # fields: 1 program 2 I 3 symbols 4 R nodes 5 R order 6 R secs 7 proper nodes 8 proper order
    #         9 proper secs 10 R wall 11 R KB 12 proper wall 13 proper KB
    echo "$1 $2 $syms $rres $pnodes $porder $psecs $tr $tp" | awk '{
        printf "| %s | %d | %d | %d | %d | %d | %d | %.3f | %.4f | %.0f | %.1f | %.0fx | %.0fx |\n",
            $1, $2, $3, $4, $7, $5, $8, $6, $9, $11 / 1024, $13 / 1024, $6 / $9, $11 / $13 }'
done
rm -f "$OUT/r.seq"
