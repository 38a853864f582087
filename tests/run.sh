#!/bin/sh
# Runs every test and prints "N passed, N failed" last; exits 1 on any failure.
# Each test program prints lines "ok NAME", "FAIL NAME: ..." or "SKIP NAME: ...".
# Called by `make test` after the test programs are built.
cd "$(dirname "$0")/.." || exit 2
pass=0; fail=0; skip=0
TIMEOUT=${PROPER_TEST_TIMEOUT:-600}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
out=build/test-output.txt
# `make test` says whether clang links libFuzzer; run by hand, the libFuzzer
# builds' presence says it
HAVE_LIBFUZZER=${HAVE_LIBFUZZER-$(ls build/libfuzz/fuzz_* > /dev/null 2>&1 && echo yes)}
mkdir -p build

# tally NAME STATUS OUTPUT_FILE: counts the result lines of one program
# (its output was shown when it ended)
tally() {
    name=$1; status=$2; file=$3
    p=$(grep -c '^ok ' "$file"); f=$(grep -c '^FAIL ' "$file"); s=$(grep -c '^SKIP ' "$file")
    if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "FAIL $name: exited with status $status"; f=1
    fi
    if [ "$status" -eq 0 ] && [ "$p" -eq 0 ] && [ "$f" -eq 0 ] && [ "$s" -eq 0 ]; then
        echo "FAIL $name: printed no result"; f=1
    fi
    pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
}

# check NAME COMMAND...: one result from a command's exit status
check() {
    name=$1; shift
    if "$@" > "$out" 2>&1; then echo "ok $name"; pass=$((pass + 1));
    else cat "$out"; echo "FAIL $name"; fail=$((fail + 1)); fi
}

# --- the single header ---
check amalgamation_is_fresh make -s check-amalgamation
check amalgamate_rejects_missing_module sh -c '! scripts/amalgamate.sh core no_such_module > /dev/null 2>&1'
# the manual's contents and tunables point at the lines they name
check manual_line_numbers awk '
    FNR == NR { line[FNR] = $0; next }
    match($0, /[a-z]+\.h +line +[0-9]+/) {
        split(substr($0, RSTART, RLENGTH), w, " "); n = w[3]; mod = w[1]; checked++
        if ($0 ~ /PROPER_[A-Z0-9_]+ /) { split($0, t, " "); want = "#define " t[2] }
        else want = "/* ======== src/" mod " ======== */"
        if (index(line[n], want) != 1) { print "line " n " is not " want; bad++ } }
    END { if (checked < 20) { print "only " checked " line references found"; bad++ } exit bad > 0 }' proper.h proper.h
STRICT="-Wall -Wextra -Wpedantic -Werror"
if command -v "${CLANG:-clang}" >/dev/null 2>&1; then
    check proper_h_clang_c99 "${CLANG:-clang}" -std=c99 $STRICT -c tests/compile/use_header.c -o build/use_clang.o
    check proper_h_clang_c99_impl "${CLANG:-clang}" -std=c99 $STRICT -DPROPER_IMPLEMENTATION tests/compile/use_header.c -o build/use_clang -lm -lpthread
else
    echo "SKIP proper_h_clang: clang not installed"; skip=$((skip + 1))
fi
if command -v "${CXX:-g++}" >/dev/null 2>&1; then
    check proper_h_cxx "${CXX:-g++}" -x c++ -std=c++11 $STRICT -c tests/compile/use_header.c -o build/use_cxx.o
    check proper_h_cxx_impl "${CXX:-g++}" -x c++ -std=c++11 $STRICT -DPROPER_IMPLEMENTATION tests/compile/use_header.c -o build/use_cxx -lm -lpthread
else
    echo "SKIP proper_h_cxx: g++ not installed"; skip=$((skip + 1))
fi

# PROPER_ONLY_<MODULE>: each module alone (with what it needs) compiles
# cleanly (two compilers at a time)
only_each_module() {
    sed -n 's/^MODULES *= *//p' Makefile | tr ' ' '\n' | grep . |
        CC=${CC:-cc} STRICT="$STRICT" xargs -P 2 -n 1 sh -c '
            M=$(echo "$1" | tr a-z A-Z)
            printf "#define PROPER_IMPLEMENTATION\n#define PROPER_ONLY_%s\n#include \"proper.h\"\nint main(void) { return 0; }\n" "$M" > "build/only-$1.c"
            $CC -std=c99 $STRICT -O0 -I. "build/only-$1.c" -o "build/only-$1" -lm -lpthread ||
                { echo "PROPER_ONLY_$M does not compile"; exit 1; }' only
}
check proper_only_each_module only_each_module

# the drop-in example of README.md compiles against proper.h and runs
awk '/^```c$/{f=1;next}/^```$/{f=0}f' README.md > build/readme_example.c
check readme_example sh -c "${CC:-cc} -std=c99 $STRICT -I. build/readme_example.c -o build/readme_example -lm && build/readme_example"
check readme_example_only_pmf sh -c "${CC:-cc} -std=c99 $STRICT -DPROPER_ONLY_PMF -I. build/readme_example.c -o build/readme_example -lm && build/readme_example"

# --- the test programs, two at a time (PROPER_TEST_JOBS): command-line
# scripts (sanitizer build of bin/proper), C tests, fuzz targets (corpus
# replay and libFuzzer smoke: tests/fuzz_job.sh). Each is a job script in
# build/jobs/; its output is shown when it ends, then counted in order. ---
jobs=build/jobs; rm -rf "$jobs"; mkdir -p "$jobs"; njobs=0
export TIMEOUT HAVE_LIBFUZZER
# job NAME SHELL_TEXT: queues one program
job() {
    njobs=$((njobs + 1))
    printf '%s\n' "$2" > "$jobs/$(printf %03d "$njobs")-$1.sh"
}
if [ -x build/proper-san ]; then
    for t in tests/cli_*.sh; do
        [ "$t" = tests/cli_lib.sh ] && continue
        job "$(basename "$t" .sh)" "PROPER=build/proper-san timeout $TIMEOUT sh $t"
    done
else
    echo "FAIL cli: build/proper-san did not compile"; fail=$((fail + 1))
fi
for src in tests/test_*.c; do
    name=$(basename "$src" .c); bin=build/tests/$name
    if [ -x "$bin" ]; then job "$name" "timeout $TIMEOUT $bin"
    else
        [ -f "$bin.log" ] && cat "$bin.log"
        echo "FAIL $name: did not compile"; fail=$((fail + 1))
    fi
done
for src in tests/fuzz/fuzz_*.c; do
    name=$(basename "$src" .c); job "$name" "sh tests/fuzz_job.sh ${name#fuzz_}"
done
[ -n "$HAVE_LIBFUZZER" ] || { echo "SKIP fuzz_smoke: clang with libFuzzer not installed"; skip=$((skip + 1)); }

ls "$jobs"/*.sh | xargs -P "${PROPER_TEST_JOBS:-2}" -n 1 sh -c '
    base=${1%.sh}; t0=$(date +%s)
    sh "$1" > "$base.out" 2>&1; echo $? > "$base.rc"
    name=$(basename "$base"); echo "   (${name#*-} took $(( $(date +%s) - t0 )) s)" >> "$base.out"
    cat "$base.out"' job
for f in "$jobs"/*.sh; do
    base=${f%.sh}; name=$(basename "$base")
    tally "${name#*-}" "$(cat "$base.rc" 2> /dev/null || echo 127)" "$base.out"
done

[ -n "${PROPER_TEST_START:-}" ] && echo "make test took $(( $(date +%s) - PROPER_TEST_START )) s (building included)"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
