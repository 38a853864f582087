#!/bin/sh
# Runs `proper lp solve` and glpsol on every example model that comes with
# GLPK and prints a Markdown table: model, rows, columns, nonzeros, glpsol's
# status and objective, proper's, their relative difference, and the CPU
# seconds of each whole run (reading the file and solving).
#
# Usage: scripts/glpk-examples.sh [GLPK_EXAMPLES_DIR]
#   GLPK_EXAMPLES_DIR defaults to /usr/share/doc/glpk-utils/examples (Debian's
#   glpk-utils package installs it). Without glpsol, the directory or GNU
#   time (/usr/bin/time) the script says so and exits 0. PROPER names the
#   proper binary (default bin/proper; `make bin/proper` first); TIMEOUT
#   the seconds either solver gets per model (default 300).
#
# What is solved. GLPK's files are read from the examples directory and
# never copied into proper. Each MathProg model (X.mod, with X.dat when
# there is one) and each MPS file (fixed format, else free) is translated
# by glpsol to CPLEX LP (--check --wlp); each X.lp is solved as it is, or,
# when it has integer sections, as glpsol translates it. A model with integer
# columns is first given to proper as it is (proper refuses it, naming the
# file, line and column of the integer section: the table says "MIP,
# refused at L:C") and then, for both solvers, its continuous relaxation:
# the translation with its Generals section removed (glpsol writes binary
# columns as bounds 0..1 plus a Generals entry, so the bounds stay), the
# same LP `glpsol --nomip` solves. MPS has no objective sense and GLPK reads
# it as a minimisation; murtagh.mps says in its header that it is a
# maximisation, so it is solved both ways (glpsol --max).
#
# The relative difference is |proper - glpsol| / max(1, |glpsol|).
set -u
cd "$(dirname "$0")/.."
ex=${1:-/usr/share/doc/glpk-utils/examples}
proper=${PROPER:-bin/proper}
timeout=${TIMEOUT:-300}
command -v glpsol >/dev/null 2>&1 || { echo "glpk-examples.sh: SKIP: glpsol not installed (Debian package glpk-utils)"; exit 0; }
[ -d "$ex" ] || { echo "glpk-examples.sh: SKIP: no GLPK examples directory $ex"; exit 0; }
[ -x /usr/bin/time ] || { echo "glpk-examples.sh: SKIP: GNU time (/usr/bin/time) not installed"; exit 0; }
[ -x "$proper" ] || { echo "glpk-examples.sh: $proper not built (make bin/proper)" >&2; exit 2; }
case $proper in /*) ;; *) proper=$(pwd)/$proper ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# cpu FILE: user + system seconds recorded by /usr/bin/time -f '%U %S'
cpu() { tail -n 1 "$1" | awk '{ printf "%.2f", $1 + $2 }'; }

# glpsol_run LP [OPTIONS]: sets g_status, g_obj, g_cpu, g_size ("rows | cols | nz")
glpsol_run() {
    lp=$1
    shift
    rm -f "$tmp/g.sol"
    /usr/bin/time -f '%U %S' -o "$tmp/g.time" timeout "$timeout" nice glpsol --lp "$lp" "$@" -w "$tmp/g.sol" \
        >"$tmp/g.out" 2>&1
    g_cpu=$(cpu "$tmp/g.time")
    g_size=$(sed -n 's/^\([0-9]*\) rows*, \([0-9]*\) columns*, \([0-9]*\) non-zeros*$/\1 | \2 | \3/p' "$tmp/g.out" | head -n 1)
    [ -n "$g_size" ] || g_size="- | - | -"
    g_obj=
    if grep -q '^OPTIMAL' "$tmp/g.out"; then
        g_status=optimal
        g_obj=$(awk '$1 == "s" { print $NF; exit }' "$tmp/g.sol")
    elif grep -q 'UNBOUNDED' "$tmp/g.out"; then g_status=unbounded
    elif grep -q 'NO PRIMAL FEASIBLE' "$tmp/g.out"; then g_status=infeasible
    elif grep -q 'processing error' "$tmp/g.out"; then
        g_status="parse error: $(grep -m 1 '^[^ ]*:[0-9]*: ' "$tmp/g.out" | sed 's/^[^:]*:[0-9]*: //')"
    else g_status="failed: $(tail -n 1 "$tmp/g.out")"
    fi
}

# proper_run LP: sets p_status, p_obj, p_cpu
proper_run() {
    /usr/bin/time -f '%U %S' -o "$tmp/p.time" timeout "$timeout" nice "$proper" lp solve "$1" --json \
        >"$tmp/p.out" 2>"$tmp/p.err"
    rc=$?
    p_cpu=$(cpu "$tmp/p.time")
    p_obj=
    p_status=$(sed -n 's/^{"status": "\([a-z]*\)".*/\1/p' "$tmp/p.out")
    [ "$p_status" = optimal ] && p_obj=$(sed -n 's/.*"objective": \([^,]*\),.*/\1/p' "$tmp/p.out")
    if [ "$rc" = 124 ]; then p_status="timed out after ${timeout} s"
    elif [ -z "$p_status" ]; then p_status="error: $(sed 's/^proper: [^:]*: *//; s/|/\\|/g' "$tmp/p.err" | head -n 1)"
    elif [ "$p_status" = unreliable ]; then p_status="unreliable"
    fi
}

