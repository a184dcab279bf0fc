@testable import HiveDaemon
import Testing

@Suite struct DaemonIdentityTests {
    @Test func everythingFollowsFromTheName() {
        let identity = DaemonIdentity(name: "mydaemon", version: "1.2.0")
        #expect(identity.logLabel == "mydaemon")
        #expect(identity.environmentPrefix == "MYDAEMON_")
        #expect(identity.environmentVariable("LOG_LEVEL") == "MYDAEMON_LOG_LEVEL")
        #expect(identity.configurationPath == "/etc/mydaemon/mydaemon.yaml")
        #expect(identity.runtimeDirectoryName == "mydaemon")
        #expect(identity.runtimeDirectory == "/run/mydaemon")
        #expect(identity.stateDirectory == "/var/lib/mydaemon")
        #expect(identity.description == "mydaemon 1.2.0")
        #expect(identity.url == "file:///usr/share/doc/mydaemon/", "where a Debian package puts its documentation")
        let documented = DaemonIdentity(name: "mydaemon", version: "1", url: "https://example.org/mydaemon")
        #expect(documented.url == "https://example.org/mydaemon")
    }

    @Test func thePrefixIsAValidVariableName() {
        #expect(DaemonIdentity(name: "my-daemon.2", version: "1").environmentPrefix == "MY_DAEMON_2_")
        #expect(DaemonIdentity(name: "Hive_d", version: "1").environmentPrefix == "HIVE_D_")
    }

    @Test(arguments: ["hived", "my-daemon", "a.b_c", "9lives"])
    func validNames(_ name: String) {
        #expect(DaemonIdentity.isValidName(name))
    }

    @Test(arguments: ["", "-x", ".x", "my daemon", "a/b", "démon", "x\n"])
    func invalidNames(_ name: String) {
        #expect(!DaemonIdentity.isValidName(name))
    }
}
