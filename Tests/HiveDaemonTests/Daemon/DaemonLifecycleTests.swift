import Glibc
@testable import HiveDaemon
import HiveKit
import Synchronization
import Testing

/// The daemon's lifecycle as a value: what each input does in each phase, and the queue
/// of requests it keeps for the event loop.
@Suite struct DaemonLifecycleTests {
    typealias Lifecycle = DaemonLifecycle

    /// A lifecycle in the running phase.
    private func running() -> Machine {
        let lifecycle = Machine()
        #expect(lifecycle.configured(mappingSignalsBy: [:]) == [])
        #expect(lifecycle.startEnded())
        #expect(lifecycle.phase == .running([]))
        return lifecycle
    }

    private func request(_ request: DaemonRequest) -> Lifecycle.Input { .request(request) }

    /// Takes `count` requests off the queue, by name.
    private func drain(_ lifecycle: Machine, _ count: Int) -> [String] {
        (0..<count).compactMap { _ in
            guard case .request(let request)? = lifecycle.next() else { return nil }
            if case .reload = request { _ = lifecycle.reloadEnded() }
            return request.name
        }
    }

    @Test func aStopGoesFirstAndDropsWhatHadNotStarted() {
        let lifecycle = running()
        _ = lifecycle.accept(request(.signalledReload))
        _ = lifecycle.accept(request(.event(.custom(name: "rotate", params: [:]), from: .signal(10))))
        _ = lifecycle.accept(request(.resume))
        #expect(lifecycle.accept(.stop(.signal(SIGTERM))) == .stopBegins(.afterEvent, dropped: [
            .signalledReload, .event(.custom(name: "rotate", params: [:]), from: .signal(10)), .resume,
        ]))
        #expect(lifecycle.accept(request(.signalledReload)) == .refused(Lifecycle.stoppingRefusal))
        #expect(lifecycle.accept(.stop(.signal(SIGINT))) == .stopping)
        let stop = Lifecycle.Stop(signal: SIGTERM, failure: nil, stage: .afterEvent)
        #expect(lifecycle.next() == .stop(stop))
        #expect(lifecycle.next() == nil, "the stop is handed out once")
    }

    @Test func controlReloadsJoinTheReloadWaitingAndAreAnsweredByIt() {
        let lifecycle = running()
        let (first, second) = (ControlCaller { _ in }, ControlCaller { _ in })
        #expect(lifecycle.accept(request(.signalledReload)) == .accepted(.queued))
        #expect(lifecycle.accept(request(.reload(answering: [first]))) == .accepted(.coalesced), "joins the SIGHUP's reload")
        #expect(lifecycle.accept(request(.signalledReload)) == .accepted(.coalesced))
        #expect(lifecycle.accept(request(.reload(answering: [second]))) == .accepted(.coalesced))
        #expect(lifecycle.next() == .request(.reload(answering: [first, second])))
        #expect(lifecycle.phase == .reloading([]))
        // A control reload waiting takes the next SIGHUP in; one running does not.
        #expect(lifecycle.accept(request(.reload(answering: [first]))) == .accepted(.queued))
        #expect(lifecycle.accept(request(.signalledReload)) == .accepted(.coalesced))
        #expect(lifecycle.next() == nil, "one reload at a time: the loop is in the first")
        #expect(!lifecycle.reloadEnded())
        #expect(lifecycle.next() == .request(.reload(answering: [first])))
        #expect(lifecycle.accept(request(.reload(answering: [second]))) == .accepted(.queued))
    }

    @Test func signalsWaitUnmappedWhileConfiguringAndAStopActsAtOnce() {
        let lifecycle = Machine()
        #expect(lifecycle.accept(signal: SIGHUP, mappedBy: [:]) == .kept)
        #expect(lifecycle.accept(signal: SIGUSR1, mappedBy: [:]) == .kept)
        #expect(lifecycle.accept(signal: SIGUSR2, mappedBy: [:]) == .kept)
        for _ in 0..<100 { _ = lifecycle.accept(signal: SIGUSR1, mappedBy: [:]) }
        #expect(lifecycle.phase == .configuring(early: [SIGHUP, SIGUSR1, SIGUSR2] + Array(repeating: SIGUSR1, count: 61)))
        let rotate = HiveEvent.custom(name: "rotate", params: [:])
        #expect(lifecycle.configured(mappingSignalsBy: [SIGUSR1: rotate]) == [SIGUSR2], "SIGUSR2 means nothing")
        #expect(lifecycle.phase == .starting)
        #expect(lifecycle.next() == nil, "nothing is handled before READY=1")
        #expect(lifecycle.startEnded())
        #expect(drain(lifecycle, 3) == ["reload", "custom:rotate"])

        let stopped = Machine()
        _ = stopped.accept(signal: SIGHUP, mappedBy: [:])
        #expect(stopped.accept(signal: SIGTERM, mappedBy: [:]) == .stopBegins(.afterConfiguration, dropped: []))
        #expect(stopped.configured(mappingSignalsBy: [:]) == nil, "nothing starts")
    }

    @Test func aStopDuringStartUpFollowsItWithoutReady() {
        let lifecycle = Machine()
        _ = lifecycle.configured(mappingSignalsBy: [:])
        #expect(lifecycle.accept(request(.suspend)) == .accepted(.queued))
        #expect(lifecycle.accept(.stop(.request(failure: nil))) == .stopBegins(.afterStartUp, dropped: [.suspend]))
        #expect(!lifecycle.startEnded(), "no READY=1")
        #expect(lifecycle.startFailed() == nil, "a failing start is bounded by the stop's budget")
        #expect(lifecycle.next() == .stop(Lifecycle.Stop(signal: nil, failure: nil, stage: .afterStartUp)))
    }

    @Test func aFailedStartRollsBackAndRefusesEverything() {
        let lifecycle = Machine()
        _ = lifecycle.configured(mappingSignalsBy: [:])
        _ = lifecycle.accept(request(.signalledReload))
        #expect(lifecycle.startFailed() == [.signalledReload])
        #expect(lifecycle.phase == .rollingBack)
        #expect(lifecycle.accept(request(.resume)) == .refused(Lifecycle.stoppingRefusal))
        #expect(lifecycle.accept(.stop(.signal(SIGTERM))) == .stopping, "exit 70 all the same")
        #expect(lifecycle.next() == nil)
        let expiredWhileRollingBack = lifecycle.stopBudgetExpired(reading: false)
        #expect(expiredWhileRollingBack == ("rolling back a failed start", false))
    }

    @Test func aStopDuringAReloadHoldsStoppingUntilReady() {
        let lifecycle = running()
        _ = lifecycle.accept(request(.signalledReload))
        _ = lifecycle.next()
        #expect(lifecycle.accept(.stop(.signal(SIGTERM))) == .stopBegins(.afterReload, dropped: []))
        #expect(lifecycle.next() == nil, "the reload runs on")
        #expect(lifecycle.reloadEnded(), "STOPPING=1 goes out after the reload's READY=1")
        #expect(lifecycle.next() == .stop(Lifecycle.Stop(signal: SIGTERM, failure: nil, stage: .afterEvent)))

        let expired = running()
        _ = expired.accept(request(.signalledReload))
        _ = expired.next()
        _ = expired.accept(.stop(.signal(SIGTERM)))
        let report = expired.stopBudgetExpired(reading: true)
        #expect(report == ("reading the configuration", true))
        #expect(!expired.reloadEnded(), "the report announced the stop already")
    }

    @Test func aStopAskedOnAFailureKeepsTheFirstFailure() {
        let lifecycle = running()
        _ = lifecycle.accept(.stop(.signal(SIGTERM)))
        _ = lifecycle.accept(.stop(.request(failure: "module 'a': gone")))
        _ = lifecycle.accept(.stop(.request(failure: "module 'b': gone")))
        #expect(lifecycle.stopFailure == "module 'a': gone")
    }

    @Test func suspensionReasonsAddUpWhileRunning() {
        let lifecycle = running()
        #expect(lifecycle.setSuspended(true, by: .signal) == [.signal])
        #expect(lifecycle.setSuspended(true, by: .sleep) == [.signal, .sleep])
        #expect(lifecycle.setSuspended(false, by: .signal) == [.sleep])
        _ = lifecycle.accept(request(.signalledReload))
        _ = lifecycle.next()
        #expect(lifecycle.phase == .reloading([.sleep]), "a reload keeps them")
        #expect(lifecycle.setSuspended(false, by: .sleep) == nil, "handled after the reload")
        _ = lifecycle.reloadEnded()
        #expect(lifecycle.suspension == [.sleep])
    }
}

