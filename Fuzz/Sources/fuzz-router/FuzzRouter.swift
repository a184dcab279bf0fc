import CFuzzer
import HiveKit

let hive = Hive()
/// A hive whose tables read and match URLs every other way (JLRoutes' hosts and `+`,
/// MGJRouter's prefix matches and literal suffixes).
let optioned: Hive = {
    let hive = Hive()
    var options = RouteOptions()
    options.decodesPlusInQuery = false
    options.alwaysTreatsHostAsPathComponent = false
    options.matchesPrefixes = true
    options.literalSuffixes = true
    hive.router.setOptions(options, scheme: nil)
    return hive
}()

/// libFuzzer's entry point: `PATTERN\nURL` per call. The pattern is registered (or
/// refused as invalid), the URL and the pattern are matched, and the route is removed
/// again, so the router does not grow over a run; the same in a hive whose global table
/// has every option the other way.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRouter(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
    let pattern = String(parts[0])
    let url = parts.count > 1 ? String(parts[1]) : pattern
    for router in [hive.router, optioned.router] {
        let registered = (try? router.register(pattern) { _ in true }) != nil
        _ = router.canOpen(url)
        _ = router.canOpen(pattern)
        if registered { _ = router.unregister(pattern) }
    }
    return 0
}

/// The executable's entry point (SwiftPM links `main` to it): runs libFuzzer's driver.
@_cdecl("fuzz_router_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    var count = argc
    var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { fuzzRouter($0!, $1) }
}
