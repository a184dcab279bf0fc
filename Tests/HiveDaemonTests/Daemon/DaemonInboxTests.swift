@testable import HiveDaemon
import HiveKit
import Testing

@Suite struct DaemonInboxTests {
    private func drain(_ inbox: DaemonInbox, _ count: Int) async -> [String] {
        var names: [String] = []
        for _ in 0..<count { names.append(await inbox.next().name) }
        return names
    }

    @Test func stormsCoalesceWhileOneOfTheirKindWaits() async {
        let inbox = DaemonInbox()
        #expect(inbox.post(.reload) == .queued)
        for _ in 0..<1_000 { #expect(inbox.post(.reload) == .coalesced) }
        for _ in 0..<20_000 {
            inbox.post(.event(.custom(name: "rotate", params: [:]), signal: 10))
            inbox.post(.event(.custom(name: "stats", params: [:]), signal: 12))
            inbox.post(.event(.memoryWarning, signal: 34))
        }
        #expect(inbox.post(.suspend) == .queued)
        #expect(inbox.post(.resume) == .coalesced)
        #expect(inbox.post(.suspend) == .coalesced, "the latest wanted state wins, in the first one's place")
        #expect(await drain(inbox, 5) == ["reload", "custom:rotate", "custom:stats", "memoryWarning", "background"])
        #expect(inbox.coalescedCount == 1_000 + 3 * 19_999 + 2)
        // Once taken, the next one of a kind waits again.
        #expect(inbox.post(.reload) == .queued)
        #expect(await inbox.next() == .reload)
    }

    @Test func aStopGoesFirstAndDropsWhatHadNotStarted() async {
        let inbox = DaemonInbox()
        inbox.post(.reload)
        inbox.post(.event(.custom(name: "rotate", params: [:]), signal: 10))
        inbox.post(.resume)
        #expect(inbox.post(.stop(signal: 15)) == .stopping(dropped: [
            .reload, .event(.custom(name: "rotate", params: [:]), signal: 10), .resume,
        ]))
        #expect(inbox.post(.reload) == .closed)
        #expect(inbox.post(.stop(signal: 2)) == .closed)
        #expect(await inbox.next() == .stop(signal: 15))
    }

    @Test func aWaitingLoopGetsTheRequestAtOnce() async {
        let inbox = DaemonInbox()
        async let next = inbox.next()
        await Task.yield()
        inbox.post(.stop(signal: 15))
        #expect(await next == .stop(signal: 15))
    }

    @Test func theQueueIsBoundedAndOverflowIsCounted() async {
        let inbox = DaemonInbox()
        for index in 0..<(DaemonInbox.capacity + 500) {
            inbox.post(.event(.custom(name: "e\(index)", params: [:]), signal: 10))
        }
        #expect(inbox.overflowCount == 500)
        #expect(await inbox.next().name == "custom:e0")
        #expect(inbox.post(.reload) == .queued, "room again")
        #expect(inbox.post(.resume) == .overflowed)
    }
}
