# Background steps for scripts/test: `background NAME COMMAND…` starts COMMAND with its
# standard output and error kept in files; `await NAME` waits for it and on failure shows
# its error output and ends the script; `output NAME` is what it printed. Steps still running
# when the script ends (a failure elsewhere, Ctrl-C) are killed with their children.
background_dir=$(mktemp -d /tmp/hived-steps.XXXXXX)
declare -A background_pids=()
declare -A background_started=()

background_cleanup() {
    local pid
    for pid in "${background_pids[@]}"; do kill -- "-$pid" 2>/dev/null || true; done
    rm -rf "$background_dir"
}
trap background_cleanup EXIT

background() {
    local name=$1
    shift
    background_started[$name]=$SECONDS
    # Its own process group (setsid), so that cleanup ends the builds it started too.
    setsid --wait "$@" >"$background_dir/$name.out" 2>"$background_dir/$name.log" </dev/null &
    background_pids[$name]=$!
}

await() {
    local name=$1 status=0
    wait "${background_pids[$name]}" || status=$?
    unset "background_pids[$name]"
    if [ "$status" -ne 0 ]; then
        echo "scripts/test: $name failed (status $status):" >&2
        cat "$background_dir/$name.log" >&2
        exit 1
    fi
    echo "scripts/test: $name took $((SECONDS - background_started[$name])) s (in the background)" >&2
}

output() {
    cat "$background_dir/$1.out"
}
