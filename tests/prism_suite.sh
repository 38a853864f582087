#!/bin/sh
# PRISM's own regression suite through `proper check --test`.
#
#   tests/prism_suite.sh [PRISM_SOURCE_TREE] [SUBDIR]
#
# PRISM_SOURCE_TREE is a checkout of the PRISM repository (default
# /work/ext/prism-src); its prism-tests/ folder is walked as PRISM's
# prism-test script walks it (`prism-auto -m -t`): every model file
# (.pm .nm .sm .prism) is paired with the properties files (.props .pctl
# .csl) of its directory whose names start with the model's name; each
# line of MODEL.args and of PROPS.args is one run (their product), and in
# each run every property with a "// RESULT: v" comment is one case.
# SUBDIR (e.g. functionality/verify) restricts the walk.
#
# DTMC models (`dtmc`, `probabilistic`) and CTMC models (`ctmc`,
# `stochastic`) are run, and counted on lines of their own; other model
# types (MDP, PTA, ...) are out of scope and only counted. Options of the args files: -const (ranges too) and -fixdl are
# passed on; -e/-epsilon becomes --precision; -prop selects a property; engine and solver switches
# (-ex, -s, -m, -h, -gs, -epsilon, ...) and -export* do not change a result
# and are dropped, and runs that then coincide are run once; -exact
# becomes --exact and -param P becomes --param P (results compared exactly:
# rationals, or rational functions of the parameters); -noprobchecks becomes
# --noprobchecks; -importmodel runs are counted UNSUPPORTED without running.
#
# Verdicts: PASS, WRONG (a value outside PRISM's test tolerance, relative
# 1e-5), UNSUPPORTED (proper refuses the feature), ERROR (any other
# failure: an error message, a crash, a timeout), BEYOND (the RESULT
# expects PRISM's own "not supported" error, or its "accuracy" refusal of a
# bound it cannot decide, and proper answers). A run that fails as a
# whole with a syntax error in PRISM's own files (which PRISM reads) counts
# its cases UNSUPPORTED: syntax proper does not read; one that fails on
# the model's own error (a rate or reward not finite, a parameter where
# PRISM refuses one too, a fractional exponent under -exact) passes the
# cases whose RESULT expects an error. Each non-PASS case is listed,
# then the counts. Not run by `make test`: it needs PRISM's sources.
#
# Environment: PROPER (default bin/proper), SUITE_TIMEOUT seconds per run
# (default 120).
set -u
TREE=${1:-/work/ext/prism-src}
SUB=${2:-}
PROPER=${PROPER:-bin/proper}
TIMEOUT=${SUITE_TIMEOUT:-120}
TESTS="$TREE/prism-tests"
[ -d "$TESTS" ] || { echo "prism_suite: no prism-tests/ in $TREE" >&2; exit 2; }
[ -x "$PROPER" ] || { echo "prism_suite: $PROPER is not built (make bin/proper)" >&2; exit 2; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/prism_suite.XXXXXX") || exit 2
trap 'rm -rf "$WORK"' EXIT INT TERM
: > "$WORK/cases.dtmc"   # one line per case: VERDICT<TAB>where<TAB>detail
: > "$WORK/cases.ctmc"
: > "$WORK/other"   # one line per case of a model type not run: TYPE

# model_type FILE: the first model-type keyword outside comments.
model_type() {
    sed -e 's://.*$::' "$1" | tr -s ' \t\r' '\n\n\n' |
        grep -m1 -x -E 'dtmc|probabilistic|ctmc|stochastic|mdp|nondeterministic|pta|pomdp|popta|smg|csg|tsg|ipomdp|idtmc|imdp|lts|ctmdp' || echo unknown
}

# args_lines FILE: the non-blank, non-comment lines of FILE (line ends
# CRLF or LF), or one empty line when it does not exist (PRISM's
# getMatchingArgListsForFile).
args_lines() {
    if [ -f "$1" ]; then tr -d '\r' < "$1" | grep -v -E '^[[:space:]]*(#|$)'; else echo; fi
}

# count_results PROPS CONSTS: RESULT lines of PROPS that apply to the
# constants CONSTS (a run that fails before checking counts these).
count_results() {
    awk -v consts="$2" '
    BEGIN { n = split(consts, kv, ","); for (i = 1; i <= n; i++) { split(kv[i], p, "="); given[p[1]] = p[2] } }
    {
        line = $0
        while (match(line, /RESULT[ \t]*(\([^)]*\))?[ \t]*:[ \t]*[^ \t]+/)) {
            spec = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH)
            val = spec; sub(/^RESULT[ \t]*(\([^)]*\))?[ \t]*:[ \t]*/, "", val) # "Error:why" keeps its colon
            if (val == "?") continue
            ok = 1
            if (match(spec, /\([^)]*\)/)) {
                inner = substr(spec, RSTART + 1, RLENGTH - 2); m = split(inner, cs, ",")
                for (j = 1; j <= m; j++) {
                    split(cs[j], q, "="); gsub(/[ \t]/, "", q[1]); gsub(/[ \t]/, "", q[2])
                    if (!(q[1] in given)) { ok = 0; break }
                    if (given[q[1]] !~ /:/ && given[q[1]] + 0 != q[2] + 0 && given[q[1]] != q[2]) { ok = 0; break }
                }
            }
            if (ok) { count++; if (val ~ /^Error/) errors++ }
        }
    }
    END { printf "%d %d\n", count + 0, errors + 0 }' "$1"
}

