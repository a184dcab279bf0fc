import Glibc
@testable import HiveDaemon
import HiveKit
import Testing

@Suite struct SignalConfigurationTests {
    @Test func signalsAreAcceptedByNameShortNameNumberAndRealTimeOffset() throws {
        let text = """
            signals:
              SIGUSR1: "custom:rotate"
              USR2: custom:stats
              sigwinch: memoryWarning
              14: reload
              SIGRTMIN+3: "custom:rt"
              SIGRTMAX-1: "custom:last"
            """
        let signals = try parseConfiguration(text).signals
        let rtmin = __libc_current_sigrtmin()
        let rtmax = __libc_current_sigrtmax()
        #expect(signals == [
            SIGUSR1: .custom(name: "rotate", params: [:]),
            SIGUSR2: .custom(name: "stats", params: [:]),
            SIGWINCH: .memoryWarning,
            SIGALRM: .reload,
            rtmin + 3: .custom(name: "rt", params: [:]),
            rtmax - 1: .custom(name: "last", params: [:]),
        ])
    }

    @Test func theDefaultSignalMapIsEmpty() throws {
        #expect(try parseConfiguration("environment: testing").signals.isEmpty)
        #expect(try parseConfiguration("signals: {}").signals.isEmpty)
    }

    @Test(arguments: [
        ("SIGKILL", "SIGKILL cannot be caught"), ("STOP", "SIGSTOP cannot be caught"), ("9", "SIGKILL cannot be caught"),
        ("SIGTERM", "SIGTERM is reserved: it stops the daemon"), ("SIGINT", "SIGINT is reserved: it stops the daemon"),
        ("SIGHUP", "SIGHUP is reserved: it reloads the configuration"), ("1", "SIGHUP is reserved"),
        ("SIGTSTP", "SIGTSTP is reserved: it suspends the daemon"), ("SIGCONT", "SIGCONT is reserved: it resumes the daemon"),
        ("15", "SIGTERM is reserved"),
        ("SIGSEGV", "SIGSEGV reports a fault"), ("ABRT", "SIGABRT reports a fault"),
        ("SIGFOO", "unknown signal 'SIGFOO'"), ("SIGRTMIN+999", "unknown signal 'SIGRTMIN+999'"),
        ("SIGRTMIN-1", "unknown signal"), ("SIGRTMIN++1", "unknown signal"), ("SIGRTMIN+99999999999", "unknown signal"),
        ("0", "no such signal number"), ("-3", "no such signal number"), ("65", "no such signal number"),
        ("99999999999", "no such signal number"),
        ("SIGCHLD", "SIGCHLD is not read by hived"), ("32", "signal 32 is not read by hived"),
    ])
    func uncatchableReservedAndUnknownSignalsAreErrorsAtTheKey(key: String, message: String) throws {
        let error = try #require(configurationError("environment: testing\nsignals:\n  \(key): custom:x\n"))
        #expect(error.code == .invalidConfiguration)
        #expect(error.location?.line == 3)
        #expect(error.message.hasPrefix("signals.\(key): "), "\(error)")
        #expect(error.message.contains(message), "\(error)")
    }

    @Test(arguments: [
        ("rotate", "expected custom:NAME, memoryWarning or reload; got 'rotate'"),
        ("\"custom:\"", "a custom event needs a name"),
        ("[custom:x]", "expected custom:NAME, memoryWarning or reload, got a list"),
        ("terminate", "got 'terminate'"),
    ])
    func badSignalEventsAreErrorsAtTheValue(value: String, message: String) throws {
        let error = try #require(configurationError("signals:\n\n  SIGUSR1:\n    \(value)\n"))
        #expect(error.location?.line == 4, "\(error)")
        #expect(error.message.contains(message), "\(error)")
    }

    @Test func aSignalMappedTwiceUnderDifferentNamesIsAnError() throws {
        let error = try #require(configurationError("signals:\n  SIGUSR1: custom:a\n  10: custom:b\n"))
        #expect(error.location?.line == 3)
        #expect(error.message == "signals.10: SIGUSR1 is already mapped at line 2")
    }

    @Test func signalNamesRoundTrip() {
        #expect(SignalName.number(for: "SIGUSR1") == SIGUSR1)
        #expect(SignalName.number(for: "usr2") == SIGUSR2)
        #expect(SignalName.number(for: "SIGRTMIN") == __libc_current_sigrtmin())
        #expect(SignalName.number(for: "SIGRTMAX") == __libc_current_sigrtmax())
        #expect(SignalName.number(for: "SIGNOPE") == nil)
        #expect(SignalName.name(of: SIGUSR1) == "SIGUSR1")
        #expect(SignalName.name(of: __libc_current_sigrtmin() + 3) == "SIGRTMIN+3")
        #expect(SignalName.name(of: 0) == "signal 0")
        #expect(SignalName.maximum == __libc_current_sigrtmax())
    }
}
