# Sums the instructions of `callgrind_annotate --threshold=100` output by component
# (the loader, libc, libsystemd, libyaml, the Swift runtime and standard library,
# swift-log, swift-metrics, ArgumentParser, HiveKit, HiveDaemon, hived) and prints
# "COMPONENT<TAB>INSTRUCTIONS" lines, the total (callgrind's own) first. Names are
# mangled (callgrind --demangle=no): Swift symbols start with $s plus the module name's
# length and name; generic code specialized for a module's types still counts as the
# standard library's.
# A dump taken while other threads run charges them, once each, to clone and
# start_thread as if it were their own cost: those two lines are skipped.
/PROGRAM TOTALS/ { total = $1; gsub(",", "", total); next }
/^ *[0-9,]+ +\(/ && !/:clone \[|:start_thread \[/ {
    count = $1; gsub(",", "", count)
    line = $0
    object = ""
    if (match(line, /\[[^]]*\]$/)) object = substr(line, RSTART + 1, RLENGTH - 2)
    # glibc's own functions carry their source path (./elf/…: the loader).
    file = substr(line, index(line, ")") + 1)
    sub(/^ +/, "", file)
    if (object ~ /ld-linux/ || (object == "" && file ~ /^\.\/elf\//)) part = "dynamic loader"
    else if (object ~ /libc\.so|libm\.so/ || (object == "" && file ~ /^\.\//)) part = "libc"
    else if (object ~ /libsystemd|libgcrypt|libgpg-error|liblz4|libzstd|liblzma|libcap/) part = "libsystemd"
    else if (object ~ /libyaml/) part = "libyaml"
    else if (line ~ /\$s7HiveKit/) part = "HiveKit"
    else if (line ~ /\$s10HiveDaemon/) part = "HiveDaemon"
    else if (line ~ /\$s5hived/) part = "hived"
    else if (line ~ /\$s7Logging/) part = "swift-log"
    else if (line ~ /\$s7Metrics|\$s11CoreMetrics|\$s10Prometheus/) part = "swift-metrics, Prometheus"
    else if (line ~ /\$s14ArgumentParser/) part = "ArgumentParser"
    else if (object == "" || line ~ /\?\?\?:/) part = "Swift runtime, standard library, Dispatch"
    else part = "other"
    sums[part] += count
}
END {
    printf "total\t%d\n", total
    for (part in sums) printf "%s\t%d\n", part, sums[part]
}
