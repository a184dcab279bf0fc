import TestSupport
import Testing

/// The process-level tests that burn CPU or block threads (hived parsing and starting tens
/// of thousands of modules, files of a mebibyte written and synced on the test's thread):
/// nested here, they run in the blocking tests' process (`scripts/lib/test-processes`,
/// ``TestProcess/blocking``), never beside the timing-sensitive ones.
@Suite(.runsIn(.blocking)) struct BlockingHivedTests {}
