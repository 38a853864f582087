#!/bin/sh
# `proper sim`: print round trip, run against the M/M/1 closed form (inside
# the printed interval), determinism for a seed, --set and the shortcuts,
# whatif grids (table, JSON, SVG), build from a thread-event trace, and bad
# input (file:line:col, exit 2).
. "$(dirname "$0")/cli_lib.sh"
P=$PROPER
EX=examples/sim

# print: the normal form is a fixed point
run "$P" sim print $EX/server.sim -o "$T/a.sim"
status_is sim_print 0 && run "$P" sim print "$T/a.sim" -o "$T/b.sim" && status_is sim_print_again 0 &&
    check sim_print_round_trip cmp -s "$T/a.sim" "$T/b.sim"
contains sim_print_header "$T/a.sim" "proper-sim 1"

# run: M/M/1 with lambda = 0.5, mu = 1: W = 2, throughput 0.5
run_proper sim run $EX/mm1.sim --horizon 2000 --replications 10 --seed 1 --json
if status_is sim_run_json 0; then
    json_valid sim_run_json_valid "$T/out"
    lo=$(json_get "$T/out" response_mean.lo); hi=$(json_get "$T/out" response_mean.hi)
    check sim_run_mm1_inside_interval awk -v lo="$lo" -v hi="$hi" 'BEGIN { exit !(lo <= 2 && 2 <= hi) }'
    x=$(json_get "$T/out" throughput.estimate)
    check sim_run_mm1_throughput rel_near "$x" 0.5 0.03
    check sim_run_replications test "$(json_get "$T/out" replications)" = 10
    check sim_run_queue_name test "$(json_get "$T/out" queues.0.name)" = q
    # one core: its share is the CPU utilisation
    check sim_run_core_utilisation test "$(json_get "$T/out" cores.0.utilisation.estimate)" = "$(json_get "$T/out" cpu_utilisation.estimate)"
    cp "$T/out" "$T/first.json"
fi
# the same seed gives the same figures; another seed other figures
run_proper sim run $EX/mm1.sim --horizon 2000 --replications 10 --seed 1 --json
check sim_run_deterministic cmp -s "$T/out" "$T/first.json"
run_proper sim run $EX/mm1.sim --horizon 2000 --replications 10 --seed 2 --json
check sim_run_seed_matters sh -c "! cmp -s '$T/out' '$T/first.json'"
expect_text sim_run_text 0 "response time, mean" "$P" sim run $EX/mm1.sim --horizon 100 --replications 2

# --set and the shortcuts: the rounds model with 1 thread does 100 rounds/s
run_proper sim run $EX/rounds.sim --set threads.worker=1 --cores 1 --horizon 20 --replications 2 --json
status_is sim_set 0 && check sim_set_one_thread rel_near "$(json_get "$T/out" throughput.estimate)" 100 0.01
run_proper sim run $EX/server.sim --workers 2 --rate 100 --horizon 50 --replications 2 --json
status_is sim_shortcuts 0 && check sim_rate_shortcut rel_near "$(json_get "$T/out" throughput.estimate)" 100 0.05

# whatif: a table row per grid point, JSON points, plots
run_proper sim whatif $EX/server.sim --grid workers=1,2 --grid cores=1,2 --horizon 20 --replications 2
status_is sim_whatif 0 && check sim_whatif_rows test "$(count_matches "$T/out" '^[12] +[12] ')" = 4
run_proper sim whatif $EX/server.sim --grid workers=1,2 --grid cores=1,2 --horizon 20 --replications 2 --json \
    --svg "$T/x.svg" --svg-response "$T/r.svg"
if status_is sim_whatif_json 0; then
    json_valid sim_whatif_json_valid "$T/out"
    check sim_whatif_points test "$(json_get "$T/out" points.3.settings.cores)" = 2
    contains sim_whatif_svg "$T/x.svg" "<svg"
    contains sim_whatif_svg_response "$T/r.svg" "response time"
fi

# build: a model from a thread-event trace, which runs
run_proper sim build tests/corpus/sim_trace/server.trace -o "$T/built.sim"
if status_is sim_build 0; then
    contains sim_build_pool "$T/built.sim" "pool worker threads 2"
    contains sim_build_source "$T/built.sim" "source arrivals.conn open conn"
    contains sim_build_nofetch "$T/built.sim" "timeout 0.001 else nofetch.get.conn"
    expect sim_build_runs 0 "$P" sim run "$T/built.sim" --horizon 0.1 --replications 2
fi
run_proper sim build tests/corpus/sim_trace/server.trace -o "$T/built0.sim" --merge 0
status_is sim_build_merge0 0 && check sim_build_merge_shrinks test "$(grep -c ': ' "$T/built0.sim")" -gt "$(grep -c ': ' "$T/built.sim")"
# two reads in a row after a lock timeout: an explicit loop of one iteration
# (or, with --no-loops, a PCG cycle); the lock's timeout comes from the trace
run_proper sim build tests/corpus/sim_trace/timeouts.trace -o "$T/loop.sim"
if status_is sim_build_loops 0; then
    contains sim_build_loop_node "$T/loop.sim" "loop.io.f: loop empirical(1:1) do cpu.io.f.to.io.f -> cpu.io.f.to.done"
    contains sim_build_lock_timeout "$T/loop.sim" "lock.m: lock m timeout 0.3 else timeout.lock.m"
