import Foundation
import TestSupport

/// A stand-in for logind on a ``PrivateBus``: it owns `org.freedesktop.login1`, answers
/// `Inhibit` (with the write end of a pipe whose read end it watches, as logind hands out
/// a FIFO, or with a refusal), and emits `PrepareForSleep` when told to.
///
/// It records what happens, one line each with the time (`CLOCK_REALTIME` seconds, as the
/// probe's `ts`): `inhibit WHAT|WHO|WHY|MODE` for each call, `released N` when the Nth
/// lock handed out was closed, `emitted sleep` / `emitted wake`. A python3 script with
/// python3-dbus and python3-gi (Debian's packages; `scripts/install-deps` installs them).
final class FakeLogind: @unchecked Sendable {
    // @unchecked: `process` and `commands` are only touched through Foundation's
    // thread-safe Process and FileHandle APIs.
    private let process = Process()
    private let commands = Pipe()
    private let logPath: String

    /// How it answers `Inhibit`.
    enum Answer: String { case grant, refuse }

    static let script = #"""
        import os, sys, time
        import dbus, dbus.service, dbus.mainloop.glib
        from gi.repository import GLib

        address, log_path, answer = sys.argv[1:4]
        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        bus = dbus.bus.BusConnection(address)
        log = open(log_path, 'a', buffering=1)

        def note(text):
            log.write('%.6f %s\n' % (time.time(), text))

        class Manager(dbus.service.Object):
            def __init__(self):
                super().__init__(bus, '/org/freedesktop/login1')
                self.locks = 0

            @dbus.service.method('org.freedesktop.login1.Manager', in_signature='ssss', out_signature='h')
            def Inhibit(self, what, who, why, mode):
                note('inhibit %s|%s|%s|%s' % (what, who, why, mode))
                if answer == 'refuse':
                    raise dbus.exceptions.DBusException(
                        'Access denied by the test', name='org.freedesktop.DBus.Error.AccessDenied')
                read, write = os.pipe()
                self.locks += 1
                number = self.locks
                def closed(fd, condition):
                    note('released %d' % number)
                    os.close(fd)
                    return False
                GLib.io_add_watch(read, GLib.IO_HUP | GLib.IO_ERR, closed)
                lock = dbus.types.UnixFd(write)
                os.close(write)
                return lock

            @dbus.service.signal('org.freedesktop.login1.Manager', signature='b')
            def PrepareForSleep(self, start):
                pass

        manager = Manager()
        name = dbus.service.BusName('org.freedesktop.login1', bus)
        loop = GLib.MainLoop()

        def command(source, condition):
            line = sys.stdin.readline().strip()
            if not line:
                loop.quit()
                return False
            manager.PrepareForSleep(line == 'sleep')
            bus.flush()
            note('emitted ' + line)
            return True

        GLib.io_add_watch(sys.stdin, GLib.IO_IN | GLib.IO_HUP, command)
        note('ready')
        loop.run()
        """#

    /// Starts the stand-in on `bus`, answering `Inhibit` as `answer`; returns once it owns
    /// the name.
    init(on bus: PrivateBus, in directory: TestDirectory, answer: Answer = .grant) async throws {
        logPath = directory.file("logind.log")
        let script = try directory.write("fake-logind.py", Self.script)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script, bus.address, logPath, answer.rawValue]
        process.standardInput = commands
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        let errors = directory.file("logind.stderr")
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: errors)
        try SystemdSignalMask.spawning { try process.run() }
        try await waitUntil("the logind stand-in to own its name", detail: {
            "its stderr: \((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")"
        }) {
            guard process.isRunning else { throw TestFailure("the logind stand-in ended: status \(process.terminationStatus)") }
            return lines.contains { $0.text == "ready" }
        }
    }

    deinit {
        try? commands.fileHandleForWriting.close()
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// One recorded line: when, and what.
    struct Line {
        let time: Double
        let text: String
    }

    /// What it recorded so far.
    var lines: [Line] {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let space = line.firstIndex(of: " "), let time = Double(line[..<space]) else { return nil }
            return Line(time: time, text: String(line[line.index(after: space)...]))
        }
    }

    /// The `Inhibit` calls so far (`WHAT|WHO|WHY|MODE`).
    var inhibitCalls: [String] {
        lines.compactMap { $0.text.hasPrefix("inhibit ") ? String($0.text.dropFirst("inhibit ".count)) : nil }
    }

    /// When the `number`th lock handed out was closed, if it was.
    func released(_ number: Int) -> Double? {
        lines.first { $0.text == "released \(number)" }?.time
    }

    /// Emits `PrepareForSleep(true)` and waits until it went out; returns when.
    @discardableResult
    func emitSleep() async throws -> Double { try await emit("sleep") }

    /// Emits `PrepareForSleep(false)` and waits until it went out; returns when.
    @discardableResult
    func emitWake() async throws -> Double { try await emit("wake") }

    private func emit(_ command: String) async throws -> Double {
        let before = lines.filter { $0.text == "emitted \(command)" }.count
        commands.fileHandleForWriting.write(Data((command + "\n").utf8))
        var emitted: Double?
        try await waitUntil("the stand-in to emit \(command)") {
            let all = lines.filter { $0.text == "emitted \(command)" }
            emitted = all.count > before ? all.last?.time : nil
            return emitted != nil
        }
        return emitted ?? 0
    }
}
