import HiveKit
import HiveServiceLifecycle
import ServiceLifecycle
import TestSupport
import Testing

@Suite struct ServiceModuleTests {
    /// HiveConfiguration's default budget (5 s) for the hooks whose budget is not under test.
    static let configuration = HiveConfiguration()

    @Test func runsFromInitAndShutsDownGracefullyAtTerminate() async throws {
        let record = Journal()
        let readiness = ServiceReadiness()
        let hive = try Hive(Self.configuration, modules: [
            (MarkerModule(record: record), ModuleDescriptor(name: "store", level: .basic)),
            (ServiceModule(readiness: readiness) { _ in
                PoliteService(record: record, readiness: readiness)
            }, ModuleDescriptor(name: "http")),
        ])
        try await hive.start()
        #expect(record.entries == ["running"], "init waited until the service ran")
        let failures = await hive.stop()
        #expect(failures.isEmpty)
        #expect(record.entries == ["running", "graceful shutdown", "teardown store"],
                "the server's graceful shutdown ends before the store's teardown")
    }

    /// The one-call form: the service made first, with the readiness it marks, and the
    /// module given both. `init` returns only once the service runs.
    @Test func aServiceMadeFirstIsWaitedForThroughItsReadiness() async throws {
        let record = Journal()
        let readiness = ServiceReadiness()
        let service = GatedService(record: record, readiness: readiness)
        let hive = try Hive(Self.configuration, modules: [
            (ServiceModule(service, readiness: readiness), ModuleDescriptor(name: "http")),
        ])
        let start = Task { try await hive.start() }
        #expect(await record.waitFor("started"))
        try await Task.sleep(for: .milliseconds(50))
        #expect(hive.phase == .starting, "init waits for the readiness")
        service.open()
        try await start.value
        #expect(record.entries == ["started", "running"])
        _ = await hive.stop()
        #expect(record.entries == ["started", "running", "graceful shutdown"])
    }

    /// A readiness given to two modules fails the second start, naming the module, rather
    /// than running two services on one runner.
    @Test func aReadinessGivenToTwoModulesFailsTheSecondStart() async throws {
        let readiness = ServiceReadiness()
        let hive = try Hive(Self.configuration, modules: [
            (ServiceModule(PoliteService(record: Journal(), readiness: readiness), readiness: readiness), ModuleDescriptor(name: "one")),
            (ServiceModule(PoliteService(record: Journal(), readiness: readiness), readiness: readiness), ModuleDescriptor(name: "two")),
        ])
        let error = await #expect(throws: HiveError.self) { try await hive.start() }
        #expect(error?.description.contains("module 'two' (init)") == true, "\(String(describing: error))")
        #expect(error?.description.contains("its ServiceReadiness was given to another module too") == true)
    }

    @Test func startsAtReadyWhenAsked() async throws {
        let record = Journal()
        let hive = try Hive(Self.configuration, modules: [
            (ServiceModule(PoliteService(record: record), startsAt: .ready), ModuleDescriptor(name: "job")),
        ])
        try await hive.start()
        #expect(record.entries.isEmpty)
        try await hive.send(.ready)
        #expect(await record.waitFor("running"))
        _ = await hive.stop()
        #expect(record.entries == ["running", "graceful shutdown"])
    }

    @Test func aServiceThatEndsBeforeRunningFailsTheStart() async throws {
        let hive = try Hive(Self.configuration, modules: [
            (ServiceModule(ShortService(throwing: true), readiness: ServiceReadiness()), ModuleDescriptor(name: "http")),
        ])
        let error = await #expect(throws: HiveError.self) { try await hive.start() }
        #expect(error?.description.contains("module 'http' (init)") == true, "\(String(describing: error))")
        #expect(error?.description.contains("service ended before it was running: port in use") == true)
    }

    @Test(arguments: [
        (false, ServiceTerminationBehavior.failDaemon, "stop requested by job (failure): service returned before terminate"),
        (true, .failDaemon, "stop requested by job (failure): service failed: port in use"),
        (true, .stopDaemon, "stop requested by job (clean): service failed: port in use"),
    ])
    func anEarlyEndIsReportedAndTheHostAskedToStop(throwing: Bool, behavior: ServiceTerminationBehavior, expected: String) async throws {
        let record = Journal()
        let hive = try Hive(Self.configuration, modules: [
            (ServiceModule(
                ShortService(throwing: throwing), onReturn: behavior, onError: behavior),
                    ModuleDescriptor(name: "job")),
        ])
        try hive.services.register(HiveHost.self) { RecordingHost(record: record) }
        try await hive.start()
        #expect(await record.waitFor(expected), "\(record.entries)")
        _ = await hive.stop()
    }

    @Test func ignoringAnEarlyEndLeavesTheHostAlone() async throws {
        let record = Journal()
        let hive = try Hive(Self.configuration, modules: [
            (ServiceModule(ShortService(throwing: true), onError: .ignore), ModuleDescriptor(name: "job")),
            (MarkerModule(record: record), ModuleDescriptor(name: "after")),
        ])
        try hive.services.register(HiveHost.self) { RecordingHost(record: record) }
        try await hive.start()
        try await hive.send(.ready)
        #expect(await hive.stop().isEmpty)
        #expect(record.entries == ["teardown after"])
    }

    @Test func teardownCancelsAServiceThatIgnoresGracefulShutdownWithinTheBudget() async throws {
        let record = Journal()
        let hive = try Hive(Self.configuration, modules: [
            // Cancelled at four fifths of the budget (4 s); 1 s left for the cancellation to
            // end run() before the hook gives up (400 ms of a 2 s budget was too little for
            // a cancellation's hop between threads in a loaded full run).
            (ServiceModule(StubbornService(record: record)), ModuleDescriptor(name: "stubborn", budget: .seconds(5))),
        ])
        try await hive.start()
        #expect(await record.waitFor("running"))
        let started = ContinuousClock.now
        let failures = await hive.stop()
        #expect(failures.isEmpty, "the hook ended within its budget: \(failures)")
        #expect(ContinuousClock.now - started < .seconds(6))
        #expect(await record.waitFor("cancelled"))
        #expect(record.entries == ["running", "cancelled"])
    }
}
