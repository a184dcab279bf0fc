/// One way to run many no-op units: HiveKit modules (sync or async) or a
/// swift-service-lifecycle `ServiceGroup` of services.
protocol Candidate: Sendable {
    /// How it appears in the table: `ServiceGroup`, `HiveKit sync`.
    var label: String { get }
    /// Starts `units` no-op units, then, if `stopping`, stops them in order, and reports
    /// what it took. Without `stopping` the units keep running (a memory probe that exits).
    func cycle(units: Int, stopping: Bool) async throws -> Cycle
}

/// One start and stop of N units.
struct Cycle: Sendable {
    /// Nanoseconds from building the group or hive (units already made) until every unit
    /// runs.
    var start: Double
    /// Nanoseconds from asking for the stop until every unit stopped, in order; 0 when
    /// not stopped.
    var stop: Double
    /// Heap bytes in use (glibc `mallinfo2`) once every unit runs, minus before the units
    /// were made.
    var heap: Double
    /// Resident bytes once every unit runs, minus before the units were made: heap freed
    /// during the start (tasks that ended) but kept by malloc counts here.
    var resident: Double
}
