import HiveKit
extension ConfigurationParser {
    /// `sleep: {follow: true, budget: 4s}`.
    func sleep(_ node: ConfigNode) throws(HiveError) -> SleepConfiguration {
        let map = try node.map(keys: ["follow", "budget"], of: "a map with follow and budget")
        var sleep = SleepConfiguration()
        if let follow = map["follow"] { sleep.follow = try follow.bool() }
        if let budget = map["budget"] { sleep.budget = try budget.duration() }
        return sleep
    }

    /// `memory_pressure: {watch: true, threshold: 200ms, window: 2s, interval: 2s}`. The
    /// window must lie between 500 ms and 10 s and hold the threshold, as the kernel's PSI
    /// triggers require.
    func memoryPressure(_ node: ConfigNode) throws(HiveError) -> MemoryPressureConfiguration {
        let keys = ["watch", "threshold", "window", "interval"]
        let map = try node.map(keys: keys, of: "a map with watch, threshold, window and interval")
        var pressure = MemoryPressureConfiguration()
        if let watch = map["watch"] { pressure.watch = try watch.bool() }
        if let interval = map["interval"] { pressure.interval = try interval.duration() }
        if let window = map["window"] {
            pressure.window = try window.duration()
            guard pressure.window >= .milliseconds(500), pressure.window <= .seconds(10) else {
                throw window.error("must lie between 500ms and 10s (the kernel's bounds for a PSI window), got \(window.found)")
            }
        }
        if let threshold = map["threshold"] {
            pressure.threshold = try threshold.duration()
            guard pressure.threshold <= pressure.window else {
                throw threshold.error(
                    "must not exceed the window of \(pressure.window.shortDescription), got \(threshold.found)")
            }
        }
        return pressure
    }
}
