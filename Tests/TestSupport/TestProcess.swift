import Foundation
import Testing

/// The test processes that run one kind of test alone: the tests that block threads or burn
/// CPU (`BlockingTests`, and the process-level ones nested in `HivedTests`'
/// `BlockingHivedTests`), and the real-systemd suite (`SystemdTests`).
///
/// `scripts/lib/test-processes` starts each as a `swift test` of its own with
/// `HIVE_TEST_PROCESS` naming it. Anywhere else, a plain `swift test` included, those
/// tests skip, saying how to run them: a plain `swift test` is the timing-sensitive
/// tests' process, and must not share its threads or cores with them.
public enum TestProcess: String, Sendable {
    /// `HIVE_TEST_PROCESS=blocking`: `BlockingTests` and `HivedTests.BlockingHivedTests`.
    case blocking
    /// `HIVE_TEST_PROCESS=systemd`: `SystemdTests`.
    case systemd

    /// The process `HIVE_TEST_PROCESS` names in this process's environment.
    public static let current = ProcessInfo.processInfo.environment["HIVE_TEST_PROCESS"].flatMap(Self.init(rawValue:))

    /// Whether this is the process of these tests.
    public var isCurrent: Bool { Self.current == self }

    /// The `swift test --filter` that selects this process's tests (the one
    /// `scripts/lib/test-processes` passes).
    public var filter: String {
        self == .blocking ? #"^(BlockingTests\.|HivedTests\.BlockingHivedTests\b)"# : #"^SystemdTests\."#
    }

    /// Why these tests skip in another process, and how to run them.
    public var skipComment: Comment {
        let target = self == .blocking ? "BlockingTests" : "SystemdTests"
        return Comment(rawValue: """
            \(target) run in a test process of their own: scripts/test\(self == .blocking ? " fast" : ""), \
            or HIVE_TEST_PROCESS=\(rawValue) swift test --skip-build --filter '\(filter)'
            """)
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the suite only in `process`'s own test process (see ``TestProcess``); elsewhere
    /// it skips, saying how to run it.
    public static func runsIn(_ process: TestProcess) -> Self {
        .enabled(if: process.isCurrent, process.skipComment)
    }
}
