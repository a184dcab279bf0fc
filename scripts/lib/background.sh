# Background steps for scripts/test: `background [--shown] [--idle] NAME COMMAND…` starts
# COMMAND with its standard output and error kept in files (--shown: on the terminal, as
# they come; --idle: at the lowest priority, so that it takes only the CPU the others
# leave); `await NAME` waits for it and on failure shows its error output and ends the
# script; `output NAME` is what it printed. `pause NAME…` stops steps with their children
# (SIGSTOP) and `resume NAME…` lets them go on (SIGCONT): what must not load the machine
# while a timing-sensitive test process runs. Steps still running when the script ends (a
# failure elsewhere, Ctrl-C) are killed with their children.
background_dir=$(mktemp -d /tmp/hived-steps.XXXXXX)
declare -A background_pids=()
declare -A background_started=()

background_cleanup() {
    local pid
    # A paused step must go on to see its SIGTERM.
    for pid in "${background_pids[@]}"; do kill -- "-$pid" 2>/dev/null || true; kill -CONT -- "-$pid" 2>/dev/null || true; done
    rm -rf "$background_dir"
}
trap background_cleanup EXIT

background() {
    local shown=false idle=false name
    while :; do
        case "$1" in
        --shown) shown=true ;;
        --idle) idle=true ;;
        *) break ;;
        esac
        shift
    done
    name=$1
    shift
    background_started[$name]=$SECONDS
    # Its own session and process group (setsid, which does not fork here: a script's
    # background job leads no group), so that pause, resume and cleanup reach the builds it
    # started too. A new session is also a scheduling group of its own where the kernel
    # groups sessions (sched_autogroup): there a process's nice value counts only within
    # its group, so --idle lowers the group's (/proc/self/autogroup) as well.
    if [ "$idle" = true ]; then
        set -- sh -c 'echo 19 >/proc/self/autogroup 2>/dev/null; exec nice -n 19 "$@"' idle "$@"
    fi
    if [ "$shown" = true ]; then
        : >"$background_dir/$name.log"
        setsid --wait "$@" </dev/null &
    else
        setsid --wait "$@" >"$background_dir/$name.out" 2>"$background_dir/$name.log" </dev/null &
    fi
    background_pids[$name]=$!
}

pause() {
    local name
    for name in "$@"; do kill -STOP -- "-${background_pids[$name]}" 2>/dev/null || true; done
}

resume() {
    local name
    for name in "$@"; do kill -CONT -- "-${background_pids[$name]}" 2>/dev/null || true; done
}

await() {
    local name=$1 status=0
    wait "${background_pids[$name]}" || status=$?
    unset "background_pids[$name]"
    if [ "$status" -ne 0 ]; then
        if [ -s "$background_dir/$name.log" ]; then
            echo "scripts/test: $name failed (status $status):" >&2
            cat "$background_dir/$name.log" >&2
        else
            echo "scripts/test: $name failed (status $status; its output is above)" >&2
        fi
        exit 1
    fi
    echo "scripts/test: $name took $((SECONDS - background_started[$name])) s (in the background)" >&2
}

output() {
    cat "$background_dir/$1.out"
}
