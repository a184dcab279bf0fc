import Glibc
@testable import HiveDaemon
import HiveKit
import Synchronization
import Testing

@Suite struct OutputWriterTests {
    /// A sink that takes nothing until the test opens it, as a pipe nobody drains.
    final class GatedSink: Sendable {
        let delivered = Mutex<[String]>([])
        let isOpen = Mutex(false)

        func deliver(_ item: String) {
            while !isOpen.withLock({ $0 }) { usleep(1_000) }
            delivered.withLock { $0.append(item) }
        }
    }

    @Test func aStalledSinkNeverBlocksTheCallerAndDropsAreCountedWhereTheyHappened() {
        let sink = GatedSink()
        let writer = OutputWriter<String>(
            name: "test-writer", maximumItems: 3, maximumBytes: 1 << 20,
            deliver: { sink.deliver($0) }, dropNotice: { count, _ in "dropped \(count)" })
        let started = MonotonicClock.nanoseconds()
        var accepted = 0
        for index in 0..<1_000 where writer.enqueue("line \(index)", bytes: 8) { accepted += 1 }
        #expect(MonotonicClock.nanoseconds() - started < 5_000_000_000, "enqueue never waits for the sink")
        #expect(accepted >= 3 && accepted <= 6, "at most twice the bound: \(accepted)")
        #expect(writer.droppedCount == 1_000 - accepted)
        #expect(!writer.flush(until: MonotonicClock.nanoseconds() + 10_000_000), "the sink takes nothing yet")
        #expect(writer.backlog() != nil)

        sink.isOpen.withLock { $0 = true }
        #expect(writer.flush(until: MonotonicClock.nanoseconds() + 10_000_000_000))
        #expect(writer.backlog() == nil)
        let delivered = sink.delivered.withLock { $0 }
        // The writer takes its first line whenever its thread gets to run, which frees a
        // place in the queue: lines may be accepted between drops, and each run of drops
        // then has a notice of its own, where those lines are missing.
        let lines = delivered.filter { $0.hasPrefix("line ") }
        let notices = delivered.compactMap { $0.hasPrefix("dropped ") ? Int($0.dropFirst(8)) : nil }
        #expect(lines.count == accepted)
        #expect(lines.count + notices.count == delivered.count)
        #expect(delivered.first == "line 0")
        #expect(notices.reduce(0, +) == 1_000 - accepted, "every dropped line is counted in a notice")
        #expect(writer.enqueue("after", bytes: 5))
        #expect(writer.flush(until: MonotonicClock.nanoseconds() + 10_000_000_000))
        #expect(sink.delivered.withLock { $0.last } == "after")
    }

    @Test func byteBoundCountsToo() {
        let sink = GatedSink()
        let writer = OutputWriter<String>(
            name: "test-writer", maximumItems: 1_000, maximumBytes: 100,
            deliver: { sink.deliver($0) }, dropNotice: { count, _ in "dropped \(count)" })
        var accepted = 0
        for _ in 0..<100 where writer.enqueue(String(repeating: "x", count: 40), bytes: 40) { accepted += 1 }
        #expect(accepted >= 2 && accepted <= 5)
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
