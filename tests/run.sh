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
# (started at $t0) and says how long it took
tally() {
    name=$1; status=$2; file=$3
    cat "$file"
    echo "   ($name took $(( $(date +%s) - t0 )) s)"
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

# --- unit, property and differential tests ---
for src in tests/test_*.c; do
    [ -f "$src" ] || continue
    name=$(basename "$src" .c); bin=build/tests/$name
    if [ ! -x "$bin" ]; then
        [ -f "$bin.log" ] && cat "$bin.log"
        echo "FAIL $name: did not compile"; fail=$((fail + 1)); continue
    fi
    t0=$(date +%s); timeout "$TIMEOUT" "$bin" > "$out" 2>&1; tally "$name" $? "$out"
done

# --- fuzz targets replay their seed corpus: through the libFuzzer build
# (-runs=0: every input once, nothing new) where clang has libFuzzer, else
# through the plain replay build (tests/fuzz/replay.h) ---
for src in tests/fuzz/fuzz_*.c; do
    [ -f "$src" ] || continue
    name=$(basename "$src" .c); corpus=tests/corpus/${name#fuzz_}
    if [ -n "$HAVE_LIBFUZZER" ]; then bin=build/libfuzz/$name; else bin=build/fuzz/$name; fi
    if [ ! -x "$bin" ]; then
        [ -f "$bin.log" ] && cat "$bin.log"
        echo "FAIL $name: did not compile"; fail=$((fail + 1)); continue
    fi
    if [ -z "$HAVE_LIBFUZZER" ]; then
        t0=$(date +%s); timeout "$TIMEOUT" "$bin" "$corpus" > "$out" 2>&1; tally "$name" $? "$out"
    elif timeout "$TIMEOUT" "$bin" -runs=0 -rss_limit_mb=2048 -timeout=60 \
             -artifact_prefix=build/libfuzz/$name- "$corpus" > "$out" 2>&1; then
        echo "ok $name ($(ls "$corpus" | wc -l) inputs)"; pass=$((pass + 1))
    else
        tail -40 "$out"; echo "FAIL $name: an input of $corpus fails"; fail=$((fail + 1))
    fi
done

# --- fuzz smoke: each target under libFuzzer for a fixed number of new
# inputs (seeded, at most 6 s each) on a scratch copy of its corpus ---
if [ -n "$HAVE_LIBFUZZER" ]; then
    for src in tests/fuzz/fuzz_*.c; do
        name=$(basename "$src" .c); bin=build/libfuzz/$name; work=build/libfuzz/work-${name#fuzz_}
        if [ ! -x "$bin" ]; then
            [ -f "$bin.log" ] && cat "$bin.log"
            echo "FAIL smoke_$name: did not compile"; fail=$((fail + 1)); continue
        fi
        rm -rf "$work"; mkdir -p "$work"
        if timeout 60 "$bin" -seed=1 -runs=20000 -max_total_time=6 -rss_limit_mb=2048 -timeout=10 \
               -artifact_prefix=build/libfuzz/$name- "$work" "tests/corpus/${name#fuzz_}" > "$out" 2>&1; then
            echo "ok smoke_$name ($(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$out") inputs)"; pass=$((pass + 1))
        else
            tail -40 "$out"; echo "FAIL smoke_$name: see the input written under build/libfuzz/"; fail=$((fail + 1))
        fi
    done
else
    echo "SKIP fuzz_smoke: clang with libFuzzer not installed"; skip=$((skip + 1))
fi

# --- command-line tests (sanitizer build of bin/proper) ---
if [ -x build/proper-san ]; then
    for t in tests/cli_*.sh; do
        [ "$t" = tests/cli_lib.sh ] && continue
        [ -f "$t" ] || continue
        t0=$(date +%s); PROPER=build/proper-san timeout "$TIMEOUT" sh "$t" > "$out" 2>&1; tally "$(basename "$t" .sh)" $? "$out"
    done
else
    echo "FAIL cli: build/proper-san did not compile"; fail=$((fail + 1))
fi

[ -n "${PROPER_TEST_START:-}" ] && echo "make test took $(( $(date +%s) - PROPER_TEST_START )) s (building included)"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
