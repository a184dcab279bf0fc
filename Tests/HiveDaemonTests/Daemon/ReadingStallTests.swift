@testable import HiveDaemon
import Foundation
import HiveKit
import Synchronization
import Testing

/// A reload whose configuration read takes longer than the event budget (a stuck network
/// file system, a module whose settings check hangs) is marked as a stall, which withholds
/// the watchdog like a stalled hook, from the instant the budget runs out until the read
/// ends.
@Suite struct ReadingStallTests {
    /// The daemon under test, for the catalog's factory, which runs during the read.
    final class Holder: Sendable {
        let daemon = Mutex<HiveDaemon?>(nil)
        let sawStall = Atomic<Bool>(false)
    }

    private struct Quiet: Module {}

    @Test func aReadPastTheEventBudgetIsMarkedAsAStallUntilItEnds() async throws {
        let holder = Holder()
        var catalog = ModuleCatalog()
        // Building the module is part of reading the configuration: it holds the read until
        // the daemon has marked it as stalled (or 30 s have passed).
        catalog.register("slow") { _ in
            let daemon = holder.daemon.withLock { $0 }
            let end = ContinuousClock.now + .seconds(30)
            while daemon?.readingStalled.load(ordering: .relaxed) != true, ContinuousClock.now < end {
                usleep(1_000)
            }
            holder.sawStall.store(daemon?.readingStalled.load(ordering: .relaxed) == true, ordering: .relaxed)
            return Quiet()
        }
        let daemon = HiveDaemon(DaemonOptions(
            identity: DaemonIdentity(name: "readingtest", version: "0"),
            embeddedConfiguration: "modules: [{name: s, type: slow}]",
            catalog: catalog, environment: [:], systemd: SystemdEnvironment()))
        holder.daemon.withLock { $0 = daemon }
        // As during a reload: the running hive's event budget bounds the read.
        daemon.state.withLock { $0.hive = Hive(HiveConfiguration(defaultBudget: .milliseconds(20))) }
        let before = daemon.readingStalled.load(ordering: .relaxed)
        #expect(!before, "not reading")
        // The read blocks its thread, as a read of a hung mount would: not a pool thread.
        let read = try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { () throws(HiveError) in try daemon.readConfiguration() })
            }
        }
        #expect(read.modules.map(\.name) == ["s"])
        let (during, after) = (holder.sawStall.load(ordering: .relaxed), daemon.readingStalled.load(ordering: .relaxed))
        #expect(during, "marked while the read went on")
        #expect(!after, "no longer once it ended")
    }
}
