#!/bin/sh
# Build the example web server and its load generator into OUTDIR.
#   sh examples/webserver/build.sh OUTDIR
# CC and CFLAGS may be overridden, e.g. CFLAGS="-std=c99 -O1 -g -fsanitize=address,undefined".
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: build.sh OUTDIR}
CC=${CC:-cc}
CFLAGS=${CFLAGS:--std=c99 -O2 -Wall -Wextra -Wpedantic -Werror}
mkdir -p "$out"
$CC $CFLAGS -o "$out/server" "$here/server.c" -lpthread -lm
$CC $CFLAGS -o "$out/loadgen" "$here/loadgen.c" -lpthread -lm
