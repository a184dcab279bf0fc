extension SystemdContainer {
    /// `sh -c mountScript mount DIR LOWER`: the tmpfs for the upper layer and the overlay
    /// over LOWER (`/`, or a cached Debian tree).
    static let mountScript = #"""
        set -eu
        dir=$1 lower=$2
        mkdir "$dir/layer" "$dir/merged"
        mount -t tmpfs -o mode=0755,size=4G hived-suite "$dir/layer"
        mkdir "$dir/layer/upper" "$dir/layer/work"
        mount -t overlay hived-suite \
            -o "lowerdir=$lower,upperdir=$dir/layer/upper,workdir=$dir/layer/work" "$dir/merged"
        """#

    /// `bash -c launchScript launch DIR OWNER MACHINE STOPSCRIPT UNIFIED [OPTION…]`: starts
    /// systemd-nspawn (with the nspawn OPTIONs, e.g. `--bind-ro=`) in its own session (a
    /// Ctrl-C of the test run does not reach it), writes its pid to DIR/nspawn.pid, and
    /// starts the guardian: a process that waits for the test process OWNER to end and, if
    /// DIR still exists then, stops the container and cleans up.
    ///
    /// With UNIFIED non-empty the container gets cgroup v2 alone
    /// (`SYSTEMD_NSPAWN_UNIFIED_HIERARCHY=1`), its part of this machine's unified hierarchy
    /// mounted at its /sys/fs/cgroup: systemd 257 no longer supports the legacy hierarchies,
    /// and only on v2 hands out `MEMORY_PRESSURE_WATCH`. (Here that hierarchy sits beside
    /// the v1 controllers, so it has none of its own: no memory controller, for one.)
    ///
    /// nspawn starts in a cgroup of its own, MACHINE, below the launcher's (in the
    /// `name=systemd` and unified hierarchies; the paths go to DIR/cgroups for the stop
    /// script). nspawn puts the container's cgroups (`payload`, `supervisor`) below the one
    /// it starts in: without this, containers booted at the same time on a machine without
    /// systemd of its own all share `/payload`, and each container's systemd counts (and
    /// signals, and kills at stop) the others' hived as its own.
    ///
    /// The services and timers the container's root enabled (in
    /// /etc/systemd/system/multi-user.target.wants and timers.target.wants: a database,
    /// apt's daily runs) are masked in the container (`systemd.mask=` on its command line):
    /// the container shares this machine's network, and a database that cannot bind its port
    /// because another copy of the suite holds it keeps the boot waiting for good.
    ///
    /// It first closes every inherited descriptor above 2: Foundation's `Process` learns
    /// that a child exited from a descriptor the child inherits, so long-lived grandchildren
    /// holding it would make launching look like it never finishes. (bash, because dash
    /// cannot name descriptors above 9.)
    static let launchScript = #"""
        set -eu
        dir=$1 owner=$2 machine=$3 stop=$4 unified=$5
        shift 5
        options=("$@")
        for fd in $(ls /proc/$$/fd); do
            if [ "$fd" -gt 2 ]; then eval "exec $fd>&-"; fi
        done
        setsid sh -c '
            while kill -0 "$2" 2>/dev/null && [ -d "$1" ]; do sleep 1; done
            [ -d "$1" ] && sh -c "$4" stop "$1" "$3"
        ' guardian "$dir" "$owner" "$machine" "$stop" </dev/null >/dev/null 2>&1 &
        while IFS=: read -r _ controllers path; do
            case "$controllers" in
                name=systemd) base=/sys/fs/cgroup/systemd ;;
                "") if [ -f /sys/fs/cgroup/unified/cgroup.procs ]; then base=/sys/fs/cgroup/unified
                    elif [ -f /sys/fs/cgroup/cgroup.procs ]; then base=/sys/fs/cgroup
                    else continue; fi ;;
                *) continue ;;
            esac
            own="${base}${path%/}/$machine"
            mkdir -p "$own"
            echo "$own" >>"$dir/cgroups"
            echo $$ >"$own/cgroup.procs"
        done </proc/self/cgroup
        set -- systemd.firstboot=off
        for unit in "$dir"/merged/etc/systemd/system/multi-user.target.wants/*.service \
                    "$dir"/merged/etc/systemd/system/timers.target.wants/*.timer; do
            [ -e "$unit" ] && set -- "$@" "systemd.mask=${unit##*/}"
        done
        if [ -n "$unified" ]; then export SYSTEMD_NSPAWN_UNIFIED_HIERARCHY=1; fi
        setsid systemd-nspawn --quiet --register=no --keep-unit --console=passive \
            --machine="$machine" --directory="$dir/merged" "${options[@]}" \
            --boot "$@" </dev/null >"$dir/nspawn.log" 2>&1 &
        echo $! >"$dir/nspawn.pid"
        """#

    /// `sh -c stopScript stop DIR MACHINE`: stops the container (SIGTERM asks nspawn for a
    /// clean poweroff; SIGKILL to nspawn and the container's PID 1 after 30 s), unmounts
    /// the overlay and the tmpfs, removes the cgroups the launch script made, and removes
    /// DIR, but only once nothing is mounted below it, so a failed unmount can never lead
    /// `rm` into the machine's own files.
    static let stopScript = #"""
        dir=$1 machine=$2
        pid=$(cat "$dir/nspawn.pid" 2>/dev/null || true)
        leader=$(cat "$dir/leader.pid" 2>/dev/null || true)
        alive() {
            [ -n "$1" ] && [ -r "/proc/$1/cmdline" ] &&
                ! grep -q '^[0-9]* (.*) Z' "/proc/$1/stat" 2>/dev/null &&
                tr '\0' ' ' <"/proc/$1/cmdline" | grep -qF "$3"
        }
        if alive "$pid" x "$dir"; then
            kill -TERM "$pid" 2>/dev/null || true
            i=0
            while alive "$pid" x "$dir" && [ $i -lt 150 ]; do sleep 0.2; i=$((i + 1)); done
            if alive "$pid" x "$dir"; then
                kill -KILL "$pid" 2>/dev/null || true
                alive "$leader" x systemd && kill -KILL "$leader" 2>/dev/null || true
                sleep 1
            fi
        fi
        for m in merged layer; do
            if mountpoint -q "$dir/$m"; then
                umount "$dir/$m" 2>/dev/null || umount -l "$dir/$m"
            fi
        done
        rmdir "/run/systemd/nspawn/propagate/$machine" 2>/dev/null || true
        if [ -f "$dir/cgroups" ]; then
            while read -r own; do
                [ -d "$own" ] && find "$own" -depth -type d -exec rmdir {} \; 2>/dev/null || true
            done <"$dir/cgroups"
        fi
        if mountpoint -q "$dir/merged" || mountpoint -q "$dir/layer"; then
            echo "still mounted below $dir; left in place" >&2
            exit 1
        fi
        rm -rf --one-file-system "$dir"
        """#
}
