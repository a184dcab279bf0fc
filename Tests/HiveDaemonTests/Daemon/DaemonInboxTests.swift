import Glibc
@testable import HiveDaemon
import HiveKit
import Synchronization
import Testing

@Suite struct DaemonInboxTests {
    private func drain(_ inbox: DaemonInbox, _ count: Int) async -> [String] {
        var names: [String] = []
        for _ in 0..<count { names.append(await inbox.next().name) }
        return names
    }

    @Test func stormsCoalesceWhileOneOfTheirKindWaits() async {
        let inbox = DaemonInbox()
        #expect(inbox.post(.signalledReload) == .queued)
        for _ in 0..<1_000 { #expect(inbox.post(.signalledReload) == .coalesced) }
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
        #expect(inbox.post(.signalledReload) == .queued)
        #expect(await inbox.next() == .signalledReload)
    }

    @Test func aStopGoesFirstAndDropsWhatHadNotStarted() async {
        let inbox = DaemonInbox()
        inbox.post(.signalledReload)
        inbox.post(.event(.custom(name: "rotate", params: [:]), signal: 10))
        inbox.post(.resume)
        #expect(inbox.post(.stop(signal: 15)) == .stopping(dropped: [
            .signalledReload, .event(.custom(name: "rotate", params: [:]), signal: 10), .resume,
        ]))
        #expect(inbox.post(.signalledReload) == .closed)
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
        #expect(inbox.post(.signalledReload) == .queued, "room again")
        #expect(inbox.post(.resume) == .overflowed)
    }

    @Test func controlReloadsJoinTheReloadWaitingAndAreAnsweredByIt() async {
        let inbox = DaemonInbox()
        let (first, second) = (ControlRequest(.reload) { _ in }, ControlRequest(.reload) { _ in })
        #expect(inbox.post(.signalledReload) == .queued)
        #expect(inbox.post(.reload(callers: [first])) == .coalesced, "joins the SIGHUP's reload")
        #expect(inbox.post(.signalledReload) == .coalesced)
        #expect(inbox.post(.reload(callers: [second])) == .coalesced)
        #expect(await inbox.next() == .reload(callers: [first, second]))
        // A control reload waiting takes the next SIGHUP in; one running does not.
        #expect(inbox.post(.reload(callers: [first])) == .queued)
        #expect(inbox.post(.signalledReload) == .coalesced)
        #expect(await inbox.next() == .reload(callers: [first]))
        #expect(inbox.post(.reload(callers: [second])) == .queued)
    }
}

/// What the daemon answers the control calls a stop drops.
@Suite struct DroppedCallTests {
    @Test func aStopAnswersEveryControlCallItDrops() {
        let daemon = HiveDaemon(DaemonOptions(
            identity: DaemonIdentity(name: "droptest", version: "0"), embeddedConfiguration: "{}",
            catalog: ModuleCatalog(), environment: [:], systemd: SystemdEnvironment()))
        defer { daemon.finish() }
        let lock = Mutex<[String]>([])
        func call(_ action: ControlRequest.Action) -> ControlRequest {
            ControlRequest(action) { reply in lock.withLock { $0.append(String(decoding: reply, as: UTF8.self)) } }
        }
        let event = HiveEvent.custom(name: "ping", params: [:])
        #expect(daemon.post(.signalledReload) == .queued)
        #expect(daemon.post(.reload(callers: [call(.reload)])) == .coalesced)
        #expect(daemon.post(.reload(callers: [call(.reload)])) == .coalesced)
        #expect(daemon.post(.control(call(.send(event)))) == .queued)
        guard case .stopping(let dropped) = daemon.post(.stop(signal: SIGTERM)) else {
            Issue.record("the stop was not queued")
            return
        }
        #expect(dropped.count == 2)
        let answers = lock.withLock { $0 }
        #expect(answers.count == 3, "\(answers)")
        #expect(answers.filter { $0.contains("io.hivekit.Daemon.ReloadFailed") && $0.contains("the daemon is stopping") }.count == 2)
        #expect(answers.filter { $0.contains("io.hivekit.Daemon.EventRefused") && $0.contains("the daemon is stopping") }.count == 1)
    }
}
