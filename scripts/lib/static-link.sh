# Sourced by scripts/build-deb and scripts/bench: how a static Swift binary is linked for
# the Debian package, so the Swift floor the benchmarks compare hived with is linked the
# same way.
#
#   static_link_flags SCRATCH [ORDER]   prints `swift build` flags (one per line), after
#                                       writing SCRATCH/static-cxx/libstdc++.so
#
# - --static-swift-stdlib: target machines have no Swift runtime.
# - lld with packed relative relocations (DT_RELR, glibc 2.36+): the static stdlib's
#   ~80,000 relative relocations shrink from 0.9 MB of .rela.dyn to 7 KB, which the
#   loader no longer reads at every start (about 0.8 MiB less resident memory).
# - --disable-local-rpath: no $ORIGIN run path, which sent the loader through the
#   binary's directory (and its glibc-hwcaps subdirectories) for every library.
# - libstdc++ and libgcc's unwinder linked in: the Swift runtime needs a few C++ symbols,
#   and loading libstdc++.so.6 (and libgcc_s.so.1) cost the loader about 1.8 M
#   instructions at every start, half of a static Swift program's. swiftc always asks
#   for `-lstdc++`; a linker script named libstdc++.so, in a directory searched before
#   GCC's, makes that request take the archives instead (libstdc++ and libgcc carry the
#   GCC Runtime Library Exception, so linking them in is fine for any package).
# - Every function in a section of its own, and, given an ORDER file (one symbol a line,
#   packaging/hived.order: the functions hived runs to READY=1, a reload and a stop, as
#   `scripts/bench order` records them), those functions first and together: start-up
#   touches a third fewer pages of code, and the idle daemon keeps about 2 MiB less of
#   its binary resident. Symbols the file names that no longer exist are skipped; a
#   stale file only loses the gain.
static_link_flags() {
    local dir cxx unwind
    cxx=$(gcc -print-file-name=libstdc++.a)
    unwind=$(gcc -print-file-name=libgcc_eh.a)
    if [ ! -f "$cxx" ] || [ ! -f "$unwind" ]; then
        echo "static-link: GCC's libstdc++.a or libgcc_eh.a is missing (apt-get install g++)" >&2
        return 1
    fi
    mkdir -p "$1/static-cxx"
    dir=$(cd "$1/static-cxx" && pwd)
    printf 'INPUT(%s %s)\n' "$cxx" "$unwind" >"$dir/libstdc++.so"
    printf '%s\n' -c release --static-swift-stdlib --disable-local-rpath \
        -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs \
        -Xswiftc -Xclang-linker -Xswiftc "-L$dir" \
        -Xswiftc -Xfrontend -Xswiftc -function-sections
    if [ -n "${2:-}" ]; then
        [ -f "$2" ] || { echo "static-link: no order file $2 (scripts/bench order writes it)" >&2; return 1; }
        printf '%s\n' -Xlinker "--symbol-ordering-file=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")" \
            -Xlinker --no-warn-symbol-ordering
    fi
}
