@testable import HiveDaemon
import HiveKit
import Testing

/// The subscribers' ring: each subscriber reads from a cursor of its own, so one that
/// falls behind loses events (and is dropped) alone while the others read on.
@Suite struct ControlSubscriptionTests {
    struct Quiet: Module {}

    /// A running hive with one module: every custom event is two notices (the handler's
    /// outcome, then the event).
    static func runningHive() async throws -> Hive {
        let hive = try Hive(modules: [(Quiet(), ModuleDescriptor(name: "a"))])
        try await hive.start()
        try await hive.send(.ready)
        return hive
    }

    /// The custom events' names in what a reader at `cursor` gets, reading it all.
    static func readAll(_ subscription: ControlSubscription, from cursor: inout UInt64) -> [String]? {
        var names: [String] = []
        while true {
            guard let batch = subscription.notices(from: cursor, limit: 256) else { return nil }
            if batch.isEmpty { return names }
            names += batch.filter { $0.module == nil }.compactMap(\.name)
            cursor += UInt64(batch.count)
        }
    }

    @Test func aReaderKeepsEveryEventWhileOneThatStoppedReadingLosesItsOwn() async throws {
        let hive = try await Self.runningHive()
        let subscription = ControlSubscription(hive: hive)
        subscription.observe(true)
        var reader = subscription.nextSequence
        let stopped = reader
        var received: [String] = []
        for index in 0..<3000 {
            try await hive.send(.custom(name: "e\(index)", params: [:]))
            if index % 100 == 99 { received += try #require(Self.readAll(subscription, from: &reader)) }
        }
        received += try #require(Self.readAll(subscription, from: &reader))
        #expect(received == (0..<3000).map { "e\($0)" }, "the reader got every event, in order")
        #expect(subscription.notices(from: stopped, limit: 1) == nil, "6,000 notices later, the stopped reader's were overwritten")
        subscription.observe(false)
        await hive.stop()
    }

    @Test func aReaderMayFallExactlyTheCapacityBehind() async throws {
        let hive = try await Self.runningHive()
        let subscription = ControlSubscription(hive: hive)
        subscription.observe(true)
        var cursor = subscription.nextSequence
        for index in 0..<(ControlSubscription.capacity / 2) {
            try await hive.send(.custom(name: "e\(index)", params: [:]))
        }
        #expect(subscription.notices(from: cursor, limit: 1)?.first?.module == "a", "capacity notices behind: all still there")
        try await hive.send(.custom(name: "one more", params: [:]))
        #expect(subscription.notices(from: cursor, limit: 1) == nil, "one notice more: the oldest was overwritten")
        // A reader that starts now reads only what comes next.
        cursor = subscription.nextSequence
        try await hive.send(.custom(name: "next", params: [:]))
        #expect(Self.readAll(subscription, from: &cursor) == ["next"])
        subscription.observe(false)
        await hive.stop()
    }
}
