import HiveKit
/// Whether and how hived watches memory pressure (the `memory_pressure:` section of the
/// configuration; see systemd.io/MEMORY_PRESSURE).
///
/// ## Configuration keys
/// - `memory_pressure.watch`: deliver `memoryWarning` on memory pressure (default `true`).
///   Takes effect at the next start.
/// - `memory_pressure.threshold`, `memory_pressure.window`: the PSI trigger hived arms
///   when systemd hands it none (`MEMORY_PRESSURE_WATCH` unset): `some` stall time of
///   `threshold` within `window` (defaults `200ms` and `2s`; the kernel lets unprivileged
///   processes arm windows that are whole multiples of 2 s, up to 10 s). Take effect at the next start.
/// - `memory_pressure.interval`: at most one `memoryWarning` per interval (default `2s`).
///   A reload applies it at once.
public struct MemoryPressureConfiguration: Sendable, Hashable {
    /// Whether to watch memory pressure.
    public var watch: Bool
    /// The PSI trigger's stall threshold.
    public var threshold: Duration
    /// The PSI trigger's window.
    public var window: Duration
    /// The shortest time between two `memoryWarning` events.
    public var interval: Duration

    /// A memory pressure configuration; the defaults are `some 200ms 2s`, one warning
    /// per 2 s at most.
    init(
        watch: Bool = true, threshold: Duration = .milliseconds(200), window: Duration = .seconds(2),
        interval: Duration = .seconds(2)
    ) {
        self.watch = watch
        self.threshold = threshold
        self.window = window
        self.interval = interval
    }
}
