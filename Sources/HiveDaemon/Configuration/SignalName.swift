import HiveKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Converts between signal names as configuration files write them (`SIGUSR1`, `USR1`,
/// `SIGRTMIN+3`, `rtmax-1`) and signal numbers.
enum SignalName {
    /// The standard signals by name, without the `SIG` prefix.
    static let standard: [(name: String, number: Int32)] = {
        var table: [(String, Int32)] = [
            ("HUP", SIGHUP), ("INT", SIGINT), ("QUIT", SIGQUIT), ("ILL", SIGILL),
            ("TRAP", SIGTRAP), ("ABRT", SIGABRT), ("BUS", SIGBUS), ("FPE", SIGFPE),
            ("KILL", SIGKILL), ("USR1", SIGUSR1), ("SEGV", SIGSEGV), ("USR2", SIGUSR2),
            ("PIPE", SIGPIPE), ("ALRM", SIGALRM), ("TERM", SIGTERM), ("CHLD", SIGCHLD),
            ("CONT", SIGCONT), ("STOP", SIGSTOP), ("TSTP", SIGTSTP), ("TTIN", SIGTTIN),
            ("TTOU", SIGTTOU), ("URG", SIGURG), ("XCPU", SIGXCPU), ("XFSZ", SIGXFSZ),
            ("VTALRM", SIGVTALRM), ("PROF", SIGPROF), ("WINCH", SIGWINCH), ("IO", SIGIO),
            ("SYS", SIGSYS),
        ]
        #if os(Linux)
        table += [("STKFLT", SIGSTKFLT), ("PWR", SIGPWR), ("POLL", SIGPOLL), ("IOT", SIGIOT)]
        #endif
        return table
    }()

    /// The first real-time signal (`SIGRTMIN`); `nil` where there are none.
    static var realTimeMinimum: Int32? {
        #if os(Linux)
        return __libc_current_sigrtmin()
        #else
        return nil
        #endif
    }

    /// The last real-time signal (`SIGRTMAX`); `nil` where there are none.
    static var realTimeMaximum: Int32? {
        #if os(Linux)
        return __libc_current_sigrtmax()
        #else
        return nil
        #endif
    }

    /// The highest valid signal number.
    static var maximum: Int32 {
        realTimeMaximum ?? standard.map(\.number).max() ?? 31
    }

    /// The number of the signal called `name`: `SIGUSR1`, `USR1`, `sigusr1`, `SIGRTMIN`,
    /// `SIGRTMIN+3`, `SIGRTMAX-2`, in any ASCII case (only: `ſigusr1` is no signal);
    /// `nil` for an unknown name or a real-time offset out of range.
    static func number(for name: String) -> Int32? {
        let upper = name.unicodeScalars.map { $0.value >= 0x61 && $0.value <= 0x7A ? Unicode.Scalar($0.value - 32)! : $0 }
        var text = Substring(String(String.UnicodeScalarView(upper)))
        if text.hasPrefix("SIG") { text = text.dropFirst(3) }
        if let entry = standard.first(where: { $0.name == text }) { return entry.number }
        guard let low = realTimeMinimum, let high = realTimeMaximum else { return nil }
        for (prefix, base, sign) in [("RTMIN", low, Int32(1)), ("RTMAX", high, Int32(-1))]
        where text.hasPrefix(prefix) {
            let rest = text.dropFirst(prefix.count)
            if rest.isEmpty { return base }
            let wanted: Character = sign > 0 ? "+" : "-"
            let digits = rest.dropFirst()
            guard rest.first == wanted, !digits.isEmpty, digits.allSatisfy({ $0 >= "0" && $0 <= "9" }),
                let offset = Int32(digits)
            else { return nil }
            let number = Int(base) + Int(sign) * Int(offset)
            return (Int(low)...Int(high)).contains(number) ? Int32(number) : nil
        }
        return nil
    }

    /// The conventional name of signal `number` (`SIGUSR1`, `SIGRTMIN+3`), or
    /// `signal N` for a number without one.
    static func name(of number: Int32) -> String {
        if let entry = standard.first(where: { $0.number == number }) { return "SIG" + entry.name }
        if let low = realTimeMinimum, let high = realTimeMaximum, (low...high).contains(number) {
            return number == low ? "SIGRTMIN" : "SIGRTMIN+\(number - low)"
        }
        return "signal \(number)"
    }
}
