import HiveKit
import Synchronization
import TestSupport
import Testing

extension ObservationTests {
    /// What an observer sees, in one list: `call MODULE.EVENT OUTCOME` for a handler and
    /// `event EVENT PHASE DELIVERED/FAILED` for an event.
    final class Sequence: HiveObserver {
        let seen = Mutex<[String]>([])

        func handlerFinished(_ call: ObservedCall) {
            let hook = call.hook == call.event.kind ? "\(call.event)" : "\(call.hook)"
            seen.withLock { $0.append("call \(call.module).\(hook) \(call.outcome)") }
        }

        func eventDelivered(_ event: ObservedEvent) {
            seen.withLock { $0.append("event \(event.event) \(event.phase) \(event.delivered)/\(event.failures)") }
        }

        var all: [String] { seen.withLock { $0 } }
    }

    @Test func aReloadShowsEveryEventAfterItsHandlersAndItsOwnEventLast() async throws {
        let recorder = Recorder()
        let (hive, catalog) = try await ReloadTests().startedHive(
            recorder, [ReloadTests.spec("keep", "alpha", priority: 10), ReloadTests.spec("drop", "alpha")])
        let sequence = Sequence()
        hive.addObserver(sequence)
        let summary = try await hive.reload(
            to: [ReloadTests.spec("keep", "alpha", priority: 10), ReloadTests.spec("new", "beta")], catalog: catalog)
        #expect(summary.isApplied)
        #expect(sequence.all == [
            // Prepare: the added module is set up and initialized.
            "call new.setup succeeded", "event setup running 1/0",
            "call new.init succeeded", "event init running 1/0",
            // Commit: the removed module leaves, event by event.
            "call drop.terminate succeeded", "event terminate running 1/0",
            "call drop.teardown succeeded", "event teardown running 1/0",
            "call drop.unmount succeeded", "event unmount running 1/0",
            // The kept modules reload; the added one catches up; the reload itself is last.
            "call keep.reload succeeded", "call code.reload succeeded",
            "call new.ready succeeded", "event ready running 1/0",
            "event reload running 2/0",
        ])
        await hive.stop()
    }

    @Test func anAbortedReloadShowsTheFailureAndNoReloadEvent() async throws {
        let recorder = Recorder()
        let (hive, catalog) = try await ReloadTests().startedHive(recorder, [ReloadTests.spec("keep", "alpha")])
        let sequence = Sequence()
        hive.addObserver(sequence)
        let summary = try await hive.reload(
            to: [ReloadTests.spec("keep", "alpha"), ReloadTests.spec("ok", "beta"), ReloadTests.spec("bad", "failsInit")],
            catalog: catalog)
        #expect(!summary.isApplied)
        #expect(sequence.all == [
            "call ok.setup succeeded", "call bad.setup succeeded", "event setup running 2/0",
            "call ok.init succeeded", "call bad.init failed", "event init running 2/1",
            // Rolled back: the one that finished init leaves; the failed one receives nothing.
            "call ok.terminate succeeded", "event terminate running 1/0",
            "call ok.teardown succeeded", "event teardown running 1/0",
            "call ok.unmount succeeded", "event unmount running 1/0",
        ])
        await hive.stop()
    }

    @Test func aKeptModuleAskedAboutNewSettingsIsSeenInItsValidateReloadHook() async throws {
        let recorder = Recorder()
        let (hive, catalog) = try await ReloadTests().startedHive(recorder, [ReloadTests.spec("keep", "alpha")])
        let sequence = Sequence()
        hive.addObserver(sequence)
        _ = try await hive.reload(to: [ReloadTests.spec("keep", "alpha", level: 2)], catalog: catalog)
        #expect(sequence.all == [
            "call keep.validateReload succeeded",
            "call keep.reload succeeded", "call code.reload succeeded", "event reload running 2/0",
        ])
        await hive.stop()
    }

    @Test func aReloadThatAddsNothingShowsNoStartPhases() async throws {
        let recorder = Recorder()
        let (hive, catalog) = try await ReloadTests().startedHive(recorder, [ReloadTests.spec("keep", "alpha")])
        let sequence = Sequence()
        hive.addObserver(sequence)
        _ = try await hive.reload(to: [ReloadTests.spec("keep", "alpha")], catalog: catalog)
        #expect(sequence.all == ["call keep.reload succeeded", "call code.reload succeeded", "event reload running 2/0"])
        await hive.stop()
    }

    @Test func modulesRegisteredAndUnregisteredAtRunTimeAreObservedEventByEvent() async throws {
        let recorder = Recorder()
        let hive = try makeHive([(ScriptedModule(recorder), ModuleDescriptor(name: "a"))])
        try await hive.start()
        try await hive.send(.ready)
        let sequence = Sequence()
        hive.addObserver(sequence)
        try await hive.register(ScriptedModule(recorder), as: ModuleDescriptor(name: "late"))
        try await hive.unregister(named: "late")
        #expect(sequence.all == [
            "call late.setup succeeded", "event setup running 1/0",
            "call late.init succeeded", "event init running 1/0",
            "call late.ready succeeded", "event ready running 1/0",
            "call late.terminate succeeded", "event terminate running 1/0",
            "call late.teardown succeeded", "event teardown running 1/0",
            "call late.unmount succeeded", "event unmount running 1/0",
        ])
        await hive.stop()
    }
}
