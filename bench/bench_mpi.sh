#!/bin/sh
# bench_mpi.sh — proper-mpi's figures for docs/mpi.md: events per second
# per rank, the scaling from 1 to 2 ranks, memory per rank, the size of the
# input and of the reduced sums, the reduction's time and bytes.
#
#   sh bench/bench_mpi.sh [RUNS] [annot]   (default 200000 runs, ~45 MB of runs
#                                           text; `annot`: only proper-mpi annot)
#
# Every timing is a ratio against a baseline measured in the same run (the
# single-process `proper vlmc count` on the same file), and the load
# average is printed beside it: on a shared machine the absolute figures
# are provisional. Needs bin/proper and bin/proper-mpi (make bin/proper
# bin/proper-mpi) and mpirun. Nothing here asserts a time.
cd "$(dirname "$0")/.." || exit 2
RUNS=${1:-200000}
PART=${2:-all}
PROPER=${PROPER:-bin/proper}
PROPER_MPI=${PROPER_MPI:-bin/proper-mpi}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
T=$(mktemp -d "${TMPDIR:-/tmp}/proper-bench-mpi.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
now() { date +%s.%N; }
load() { uptime | sed 's/.*load average: //'; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", b - a}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", (b > 0 ? a / b : 0)}'; }
mpi() { np=$1; shift; mpirun --oversubscribe -np "$np" "$PROPER_MPI" "$@"; }
# stats_rows FILE: the --stats rows (rank read_s events events_per_s
# input_bytes reduce_s sent received maxrss_mb) and the wall time
wall_of() { sed -n 's/^# proper-mpi --stats: .* wall \([0-9.]*\) s.*/\1/p' "$1"; }

echo "# proper-mpi benchmark: $RUNS runs, $(nproc) cores, load $(load) at start"

# ---- annot: sufficient statistics of annotation logs, 4 logs (one per
# recording process) of RUNS/4 iterations (~2.25 records each) ----
annot_bench() {
    for k in 1 2 3 4; do
        awk -v runs="$((RUNS / 4))" -v seed="$((20 + k))" -v format=annot -f bench/bench_mpi.awk > "$T/an$k.log"
    done
    AL="$T/an1.log $T/an2.log $T/an3.log $T/an4.log"
    abytes=$(cat $AL | wc -c)
    best=
    for k in 1 2; do
        t0=$(now); /usr/bin/time -f '%U %S %M' -o "$T/acpu$k" "$PROPER" annot stats $AL -o "$T/abase.stats" 2> /dev/null; t1=$(now)
        w=$(secs "$t0" "$t1")
        if [ -z "$best" ] || awk -v a="$w" -v b="$best" 'BEGIN {exit !(a < b)}'; then best=$w; cp "$T/acpu$k" "$T/acpu"; fi
    done
    records=$(awk '/^function / {n += $6} END {print n}' "$T/abase.stats")
    echo "annot stats: 4 logs, $abytes bytes, $records records; single-process proper annot stats (best of 2) $best s wall, $(awk '{printf "%.3f s CPU, %.1f MB max RSS", $1 + $2, $3 / 1024}' "$T/acpu") (load $(load))"
    echo "np  wall_s  vs_single  records_per_rank  records_per_s_per_rank  read_cpu_s_max  records_per_cpu_s_per_rank  cpu_s_all_ranks  reduce_s  sent_bytes  maxrss_mb_per_rank  stats_bytes  load"
    for np in 1 2; do
        best_wall=
        for k in 1 2; do
            t0=$(now); mpi "$np" annot stats $AL -o "$T/a$np.stats" --stats 2> "$T/as$np.$k"; t1=$(now)
            w=$(secs "$t0" "$t1")
            if [ -z "$best_wall" ] || awk -v a="$w" -v b="$best_wall" 'BEGIN {exit !(a < b)}'; then
                best_wall=$w; cp "$T/as$np.$k" "$T/as$np"
            fi
        done
        cmp -s "$T/a$np.stats" "$T/abase.stats" || echo "# WARNING: statistics on $np rank(s) differ from proper annot stats"
        awk -v np="$np" -v wall="$best_wall" -v base="$best" -v size="$(wc -c < "$T/a$np.stats")" -v load="$(load)" '
            /^stats / {n++; ev += $4; eps += $5; if ($7 > red) red = $7; sent += $8; if ($10 > rss) rss = $10
                       cpu += $11; if ($12 > rc) rc = $12; epc += $12 > 0 ? $4 / $12 : 0}
            END {printf "%-3d %7.3f %10.2f %17.0f %23.0f %15.3f %27.0f %16.3f %9.4f %11.0f %19.1f %12d  %s\n",
                        np, wall, wall / base, ev / n, eps / n, rc, epc / n, cpu, red, sent, rss, size, load}' "$T/as$np"
        echo "$best_wall" > "$T/awall$np"
    done
    echo "annot scaling 1 -> 2 ranks (wall, mpirun start-up included): $(ratio "$(cat "$T/awall1")" "$(cat "$T/awall2")")x"
    echo "annot scaling 1 -> 2 ranks (read phase, CPU seconds of the slowest rank): $(ratio "$(awk '/^stats / && $12 > m {m = $12} END {print m}' "$T/as1")" "$(awk '/^stats / && $12 > m {m = $12} END {print m}' "$T/as2")")x"
    t0=$(now); /usr/bin/time -f '%U %S' -o "$T/cpu" "$PROPER" annot merge "$T/abase.stats" "$T/abase.stats" -o "$T/am.stats" 2> /dev/null; t1=$(now)
    echo "proper annot merge of 2 x $(wc -c < "$T/abase.stats") bytes of statistics: $(secs "$t0" "$t1") s wall, $(awk '{printf "%.3f", $1 + $2}' "$T/cpu") s CPU (load $(load))"
}
if [ "$PART" = all ]; then
awk -v runs="$RUNS" -v seed=7 -f bench/bench_mpi.awk > "$T/a.runs"
bytes=$(wc -c < "$T/a.runs")

# ---- vlmc count: baseline, then 1 and 2 ranks, twice each (best of 2) ----
best() { awk 'NR == 1 || $1 < m {m = $1} END {print m}'; }
for k in 1 2; do
    t0=$(now); "$PROPER" vlmc count "$T/a.runs" -o "$T/base.counts" 2> /dev/null; t1=$(now)
    secs "$t0" "$t1"; echo
done | best > "$T/base"
base=$(cat "$T/base")
# CPU seconds (user + system) of the baseline: not inflated by a busy machine
basecpu=$(/usr/bin/time -f '%U %S' -o "$T/cpu" "$PROPER" vlmc count "$T/a.runs" -o "$T/base.counts" 2> /dev/null &&
          awk '{printf "%.3f", $1 + $2}' "$T/cpu")
echo "vlmc count: input $bytes bytes; single-process proper vlmc count $base s wall, ${basecpu:-?} s CPU (load $(load))"
echo "np  wall_s  vs_single  events_per_rank  events_per_s_per_rank  read_cpu_s_max  events_per_cpu_s_per_rank  cpu_s_all_ranks  reduce_s  sent_bytes  maxrss_mb_per_rank  counts_bytes  load"
for np in 1 2; do
    best_wall=
    for k in 1 2; do
        t0=$(now); mpi "$np" vlmc count "$T/a.runs" -o "$T/c$np.counts" --stats 2> "$T/s$np.$k"; t1=$(now)
        w=$(secs "$t0" "$t1")
        if [ -z "$best_wall" ] || awk -v a="$w" -v b="$best_wall" 'BEGIN {exit !(a < b)}'; then
            best_wall=$w; cp "$T/s$np.$k" "$T/s$np"
        fi
    done
    cmp -s "$T/c$np.counts" "$T/base.counts" || echo "# WARNING: counts on $np rank(s) differ from proper vlmc count"
    awk -v np="$np" -v wall="$best_wall" -v base="$base" -v size="$(wc -c < "$T/c$np.counts")" -v load="$(load)" '
        /^stats / {n++; ev += $4; eps += $5; if ($7 > red) red = $7; sent += $8; if ($10 > rss) rss = $10
                   cpu += $11; if ($12 > rc) rc = $12; epc += $12 > 0 ? $4 / $12 : 0}
        END {printf "%-3d %7.3f %10.2f %16.0f %22.0f %15.3f %26.0f %16.3f %9.4f %11.0f %19.1f %13d  %s\n",
                    np, wall, wall / base, ev / n, eps / n, rc, epc / n, cpu, red, sent, rss, size, load}' "$T/s$np"
    echo "$best_wall" > "$T/wall$np"
done
echo "scaling 1 -> 2 ranks (wall, mpirun start-up included): $(ratio "$(cat "$T/wall1")" "$(cat "$T/wall2")")x"
echo "scaling 1 -> 2 ranks (read phase, CPU seconds of the slowest rank): $(ratio "$(awk '/^stats / && $12 > m {m = $12} END {print m}' "$T/s1")" "$(awk '/^stats / && $12 > m {m = $12} END {print m}' "$T/s2")")x"
awk '/^stats / {print "  per-rank read phase np" FILENAME ": rank " $2 " " $3 " s"}' "$T/s1" "$T/s2" | sed "s,$T/s,,"
echo "mpirun start-up (proper-mpi --version on 1 and 2 ranks):"
for np in 1 2; do t0=$(now); mpi "$np" --version > /dev/null; t1=$(now); echo "  np $np: $(secs "$t0" "$t1") s (load $(load))"; done
printf 'a b\n' > "$T/tiny.runs"
mpi 2 vlmc count "$T/tiny.runs" -o "$T/tiny.counts" --stats 2> "$T/tiny.s"
echo "a rank with (almost) no data (MPI runtime and the program): $(awk '/^stats / && $10 > m {m = $10} END {print m}' "$T/tiny.s") MB RSS, $(awk '/^stats / && $11 > m {m = $11} END {print m}' "$T/tiny.s") s CPU"
# the reduce step's own speed: proper vlmc merge of the counts with itself
t0=$(now); /usr/bin/time -f '%U %S' -o "$T/cpu" "$PROPER" vlmc merge "$T/base.counts" "$T/base.counts" -o "$T/merged.counts" 2> /dev/null; t1=$(now)
echo "proper vlmc merge of 2 x $(wc -c < "$T/base.counts") bytes of counts: $(secs "$t0" "$t1") s wall, $(awk '{printf "%.3f", $1 + $2}' "$T/cpu") s CPU (load $(load))"

# ---- counts size against runs: how the reduced sums grow ----
echo "counts size by input size (distinct runs dominate):"
for r in 10000 40000 160000; do
    awk -v runs="$r" -v seed=9 -f bench/bench_mpi.awk > "$T/g.runs"
    "$PROPER" vlmc count "$T/g.runs" -o "$T/g.counts" 2> "$T/g.err"
    echo "  runs $r: input $(wc -c < "$T/g.runs") bytes, counts $(wc -c < "$T/g.counts") bytes; $(sed 's/.*: //' "$T/g.err")"
done

# ---- trace and counts: the same on their inputs ----
awk -v runs="$((RUNS / 4))" -v seed=8 -v format=timed -f bench/bench_mpi.awk > "$T/t.trace"
awk -v runs="$((RUNS / 4))" -v seed=8 -v format=log -f bench/bench_mpi.awk > "$T/l.log"
t0=$(now); "$PROPER" trace "$T/t.trace" --csv > /dev/null; t1=$(now); tbase=$(secs "$t0" "$t1")
echo "trace: input $(wc -c < "$T/t.trace") bytes; single-process proper trace --csv (reads the same file) $tbase s (load $(load))"
echo "np  wall_s  vs_proper_trace  samples_per_s_per_rank  read_cpu_s_max  samples_per_cpu_s_per_rank  reduce_s  sent_bytes  maxrss_mb"
for np in 1 2; do
    # two files so that both ranks have one
    t0=$(now); mpi "$np" trace "$T/t.trace" "$T/t.trace" -o "$T/pmf$np" --stats 2> "$T/ts$np"; t1=$(now)
    awk -v np="$np" -v wall="$(secs "$t0" "$t1")" -v base="$tbase" '
        /^stats / {n++; eps += $5; if ($7 > red) red = $7; sent += $8; if ($10 > rss) rss = $10
                   if ($12 > rc) rc = $12; spc += $12 > 0 ? $4 / $12 : 0}
        END {printf "%-3d %7.3f %16.2f %23.0f %15.3f %27.0f %9.4f %11.0f %10.1f  (2 copies of the file)\n",
                    np, wall, wall / (2 * base), eps / n, rc, spc / n, red, sent, rss}' "$T/ts$np"
done
echo "counts: input $(wc -c < "$T/l.log") bytes (count log)"
for np in 1 2; do
    t0=$(now); mpi "$np" counts "$T/l.log" "$T/l.log" -o "$T/l$np.tot" --stats 2> "$T/ls$np"; t1=$(now)
    awk -v np="$np" -v wall="$(secs "$t0" "$t1")" -v size="$(wc -c < "$T/l$np.tot")" '
        /^stats / {n++; eps += $5; if ($7 > red) red = $7; sent += $8; if ($12 > rc) rc = $12}
        END {printf "  np %d: wall %.3f s, %.0f rows/s per rank, read CPU %.3f s (slowest rank), reduce %.4f s, sent %d bytes, totals %d bytes\n",
                    np, wall, eps / n, rc, red, sent, size}' "$T/ls$np"
done
fi
annot_bench
echo "# load at end: $(load)"