fi
run_proper sim build tests/corpus/sim_trace/timeouts.trace -o "$T/noloop.sim" --no-loops
status_is sim_build_no_loops 0 && check sim_build_no_loop_node sh -c "! grep -q ': loop ' '$T/noloop.sim'"
run_proper sim build tests/corpus/sim_trace/server.trace tests/corpus/sim_trace/server.trace -o "$T/two.sim"
status_is sim_build_two_traces 0 && contains sim_build_two_traces_threads "$T/two.sim" "pool worker threads 4"
printf 'proper-threads 1\n1 10 start w\n1 20 end parse\n' > "$T/bad.trace"
expect_error sim_build_bad_trace "bad.trace:3:1: thread 1: end parse without its begin" "$P" sim build "$T/bad.trace" -o "$T/x.sim"
expect_error sim_build_needs_output "build needs -o MODEL" "$P" sim build tests/corpus/sim_trace/server.trace

# bad input
printf 'proper-sim 1\nqueue q\npool p threads 1\n  a: get r -> a\nend\n' > "$T/bad.sim"
expect_error sim_bad_model "bad.sim:4:10: unknown queue 'r'" "$P" sim run "$T/bad.sim"
expect_error sim_missing_file "no/such.sim" "$P" sim run no/such.sim
expect_error sim_unknown_verb "unknown verb 'walk'" "$P" sim walk $EX/mm1.sim
expect_error sim_bad_set "unknown parameter 'bogus'" "$P" sim run $EX/mm1.sim --set bogus=1
expect_error sim_whatif_needs_grid "whatif needs at least one --grid" "$P" sim whatif $EX/mm1.sim
expect_error sim_bad_grid_value "cores=0" "$P" sim whatif $EX/mm1.sim --grid cores=1,0
expect_error sim_bad_horizon "--horizon" "$P" sim run $EX/mm1.sim --horizon -1
printf 'proper-sim 1\nlock m mutex\npool p threads 1\n  a: cpu const(1) -> b\n  b: unlock m -> a\nend\n' > "$T/unlock.sim"
expect_error sim_model_error_at_run "does not hold" "$P" sim run "$T/unlock.sim" --horizon 10
expect_error sim_event_limit "more than 100 events" "$P" sim run $EX/mm1.sim --max-events 100
run_proper --help
status_is sim_listed 0 && matches sim_listed_in_help "$T/out" '^  sim  +[a-z]'
expect_text sim_help 0 "usage: proper sim run" "$P" sim --help

# The example web server's thread events (--thread-trace): 2 workers, 60
# requests of examples/sim/httpload.c at 300/s, built into a model with
# the acceptor as a pool of its own (from the backlog into conn), a pool of
# 2 workers, the open source of the arrivals into the backlog and the
# file's reads as an explicit loop (4 reads of 16 KiB, one of 2 KiB and two
# at the end of the 50 KB file: 6 per request, so the loop body runs 5
# times), each read with its block count, then run.
# SKIPs when loopback sockets are unavailable.
ws=$T/ws
mkdir -p "$ws"
if CFLAGS="-std=c99 -O1 -Wall -Wextra -Wpedantic -Werror" sh examples/webserver/build.sh "$ws/bin" > "$ws/build.log" 2>&1 &&
   cc -std=c99 -O1 -Wall -Wextra -Wpedantic -Werror -o "$ws/bin/httpload" examples/sim/httpload.c -lpthread -lm >> "$ws/build.log" 2>&1; then
    ok sim_webserver_build
    sh examples/webserver/mkdocroot.sh "$ws/root" "$ws/defaults"
    "$ws/bin/server" --root "$ws/root" --defaults "$ws/defaults" --workers 2 --port-file "$ws/port" --max-seconds 30 \
        --thread-trace "$ws/threads.trace" 2> "$ws/server.log" &
    ws_pid=$!
    tries=0
    while [ ! -s "$ws/port" ] && [ $tries -lt 50 ] && kill -0 "$ws_pid" 2>/dev/null; do sleep 0.1; tries=$((tries + 1)); done
    if [ ! -s "$ws/port" ]; then
        skip sim_webserver "cannot listen on 127.0.0.1"
    else
        "$ws/bin/httpload" --port "$(cat "$ws/port")" --rate 300 --requests 60 --warmup 0 > "$ws/load.txt"
        kill -TERM "$ws_pid"; wait "$ws_pid"
        check sim_webserver_load awk '$1 == "requests" && $2 == 60 && $4 == 0 { found = 1 } END { exit !found }' "$ws/load.txt"
        check sim_webserver_trace_done test "$(grep -c ' done' "$ws/threads.trace")" = 60
        run_proper sim build "$ws/threads.trace" -o "$ws/server.sim" --cores 2
        if status_is sim_webserver_build_model 0; then
            contains sim_webserver_pool "$ws/server.sim" "pool worker threads 2"
            contains sim_webserver_acceptor "$ws/server.sim" "pool acceptor threads 1"
            contains sim_webserver_source "$ws/server.sim" "source arrivals.backlog open backlog"
            matches sim_webserver_blocks "$ws/threads.trace" "^[0-9]+ [0-9]+ io read [0-9]+ [0-9]+ @"
            matches sim_webserver_loop "$ws/server.sim" "^  loop.io.read: loop empirical\(5:60\) do "
            expect sim_webserver_model_runs 0 "$P" sim run "$ws/server.sim" --horizon 1 --replications 2
        fi
    fi
else
    cat "$ws/build.log"; fail sim_webserver_build "server or httpload did not compile"
fi
