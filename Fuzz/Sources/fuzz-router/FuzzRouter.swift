import CFuzzer
import HiveKit

let hive = Hive()

/// libFuzzer's entry point: `PATTERN\nURL` per call. The pattern is registered (or
/// refused as invalid), the URL and the pattern are matched, and the route is removed
/// again, so the router does not grow over a run.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRouter(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
    let pattern = String(parts[0])
    let url = parts.count > 1 ? String(parts[1]) : pattern
    let router = hive.router
    let registered = (try? router.register(pattern) { _ in true }) != nil
    _ = router.canOpen(url)
    _ = router.canOpen(pattern)
    if registered { _ = router.unregister(pattern) }
    return 0
}

/// The executable's entry point (SwiftPM links `main` to it): runs libFuzzer's driver.
@_cdecl("fuzz_router_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    var count = argc
    var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { fuzzRouter($0!, $1) }
}
