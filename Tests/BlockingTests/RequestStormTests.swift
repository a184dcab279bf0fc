@testable import HiveDaemon
import HiveKit
import TestSupport
import Testing

/// The daemon's request queue under storms: tens of thousands of requests, each checked
/// against what waits (CPU-bound for up to a second on a loaded machine, so in
/// BlockingTests' process: in the first they held both of the pool's threads beside
/// hooks with budgets).
@Suite(.runsIn(.blocking)) struct RequestStormTests {
    /// A lifecycle in the running phase.
    private func running() -> DaemonLifecycle {
        var lifecycle = DaemonLifecycle()
        let (configured, started) = (lifecycle.configured(mappingSignalsBy: [:]), lifecycle.startEnded())
        #expect(configured == [])
        #expect(started)
        #expect(lifecycle.phase == .running([]))
        return lifecycle
    }

    private func request(_ request: DaemonRequest) -> DaemonLifecycle.Input { .request(request) }

    /// Takes `count` requests off the queue, by name.
    private func drain(_ lifecycle: inout DaemonLifecycle, _ count: Int) -> [String] {
        (0..<count).compactMap { _ in
            guard case .request(let request)? = lifecycle.next() else { return nil }
            if case .reload = request { _ = lifecycle.reloadEnded() }
            return request.name
        }
    }

    @Test func stormsCoalesceWhileOneOfTheirKindWaits() {
        var lifecycle = running()
        #expect(lifecycle.accept(request(.signalledReload)) == .accepted(.queued))
        var coalesced = 0
        for _ in 0..<1_000 where lifecycle.accept(request(.signalledReload)) == .accepted(.coalesced) { coalesced += 1 }
        #expect(coalesced == 1_000)
        for _ in 0..<20_000 {
            _ = lifecycle.accept(request(.event(.custom(name: "rotate", params: [:]), from: .signal(10))))
            _ = lifecycle.accept(request(.event(.custom(name: "stats", params: [:]), from: .signal(12))))
            _ = lifecycle.accept(request(.event(.memoryWarning, from: .signal(34))))
        }
        let (suspend, resume, again) = (lifecycle.accept(request(.suspend)), lifecycle.accept(request(.resume)), lifecycle.accept(request(.suspend)))
        #expect(suspend == .accepted(.queued))
        #expect(resume == .accepted(.coalesced))
        #expect(again == .accepted(.coalesced), "the latest wanted state wins, in the first one's place")
        let taken = drain(&lifecycle, 5)
        #expect(taken == ["reload", "custom:rotate", "custom:stats", "memoryWarning", "background"])
        #expect(lifecycle.queue.coalescedCount == 1_000 + 3 * 19_999 + 2)
        // Once taken, the next one of a kind waits again.
        let after = lifecycle.accept(request(.signalledReload))
        #expect(after == .accepted(.queued))
        let next = lifecycle.next()
        #expect(next == .request(.signalledReload))
    }

    @Test func theQueueIsBoundedAndOverflowIsCounted() {
        var lifecycle = running()
        for index in 0..<(RequestQueue.capacity + 500) {
            _ = lifecycle.accept(request(.event(.custom(name: "e\(index)", params: [:]), from: .signal(10))))
        }
        #expect(lifecycle.queue.overflowCount == 500)
        let taken = drain(&lifecycle, 1)
        #expect(taken == ["custom:e0"])
        let room = lifecycle.accept(request(.signalledReload))
        #expect(room == .accepted(.queued), "room again")
        let full = lifecycle.accept(request(.resume))
        guard case .refused(let reason) = full else {
            Issue.record("a full queue refuses")
            return
        }
        #expect(reason.contains("queue is full"))
    }
}
