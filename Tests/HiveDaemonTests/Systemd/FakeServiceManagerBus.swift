import Foundation
import TestSupport

/// A D-Bus daemon of the test's own (`dbus-daemon`, on a socket in a temporary directory)
/// to give hived's descriptor store as its system and user bus, optionally with a stand-in
/// for systemd's manager on it: a python3 script (python3-dbus, python3-gi) that owns
/// `org.freedesktop.systemd1`, answers `GetUnitByPID` with `fake.service`'s path, and, for
/// any unit path, the properties `Id` (`fake.service`) and `FileDescriptorStoreMax` (as told).
final class FakeServiceManagerBus: @unchecked Sendable {
    // @unchecked: the processes are only touched through Foundation's thread-safe Process API.
    private let daemon = Process()
    private var manager: Process?
    let directory: String
    /// The bus's address (`unix:path=…`).
    let address: String

    static let script = #"""
        import sys
        import dbus, dbus.service, dbus.mainloop.glib
        from gi.repository import GLib

        address, maximum, ready = sys.argv[1], int(sys.argv[2]), sys.argv[3]
        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        bus = dbus.bus.BusConnection(address)

        class Manager(dbus.service.FallbackObject):
            @dbus.service.method('org.freedesktop.systemd1.Manager', in_signature='u', out_signature='o')
            def GetUnitByPID(self, pid):
                return dbus.ObjectPath('/org/freedesktop/systemd1/unit/fake_2eservice')

            @dbus.service.method('org.freedesktop.DBus.Properties', in_signature='ss', out_signature='v')
            def Get(self, interface, name):
                if name == 'Id':
                    return dbus.String('fake.service')
                if name == 'FileDescriptorStoreMax':
                    return dbus.UInt32(maximum)
                raise dbus.exceptions.DBusException(name, name='org.freedesktop.DBus.Error.UnknownProperty')

        manager = Manager(bus, '/org/freedesktop/systemd1')
        name = dbus.service.BusName('org.freedesktop.systemd1', bus)
        open(ready, 'w').close()
        GLib.MainLoop().run()
        """#

    /// Starts the bus, and the stand-in manager when `fileDescriptorStoreMax` is given.
    init(fileDescriptorStoreMax: UInt32? = nil) async throws {
        var template = Array("/tmp/hived-bus-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp: errno \(errno)") }
        directory = String(cString: made)
        address = "unix:path=\(directory)/bus"
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>custom</type>
              <listen>\(address)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow user="*"/> <allow own="*"/> <allow send_destination="*"/> <allow receive_sender="*"/>
              </policy>
            </busconfig>
            """.write(toFile: directory + "/bus.conf", atomically: true, encoding: .utf8)
        let printed = directory + "/bus.address"
        _ = FileManager.default.createFile(atPath: printed, contents: nil)
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--config-file=\(directory)/bus.conf", "--nofork", "--nopidfile", "--print-address=1"]
        daemon.standardOutput = FileHandle(forWritingAtPath: printed)
        daemon.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try daemon.run()
        // dbus-daemon prints its address once it listens.
        try await waitUntil("dbus-daemon to listen") {
            (try? String(contentsOfFile: printed, encoding: .utf8))?.contains("unix:") == true
        }
        guard let fileDescriptorStoreMax else { return }
        let script = directory + "/fake-systemd.py"
        try Self.script.write(toFile: script, atomically: true, encoding: .utf8)
        let ready = directory + "/manager.ready"
        let manager = Process()
        manager.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        manager.arguments = [script, address, "\(fileDescriptorStoreMax)", ready]
        manager.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        try manager.run()
        self.manager = manager
        try await waitUntil("the stand-in manager to own org.freedesktop.systemd1") {
            guard manager.isRunning else { throw TestFailure("the stand-in manager ended: \(manager.terminationStatus)") }
            return FileManager.default.fileExists(atPath: ready)
        }
    }

    deinit {
        for process in [manager, daemon].compactMap({ $0 }) where process.isRunning {
            kill(process.processIdentifier, SIGKILL)
        }
        try? FileManager.default.removeItem(atPath: directory)
    }
}

