#!/bin/sh
# Fuzzes one target under libFuzzer for a while, nice'd, on a scratch copy of
# its corpus (tests/corpus/NAME is only read). A finding is written to
# build/libfuzz/fuzz_NAME-crash-... (or -timeout-, -oom-); add it to the
# corpus with its fix. Usage: scripts/fuzz.sh NAME [SECONDS]   (default 600)
set -eu
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: scripts/fuzz.sh NAME [SECONDS]  (NAME: $(ls tests/fuzz | sed -n 's/^fuzz_\(.*\)\.c$/\1/p' | tr '\n' ' '))" >&2; exit 2; }
name=$1; secs=${2:-600}
[ -f "tests/fuzz/fuzz_$name.c" ] || { echo "scripts/fuzz.sh: no target tests/fuzz/fuzz_$name.c" >&2; exit 2; }
make -s "build/libfuzz/fuzz_$name"
work=build/libfuzz/long-$name
mkdir -p "$work"
exec nice -n 19 "build/libfuzz/fuzz_$name" -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 \
    -print_final_stats=1 -artifact_prefix="build/libfuzz/fuzz_$name-" "$work" "tests/corpus/$name"
