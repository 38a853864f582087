# cli_lib.sh — shared helpers of the command-line tests (tests/cli_*.sh).
# Source it first thing:   . "$(dirname "$0")/cli_lib.sh"
#
# It moves to the repository root, sets PROPER (the binary under test,
# default bin/proper; the runner passes the sanitizer build) and T (a scratch
# directory removed on exit; add more clean-up with `at_exit COMMAND`).
# Each check prints one line the runner counts: "ok NAME", "FAIL NAME: why"
# or "SKIP NAME: reason".
#
# Running:
#   run CMD...                       CMD's stdout to $T/out, stderr to $T/err,
#                                    exit status to $status
#   run_proper ARGS...               run "$PROPER" ARGS...
#   expect NAME STATUS CMD...        run; ok when the exit status is STATUS
#   expect_text NAME STATUS TEXT CMD...
#                                    run; ok when the status is STATUS and TEXT
#                                    (a fixed string) is in stdout or stderr
#   expect_error NAME TEXT CMD...    run; ok when the status is 2 and TEXT is
#                                    in stderr
#   status_is NAME STATUS            silent when $status is STATUS, else a FAIL
#                                    line; returns 1 then (for chaining checks
#                                    on one run: status_is ... && contains ...)
# Output:
#   contains NAME FILE TEXT          ok when FILE holds the fixed string TEXT
#   lacks NAME FILE TEXT             ok when it does not
#   matches NAME FILE REGEX          ok when a line of FILE matches REGEX (grep -E)
#   count_matches FILE REGEX         prints how many lines of FILE match REGEX
#   json_valid NAME FILE             ok when FILE is one valid JSON document
#                                    (python3 -m json.tool; SKIP without python3)
#   json_get FILE PATH               prints the value at PATH, keys and indexes
#                                    joined by '.': properties.0.native.value
#                                    (strings bare, null as null, true/false)
# Numbers:
#   near A B TOL                     true when |A - B| <= TOL
#   rel_near A B TOL                 true when |A - B| <= TOL |B|
# Helper variables are named cl_*; scripts should not use that prefix.
# Results:
#   ok NAME; fail NAME WHY; skip NAME WHY
#   check NAME CONDITION-COMMAND...  ok when the command succeeds, else FAIL
#                                    showing $T/out and $T/err

cd "$(dirname "$0")/.." || exit 2
PROPER=${PROPER:-bin/proper}
T=$(mktemp -d "${TMPDIR:-/tmp}/proper-cli.XXXXXX") || exit 2
cli_lib_cleanup="rm -rf '$T'"
trap 'eval "$cli_lib_cleanup"' EXIT
status=0

# at_exit COMMAND: also run COMMAND (a string for eval) on exit, before $T goes.
at_exit() { cli_lib_cleanup="$1; $cli_lib_cleanup"; }

ok() { echo "ok $1"; }
fail() { echo "FAIL $1: $2"; }
skip() { echo "SKIP $1: $2"; }

# what the last run printed, for failure messages
last_output() { echo "stdout: $(cat "$T/out" 2>/dev/null); stderr: $(cat "$T/err" 2>/dev/null)"; }

run() { "$@" > "$T/out" 2> "$T/err"; status=$?; }
run_proper() { run "$PROPER" "$@"; }

status_is() {
    if [ "$status" -eq "$2" ]; then return 0; fi
    fail "$1" "exit status $status, expected $2; $(last_output)"
    return 1
}

expect() {
    cl_name=$1; cl_want=$2; shift 2
    run "$@"
    status_is "$cl_name" "$cl_want" && ok "$cl_name"
}

expect_text() {
    cl_name=$1; cl_want=$2; cl_text=$3; shift 3
    run "$@"
    status_is "$cl_name" "$cl_want" || return 1
    if grep -qF -- "$cl_text" "$T/out" "$T/err"; then ok "$cl_name"
    else fail "$cl_name" "output lacks '$cl_text'; $(last_output)"; return 1; fi
}

expect_error() {
    cl_name=$1; cl_text=$2; shift 2
    run "$@"
    status_is "$cl_name" 2 || return 1
    if grep -qF -- "$cl_text" "$T/err"; then ok "$cl_name"
    else fail "$cl_name" "stderr lacks '$cl_text'; $(last_output)"; return 1; fi
}

contains() {
    if grep -qF -- "$3" "$2"; then ok "$1"
    else fail "$1" "$2 lacks '$3': $(cat "$2")"; return 1; fi
}

lacks() {
    if grep -qF -- "$3" "$2"; then fail "$1" "$2 has '$3': $(cat "$2")"; return 1
    else ok "$1"; fi
}

matches() {
    if grep -qE -- "$3" "$2"; then ok "$1"
    else fail "$1" "no line of $2 matches '$3': $(cat "$2")"; return 1; fi
}

count_matches() { grep -cE -- "$2" "$1"; }

json_valid() {
    if ! command -v python3 > /dev/null 2>&1; then skip "$1" "python3 is not installed"; return 0; fi
    if python3 -m json.tool "$2" > /dev/null 2> "$T/json_err"; then ok "$1"
    else fail "$1" "not valid JSON ($(cat "$T/json_err")): $(cat "$2")"; return 1; fi
}

json_get() {
    python3 - "$1" "$2" <<'EOF'
import json, sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2].split('.') if sys.argv[2] else []:
    v = v[int(k)] if isinstance(v, list) else v[k]
if v is None: print('null')
elif isinstance(v, bool): print('true' if v else 'false')
elif isinstance(v, float): print(repr(v))
else: print(v)
EOF
}

near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d <= t) }'; }
rel_near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; exit !(a != "" && d <= t * m) }'; }

check() {
    cl_name=$1; shift
    if "$@"; then ok "$cl_name"; else fail "$cl_name" "$*; $(last_output)"; return 1; fi
}
