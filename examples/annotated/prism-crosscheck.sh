#!/bin/sh
# prism-crosscheck.sh CLONE [PROPER] [PRISM] [STORM] — each artifact case
# study's model, at the point proper analyze estimates from the artifact's
# 10^5-run logs, solved by proper, by a real PRISM and, when STORM is given,
# by a real Storm. Prints Markdown.
#
# Per case: `proper analyze --artifact DIR --json` gives the point p; `proper
# synth --const p --export-prism` writes the chain at p, which `proper check`
# and PRISM (default engine and settings) solve; the parametric model of
# `proper synth -o` with PRISM's `-const p -exact` gives the exact rational
# value at the decimal p (printed by PRISM as its nearest double, ~x).
# Storm solves the same two files: the point chain with its defaults, the
# parametric model with `--constants p --exact`, whose fraction is compared
# with PRISM -exact's.
# The inputs are those of artifact.sh (CLONE: a clone of is742/PROPER).
set -u
CLONE=${1:?usage: prism-crosscheck.sh CLONE [PROPER] [PRISM]}
PROPER=${2:-bin/proper}
PRISM=${3:-prism}
STORM=${4:-}
HERE=$(cd "$(dirname "$0")" && pwd)
SRC="$CLONE/src/examples/seaa2021"
LOGS="$CLONE/FACT-extended_version/FACTUI/op_logs"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
sed 's|//Animations(mode);|Animations(mode);|' "$SRC/DevPerf.java" > "$TMP/DevPerf.java"

# "name value" per line for the objects of JSON array KEY ("parameters" or
# "rewards") in analyze's output: their "name" and "estimate" fields.
json_pairs() {
    tr -d '\n' < "$1" | sed 's/.*"'"$2"'": \[//; s/"rewards": \[.*//; s/"notes": \[.*//' |
        tr '}' '\n' | sed -n 's/.*"name": "\([^"]*\)".*"estimate": \([^,]*\).*/\1 \2/p'
}

# PRISM's results, one per line: the value (default engine) or the ~value (-exact).
prism_values() {
    sed -n 's/^Result: \([^ ]*\).*(~\([^)]*\)).*/\2/p; t; s/^Result: \([^ ]*\).*/\1/p' "$1"
}

# Storm's results, one per line: "Result (for initial states): V" (an exact
# run prints the fraction, then "(approx. x)").
storm_values() {
    sed -n 's/^Result (for initial states): \([^ ]*\).*/\1/p' "$1"
}

# storm_column OUT ARGS...: Storm's values for the properties, or "-" per
# property when STORM is not given. Storm 1.12 separates the properties of
# a file by ';' only.
storm_column() {
    out=$1; shift
    if [ -z "$STORM" ]; then sed 's/.*/-/' "$TMP/rewards" > "$out"; return; fi
    sed 's/$/;/' "$TMP/props" > "$TMP/props.storm"
    nice "$STORM" "$@" --prop "$TMP/props.storm" > "$out.log" 2>&1
    storm_values "$out.log" > "$out"
}

row() {
    label=$1 src=$2 fn=$3 stem=$4; shift 4
    if ! "$PROPER" analyze "$src" --function "$fn" --artifact "$LOGS/$stem" --json "$@" > "$TMP/a.json" 2> "$TMP/err"; then
        printf '| %s | refused: %s | | | | | |\n' "$label" "$(tail -1 "$TMP/err")"
        return
    fi
    consts=$(json_pairs "$TMP/a.json" parameters | awk '{ printf "%s%s=%s", (NR > 1 ? "," : ""), $1, $2 }')
    json_pairs "$TMP/a.json" rewards > "$TMP/rewards"
    : > "$TMP/props"
    while read -r name est; do printf 'R{"%s"}=? [ F "end" ]\n' "$name" >> "$TMP/props"; done < "$TMP/rewards"
    "$PROPER" synth "$src" --function "$fn" "$@" --const "$consts" --export-prism "$TMP/point.pm" 2>/dev/null
    "$PROPER" synth "$src" --function "$fn" "$@" -o "$TMP/param.pm" 2>/dev/null
    "$PROPER" check "$TMP/point.pm" "$TMP/props" --json | tr '}' '\n' | sed -n 's/.*"value": \([^,]*\).*/\1/p' > "$TMP/check"
    nice "$PRISM" "$TMP/point.pm" "$TMP/props" > "$TMP/prism.out" 2>&1
    prism_values "$TMP/prism.out" > "$TMP/prism"
    nice "$PRISM" "$TMP/param.pm" "$TMP/props" -const "$consts" -exact > "$TMP/exact.out" 2>&1
    prism_values "$TMP/exact.out" > "$TMP/exact"
    sed -n 's/^Result: \([^ ]*\) (exact).*/\1/p' "$TMP/exact.out" > "$TMP/exactq"
    storm_column "$TMP/storm" --prism "$TMP/point.pm"
    storm_column "$TMP/stormx" --prism "$TMP/param.pm" --constants "$consts" --exact
    paste -d ' ' "$TMP/rewards" "$TMP/check" "$TMP/prism" "$TMP/exact" "$TMP/storm" "$TMP/stormx" "$TMP/exactq" |
    while read -r name est chk pri ex sto stx exq; do
        [ "$stx" = "$exq" ] && stx="= PRISM's fraction"
        printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$label" "$name" "$est" "$chk" "$pri" "$ex" "$sto" "$stx" \
            "$(echo "$est $chk $pri $ex $sto" | awk '
                function num(x, q) { if (split(x, q, "/") == 2) return q[1] / q[2]; return x + 0 }
                function rel(x) { if (x == "-") return "-"; x = (num(x) - num($4)) / num($4); return sprintf("%.1e", x < 0 ? -x : x) }
                { printf "%s / %s / %s / %s", rel($1), rel($2), rel($3), rel($5) }')"
    done
}

echo "| case | reward | proper analyze (point) | proper check (export) | PRISM default | PRISM -exact (~) | Storm default | Storm --exact | relative to exact: analyze / check / PRISM / Storm |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---|"
row distance1 "$SRC/Distance.java" distance1 distance
row fst "$SRC/FastSineTransformer.java" fst fst
row knapsackDP "$SRC/Knapsack.java" knapsackDP knapsack --lenient
row devPerf "$TMP/DevPerf.java" getDevicePerfomanceClass devperf
row minPathSum "$HERE/java/Dynamic.java" minPathSum minPathSum
row binarySearch "$HERE/java/BinarySearch.java" search binarysearch
