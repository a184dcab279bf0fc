import Glibc
@testable import HiveDaemon
import HiveKit
import Logging
import TestSupport
import Testing

extension ProcessEnvironmentSuite {
    @Suite struct SystemdNotifierTests {
        /// A notifier made the way main makes one, with `NOTIFY_SOCKET` pointing at `socket`.
        /// `sd_notify` reads `NOTIFY_SOCKET` when the writer thread sends, so the body's
        /// messages are flushed before the variable is restored.
        private func withNotifier<T>(
            socketPath: String?, logger: Logger = Logger(label: "hived"), failureLogInterval: Duration = .seconds(1),
            _ body: (SystemdNotifier) throws -> T
        ) throws -> T {
            try ProcessEnvironmentSuite.with(["NOTIFY_SOCKET": socketPath]) {
                let notifier = SystemdNotifier(environment: .capture(), logger: logger, failureLogInterval: failureLogInterval)
                defer { #expect(notifier.flush(until: MonotonicClock.nanoseconds() + 10_000_000_000)) }
                return try body(notifier)
            }
        }

        @Test func sendsEachMessageAsOneExactDatagram() throws {
            let socket = try NotifySocket()
            let messages: [(NotifyMessage, String)] = [
                (.ready(status: "running 3 modules"), "READY=1\nSTATUS=running 3 modules"),
                (.stopping(), "STOPPING=1"),
                (.status("suspended"), "STATUS=suspended"),
                (.watchdog, "WATCHDOG=1"),
                (.extendTimeout(by: .seconds(30)), "EXTEND_TIMEOUT_USEC=30000000"),
                (.errno(5, status: "module 'store' failed"), "STATUS=module 'store' failed\nERRNO=5"),
            ]
            try withNotifier(socketPath: socket.path) { notifier in
                #expect(notifier.isEnabled)
                for (message, expected) in messages {
                    #expect(notifier.send(message))
                    #expect(socket.next()?.text == expected)
                }
            }
        }

        @Test func reloadingAndMonotonicTimestampArriveTogether() throws {
            let socket = try NotifySocket()
            let before = Self.monotonicMicroseconds()
            let sent = try withNotifier(socketPath: socket.path) { $0.send(.reloading(status: "reloading")) }
            let after = Self.monotonicMicroseconds()
            #expect(sent)

            let datagram = try #require(socket.next()?.text)
            let lines = datagram.split(separator: "\n").map(String.init)
            #expect(lines.count == 3)
            #expect(lines.first == "RELOADING=1")
            #expect(lines.last == "STATUS=reloading")
            let stamp = try #require(lines.dropFirst().first)
            #expect(stamp.hasPrefix("MONOTONIC_USEC="))
            let value = try #require(UInt64(stamp.dropFirst("MONOTONIC_USEC=".count)))
            #expect(value >= before && value <= after)
        }

        @Test func unsetSocketIsSilentNoOp() throws {
            let (logger, store) = CapturingLogHandler.logger()
            let (enabled, sent) = try withNotifier(socketPath: nil, logger: logger) { notifier in
                (notifier.isEnabled, notifier.send(.ready()))
            }
            #expect(!enabled && !sent)
            #expect(store.all.isEmpty)
        }

        @Test func emptySocketIsNoOp() throws {
            #expect(try !withNotifier(socketPath: "") { $0.send(.ready()) })
        }

        @Test func missingSocketWarnsAtEveryFailureRateLimited() throws {
            let socket = try NotifySocket()
            let missing = socket.directory + "/nobody-listens.sock"
            for (interval, expected) in [(Duration.seconds(3600), 1), (.zero, 3)] {
                let (logger, store) = CapturingLogHandler.logger()
                try withNotifier(socketPath: missing, logger: logger, failureLogInterval: interval) { notifier in
                    #expect(notifier.isEnabled)
                    #expect(notifier.send(.ready()), "queued")
                    #expect(notifier.send(.watchdog))
                    #expect(notifier.send(.stopping()))
                    #expect(throws: SystemdError(function: "sd_notify", errno: ENOENT)) {
                        try SystemdNotifier.deliver(.watchdog)
                    }
                }
                let warnings = store.all.filter { $0.level == .warning }
                #expect(warnings.count == expected, "interval \(interval)")
                #expect(store.all.count == expected)
                #expect(warnings.first?.metadata?["error"]?.description.contains("sd_notify") == true)
                #expect(warnings.first?.metadata?["notification"]?.description == "READY=1")
                if expected == 3 { #expect(warnings.last?.metadata?["notification"]?.description == "STOPPING=1") }
            }
            #expect(try !socket.hasUnread())
        }

        @Test func childEnvironmentLeavesOutProcessOnlyVariables() throws {
            let base = [
                "PATH": "/usr/bin", "NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "1", "WATCHDOG_PID": "2",
                "LISTEN_FDS": "1", "LISTEN_PID": "2", "LISTEN_FDNAMES": "a", "FDSTORE": "8", "JOURNAL_STREAM": "1:2",
            ]
            #expect(SystemdEnvironment.childEnvironment(from: base) == ["PATH": "/usr/bin", "JOURNAL_STREAM": "1:2"])

            let live = try ProcessEnvironmentSuite.with(["NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "5"]) {
                SystemdEnvironment.childEnvironment()
            }
            #expect(!live.contains { $0.hasPrefix("NOTIFY_SOCKET=") || $0.hasPrefix("WATCHDOG_USEC=") })
            #expect(live.contains { $0.hasPrefix("PATH=") })
        }

        @Test func captureReadsEveryVariable() throws {
            let variables: [String: String?] = [
                "NOTIFY_SOCKET": "/run/n", "WATCHDOG_USEC": "100", "WATCHDOG_PID": "7",
                "LISTEN_FDS": "2", "LISTEN_PID": "8", "LISTEN_FDNAMES": "a:b", "FDSTORE": "16",
                "JOURNAL_STREAM": "9:10",
            ]
            let captured = try ProcessEnvironmentSuite.with(variables) { SystemdEnvironment.capture() }
            #expect(captured == SystemdEnvironment(
                notifySocket: "/run/n", watchdogMicroseconds: "100", watchdogPID: "7",
                listenFDs: "2", listenPID: "8", listenFDNames: "a:b", fileDescriptorStoreMaximum: "16",
                journalStream: "9:10"))
            #expect(captured.journalStream == FileIdentity(device: 9, inode: 10))
        }

        static func monotonicMicroseconds() -> UInt64 {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
        }
    }
}
