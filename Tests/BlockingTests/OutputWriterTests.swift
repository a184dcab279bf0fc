import Glibc
@testable import HiveDaemon
import HiveKit
import Synchronization
import TestSupport
import Testing

@Suite(.runsIn(.blocking)) struct OutputWriterTests {
    /// A sink that takes nothing until the test lets it (one item at a time, or all), as a
    /// pipe nobody drains; it counts the items the writer thread has tried to hand it.
    final class GatedSink: Sendable {
        let delivered = Mutex<[String]>([])
        let isOpen = Mutex(false)
        let permits = Mutex(0)
        let offered = Atomic<Int>(0)

        func deliver(_ item: String) {
            offered.add(1, ordering: .sequentiallyConsistent)
            while !isOpen.withLock({ $0 }) {
                let permitted = permits.withLock { permits in
                    guard permits > 0 else { return false }
                    permits -= 1
                    return true
                }
                if permitted { break }
                usleep(1_000)
            }
            delivered.withLock { $0.append(item) }
        }

        /// Waits until the writer thread holds its `count`th item in ``deliver(_:)``: it
        /// took it (when its thread got to run), so the queue holds only what comes next.
        func waitUntilOffered(_ count: Int) {
            let deadline = MonotonicClock.nanoseconds() + 10_000_000_000
            while offered.load(ordering: .sequentiallyConsistent) < count, MonotonicClock.nanoseconds() < deadline {
                usleep(1_000)
            }
        }
    }

    /// A writer of strings (their size: their UTF-8 bytes) into `sink`.
    static func writer(maximumItems: Int, maximumBytes: Int, _ sink: GatedSink) -> OutputWriter<DroppingQueue<String>> {
        OutputWriter(
            name: "test-writer",
            queue: DroppingQueue(
                maximumItems: maximumItems, maximumBytes: maximumBytes, size: { $0.utf8.count },
                notice: { count, _ in "dropped \(count)" }),
            deliver: { sink.deliver($0) })
    }

    @Test func aStalledSinkNeverBlocksTheCallerAndDropsAreCountedWhereTheyHappened() {
        let sink = GatedSink()
        let writer = Self.writer(maximumItems: 3, maximumBytes: 1 << 20, sink)
        // The writer takes line 0 and waits in the sink; the bound (3) then counts only what
        // comes after, whenever the writer's thread got to run.
        #expect(writer.enqueue("line 0"))
        sink.waitUntilOffered(1)
        let started = MonotonicClock.nanoseconds()
        var accepted = 1
        for index in 1..<1_000 where writer.enqueue("line \(index)") { accepted += 1 }
        #expect(MonotonicClock.nanoseconds() - started < 5_000_000_000, "enqueue never waits for the sink")
        #expect(accepted == 4, "the item being delivered no longer counts: at most the bound + 1")
        #expect(writer.droppedCount == 996)
        #expect(!writer.flush(until: MonotonicClock.nanoseconds() + 10_000_000), "the sink takes nothing yet")
        #expect(writer.backlog() != nil)

        // The sink takes line 0; the writer takes line 1 and waits on it, which leaves room
        // for one more: a second run of drops, after a line accepted again, has a notice of
        // its own.
        sink.permits.withLock { $0 = 1 }
        sink.waitUntilOffered(2)
        for index in 1_000..<1_010 where writer.enqueue("line \(index)") { accepted += 1 }
        #expect(accepted == 5)
        #expect(writer.droppedCount == 996 + 9)

        sink.isOpen.withLock { $0 = true }
        #expect(writer.flush(until: MonotonicClock.nanoseconds() + 10_000_000_000))
        #expect(writer.backlog() == nil)
        let delivered = sink.delivered.withLock { $0 }
        // Every accepted line, in order, and each run of drops counted where it happened.
        #expect(delivered == ["line 0", "line 1", "line 2", "line 3", "dropped 996", "line 1000", "dropped 9"])
        let lines = delivered.filter { $0.hasPrefix("line ") }
        let notices = delivered.compactMap { $0.hasPrefix("dropped ") ? Int($0.dropFirst(8)) : nil }
        #expect(lines.count == accepted)
        #expect(lines.count + notices.count == delivered.count)
        #expect(notices.reduce(0, +) == writer.droppedCount, "every dropped line is counted in a notice")
        #expect(writer.enqueue("after"))
        #expect(writer.flush(until: MonotonicClock.nanoseconds() + 10_000_000_000))
        #expect(sink.delivered.withLock { $0.last } == "after")
    }

    @Test func byteBoundCountsToo() {
        let sink = GatedSink()
        let writer = Self.writer(maximumItems: 1_000, maximumBytes: 100, sink)
        #expect(writer.enqueue("first"))
        sink.waitUntilOffered(1)
        var accepted = 0
        for _ in 0..<100 where writer.enqueue(String(repeating: "x", count: 40)) { accepted += 1 }
        #expect(accepted == 2, "100 bytes hold two 40-byte lines")
        #expect(writer.droppedCount == 98)
        sink.isOpen.withLock { $0 = true }
        #expect(writer.flush(until: MonotonicClock.nanoseconds() + 10_000_000_000))
    }

    @Test func longLinesAreCutOnACharacterBoundary() {
        let line = String(repeating: "é", count: StderrWriter.maximumLineBytes) + "\n"
        let capped = StderrWriter.capped(line)
        #expect(capped.utf8.count < StderrWriter.maximumLineBytes + 100)
        #expect(capped.hasSuffix("bytes cut)\n"))
        #expect(StderrWriter.capped("short\n") == "short\n")
    }
}
