@testable import HiveKit
import TestSupport
import Testing

/// Unit tests of `BudgetRace`, the internal race of a hook against its budget. The
/// contract it serves (a `terminate`, `teardown` or `unmount` hook past its budget is
/// abandoned, even one that ignores cancellation, and the modules after it still run) is
/// tested through `Hive` in `BudgetTests`.
@Suite struct BudgetRaceTests {
    @Test func budgetRaceReturnsThrowsOrTimesOut() async {
        if case .returned = await BudgetRace.run(within: .seconds(10), {}) {} else { Issue.record("expected .returned") }
        if case .threw(let error) = await BudgetRace.run(within: .seconds(10), { throw TestFailure("x") }) {
            #expect(error is TestFailure)
        } else { Issue.record("expected .threw") }
        let cancelled = Latch()
        let outcome = await BudgetRace.run(within: .milliseconds(50)) {
            do { try await Task.sleep(for: .seconds(60)) } catch { cancelled.open() }
        }
        if case .timedOut = outcome {} else { Issue.record("expected .timedOut") }
        #expect(await cancelled.wait(), "the overrunning operation is cancelled")
    }
}
