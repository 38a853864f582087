#!/bin/sh
# Cross-checks proper against a real PRISM on PRISM's own example models
# (prism-examples/ of a PRISM source tree): every property of each model's
# properties file, with the constants PRISM's own `auto` scripts use, through
# `proper crosscheck --backend prism`. Prints a Markdown table, one row per
# model and constants: states, properties compared, how many agree, the
# largest relative difference, and the time of each engine.
# docs/crosscheck-results.md quotes this output.
#
#   sh scripts/crosscheck-prism.sh PRISM_TREE [PRISM_BINARY]
#
# PRISM_TREE is a checkout of PRISM's repository; PRISM_BINARY defaults to
# PRISM_TREE/prism/bin/prism (built with `make` in PRISM_TREE/prism). Nothing
# of PRISM's is copied into the project. Needs python3 (to read the JSON).
set -eu
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: sh scripts/crosscheck-prism.sh PRISM_TREE [PRISM_BINARY]" >&2; exit 2; }
tree=$1
prism=${2:-$tree/prism/bin/prism}
[ -x "$prism" ] || { echo "crosscheck-prism: no PRISM binary at $prism" >&2; exit 2; }
ex=$tree/prism-examples
[ -d "$ex" ] || { echo "crosscheck-prism: $tree has no prism-examples/" >&2; exit 2; }
make -s bin/proper
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# model | properties | constants (as PRISM's auto scripts give them)
runs() {
    cat <<EOF
simple/dice/dice.pm simple/dice/dice.pctl x=3
simple/dice/two_dice_knuth.pm simple/dice/two_dice_knuth.pctl x=7
dtmcs/brp/brp.pm dtmcs/brp/brp.pctl N=16,MAX=2
dtmcs/brp/brp.pm dtmcs/brp/brp.pctl N=64,MAX=5
dtmcs/herman/herman3.pm dtmcs/herman/herman.pctl k=1,K=10
dtmcs/herman/herman7.pm dtmcs/herman/herman.pctl k=3,K=10
dtmcs/herman/herman11.pm dtmcs/herman/herman.pctl k=5,K=10
dtmcs/leader_sync/leader3_2.pm dtmcs/leader_sync/leader.pctl L=1
dtmcs/leader_sync/leader4_4.pm dtmcs/leader_sync/leader.pctl L=1
dtmcs/leader_sync/leader5_4.pm dtmcs/leader_sync/leader.pctl L=1
dtmcs/leader_sync/leader6_4.pm dtmcs/leader_sync/leader.pctl L=1
EOF
}

echo "| model | constants | states | properties | agree | largest rel. diff | proper (s) | PRISM (s) | note |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---|"
i=0
runs | while read -r model props consts; do
    i=$((i + 1))
    json=$out/$i.json
    start=$(date +%s.%N)
    status=0
    PROPER_PRISM=$prism bin/proper crosscheck "$ex/$model" "$ex/$props" --const "$consts" --backend prism --timeout 300 \
        --json > "$json" 2> "$out/$i.err" || status=$?
    end=$(date +%s.%N)
    python3 - "$model" "$consts" "$json" "$out/$i.err" "$status" "$start" "$end" <<'PY'
import json, sys
model, consts, path, errpath, status, start, end = sys.argv[1:8]
err = open(errpath).read().strip().splitlines()
try:
    r = json.load(open(path))
except Exception:
    note = (err[-1] if err else "no output").replace("|", "/")
    print(f"| {model} | {consts} | - | - | - | - | - | - | not run: {note} |")
    sys.exit(0)
props = r.get("properties", [])
agree = diff = 0
largest = 0.0
native_s = prism_s = 0.0
for p in props:
    native_s += (p.get("native") or {}).get("seconds") or 0.0
    for t in p.get("tools", []):
        prism_s += t.get("seconds") or 0.0
        if t.get("agree"):
            agree += 1
        else:
            diff += 1
        rd = t.get("rel_diff")
        if isinstance(rd, (int, float)):
            largest = max(largest, rd)
note = "" if diff == 0 else f"{diff} differ"
if status not in ("0", "1"):
    note = (note + "; " if note else "") + "exit " + status
print(f"| {model} | {consts} | {r.get('states', '-')} | {len(props)} | {agree} | {largest:.1e} | "
      f"{native_s:.3f} | {prism_s:.3f} | {note} |")
PY
done
echo
echo "proper: $(bin/proper version 2>/dev/null | head -1); PRISM: $("$prism" -version 2>/dev/null | head -1)"
echo "Times are each engine's own model-checking times as reported (PRISM's exclude its JVM start-up and model build)."
