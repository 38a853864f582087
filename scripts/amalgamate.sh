#!/bin/sh
# Writes proper.h to stdout: the manual (src/manual.txt as a comment), then
# each module of src/ in dependency order with its local #include lines
# removed, then the licence. Usage: scripts/amalgamate.sh MODULE...
set -eu
cd "$(dirname "$0")/.."
printf '/*\n'
sed 's/^/ * /; s/ *$//' src/manual.txt
printf ' */\n'
for m in "$@"; do
    f="src/$m.h"
    [ -f "$f" ] || continue
    printf '\n/* ======== %s ======== */\n' "$f"
    grep -v '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f"
done
printf '\n/*\n'
sed 's/^/ * /; s/ *$//' LICENSE
printf ' */\n'
