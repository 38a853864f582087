#!/bin/sh
# artifact.sh CLONE [PROPER] — proper analyze on the PROPER artifact as
# shipped (a clone of github.com/is742/PROPER), against the intervals the
# artifact publishes (FACT-extended_version/Case_studies-Models_and_results/
# results_10^k/<case>_<reward>.csv, the 0.95 row). Prints Markdown.
#
# Inputs, unedited except where the artifact itself instructs:
#   Distance.java, FastSineTransformer.java, Knapsack.java, DevPerf.java
#     from src/examples/seaa2021/; DevPerf.java with its commented-out
#     Animations() calls uncommented (its comment: "Remove the commended out
#     Animations() method before synthesising the model"); Knapsack.java is
#     read with --lenient (its `//@energy:67` is malformed).
#   minPathSum and binarySearch have no Java source in the artifact: proper's
#     examples/annotated/java/Dynamic.java (the paper's Fig. 1) and
#     BinarySearch.java (Fig. 14).
#   Logs: FACT-extended_version/FACTUI/op_logs/<case>{2,3,4,} (10^2..10^5 runs),
#     given as `--artifact DIR`.
set -u
CLONE=${1:?usage: artifact.sh CLONE [PROPER]}
PROPER=${2:-bin/proper}
HERE=$(cd "$(dirname "$0")" && pwd)
SRC="$CLONE/src/examples/seaa2021"
LOGS="$CLONE/FACT-extended_version/FACTUI/op_logs"
PUB="$CLONE/FACT-extended_version/Case_studies-Models_and_results"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
sed 's|//Animations(mode);|Animations(mode);|' "$SRC/DevPerf.java" > "$TMP/DevPerf.java"

# published CASE_REWARD K -> "[lo, hi]" at 0.95, or "-"
published() {
    f="$PUB/results_10^$2/$1.csv"
    [ -f "$f" ] || { echo "-"; return; }
    awk -F, '$1 ~ /^0\.95/ { gsub(/ /, ""); printf "[%.8g, %.8g]", $2, $3; exit }' "$f"
}

# the reward lines of proper analyze's output: NAME ESTIMATE [LO, HI]
rewards() {
    awk '/^reward / { on = 1; next } on && NF == 0 { exit } on { print }' "$1"
}

# case label, source, function, log dir stem, published stem, extra flags
row() {
    label=$1 src=$2 fn=$3 stem=$4 pub=$5; shift 5
    for k in 2 3 4 5; do
        suffix=$k; [ "$k" = 5 ] && suffix=
        dir="$LOGS/$stem$suffix"
        [ -d "$dir" ] || continue
        start=$(date +%s.%N)
        "$PROPER" analyze "$src" --function "$fn" --artifact "$dir" "$@" > "$TMP/means" 2> "$TMP/err"
        status=$?
        end=$(date +%s.%N)
        "$PROPER" analyze "$src" --function "$fn" --artifact "$dir" --box probabilities "$@" > "$TMP/probs" 2>/dev/null
        if [ $status -ne 0 ]; then
            printf '| %s | all | 10^%s | refused: %s | | | | |\n' "$label" "$k" "$(tail -1 "$TMP/err" | sed 's|^proper: ||; s|'"$CLONE"'/||g; s|'"$TMP"'/||g; s/|/\\|/g')"
            continue
        fi
        rewards "$TMP/means" > "$TMP/means.rewards"
        rewards "$TMP/probs" > "$TMP/probs.rewards"
        while read -r name est lo hi; do
            plo=$(awk -v n="$name" '$1 == n { print $3, $4 }' "$TMP/probs.rewards")
            fact=$(published "${pub}_$name" "$k")
            ratio=$(echo "$lo $hi $fact" | tr -d '[],' | awk 'NF == 4 { printf "%.3f", ($2 - $1) / ($4 - $3) }')
            printf '| %s | %s | 10^%s | %s | %s %s | %s | %s | %s | %.2f s |\n' "$label" "$name" "$k" "$est" "$lo" "$hi" \
                "$plo" "$fact" "$ratio" "$(echo "$start $end" | awk '{ print $2 - $1 }')"
        done < "$TMP/means.rewards"
        # a published reward that the source as read does not define
        for want in $(ls "$PUB"/results_10^$k/"${pub}"_*.csv 2>/dev/null | sed 's|.*/'"$pub"'_||; s|\.csv$||'); do
            grep -q "^$want " "$TMP/means.rewards" ||
                printf '| %s | %s | 10^%s | not annotated in the source as read (%s) | | | %s | | |\n' "$label" "$want" "$k" \
                    "$(grep -o 'warning: [^:]*:[0-9]*:[0-9]*: malformed annotation @'"$want"'[^;]*' "$TMP/err" | head -1 | sed 's|'"$CLONE"'/||g; s/|/\\|/g')" \
                    "$(published "${pub}_$want" "$k")"
        done
    done
}

echo "| case | reward | runs | proper estimate | proper 95%, box of means | proper 95%, box of probabilities | published (FACT) 95% | width proper/FACT | time |"
echo "|---|---|---|---:|---|---|---|---:|---:|"
row distance1 "$SRC/Distance.java" distance1 distance distance
row fst "$SRC/FastSineTransformer.java" fst fst fst
row knapsackDP "$SRC/Knapsack.java" knapsackDP knapsack knapsack --lenient
row devPerf "$TMP/DevPerf.java" getDevicePerfomanceClass devperf devPerf
row minPathSum "$HERE/java/Dynamic.java" minPathSum minPathSum minPathSum
row binarySearch "$HERE/java/BinarySearch.java" search binarysearch binarySearch
