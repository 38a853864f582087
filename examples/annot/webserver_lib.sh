# webserver_lib.sh — start and stop the example web server (examples/webserver/)
# from a script, sourced: `. examples/annot/webserver_lib.sh` from the
# repository's top directory. The start-up of examples/webserver/record.sh
# (a scratch directory removed on exit, the server on a free loopback port,
# stopped with SIGTERM so that it flushes its trace), as functions that any
# recording script can share.
#
#   ws_setup PREFIX          $work: a scratch directory (removed on exit,
#                            with a running server stopped); builds server
#                            and loadgen into $work/bin (build.sh)
#   ws_start NAME ARGS...    starts $work/bin/server --port 0 ARGS (its
#                            stderr in $work/server.log), waits until it
#                            listens; sets $port; NAME names the caller in
#                            messages
#   ws_stop                  SIGTERM, then waits for the server to exit

ws_setup() {
    work=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
    server_pid=
    trap ws_cleanup EXIT
    trap 'exit 1' INT TERM
    sh examples/webserver/build.sh "$work/bin"
}

ws_cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}

ws_start() {
    ws_name=$1; shift
    rm -f "$work/port"
    "$work/bin/server" --port 0 --port-file "$work/port" --max-seconds 900 "$@" 2> "$work/server.log" &
    server_pid=$!
    ws_tries=0
    while [ ! -s "$work/port" ]; do
        ws_tries=$((ws_tries + 1))
        if [ $ws_tries -gt 100 ] || ! kill -0 "$server_pid" 2>/dev/null; then
            cat "$work/server.log" >&2
            echo "$ws_name: the server did not start" >&2
            exit 1
        fi
        sleep 0.1
    done
    port=$(cat "$work/port")
}

ws_stop() {
    kill -TERM "$server_pid"
    wait "$server_pid"
    server_pid=
}
