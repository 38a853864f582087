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
# format=timed writes traces with timings for `proper-mpi trace`: per round
# a step parse (kind A, ~2 us) or parse/slow (kind B, ~9 us), per run a
# step io:read and the service time T (integer ns), and the counters p1
# (rounds), p2 (kind B rounds) that `proper-mpi counts` sums. format=log
# writes the same counters as a CSV count log (run,p1,p2).
# format=annot writes `runs` records of an annotation log (src/annot.h's
# record format) for `proper-mpi annot`: functions sort (metrics time heap,
# features n depth; time ~ 40 n log n), lookup (time, features len; time ~
# 300 + 5 len, a branch outcome: hit when len is even) and, unless
# noinit=1, init (time ~ 900, no features); format=annotcsv the same
# records of sort as CSV (function,time,n,depth).
function rnd() {
    state = (state * 48271) % 2147483647
    return state / 2147483647
}
function annot_records(   r, n, t) {
    if (format == "annot") {
        print "proper-annot-log 1"
        print "function sort metrics time heap features n depth"
        print "function lookup metrics time features len"
        if (!noinit) print "function init metrics time features"
    } else print "function,time,n,depth"
    for (r = 0; r < runs; r++) {
        n = 1 + int(rnd() * 5000)
        t = int(40 * n * log(n) + 2000 * rnd())
        if (format == "annotcsv") { print "sort," t "," n "," int(log(n) / log(2)); continue }
        print "sort, " t ", " 16 * n ", " n ", " int(log(n) / log(2))
        n = 1 + int(rnd() * 200)
        print "lookup, " int(300 + 5 * n + 50 * rnd()) ", " n ", " (n % 2 == 0) ", #"
        if (!noinit && rnd() < 0.25) print "init, " int(900 + 100 * rnd())
    }
}
BEGIN {
    state = seed % 2147483646 + 1
    if (format == "annot" || format == "annotcsv") { annot_records(); exit }
    if (format == "trace" || format == "timed") print "proper-trace 1"
    if (format == "log") print "run,p1,p2"
    for (r = 0; r < runs; r++) {
        line = "main.c:10"
        prev = "A"
        steps = ""
        nb = 0
        timed = format == "timed" # timings draw numbers of their own: other formats keep their stream
        io = timed ? 500 + int(rnd() * 400) : 0
        total = io + 300
        for (n = 0; n < 60 && rnd() >= 0.15; n++) {
            line = line " loop.c:20"
            if (rnd() < (prev == "A" ? 0.8 : 0.3)) {
                line = line " parse.c:31"; prev = "A"
                d = timed ? 1800 + int(rnd() * 400 + rnd() * 400) : 0; steps = steps "S parse " d "\n"
            } else {
                line = line " parse.c:47 42"; prev = "B"; nb++
                d = timed ? 8000 + int(rnd() * 1000 + rnd() * 1000) : 0; steps = steps "S parse/slow " d "\n"
            }
            total += d
            if (rnd() < 0.02) { line = line " error.c:5"; break }
        }
        line = line " main.c:99"
        if (format == "trace") { print "R " (first + r); print "V " line; print "E" }
        else if (format == "timed")
            printf "R %d\nS io:read %d\n%sN p1 %d\nN p2 %d\nT %d\nE\n", first + r, io, steps, n, nb, total
        else if (format == "log") print (first + r) "," n "," nb
        else print line
    }
}
