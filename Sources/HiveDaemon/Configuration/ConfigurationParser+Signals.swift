import HiveKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ConfigurationParser {
    /// Signals whose meaning is fixed by HiveDaemon, with that meaning.
    static let reservedSignals: [Int32: String] = [
        SIGTERM: "it stops the daemon", SIGINT: "it stops the daemon",
        SIGHUP: "it reloads the configuration", SIGTSTP: "it suspends the daemon (background)",
        SIGCONT: "it resumes the daemon (foreground)",
    ]

    /// Signals that report a fault in the process itself; blocking them to read them
    /// later would turn a crash into a hang.
    static let faultSignals: Set<Int32> = [SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, SIGSYS]

    /// The `signals:` map: signal name or number → `custom:NAME`, `memoryWarning` or `reload`.
    func signals(_ node: ConfigNode) throws(HiveError) -> [Int32: HiveEvent] {
        var result: [Int32: HiveEvent] = [:]
        var firstLines: [Int32: Int] = [:]
        for entry in try node.entries(of: "a map of signal names to events") {
            let number = try signalNumber(entry.key)
            if let firstLine = firstLines[number] {
                throw entry.key.error(
                    "\(SignalName.name(of: number)) is already mapped at line \(firstLine)")
            }
            firstLines[number] = entry.key.line
            result[number] = try signalEvent(entry.value)
        }
        return result
    }

    /// The signal a key names, if the daemon can let it fire an event.
    func signalNumber(_ key: ConfigNode) throws(HiveError) -> Int32 {
        let number: Int32
        if key.type == .int {
            guard let value = Int32(exactly: try key.int()), (1...SignalName.maximum).contains(value) else {
                throw key.error("no such signal number; expected 1 to \(SignalName.maximum)")
            }
            number = value
        } else {
            let text = try key.text(expected: "a signal name")
            guard let value = SignalName.number(for: text) else {
                throw key.error("unknown signal \(quoted: text); expected a name such as SIGUSR1 or SIGRTMIN+3, or a number")
            }
            number = value
        }
        let name = SignalName.name(of: number)
        if number == SIGKILL || number == SIGSTOP {
            throw key.error("\(name) cannot be caught, so it cannot fire an event")
        }
        if let meaning = Self.reservedSignals[number] {
            throw key.error("\(name) is reserved: \(meaning)")
        }
        if Self.faultSignals.contains(number) {
            throw key.error("\(name) reports a fault in the process itself and cannot fire an event")
        }
        guard DaemonSignals.isMappable(number) else {
            throw key.error("\(name) is not read by \(daemonName) (it is left to the kernel or the C library)")
        }
        return number
    }

    /// What a signal fires: `custom:NAME`, `memoryWarning` or `reload`.
    func signalEvent(_ value: ConfigNode) throws(HiveError) -> HiveEvent {
        let expected = "custom:NAME, memoryWarning or reload"
        let text = try value.text(expected: expected)
        switch text {
        case "memoryWarning": return .memoryWarning
        case "reload": return .reload
        default:
            guard text.hasPrefix("custom:") else { throw value.error("expected \(expected); got \(value.found)") }
            let name = String(text.dropFirst("custom:".count)).trimmingWhitespace()
            guard !name.isEmpty else { throw value.error("a custom event needs a name, as in custom:rotate") }
            return .custom(name: name, params: [:])
        }
    }
}
