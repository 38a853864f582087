# bench_mpi.awk — location traces for the MPI tests and benchmark.
#
# Runs of a small request loop: after main.c:10 the loop (loop.c:20) goes
# round a geometric number of times; each round parses one item, kind A
# (parse.c:31) or kind B (parse.c:47 then 42), and the kind depends on the
# previous round's kind (P(A) = 0.8 after A, 0.3 after B), so contexts
# longer than one location matter; error.c:5 ends a run early (2% a
# round). Random numbers come from MINSTD (x = 48271 x mod 2^31 - 1, exact
# in awk's doubles), so every awk writes the same files.
#
#   awk -v runs=N -v seed=S [-v format=trace] [-v first=ID] -f bench/bench_mpi.awk
#
# format=trace writes the trace.h format (one record per run, ids from
# `first`, the locations on one V line); the default is runs text.
function rnd() {
    state = (state * 48271) % 2147483647
    return state / 2147483647
}
BEGIN {
    state = seed % 2147483646 + 1
    if (format == "trace") print "proper-trace 1"
    for (r = 0; r < runs; r++) {
        line = "main.c:10"
        prev = "A"
        for (n = 0; n < 60 && rnd() >= 0.15; n++) {
            line = line " loop.c:20"
            if (rnd() < (prev == "A" ? 0.8 : 0.3)) { line = line " parse.c:31"; prev = "A" }
            else { line = line " parse.c:47 42"; prev = "B" }
            if (rnd() < 0.02) { line = line " error.c:5"; break }
        }
        line = line " main.c:99"
        if (format == "trace") { print "R " (first + r); print "V " line; print "E" }
        else print line
    }
}