# options ARGS...: the run's proper options on stdout, or "UNSUPPORTED why".
options() {
    consts="" out=""
    while [ $# -gt 0 ]; do
        case "$1" in --*) a=${1#-}; shift; set -- "$a" "$@" ;; esac # PRISM accepts --switch too
        case "$1" in
        -const) consts="${consts:+$consts,}$2"; shift ;;
        -fixdl) out="$out --fixdl" ;;
        -e | -epsilon) out="$out --precision $2"; shift ;;
        -prop | -property) out="$out --property $2"; shift ;;
        -exact) out="$out --exact" ;;
        -mdp) echo "OTHER mdp"; return ;;
        -param) out="$out --param $2"; shift ;;
        -noprobchecks) out="$out --noprobchecks" ;;
        -importmodel | -importtrans | -importresults) echo "UNSUPPORTED $1"; return ;;
        -export* | -maxiters | -transientmethod | -gridresolution | -cuddepsilon | -paretoepsilon | \
            -ptamethod | -simsamples | -simconf | -simwidth | -simpathlen | -exportstrat | -exporttarget)
            shift ;;
        esac
        shift
    done
    echo "${consts:+--const $consts}$out"
}

# run_case MODEL PROPS ARGS: one run; appends its cases.
run_case() {
    model=$1 props=$2 args=$3
    where="${model#"$TESTS"/} ${props##*/}${args:+ [$args]}"
    # shellcheck disable=SC2086
    opts=$(options $args)
    consts=$(printf '%s\n' "$opts" | sed -n 's/.*--const \([^ ]*\).*/\1/p')
    set -- $(count_results "$props" "$consts")
    expected=$1 errors=$2
    case "$opts" in
    OTHER*)
        i=0; while [ "$i" -lt "$expected" ]; do echo "${opts#OTHER }"; i=$((i + 1)); done >> "$WORK/other"
        return ;;
    UNSUPPORTED*)
        i=0; while [ "$i" -lt "$expected" ]; do printf 'UNSUPPORTED\t%s\t%s\n' "$where" "${opts#UNSUPPORTED }"; i=$((i + 1)); done >> "$WORK/cases.$kind"
        return ;;
    esac
    # shellcheck disable=SC2086
    timeout "$TIMEOUT" "$PROPER" check "$model" "$props" --test $opts > "$WORK/out" 2> "$WORK/err" < /dev/null
    rc=$?
    if grep -q -E '^(PASS|WRONG|UNSUPPORTED|ERROR|BEYOND)  ' "$WORK/out"; then
        grep -E '^(PASS|WRONG|UNSUPPORTED|ERROR|BEYOND)  ' "$WORK/out" |
            awk -v w="$where" '{ v = $1; sub(/^[A-Z]+  /, ""); printf "%s\t%s\t%s\n", v, w, $0 }' >> "$WORK/cases.$kind"
        [ "$rc" -ge 124 ] && printf 'ERROR\t%s\tcrash or timeout (exit %d) after some properties\n' "$where" "$rc" >> "$WORK/cases.$kind"
        return
    fi
    msg=$(head -c 300 "$WORK/err" | tr '\n' ' ')
    [ "$rc" -ge 124 ] && msg="crash or timeout (exit $rc): $msg"
    verdict=ERROR
    # PRISM reads its own files: a syntax error there is syntax proper lacks;
    # an error evaluating the model in a state (a NaN reward, an infinite rate,
    # a parameter where PRISM refuses one too) is the model's own error
    case "$msg" in
    *"not supported"*) verdict=UNSUPPORTED ;;
    *"is not finite"* | *"reward is "* | *"a parameter may appear only in"* | *"min/max of a parametric value"* | \
        *"fractional exponent"*) ;;
    *unsupported* | *"$model":[0-9]*:[0-9]*:* | *"$props":[0-9]*:[0-9]*:*) verdict=UNSUPPORTED ;;
    esac
    i=0
    while [ "$i" -lt "$expected" ]; do
        # a run that fails as a whole passes the cases that expect an error
        if [ "$i" -lt "$errors" ] && [ "$rc" -lt 124 ] && [ $verdict = ERROR ]; then v=PASS; else v=$verdict; fi
        printf '%s\t%s\t%s\n' "$v" "$where" "$msg"
        i=$((i + 1))
    done >> "$WORK/cases.$kind"
}

