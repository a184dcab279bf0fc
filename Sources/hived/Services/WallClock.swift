import HiveKit
#if canImport(Glibc)
import Glibc
#endif

/// `SystemClock` as the `WallClock` implementation a configuration's `services:` can name,
/// declared with an annotation rather than in hived's catalog code.
@used @section("hivekit_annotations")
let systemClock: HiveAnnotation = { HiveAnnotations.service(WallClock.self, implementation: SystemClock.self) { SystemClock() } }

/// A demo service: the time of day, for modules that stamp what they report.
protocol WallClock: Sendable {
    /// The current UTC time as `HH:MM:SS`.
    func timeOfDay() -> String
}

/// `WallClock` from the system's real-time clock (`SystemClock` in `services:`).
struct SystemClock: WallClock {
    func timeOfDay() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        let fields = [parts.tm_hour, parts.tm_min, parts.tm_sec].map { $0 < 10 ? "0\($0)" : "\($0)" }
        return fields.joined(separator: ":")
    }
}
