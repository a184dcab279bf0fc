@testable import HiveKit
import Logging
import TestSupport
import Testing

@Suite struct ProfileValueTests {
    static func stats(_ milliseconds: Int, _ outcome: HandlerOutcome = .succeeded) -> HandlerStats {
        var stats = HandlerStats()
        stats.record(nanoseconds: UInt64(milliseconds) * 1_000_000, outcome: outcome)
        return stats
    }

    @Test func blameBreaksTiesByStartOrderThenEventOrder() {
        let events: [EventKind: HandlerStats] = [
            .teardown: Self.stats(5), .setup: Self.stats(5), .`init`: Self.stats(5), .reload: Self.stats(9),
        ]
        let profile = HiveProfile(
            modules: ["b", "a", "c"].map {
                HiveProfile.Module(name: $0, level: .normal, priority: 0, isAsync: false, events: events, calls: [:])
            },
            startup: StartupProfile())
        let expected = ["b.reload", "a.reload", "c.reload"]
            + ["b", "a", "c"].flatMap { ["\($0).setup", "\($0).init", "\($0).teardown"] }
        for _ in 0..<10 {
            #expect(profile.blame.map { "\($0.module).\($0.event)" } == expected)
        }
    }

    @Test func aHostedModuleHasStatisticsForEveryEventKind() {
        let module = HostedModule(
            ScriptedModule(Recorder()), as: ModuleDescriptor(name: "m"), sequence: 0, baseLogger: Logger(label: "test"),
            currentEvent: CurrentEvent())
        let count = module.stats.withLock { $0.count }
        #expect(count == EventKind.allCases.count)
        #expect(EventKind.allCases.map { Int($0.rawValue) } == Array(0..<count))
    }

    @Test func handlerStatsAccumulate() {
        var stats = HandlerStats()
        #expect(stats.average == .zero)
        #expect(stats.lastOutcome == nil)
        stats.record(nanoseconds: 10_000_000, outcome: .succeeded)
        stats.record(nanoseconds: 30_000_000, outcome: .failed)
        stats.record(nanoseconds: 20_000_000, outcome: .abandoned)
        #expect(stats.calls == 3)
        #expect(stats.failures == 1)
        #expect(stats.abandoned == 1)
        #expect(stats.total == .milliseconds(60))
        #expect(stats.longest == .milliseconds(30))
        #expect(stats.last == .milliseconds(20))
        #expect(stats.average == .milliseconds(20))
        #expect(stats.lastOutcome == .abandoned)
    }

    @Test func criticalPathPicksTheAsyncCallOnlyWhenItOutlastsTheSyncChain() {
        let sync = [
            HandlerTiming(module: "s1", event: .setup, duration: .milliseconds(30), outcome: .succeeded, level: .normal),
            HandlerTiming(module: "s2", event: .setup, duration: .milliseconds(30), outcome: .succeeded, level: .normal),
        ]
        let shortAsync = [HandlerTiming(module: "a", event: .setup, duration: .milliseconds(50), outcome: .succeeded, level: .normal)]
        let longAsync = [HandlerTiming(module: "a", event: .setup, duration: .milliseconds(70), outcome: .succeeded, level: .normal)]
        #expect(StartupPhase(event: .setup, duration: .milliseconds(60), sync: sync, async: shortAsync).criticalPath == sync)
        #expect(StartupPhase(event: .setup, duration: .milliseconds(70), sync: sync, async: longAsync).criticalPath == longAsync)
        #expect(StartupPhase(event: .setup, duration: .zero, sync: [], async: []).criticalPath.isEmpty)
        // Levels are barriers: each level adds its own chain or longer async call.
        let basicAsync = HandlerTiming(module: "b", event: .setup, duration: .milliseconds(90), outcome: .succeeded, level: .basic)
        let basicSync = HandlerTiming(module: "c", event: .setup, duration: .milliseconds(10), outcome: .succeeded, level: .basic)
        #expect(StartupPhase(event: .setup, duration: .milliseconds(150), sync: [basicSync] + sync, async: [basicAsync] + shortAsync)
            .criticalPath == [basicAsync] + sync)
        #expect(HandlerTiming(module: "x", event: .`init`, duration: .microseconds(850), outcome: .failed, level: .normal).description == "850µs x.init (failed)")
        #expect(HandlerTiming(module: "x", event: .setup, duration: .milliseconds(12), outcome: .succeeded, level: .normal).description == "12.0ms x.setup")
        #expect(HandlerTiming(module: "x", event: .setup, duration: .milliseconds(3200), outcome: .succeeded, level: .normal).description == "3.2s x.setup")
    }
}
