import HiveKit
import Synchronization
import TestSupport
import Testing

/// Offers a service, a route and an action; its routes and actions call back into the
/// hive (re-entrantly) to show no lock or gate is held while they run.
struct Offering: Module {
    func setup(_ context: ModuleContext) async throws {
        try context.services.register(Greeter.self) { English() }
        try context.router.register("hive://greet/:name") { request in
            let greeting = try await context.mediator.perform(
                target: "offering", action: "greet", params: ["name": request["name"] ?? "?"], as: String.self)
            return greeting.hasPrefix("Hello")
        }
        try context.mediator.register("greet") { request in
            try context.services.resolve(Greeter.self).greet(try request.parameter("name", as: String.self))
        }
    }
}

/// Uses all three from inside its own event hook.
struct Consuming: Module {
    let results: Journal
    func custom(_ context: ModuleContext) async throws {
        let opened = try await context.router.open("hive://greet/Ada")
        let greeting = try await context.mediator.perform(
            target: "offering", action: "greet", params: ["name": "Bob"], as: String.self)
        let service = context.services.isAvailable(Greeter.self)
        results.add("\(opened) \(greeting) \(service)")
    }
}

@Suite struct CallsBetweenModulesTests {
    @Test func aStoppedHiveRoutesAndPerformsNothingButKeepsTheStatistics() async throws {
        let hive = try makeHive([(Offering(), ModuleDescriptor(name: "offering"))])
        try await hive.start()
        #expect(try await hive.router.open("hive://greet/Ada"))
        await hive.stop()
        let route = await #expect(throws: HiveError.self) { try await hive.router.open("hive://greet/Ada") }
        #expect(route?.code == .refusedEvent)
        #expect(route?.message == "cannot open 'hive://greet/Ada': the hive has stopped")
        #expect(!hive.router.canOpen("hive://greet/Ada"))
        let action = await #expect(throws: HiveError.self) {
            try await hive.mediator.perform(target: "offering", action: "greet", params: ["name": "Bob"])
        }
        #expect(action?.code == .refusedEvent)
        #expect(!hive.mediator.canPerform(target: "offering", action: "greet"))
        #expect(throws: HiveError.self) { try hive.router.register("/late") { _ in true } }
        #expect(hive.profile.modules.first?.calls["route hive://greet/:name"]?.calls == 1)
    }

    @Test func handlersMayCallBackIntoTheHiveDuringAnEvent() async throws {
        let consumer = Consuming(results: Journal())
        let hive = try makeHive([
            (Offering(), ModuleDescriptor(name: "offering")),
            (consumer, ModuleDescriptor(name: "consumer")),
        ])
        try await hive.start()
        let report = try await hive.send(.custom(name: "go"))
        #expect(report.failures.isEmpty)
        #expect(consumer.results.entries == ["true Hello, Bob true"])
        let offering = try #require(hive.profile.modules.first { $0.name == "offering" })
        #expect(offering.calls["route hive://greet/:name"]?.calls == 1)
        #expect(offering.calls["action greet"]?.calls == 2)
        await hive.stop()
    }

    @Test func anUnregisteredModulesRoutesActionsAndServicesAreGone() async throws {
        let hive = try makeHive([(Offering(), ModuleDescriptor(name: "offering"))])
        try await hive.start()
        hive.router.setUnmatchedHandler { _ in }
        #expect(hive.router.canOpen("hive://greet/Ada"))
        #expect(hive.mediator.canPerform(target: "offering", action: "greet"))
        #expect(hive.services.isAvailable(Greeter.self))

        try await hive.unregister(named: "offering")

        #expect(!hive.router.canOpen("hive://greet/Ada"))
        #expect(try await !hive.router.open("hive://greet/Ada"))
        #expect(!hive.mediator.canPerform(target: "offering", action: "greet"))
        let error = await #expect(throws: HiveError.self) {
            try await hive.mediator.perform(target: "offering", action: "greet", params: ["name": "x"])
        }
        #expect(error?.code == .notFound)
        #expect(!hive.services.isAvailable(Greeter.self))
        #expect(hive.router.patterns.isEmpty)
        await hive.stop()
    }

    @Test func aModuleThatFailsToMountLeavesNothingBehind() async throws {
        struct HalfDone: Module {
            func setup(_ context: ModuleContext) async throws {
                try context.services.register(Greeter.self) { English() }
                try context.router.register("/half") { _ in true }
                try context.mediator.register("half") { _ in () }
            }
            func initialize(_ context: ModuleContext) async throws { throw CalculatorError() }
        }
        let hive = Hive()
        try await hive.start()
        await #expect(throws: HiveError.self) {
            try await hive.register(HalfDone(), as: ModuleDescriptor(name: "half"))
        }
        #expect(!hive.services.isAvailable(Greeter.self))
        #expect(!hive.router.canOpen("/half"))
        #expect(!hive.mediator.canPerform(target: "half", action: "half"))
        await hive.stop()
    }
}
