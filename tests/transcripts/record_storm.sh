#!/bin/sh
# Records the Storm transcripts in this directory: runs the real Storm on the
# models in tests/corpus/prism (properties: tests/corpus/props) and
# tests/transcripts/inputs with the command lines the Storm adapter
# (backends/storm.h) builds, and writes each run's standard output and error
# (merged) after a header of "#> " lines naming the version, the command and
# the exit status. tests/test_backends.c, tests/cli_crosscheck.sh and the
# stand-in executables they write strip the header and replay the rest.
#
#   PROPER_STORM=/path/to/storm sh tests/transcripts/record_storm.sh
#
# The adapter hands Storm a properties file rewritten the way Storm reads
# properties (';' after each, comments and unused names blanked); here the
# same properties go inline on --prop, one ';'-separated line, which Storm
# reads the same way (tests/test_backends.c checks the rewrite of
# minpathsum.pctl against the line used here). storm_props_unrewritten.txt
# shows Storm on the file as written.
#
# Run from anywhere; paths in the recorded command lines are relative to the
# repository root, where the runs happen. The DRN of storm_drn_variable.txt
# is written by proper itself (bin/proper, built first with `make bin/proper`)
# into a temporary directory, named in that transcript as model.drn.
cd "$(dirname "$0")/../.." || exit 2
STORM=${PROPER_STORM:-storm}
OUT=tests/transcripts
IN=tests/transcripts/inputs
M=tests/corpus/prism
P=tests/corpus/props
MPS=p1=0.0912,p2=0.8181,p3=0.8,p4=0.8181,p5=0.8181
MPS_PROPS='R{"time"}=? [ F "end" ]; R{"cost"}=? [ F "end" ]; P=? [ F "end" ];'

version=$("$STORM" --version 2>&1 | sed -n 's/^Storm \([0-9][^ ]*\).*/\1/p' | head -n 1)
[ -n "$version" ] || { echo "record_storm.sh: '$STORM --version' printed no version" >&2; exit 2; }
TMP=$(mktemp -d) || exit 2
trap 'rm -rf "$TMP"' EXIT

# record NAME ARGS...: one transcript, tests/transcripts/NAME.txt
record() {
    name=$1; shift
    (cd "${RUN_IN:-.}" && "$STORM" "$@") > "$OUT/$name.tmp" 2>&1
    status=$?
    {
        echo "#> Real output of Storm $version (built from the public moves-rwth/storm"
        echo "#> repository with its own dependencies, Debian 12), recorded by record_storm.sh."
        printf '#> command: storm'
        for a in "$@"; do printf " '%s'" "$a"; done
        echo
        echo "#> exit status: $status"
        cat "$OUT/$name.tmp"
    } > "$OUT/$name.txt"
    rm -f "$OUT/$name.tmp"
    echo "$name: exit $status"
}

# --version: the probe
record storm_version --version

# minPathSum (PROPER, IST 2023): tight precision, exact, Storm's default
record storm_minpathsum --prism $M/minpathsum.pm --prismcompat --prop "$MPS_PROPS" --constants $MPS --precision 1e-14
record storm_minpathsum_exact --prism $M/minpathsum.pm --prismcompat --prop "$MPS_PROPS" --constants $MPS --exact
record storm_minpathsum_default --prism $M/minpathsum.pm --prismcompat --prop "$MPS_PROPS" --constants $MPS
# the properties file as written, one property a line: Storm 1.12 refuses it whole
record storm_props_unrewritten --prism $M/minpathsum.pm --prismcompat --prop $P/minpathsum.pctl --constants $MPS --precision 1e-14

# infinite expected reward, in floating point and in exact mode; a boolean
record storm_gambler_infinity --prism $M/gambler.pm --prismcompat --prop 'R=? [ F "win" ];' --constants p=0.5 --precision 1e-14
record storm_die_exact_special --prism $M/die.pm --prismcompat --prop 'P=? [ F d=7 ]; P>0.1 [ F d=1 ]; R{"coin_flips"}=? [ F d=1 ];' --exact

# several initial states: a set of values, not one
record storm_initial_states --prism $M/init_block.pm --prismcompat --prop 'P=? [ X x=2 ]; P=? [ F x=3 ];' --precision 1e-14

# a CTMC written as PRISM writes them (an M/M/1/K queue): Storm reads it with --prismcompat
record storm_mm1k --prism $IN/mm1k.sm --prismcompat --prop 'P=? [ F<=T n>=5 ]; R{"jobs"}=? [ I=T ]; S=? [ n=0 ];' --constants T=10 --precision 1e-8
record storm_mm1k_no_prismcompat --prism $IN/mm1k.sm --prop 'P=? [ F<=T n>=5 ];' --constants T=10 --precision 1e-8

# PRISM's forms Storm 1.12 lacks (label definitions, old-style filters,
# two-argument filters, => between formulas) as the adapter translates
# filters.props (tests/test_backends.c checks this line against the rewrite)
FILTERS_PROPS='const int K; ; ; filter(forall,!( "init" ) | ( P>=1 [ F x=4 ]), true); filter(max, R{"steps"}=? [ F x=4 ], ( x>=1 & x<=3)); filter(min, R{"steps"}=? [ F x=4 ], ( x>=1 & x<=3)); filter(min, P=? [ F<=K x=4 ], ( x<=1 | ( x>=1 & x<=3) & x=2)); P=? [ F<=K x=4 ]; filter(avg, P=? [ F<=K x=4 ], true); P=? [ F<=K ( x>=1 & x<=3) ];'
record storm_filters --prism $IN/filters.pm --prismcompat --prop "$FILTERS_PROPS" --constants K=6 --precision 1e-14

# errors: model syntax (fatal); a label the model lacks (fatal in Storm 1.12);
# an LTL property this Storm (built without Spot) cannot check between two it can
record storm_syntax_error --prism $IN/syntax_error.pm --prismcompat --prop 'P=? [ F x=2 ];' --precision 1e-14
record storm_unknown_label --prism $M/die.pm --prismcompat --prop 'P=? [ F d=1 ]; P=? [ F "nolabel" ]; P=? [ F d=2 ];' --precision 1e-14
record storm_unsupported --prism $M/die.pm --prismcompat --prop 'P=? [ F d=1 ]; P=? [ G F s=7 ]; P=? [ F d=2 ];' --precision 1e-14

# a DRN model (as proper exports it for Storm) and a property over a variable:
# DRN carries labels only, so Storm cannot read d
if [ -x bin/proper ] && bin/proper check $M/die.pm 'P=? [ F "done" ]' --export-drn "$TMP/model.drn" > /dev/null; then
    RUN_IN=$TMP record storm_drn_variable --explicit-drn model.drn --prop 'P=? [ F "done" ]; P=? [ F d=1 ];' --precision 1e-14
else
    echo "record_storm.sh: bin/proper could not export the DRN; storm_drn_variable.txt not recorded" >&2
fi
