import BenchSupport
import CMalloc
import HiveKit

#if canImport(Glibc)
import Glibc
#endif

/// Issue 2: memory per registered module, as heap bytes (glibc `mallinfo2`) and as
/// resident-set growth (`/proc/self/statm`) over 10,000 no-op modules.
///
/// Run it in a fresh process: earlier benchmarks leave freed heap that would hide growth.
enum MemoryBenchmark {
    static let count = 10_000

    static func run() async throws {
        // One small hive first, so one-time allocations (runtime metadata, logging
        // bootstrap) are not charged to the modules.
        let warm = try await runningHive(noOpRegistrations(10))
        await warm.stop()

        let heap0 = heapBytes()
        let rss0 = residentBytes()
        var registrations = noOpRegistrations(count)
        let hive = try Hive(HiveConfiguration(environment: .testing), modules: registrations)
        registrations = []
        let heap1 = heapBytes()
        let rss1 = residentBytes()
        try await hive.start()
        try await hive.send(.ready)
        for _ in 0..<10 { try await hive.send(.memoryWarning) }
        let heap2 = heapBytes()
        let rss2 = residentBytes()
        withExtendedLifetime((hive, registrations)) {}

        let n = Double(count)
        let heapRegistered = Double(heap1 - heap0) / n
        let heapStarted = Double(heap2 - heap0) / n
        let rssRegistered = Double(rss1 - rss0) / n
        let rssStarted = Double(rss2 - rss0) / n
        Row(
            "memory: heap per registered module", Summary([heapRegistered]), unit: .bytes,
            aim: "small",
            note: "mallinfo2 over 10,000 modules; RSS growth \(format(rssRegistered, .bytes))"
        ).print()
        Row(
            "memory: heap per module after start + 10 events", Summary([heapStarted]), unit: .bytes,
            aim: "small",
            note: "incl. start-up profile; RSS growth \(format(rssStarted, .bytes))"
        ).print()
        await hive.stop()
    }

    /// Bytes handed out by malloc: arena plus mmapped chunks.
    static func heapBytes() -> Int {
        let info = mallinfo2()
        return Int(info.uordblks) + Int(info.hblkhd)
    }
}