/// A lifecycle in a box: `#expect` evaluates its expression in a closure, where a mutating
/// transition of a local value cannot be called.
private final class Machine {
    var lifecycle = DaemonLifecycle()
    var phase: DaemonLifecycle.Phase { lifecycle.phase }
    var queue: RequestQueue { lifecycle.queue }
    var suspension: DaemonLifecycle.Suspension { lifecycle.suspension }
    var stopFailure: String? { lifecycle.stopFailure }

    func accept(_ input: DaemonLifecycle.Input) -> DaemonLifecycle.Verdict { lifecycle.accept(input) }
    func accept(signal: Int32, mappedBy signals: [Int32: HiveEvent]) -> DaemonLifecycle.Verdict {
        lifecycle.accept(signal: signal, mappedBy: signals)
    }
    func configured(mappingSignalsBy signals: [Int32: HiveEvent]) -> [Int32]? {
        lifecycle.configured(mappingSignalsBy: signals)
    }
    func startFailed() -> [DaemonRequest]? { lifecycle.startFailed() }
    func startEnded() -> Bool { lifecycle.startEnded() }
    func next() -> DaemonLifecycle.Work? { lifecycle.next() }
    func reloadEnded() -> Bool { lifecycle.reloadEnded() }
    func setSuspended(_ asks: Bool, by reason: DaemonLifecycle.Suspension) -> DaemonLifecycle.Suspension? {
        lifecycle.setSuspended(asks, by: reason)
    }
    func stopBudgetExpired(reading: Bool) -> (doing: String, announce: Bool) {
        lifecycle.stopBudgetExpired(reading: reading)
    }
}

