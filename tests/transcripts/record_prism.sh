#!/bin/sh
# Records the PRISM transcripts in this directory: runs the real PRISM on the
# models in tests/corpus/prism (properties: tests/corpus/props) and
# tests/transcripts/inputs with the command lines
# the PRISM adapter (backends/prism.h) builds, and writes each run's standard
# output and error (merged, as PRISM writes everything to stdout) after a
# header of "#> " lines naming the version, the command and the exit status.
# tests/test_backends.c and the stand-in executables it writes strip the
# header and replay the rest.
#
#   PROPER_PRISM=/path/to/prism sh tests/transcripts/record_prism.sh
#
# Run from anywhere; paths in the recorded command lines are relative to the
# repository root, where the runs happen.
cd "$(dirname "$0")/../.." || exit 2
PRISM=${PROPER_PRISM:-prism}
OUT=tests/transcripts
IN=tests/transcripts/inputs
M=tests/corpus/prism
P=tests/corpus/props
MPS=p1=0.0912,p2=0.8181,p3=0.8,p4=0.8181,p5=0.8181

version=$("$PRISM" -version 2>&1 | sed -n 's/^PRISM version //p' | head -n 1)
[ -n "$version" ] || { echo "record_prism.sh: '$PRISM -version' printed no version" >&2; exit 2; }

# record NAME ARGS...: one transcript, tests/transcripts/NAME.txt
record() {
    name=$1; shift
    "$PRISM" "$@" > "$OUT/$name.tmp" 2>&1
    status=$?
    {
        echo "#> Real output of PRISM $version (built from the public prism-model-checker"
        echo "#> repository, OpenJDK 17, Debian 12), recorded by record_prism.sh."
        printf '#> command: prism'
        for a in "$@"; do printf " '%s'" "$a"; done
        echo
        echo "#> exit status: $status"
        cat "$OUT/$name.tmp"
    } > "$OUT/$name.txt"
    rm -f "$OUT/$name.tmp"
    echo "$name: exit $status"
}

# -version: the probe
record prism_version -version

# minPathSum (PROPER, IST 2023): default precision, tight, exact
record prism_minpathsum_default $M/minpathsum.pm $P/minpathsum.pctl -const $MPS
record prism_minpathsum_eps $M/minpathsum.pm $P/minpathsum.pctl -const $MPS -epsilon 1e-14
record prism_minpathsum_exact $M/minpathsum.pm $P/minpathsum.pctl -const $MPS -exact

# the same model handed over as explicit files (written by proper check --export-explicit)
record prism_minpathsum_explicit -importtrans $IN/minpathsum.tra -importstates $IN/minpathsum.sta \
    -importlabels $IN/minpathsum.lab -importstaterewards $IN/minpathsum1.srew \
    -importstaterewards $IN/minpathsum2.srew -dtmc $P/minpathsum.pctl -epsilon 1e-14
record prism_explicit_exact_crash -importtrans $IN/minpathsum.tra -importstates $IN/minpathsum.sta \
    -importlabels $IN/minpathsum.lab -importstaterewards $IN/minpathsum1.srew \
    -importstaterewards $IN/minpathsum2.srew -dtmc $P/minpathsum.pctl -exact

# Knuth-Yao die: seven properties
record prism_die $M/die.pm $P/die.pctl -epsilon 1e-14

# infinite expected reward, NaN, booleans
record prism_gambler_infinity $M/gambler.pm -pf 'R=? [ F "win" ]' -const p=0.5 -epsilon 1e-14
record prism_special $M/die.pm $IN/special.pctl -epsilon 1e-14

# errors: model syntax, missing constants, unknown label (fatal, exit 1);
# a property PRISM cannot check (non-fatal, exit 0)
record prism_syntax_error $IN/syntax_error.pm -pf 'P=? [ F x=2 ]' -epsilon 1e-14
record prism_undefined_constants $M/minpathsum.pm $P/minpathsum.pctl -epsilon 1e-14
record prism_unknown_label $M/die.pm -pf 'P=? [ F "nolabel" ]' -epsilon 1e-14
record prism_mixed_errors $M/die.pm $IN/mixed.pctl -epsilon 1e-14

# a CTMC (an M/M/1/K queue, q t = 90): PRISM's Fox-Glynn overflows at the
# -epsilon crosscheck asks by default (1e-12) and works at 1e-8
record prism_mm1k_foxglynn $IN/mm1k.sm $IN/mm1k.csl -const T=10 -epsilon 1e-12
record prism_mm1k_eps8 $IN/mm1k.sm $IN/mm1k.csl -const T=10 -epsilon 1e-8
