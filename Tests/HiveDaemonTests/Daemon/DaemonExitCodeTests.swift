import HiveDaemon
import Testing

/// A caller turns a ``DaemonExitCode`` into the integer to exit with the obvious way,
/// and gets the documented statuses.
@Suite struct DaemonExitCodeTests {
    @Test func int32OfACodeIsItsDocumentedStatus() {
        let documented: [(DaemonExitCode, Int32)] = [
            (.success, 0), (.serviceUnavailable, 69), (.moduleFailed, 70), (.systemFileMissing, 72),
            (.stopBudgetExceeded, 75), (.invalidConfiguration, 78),
        ]
        for (code, status) in documented {
            #expect(Int32(code) == status)
            #expect(DaemonExitCode(rawValue: status) == code)
        }
    }
}