/// What the daemon does with what its lifecycle decides.
@Suite struct DroppedCallTests {
    /// A daemon whose lifecycle is running, with no hive: what it decides, alone.
    static func runningDaemon() -> HiveDaemon {
        let daemon = HiveDaemon(DaemonOptions(
            identity: DaemonIdentity(name: "droptest", version: "0"), embeddedConfiguration: "{}",
            catalog: ModuleCatalog(), environment: [:], systemd: SystemdEnvironment()))
        daemon.state.withLock { state in
            _ = state.lifecycle.configured(mappingSignalsBy: [:])
            _ = state.lifecycle.startEnded()
        }
        return daemon
    }

    @Test func aWaitingLoopGetsTheStopAtOnce() async {
        let daemon = Self.runningDaemon()
        defer { daemon.finish() }
        async let next = daemon.nextWork()
        while daemon.state.withLock({ $0.loop == nil }) { await Task.yield() }
        daemon.submit(.stop(.signal(SIGTERM)))
        #expect(await next == .stop(DaemonLifecycle.Stop(signal: SIGTERM, failure: nil, stage: .afterEvent)))
    }

    @Test func aStopAnswersEveryControlCallItDrops() {
        let daemon = Self.runningDaemon()
        defer { daemon.finish() }
        let lock = Mutex<[String]>([])
        func caller() -> ControlCaller {
            ControlCaller { reply in lock.withLock { $0.append(String(decoding: reply, as: UTF8.self)) } }
        }
        let event = HiveEvent.custom(name: "ping", params: [:])
        #expect(daemon.submit(.request(.signalledReload)) == .accepted(.queued))
        #expect(daemon.submit(.request(.reload(answering: [caller()]))) == .accepted(.coalesced))
        #expect(daemon.submit(.request(.reload(answering: [caller()]))) == .accepted(.coalesced))
        #expect(daemon.submit(.request(.event(event, from: .control(caller())))) == .accepted(.queued))
        guard case .stopBegins(_, let dropped) = daemon.submit(.stop(.signal(SIGTERM))) else {
            Issue.record("the stop did not begin")
            return
        }
        #expect(dropped.count == 2)
        let answers = lock.withLock { $0 }
        #expect(answers.count == 3, "\(answers)")
        #expect(answers.filter { $0.contains("io.hivekit.Daemon.ReloadFailed") && $0.contains("the daemon is stopping") }.count == 2)
        #expect(answers.filter { $0.contains("io.hivekit.Daemon.EventRefused") && $0.contains("the daemon is stopping") }.count == 1)
        #expect(daemon.submit(.request(.event(event, from: .control(caller())))) == .refused("the daemon is stopping"))
        #expect(lock.withLock { $0.count } == 4, "a call after the stop is answered too")
    }
}