# The location of the integer section proper refuses, or nothing.
proper_refusal() {
    "$proper" lp solve "$1" 2>&1 >/dev/null | sed -n 's/^proper: [^:]*:\([0-9]*:[0-9]*\): integer variables.*/\1/p'
}

reldiff() {
    if [ -n "$1" ] && [ -n "$2" ]; then
        awk -v p="$1" -v g="$2" 'BEGIN { d = p - g; if (d < 0) d = -d; s = g < 0 ? -g : g; if (s < 1) s = 1; printf "%.1e", d / s }'
    else echo "-"
    fi
}

agree=0 total=0 differ=0 rejected=0
# row NAME LP NOTE [GLPSOL OPTIONS]: one line of the table
row() {
    name=$1 lp=$2 note=$3
    shift 3
    glpsol_run "$lp" "$@"
    proper_run "$lp"
    d=$(reldiff "$p_obj" "$g_obj")
    total=$((total + 1))
    if [ "$p_status" = "$g_status" ] && { [ "$g_status" != optimal ] || awk -v d="$d" 'BEGIN { exit !(d <= 1e-9) }'; }; then
        agree=$((agree + 1))
    elif [ "${g_status#parse error}" != "$g_status" ] && [ "${p_status#error: }" != "$p_status" ]; then
        rejected=$((rejected + 1))
    else
        differ=$((differ + 1))
    fi
    echo "| $name | $note | $g_size | $g_status | ${g_obj:--} | $p_status | ${p_obj:--} | $d | $g_cpu | $p_cpu |"
}

# solve NAME LP [GLPSOL OPTIONS]: the LP, or the refusal and the relaxation
solve() {
    name=$1 lp=$2
    shift 2
    if grep -q '^Generals$' "$lp"; then
        where=$(proper_refusal "$lp")
        awk '/^Generals$/ { skip = 1; next } /^End$/ { skip = 0 } !skip' "$lp" >"$tmp/relaxed.lp"
        row "$name" "$tmp/relaxed.lp" "MIP, refused at ${where:-?}; relaxation" "$@"
    else
        row "$name" "$lp" "LP" "$@"
    fi
}

echo "| model | kind | rows | columns | nonzeros | glpsol status | glpsol objective | proper status | proper objective | rel. diff. | glpsol CPU s | proper CPU s |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for f in "$ex"/*.mod; do
    [ -f "$f" ] || continue
    b=$(basename "$f" .mod)
    dat=
    [ -f "$ex/$b.dat" ] && dat="$ex/$b.dat"
    if (cd "$ex" && timeout "$timeout" glpsol --check -m "$f" ${dat:+-d "$dat"} --wlp "$tmp/$b.lp") >"$tmp/tr.out" 2>&1; then
        solve "$b.mod" "$tmp/$b.lp"
    else
        echo "| $b.mod | not translated by glpsol: $(tail -n 1 "$tmp/tr.out") | | | | | | | | | | |"
    fi
done
for f in "$ex"/*.mps; do
    [ -f "$f" ] || continue
    b=$(basename "$f" .mps)
    if glpsol --mps "$f" --check --wlp "$tmp/$b.mps.lp" >/dev/null 2>&1 ||
        glpsol --freemps "$f" --check --wlp "$tmp/$b.mps.lp" >/dev/null 2>&1; then
        solve "$b.mps" "$tmp/$b.mps.lp"
        [ "$b" = murtagh ] && { sed 's/^Minimize$/Maximize/' "$tmp/$b.mps.lp" >"$tmp/$b.max.lp"; solve "$b.mps (max)" "$tmp/$b.max.lp"; }
    else
        echo "| $b.mps | not translated by glpsol | | | | | | | | | | |"
    fi
done
for f in "$ex"/*.lp; do
    [ -f "$f" ] || continue
    b=$(basename "$f")
    if grep -qi '^ *\(general\|generals\|gen\|integer\|integers\|binary\|binaries\|bin\) *$' "$f"; then
        where=$(proper_refusal "$f")
        if glpsol --lp "$f" --check --wlp "$tmp/$b.wlp" >/dev/null 2>&1; then
            solve "$b (as written by glpsol; proper refuses the original at ${where:-?})" "$tmp/$b.wlp"
        fi
    else
        row "$b" "$f" "LP, as distributed"
    fi
done
echo
echo "$total files: $agree agree (same status; optimal objectives within 1e-9 relative), $rejected rejected by both"
echo "as malformed, $differ differ."