# The runs of one model: model args x matching properties files x their args.
run_model() {
    model=$1 dir=$(dirname "$1") base=$(basename "$1")
    type=$(model_type "$model")
    args_lines "$model.args" > "$WORK/margs"
    for props in "$dir/$base"*; do
        case "$props" in *.props | *.pctl | *.csl) ;; *) continue ;; esac
        [ -f "$props" ] || continue
        args_lines "$props.args" > "$WORK/pargs"
        while IFS= read -r margs; do
            while IFS= read -r pargs; do
                a=$(echo "$margs $pargs" | sed 's/^ *//; s/ *$//')
                case $type in dtmc | probabilistic) kind=dtmc ;; ctmc | stochastic) kind=ctmc ;; *) kind= ;; esac
                if [ -z "$kind" ]; then
                    set -- $(count_results "$props" "")
                    i=0; while [ "$i" -lt "$1" ]; do echo "$type"; i=$((i + 1)); done >> "$WORK/other"
                    continue
                fi
                key="$model|$props|$(options $a)"
                grep -q -F -x "$key" "$WORK/seen" 2>/dev/null && continue
                echo "$key" >> "$WORK/seen"
                run_case "$model" "$props" "$a" < /dev/null
            done < "$WORK/pargs"
        done < "$WORK/margs"
    done
}

find "$TESTS/$SUB" -type f \( -name '*.pm' -o -name '*.nm' -o -name '*.sm' -o -name '*.prism' \) | LC_ALL=C sort > "$WORK/models"
while IFS= read -r m; do run_model "$m"; done < "$WORK/models"

cat "$WORK/cases.dtmc" "$WORK/cases.ctmc" | grep -v '^PASS' | LC_ALL=C sort | awk -F '\t' '{ printf "%-11s %s  %s\n", $1, $2, $3 }'
echo
for kind in dtmc ctmc; do
    awk -F '\t' -v k="$kind" '{ n[$1]++; t++ } END {
        printf "%s cases: %d   PASS %d   WRONG %d   UNSUPPORTED %d   ERROR %d   BEYOND %d\n", toupper(k), t, n["PASS"], n["WRONG"], n["UNSUPPORTED"], n["ERROR"], n["BEYOND"] }' "$WORK/cases.$kind"
done
sort "$WORK/other" | uniq -c | awk '{ printf "not run (model type %s): %d cases\n", $2, $1 }'
