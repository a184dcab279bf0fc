# Background steps for scripts/test: `background [--shown] [--idle] NAME COMMAND…` starts
# COMMAND with its standard output and error kept in files (--shown: on the terminal, as
# they come; --idle: at the lowest priority, so that it takes only the CPU the others
# leave); `await NAME` waits for it and on failure shows what it printed and ends the
# script; `output NAME` is what it printed. `pause NAME…` stops steps with their children
# (SIGSTOP) and `resume NAME…` lets them go on (SIGCONT): what must not load the machine
# while a timing-sensitive test process runs. Steps still running when the script ends (a
# failure elsewhere, Ctrl-C, SIGTERM) are killed with their children (not if the script
# is killed with SIGKILL: then a paused step stays stopped until `pkill -CONT` or reboot).
background_dir=$(mktemp -d /tmp/hived-steps.XXXXXX)
declare -A background_pids=()
declare -A background_started=()
declare -A background_shown=()

# Sends SIGNAL to every process of the step whose session is SID. Signalled by session,
# not by process group: llbuild starts each compile job in a process group of its own, but
# all stay in the step's session.
signal_step() {
    pkill "-$1" -s "$2" 2>/dev/null || true
}

background_cleanup() {
    local pid
    # A paused step must go on to see its SIGTERM.
    for pid in "${background_pids[@]}"; do signal_step TERM "$pid"; signal_step CONT "$pid"; done
    rm -rf "$background_dir"
}
trap background_cleanup EXIT
# Ended by a signal, the script still runs its EXIT trap (bash does not, otherwise), so
# that no step is left running, or paused for ever holding its build directory's lock.
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

background() {
    local shown=false idle=false name
    while :; do
        case "${1:-}" in
        --shown) shown=true ;;
        --idle) idle=true ;;
        *) break ;;
        esac
        shift
    done
    name=$1
    shift
    background_started[$name]=$SECONDS
    background_shown[$name]=$shown
    # A session of its own (setsid, which does not fork here: a script's background job
    # leads no group, so the step's pid is its session's id), so that pause, resume and
    # cleanup reach every process it starts. Where the kernel schedules each session as a
    # group (sched_autogroup) a process's nice value counts only within its group, so
    # --idle lowers the group's (/proc/self/autogroup) as well; the kernel takes one such
    # change in 100 ms from an unprivileged user, hence the retries.
    if [ "$idle" = true ]; then
        set -- sh -c 'for _ in 1 2 3 4 5; do echo 19 2>/dev/null >/proc/self/autogroup && break; sleep 0.1; done
                      exec nice -n 19 "$@"' idle "$@"
    fi
    if [ "$shown" = true ]; then
        setsid --wait "$@" </dev/null &
    else
        setsid --wait "$@" >"$background_dir/$name.out" 2>"$background_dir/$name.log" </dev/null &
    fi
    background_pids[$name]=$!
}

pause() {
    local name sid states _
    for name in "$@"; do
        sid=${background_pids[$name]}
        # Until every process of the step is stopped: one may have started another meanwhile.
        for _ in 1 2 3 4 5 6 7 8 9 10; do
            signal_step STOP "$sid"
            states=$(ps -s "$sid" -o stat= || true)
            grep -qv '^ *[TZ]' <<<"$states" || break
            sleep 0.05
        done
    done
}

resume() {
    local name
    for name in "$@"; do signal_step CONT "${background_pids[$name]}"; done
}

await() {
    local name=$1 status=0
    wait "${background_pids[$name]}" || status=$?
    unset "background_pids[$name]"
    if [ "$status" -ne 0 ]; then
        if [ "${background_shown[$name]}" = true ]; then
            echo "scripts/test: $name failed (status $status; its output is above)" >&2
        else
            # Both: SwiftPM prints a compiler's errors on standard output.
            echo "scripts/test: $name failed (status $status):" >&2
            cat "$background_dir/$name.out" "$background_dir/$name.log" >&2
        fi
        exit 1
    fi
    echo "scripts/test: $name took $((SECONDS - background_started[$name])) s (in the background)" >&2
}

output() {
    cat "$background_dir/$1.out"
}
