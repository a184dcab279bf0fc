@testable import HiveDaemon
import HiveKit
import Testing

@Suite struct ControlConfigurationTests {
    @Test func theDefaultSocketIsInTheRuntimeDirectoryWhenSystemdSetsOne() throws {
        let control = try parseConfiguration("{}").control
        #expect(control == ControlConfiguration())
        #expect(control.socketPath(runtimeDirectory: "/run/hived") == "/run/hived/control")
        #expect(control.socketPath(runtimeDirectory: "/run/hived:/run/other") == "/run/hived/control")
        #expect(control.socketPath(runtimeDirectory: nil) == nil, "outside systemd, no socket unless configured")
    }

    @Test func aConfiguredSocketWinsAndEnabledFalseTurnsItOff() throws {
        let configured = try parseConfiguration("control: {socket: /tmp/x/control, group: root}").control
        #expect(configured.socketPath(runtimeDirectory: "/run/hived") == "/tmp/x/control")
        #expect(configured.group == "root")
        let off = try parseConfiguration("control: {enabled: false, socket: /tmp/x/control}").control
        #expect(off.socketPath(runtimeDirectory: "/run/hived") == nil)
    }

    @Test(arguments: [
        ("control: {socket: relative/control}\n", "control.socket: the control socket needs an absolute path"),
        ("control: {group: no-such-group-here}\n", "control.group: no group named 'no-such-group-here'"),
        ("control: {enabled: maybe}\n", "control.enabled: expected true or false"),
        ("control: {port: 80}\n", "control.port: unknown key; expected enabled, socket, group"),
        ("control: {socket: /\(String(repeating: "x", count: 120))}\n", "at most 107 fit"),
    ])
    func badControlKeysNameTheirLine(text: String, message: String) throws {
        let error = try #require(configurationError(text))
        #expect(error.location?.line == 1)
        #expect(error.description.contains(message), "\(error)")
        #expect(error.description.components(separatedBy: "control.").count == 2, "the key is named once: \(error)")
    }
}
