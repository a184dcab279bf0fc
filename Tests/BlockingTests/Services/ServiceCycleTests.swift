import Foundation
import HiveKit
import Synchronization
import TestSupport
import Testing

protocol Alpha: Sendable {}
protocol Beta: Sendable {}
struct AlphaImpl: Alpha {}
struct BetaImpl: Beta {}

/// Dependency cycles between factories end in `.circularDependency`, never in a crash,
/// a stack overflow or a hang.
@Suite(.runsIn(.blocking)) struct ServiceCycleTests {
    @Test func aTransientFactoryResolvingItsOwnServiceIsACycle() async throws {
        let services = Hive().services
        try services.register(Alpha.self, lifetime: .transient) {
            _ = try services.resolve(Alpha.self)
            return AlphaImpl()
        }
        for _ in 0..<2 {  // the failed attempt leaves nothing behind
            let error = #expect(throws: HiveError.self) { try services.resolve(Alpha.self) }
            #expect(error?.code == .circularDependency)
            #expect(error?.message == "service 'Alpha' is resolved again while its own factory runs (a dependency cycle)")
        }
    }

    @Test func aCycleThroughATransientAndASingletonIsACycle() async throws {
        let services = Hive().services
        try services.register(Alpha.self, lifetime: .transient) {
            _ = try services.resolve(Beta.self)
            return AlphaImpl()
        }
        try services.register(Beta.self) {
            _ = try services.resolve(Alpha.self)
            return BetaImpl()
        }
        for resolve in [{ _ = try services.resolve(Alpha.self) }, { _ = try services.resolve(Beta.self) }] {
            let error = #expect(throws: HiveError.self) { try resolve() }
            #expect(error?.code == .circularDependency)
        }
    }

    @Test func singletonsNeedingEachOtherResolvedFromTwoThreadsAtOnceAreACycle() async throws {
        let services = Hive().services
        // Each factory waits a moment for the other to start: with a lock per service,
        // both would then hold their own and wait for the other's.
        let alphaStarted = DispatchSemaphore(value: 0), betaStarted = DispatchSemaphore(value: 0)
        try services.register(Alpha.self) {
            alphaStarted.signal()
            _ = betaStarted.wait(timeout: .now() + .milliseconds(100))
            _ = try services.resolve(Beta.self)
            return AlphaImpl()
        }
        try services.register(Beta.self) {
            betaStarted.signal()
            _ = alphaStarted.wait(timeout: .now() + .milliseconds(100))
            _ = try services.resolve(Alpha.self)
            return BetaImpl()
        }
        let codes = Mutex<[HiveError.Code?]>([])
        let finished = await runOnThreads(2) { index in
            do throws(HiveError) {
                if index == 0 { _ = try services.resolve(Alpha.self) } else { _ = try services.resolve(Beta.self) }
                codes.withLock { $0.append(nil) }
            } catch {
                codes.withLock { $0.append(error.code) }
            }
        }
        #expect(finished)
        #expect(codes.withLock { $0 } == [.circularDependency, .circularDependency])
    }

    @Test func aTransientResolvedOnManyThreadsAtOnceIsNotACycle() async throws {
        let services = Hive().services
        let made = Counter()
        try services.register(Alpha.self, lifetime: .transient) {
            usleep(20_000)  // keep the factories running side by side
            made.next()
            return AlphaImpl()
        }
        let failures = Counter()
        let finished = await runOnThreads(8) { _ in
            if (try? services.resolve(Alpha.self)) == nil { failures.next() }
        }
        #expect(finished)
        #expect(failures.value.load(ordering: .relaxed) == 0)
        #expect(made.value.load(ordering: .relaxed) == 8)
    }

    @Test func firstCreationsOfSingletonsInOneHiveRunOneAtATime() async throws {
        let services = Hive().services
        let running = Atomic<Int>(0), most = Atomic<Int>(0)
        @Sendable func slowly() {
            let now = running.wrappingAdd(1, ordering: .relaxed).newValue
            most.max(now, ordering: .relaxed)
            usleep(20_000)
            running.wrappingSubtract(1, ordering: .relaxed)
        }
        try services.register(Alpha.self) { slowly(); return AlphaImpl() }
        try services.register(Beta.self) { slowly(); return BetaImpl() }
        let finished = await runOnThreads(4) { index in
            if index.isMultiple(of: 2) { _ = try? services.resolve(Alpha.self) } else { _ = try? services.resolve(Beta.self) }
        }
        #expect(finished)
        #expect(most.load(ordering: .relaxed) == 1)
    }
}
