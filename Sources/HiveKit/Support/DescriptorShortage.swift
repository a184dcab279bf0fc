#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a failure for lack of file descriptors means, in words an operator acts on: a
/// bare "Too many open files" reads like a problem of the file named beside it.
package enum DescriptorShortage {
    /// Whether `code` says the process (`EMFILE`) or the whole system (`ENFILE`) ran out
    /// of file descriptors.
    package static func isShortage(_ code: Int32) -> Bool { code == EMFILE || code == ENFILE }

    /// `nil` unless `code` is `EMFILE` or `ENFILE`; then what ran out: the process's limit
    /// (`getrlimit(RLIMIT_NOFILE)`, `LimitNOFILE=` in a unit) or the system's table.
    package static func note(for code: Int32) -> String? {
        switch code {
        case EMFILE:
            var limit = rlimit()
            let known = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 && limit.rlim_cur < 1 << 40
            return "the process is out of file descriptors: it holds the \(known ? "\(limit.rlim_cur) " : "")"
                + "its limit allows (RLIMIT_NOFILE; LimitNOFILE= in a unit)"
        case ENFILE:
            return "the system is out of file descriptors (fs.file-max)"
        default:
            return nil
        }
    }

    /// `strerror(code)`, followed by ``note(for:)`` when there is one.
    package static func describe(_ code: Int32) -> String {
        let text = strerror(code).map { String(cString: $0) } ?? "error \(code)"
        return note(for: code).map { "\(text): \($0)" } ?? text
    }
}
