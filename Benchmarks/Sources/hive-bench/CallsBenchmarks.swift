import BenchSupport
import HiveKit
import Synchronization

/// A service protocol and its implementation for the resolution benchmark.
protocol BenchCounter: Sendable {
    func step() -> Int
}

final class OneStep: BenchCounter {
    func step() -> Int { 1 }
}

/// Where results go so the optimizer cannot delete the work that made them.
let sink = Atomic<Int>(0)

/// Issue 4: service resolution and URL routing, each among 1,000 registrations.
enum CallsBenchmarks {
    static func run() async throws {
        try resolveSingleton()
        try await matchRoutes()
        try await valuesAndActionURLs()
    }

    /// Resolves a created singleton while 1,000 named variants of the same service are
    /// registered beside it, and calls one method on it.
    static func resolveSingleton() throws {
        let services = Hive().services
        for index in 0..<1_000 {
            try services.register(BenchCounter.self, name: "variant-\(index)") { OneStep() }
        }
        try services.register(BenchCounter.self) { OneStep() }
        var total = 0
        let summary = try measureBatched(warmUp: 10_000, samples: 200, batch: 10_000) {
            total &+= try services.resolve(BenchCounter.self).step()
        }
        let named = try measureBatched(warmUp: 10_000, samples: 200, batch: 10_000) {
            total &+= try services.resolve(BenchCounter.self, name: "variant-500").step()
        }
        sink.store(total, ordering: .relaxed)
        Row("calls: resolve a registered singleton", summary, aim: "< 100 ns", note: "1,001 registrations; incl. one method call").print()
        Row("calls: resolve a named singleton variant", named, aim: "< 100 ns", note: "same registry").print()
    }

    /// 1,000 routes over 250 hosts of four shapes; the URLs hit the last one registered.
    static func matchRoutes() async throws {
        let router = Hive().router
        for index in 0..<250 {
            try router.register("hive://svc-\(index)/flush/:region") { $0["region"] != nil }
            try router.register("hive://svc-\(index)/items/:id/detail") { $0["id"] != nil }
            try router.register("hive://svc-\(index)/files/*") { _ in true }
            try router.register("hive://svc-\(index)/report(/:format)") { _ in true }
        }
        let url = "hive://svc-249/items/42/detail?reason=deploy%20done"
        guard router.canOpen(url), try await router.open(url) else {
            throw BenchError("calls: \(url) matches no route")
        }
        var hits = 0
        let match = measureBatched(warmUp: 1_000, samples: 200, batch: 1_000) {
            if router.canOpen(url) { hits += 1 }
        }
        let miss = measureBatched(warmUp: 1_000, samples: 200, batch: 1_000) {
            if router.canOpen("hive://svc-999/items/42/detail") { hits += 1 }
        }
        let open = try await measure(warmUp: 1_000, iterations: 20_000) {
            if try await router.open(url) { hits += 1 }
        }
        sink.store(hits, ordering: .relaxed)
        Row("calls: match a URL among 1,000 routes (canOpen)", match, aim: "< 5 µs", note: "matches the last route registered").print()
        Row("calls: no match among 1,000 routes (canOpen)", miss, aim: "< 5 µs", note: "").print()
        Row("calls: open a URL among 1,000 routes", open, aim: "", note: "match + query decoding + handler call").print()
    }

    /// A producing route among 1,000 (`value(for:extras:as:)`, with an extra value) and an
    /// action performed from a URL (`perform(url:as:)`).
    static func valuesAndActionURLs() async throws {
        let hive = Hive()
        for index in 0..<1_000 {
            try hive.router.register("hive://svc-\(index)/size/:region", producing: Int.self) { request in
                try request.parameter("region", as: String.self).count
            }
        }
        try await hive.register(URLActionModule(), as: ModuleDescriptor(name: "cache"))
        try await hive.start()
        var total = 0
        let value = try await measure(warmUp: 1_000, iterations: 20_000) {
            total &+= try await hive.router.value(for: "hive://svc-999/size/eu-west", extras: ["by": 1], as: Int.self)
        }
        let action = try await measure(warmUp: 1_000, iterations: 20_000) {
            total &+= try await hive.mediator.perform(url: "hive://cache/size?region=eu-west", as: Int.self)
        }
        sink.store(total, ordering: .relaxed)
        await hive.stop()
        Row("calls: value(for:) of a producing route among 1,000", value, aim: "", note: "match + an extra value + typed result").print()
        Row("calls: perform an action from a URL", action, aim: "", note: "URL parsing + typed parameter + result").print()
    }
}

/// Offers the `size` action to URLs, for the benchmark above.
struct URLActionModule: Module {
    func setup(_ context: ModuleContext) async throws {
        try context.mediator.register("size", acceptsURLs: true) { request in
            try request.parameter("region", as: String.self).count
        }
    }
}
