import Glibc
import Testing

/// Every test that changes process-global state (environment variables, fd 2, the shared
/// log level) is nested in this suite, so they run one at a time, never beside each other.
@Suite(.serialized) struct ProcessEnvironmentSuite {
    /// Runs `body` with `variables` set (nil: unset), then restores what was there before.
    static func with<T>(_ variables: [String: String?], _ body: () throws -> T) throws -> T {
        var saved = [String: String?]()
        for (name, value) in variables {
            // updateValue, not a subscript: assigning nil would drop the key, and a variable
            // that was unset would then stay set after the test.
            saved.updateValue(getenv(name).map { String(cString: $0) }, forKey: name)
            if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
        defer {
            for (name, value) in saved {
                if let value { setenv(name, value, 1) } else { unsetenv(name) }
            }
        }
        return try body()
    }
}
