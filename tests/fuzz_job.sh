#!/bin/sh
# One fuzz target's part of `make test` (a job of tests/run.sh): replay its
# corpus, every input once; under libFuzzer, then a smoke of new inputs
# (seeded; at most 20000 runs or 6 s) on a scratch copy of the corpus.
# Prints "ok"/"FAIL" lines. Without libFuzzer (HAVE_LIBFUZZER empty) the
# replay runs through the plain build (tests/fuzz/replay.h) and there is no
# smoke. Usage: tests/fuzz_job.sh NAME   (TIMEOUT, HAVE_LIBFUZZER from the
# environment)
name=fuzz_$1; corpus=tests/corpus/$1
# did_not_compile BIN RESULT...: the compiler's messages, then a failure per result
did_not_compile() {
    [ -f "$1.log" ] && cat "$1.log"
    shift; for r in "$@"; do echo "FAIL $r: did not compile"; done
}
if [ -z "$HAVE_LIBFUZZER" ]; then
    bin=build/fuzz/$name
    [ -x "$bin" ] || { did_not_compile "$bin" "$name"; exit 0; }
    exec timeout "${TIMEOUT:-600}" "$bin" "$corpus"
fi
bin=build/libfuzz/$name; log=build/libfuzz/test-$1.log; work=build/libfuzz/work-$1
[ -x "$bin" ] || { did_not_compile "$bin" "$name" "smoke_$name"; exit 0; }
# One run does both: libFuzzer executes every corpus input before it prints
# INITED, then mutates. The per-input limit is generous: this build is -O0
# and the machine may be loaded (scripts/fuzz.sh's long runs use 10 s).
rm -rf "$work"; mkdir -p "$work"
timeout 240 "$bin" -seed=1 -runs=20000 -max_total_time=6 -rss_limit_mb=2048 -timeout=60 \
    -artifact_prefix="build/libfuzz/$name-" "$work" "$corpus" > "$log" 2>&1
status=$?
if ! grep -q INITED "$log"; then
    tail -40 "$log"; echo "FAIL $name: an input of $corpus fails (status $status)"; exit 0
fi
echo "ok $name ($(ls "$corpus" | wc -l) inputs)"
if [ "$status" -eq 0 ]; then
    echo "ok smoke_$name ($(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log") inputs)"
else
    tail -40 "$log"; echo "FAIL smoke_$name: see the input written under build/libfuzz/"
fi
