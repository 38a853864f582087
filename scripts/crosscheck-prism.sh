#!/bin/sh
# Cross-checks proper against a real PRISM, and a real Storm when one is
# given, on PRISM's own example models (prism-examples/ of a PRISM source
# tree): every property of each model's properties file, with the constants
# PRISM's own `auto` scripts use, through `proper crosscheck` (--backend
# prism, or both tools in one run): the DTMCs at crosscheck's default
# precision (PRISM -epsilon, Storm --precision 1e-12), the CTMCs at 1e-8
# (PRISM's Fox-Glynn computation overflows at 1e-10 and below) with PRISM's
# engine options of their `auto` scripts (-sor, -jor, -bgs, -s) and -maxiters
# 100000; Storm runs with its defaults besides the precision. Prints a
# Markdown table, one row per model and constants: states, properties
# compared, and per tool how many agree, the largest relative difference
# and its time next to proper's. docs/crosscheck-results.md quotes this output.
#
#   sh scripts/crosscheck-prism.sh PRISM_TREE [PRISM_BINARY [STORM_BINARY]]
#
# PRISM_TREE is a checkout of PRISM's repository; PRISM_BINARY defaults to
# PRISM_TREE/prism/bin/prism (built with `make` in PRISM_TREE/prism);
# STORM_BINARY (or PROPER_STORM) adds Storm's columns. With VIA_EXPLICIT=1
# the tools get the DTMC proper built (crosscheck --via-explicit) instead of
# the model file. Nothing of PRISM's or Storm's is copied into the project.
# Needs python3 (to read the JSON).
set -eu
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: sh scripts/crosscheck-prism.sh PRISM_TREE [PRISM_BINARY]" >&2; exit 2; }
tree=$1
prism=${2:-$tree/prism/bin/prism}
storm=${3:-${PROPER_STORM:-}}
[ -x "$prism" ] || { echo "crosscheck-prism: no PRISM binary at $prism" >&2; exit 2; }
[ -z "$storm" ] || [ -x "$storm" ] || { echo "crosscheck-prism: no Storm binary at $storm" >&2; exit 2; }
ex=$tree/prism-examples
[ -d "$ex" ] || { echo "crosscheck-prism: $tree has no prism-examples/" >&2; exit 2; }
make -s bin/proper
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# the runs: model, properties, constants, PRISM's engine option for a CTMC
runs() {
    grep -v '^#' scripts/prism-examples.txt
}

if [ -n "$storm" ]; then
    backend=
    echo "| model | constants | PRISM options | states | properties | PRISM agree | PRISM largest rel. diff | Storm agree | Storm largest rel. diff | proper (s) | PRISM (s) | Storm (s) | note |"
    echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
else
    backend="--backend prism"
    echo "| model | constants | PRISM options | states | properties | agree | largest rel. diff | proper (s) | PRISM (s) | note |"
    echo "|---|---|---|---:|---:|---:|---:|---:|---:|---|"
fi
i=0
runs | while read -r model props consts engine; do
    i=$((i + 1))
    json=$out/$i.json
    status=0
    case $model in
        ctmcs/*) set -- --precision 1e-8 --prism-arg -maxiters --prism-arg 100000; popts="-epsilon 1e-8 -maxiters 100000" ;;
        *) set --; popts="-epsilon 1e-12" ;;
    esac
    [ "$engine" = - ] || { set -- "$@" --prism-arg "$engine"; popts="$popts $engine"; }
    [ "${VIA_EXPLICIT:-0}" = 0 ] || set -- "$@" --via-explicit
    # $backend is empty or two words: unquoted on purpose
    # shellcheck disable=SC2086
    PROPER_PRISM=$prism PROPER_STORM=${storm:-/nonexistent} bin/proper crosscheck "$ex/$model" "$ex/$props" \
        --const "$consts" $backend --timeout 900 "$@" --json > "$json" 2> "$out/$i.err" || status=$?
    python3 - "$model" "$consts" "$json" "$out/$i.err" "$status" "$popts" "${storm:+storm}" <<'PY'
import json, sys
model, consts, path, errpath, status, opts, with_storm = sys.argv[1:8]
tools = ["prism", "storm"] if with_storm else ["prism"]
label = {"prism": "PRISM", "storm": "Storm"}
err = open(errpath).read().strip().splitlines()
try:
    r = json.load(open(path))
except Exception:
    note = (err[-1] if err else "no output").replace("|", "/")
    dashes = " - |" * (3 * len(tools) + 3)
    print(f"| {model} | {consts} | {opts} |{dashes} not run: {note} |")
    sys.exit(0)
props = r.get("properties", [])
native_s = 0.0
agree = {t: 0 for t in tools}
differ = {t: 0 for t in tools}
largest = {t: 0.0 for t in tools}
seconds = {t: 0.0 for t in tools}
failed = {}  # who failed -> first message
for p in props:
    native = p.get("native") or {}
    native_s += native.get("seconds") or 0.0
    if native.get("error"):
        failed.setdefault("proper", native["error"])
    for t in p.get("tools", []):
        name = t.get("backend")
        if name not in agree:
            continue
        seconds[name] += t.get("seconds") or 0.0
        if t.get("agree"):
            agree[name] += 1
        elif t.get("error"):
            failed.setdefault(label[name], t["error"])
        else:
            differ[name] += 1
        rd = t.get("rel_diff")
        if isinstance(rd, (int, float)):
            largest[name] = max(largest[name], rd)
for b in r.get("backends", []):
    if b.get("name") in agree and b.get("error"):
        failed.setdefault(label[b["name"]], b["error"])
notes = [f"{label[t]}: {differ[t]} differ" for t in tools if differ[t]]
notes += [f"{who} failed: {msg[:120]}".replace("|", "/") for who, msg in failed.items()]
note = "; ".join(notes)
if status not in ("0", "1"):
    note = (note + "; " if note else "") + "exit " + status
cols = " | ".join(f"{agree[t]} | {largest[t]:.1e}" for t in tools)
times = " | ".join(f"{seconds[t]:.3f}" for t in tools)
print(f"| {model} | {consts} | {opts} | {r.get('states', '-')} | {len(props)} | {cols} | {native_s:.3f} | {times} | {note} |")
PY
done
echo
echo "proper: $(bin/proper version 2>/dev/null | head -1); PRISM: $("$prism" -version 2>/dev/null | head -1)${storm:+; Storm: $("$storm" --version 2>/dev/null | head -1)}"
echo "Times are each engine's own model-checking times as reported (PRISM's exclude its JVM start-up and model build; Storm's its model build)."
