@testable import HiveDaemon
import TestSupport
import Testing

/// A `STATUS=` text is cleaned and cut to 1 KiB whatever it was given: here five million
/// characters (CPU-bound for a second on a loaded machine, so in BlockingTests' process,
/// never on a pool thread beside hooks with budgets).
@Suite(.runsIn(.blocking)) struct NotifyStatusBoundTests {
    @Test func statusIsCleanAndBounded() {
        let long = NotifyMessage.status(String(repeating: "é", count: 5_000_000))
        #expect(long.text.utf8.count <= 1024, "the whole STATUS= assignment is at most 1 KiB")
        #expect(long.text.utf8.count > 1000)
        #expect(long.text.hasSuffix("…"))
        #expect(long.kind == .status)
        let forged = NotifyMessage.status("x\nREADY=1\u{1b}[31m\u{85}y")
        #expect(forged.text == "STATUS=x READY=1 [31m y")
        #expect(NotifyMessage.ready(status: String(repeating: "a", count: 2000)).text.utf8.count < 1100)
    }
}
