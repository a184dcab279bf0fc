#if canImport(Glibc)
/// The Swift runtime's hook for `CommandLine.arguments`: what it returns from then on.
@_extern(c, "_swift_stdlib_overrideUnsafeArgvArgc")
private func overrideArguments(_ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, _ argc: Int32)

/// Hands the program's arguments to the Swift runtime before `main`, so that
/// `CommandLine.arguments` holds them where `/proc` is not mounted (a chroot, an early-boot
/// or image-build step).
///
/// On Linux the runtime reads `CommandLine.arguments` from `/proc/self/cmdline`: without
/// `/proc` a daemon would see none, and `NAME check-config PATH` would run the daemon.
/// glibc calls every function of an image's `.init_array` with the program's `argc`,
/// `argv` and `envp`, before `main`; this one passes the first two to the runtime
/// (`argv` lives for the whole process, on the initial stack).
@used @section(".init_array")
let hiveCaptureArguments: @convention(c) (
    Int32, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Void = { argc, argv, _ in
    if let argv, argc > 0 { overrideArguments(argv, argc) }
}
#endif
