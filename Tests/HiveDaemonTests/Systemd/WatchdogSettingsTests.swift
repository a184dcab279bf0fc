import Glibc
@testable import HiveDaemon
import HiveKit
import Testing

extension ProcessEnvironmentSuite {
    @Suite struct WatchdogSettingsTests {
        @Test func onForUsWithHalfIntervalPing() throws {
            let settings = try ProcessEnvironmentSuite.with(
                ["WATCHDOG_USEC": "10000000", "WATCHDOG_PID": String(getpid())]
            ) { try WatchdogSettings.current() }
            #expect(settings?.interval == .seconds(10))
            #expect(settings?.pingInterval == .seconds(5))
        }

        @Test func onWithoutPidMeansUs() throws {
            let settings = try ProcessEnvironmentSuite.with(["WATCHDOG_USEC": "3000000", "WATCHDOG_PID": nil]) {
                try WatchdogSettings.current()
            }
            #expect(settings == WatchdogSettings(interval: .seconds(3)))
        }

        @Test func offForAnotherProcess() throws {
            let settings = try ProcessEnvironmentSuite.with(
                ["WATCHDOG_USEC": "10000000", "WATCHDOG_PID": String(getpid() + 1)]
            ) { try WatchdogSettings.current() }
            #expect(settings == nil)
        }

        @Test func offWhenUnset() throws {
            let settings = try ProcessEnvironmentSuite.with(["WATCHDOG_USEC": nil, "WATCHDOG_PID": nil]) {
                try WatchdogSettings.current()
            }
            #expect(settings == nil)
        }

        @Test func malformedIntervalIsTypedError() {
            #expect(throws: SystemdError(function: "sd_watchdog_enabled", errno: EINVAL)) {
                try ProcessEnvironmentSuite.with(["WATCHDOG_USEC": "soon", "WATCHDOG_PID": nil]) {
                    try WatchdogSettings.current()
                }
            }
        }

        @Test func variablesStaySetAfterReading() throws {
            let still = try ProcessEnvironmentSuite.with(["WATCHDOG_USEC": "1000000", "WATCHDOG_PID": nil]) {
                _ = try WatchdogSettings.current()
                return getenv("WATCHDOG_USEC") != nil
            }
            #expect(still)
        }

        @Test func pingIntervalFromMicroseconds() {
            #expect(WatchdogSettings(microseconds: 1_500_000).pingInterval == .milliseconds(750))
        }
    }
}
