import Foundation
@testable import HiveDaemon
import HiveKit
import Testing

/// Configuration input that cannot hurt: only regular files, read as a stable snapshot,
/// bounded in size and in what aliases expand to, without quadratic key paths.
@Suite struct ConfigurationInputTests {
    @Test func aFifoIsRefusedWithoutBlockingOnOpen() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hived-\(UUID().uuidString).fifo").path
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        let error = #expect(throws: HiveError.self) { try DaemonConfiguration.load(path: path) }
        #expect(error?.description == "\(path): cannot read configuration file: not a regular file (a FIFO)")
        let device = #expect(throws: HiveError.self) { try DaemonConfiguration.load(path: "/dev/zero") }
        #expect(device?.description == "/dev/zero: cannot read configuration file: not a regular file (a character device)")
    }

    @Test func aFileOverOneMebibyteIsRefused() throws {
        let path = try ConfigurationFileTests.temporaryFile("# " + String(repeating: "x", count: 1 << 20) + "\n{}\n")
        defer { unlink(path) }
        let error = #expect(throws: HiveError.self) { try DaemonConfiguration.load(path: path) }
        #expect(error?.description == "\(path): cannot read configuration file: larger than 1 MiB")
        #expect(throws: HiveError.self) { try DaemonConfiguration.parse(String(repeating: " ", count: 2 << 20) + "{}") }
    }

    @Test func aFileWrittenWhileItIsReadIsReadAgainThenRefused() throws {
        let path = try ConfigurationFileTests.temporaryFile("modules: []\n")
        defer { unlink(path) }
        func append(_ text: String) {
            let descriptor = open(path, O_WRONLY | O_APPEND)
            _ = write(descriptor, text, text.utf8.count)
            close(descriptor)
        }
        // Written in place during every read: refused.
        var reads = 0
        let error = #expect(throws: HiveError.self) {
            try ConfigurationFile.contents(of: path) {
                reads += 1
                append("# more\n")
            }
        }
        #expect(reads == ConfigurationFile.attempts)
        #expect(error?.description == "\(path): cannot read configuration file: file changed while reading (3 tries); "
            + "replace it atomically: write a temporary file, then rename it")
        // Written during the first read only: the second read is the snapshot.
        reads = 0
        let text = try ConfigurationFile.contents(of: path) {
            reads += 1
            if reads == 1 { append("log: {level: debug}\n") }
        }
        #expect(reads == 2)
        #expect(text.hasSuffix("log: {level: debug}\n"))
        // Replaced by a rename during the read: read again, the new file.
        reads = 0
        let replaced = try ConfigurationFile.contents(of: path) {
            reads += 1
            if reads == 1 { try? "modules: []\nsignals: {}\n".write(toFile: path, atomically: true, encoding: .utf8) }
        }
        #expect(reads == 2)
        #expect(replaced == "modules: []\nsignals: {}\n")
    }

    /// A `/proc` file is regular but says it is empty: it is refused for what it is, not
    /// as a file an editor wrote in place.
    @Test func aProcFileIsRefusedForWhatItIs() throws {
        let error = #expect(throws: HiveError.self) { try DaemonConfiguration.load(path: "/proc/self/status") }
        let message = try #require(error?.description)
        #expect(message.hasPrefix("/proc/self/status: cannot read configuration file: its size says 0 bytes but reading it gives "))
        #expect(message.contains("a file of /proc or /sys"), "\(message)")
        #expect(!message.contains("changed while reading") && !message.contains("atomically"), "\(message)")
    }

    @Test func keyPathsInErrorsAreBuiltOnlyForTheErrorAndQuoteValuesShortly() throws {
        let long = String(repeating: "k", count: 5_000)
        let text = """
            modules:
              - name: a
                type: probe
                priority: \(String(repeating: "9", count: 900_000))x
            """
        let error = #expect(throws: HiveError.self) { try DaemonConfiguration.parse(text, path: "f.yaml") }
        let message = try #require(error?.description)
        #expect(message.hasPrefix("f.yaml:4: modules[0].priority: expected an integer, got '9999"))
        #expect(message.utf8.count < 200, "the 900 KB value is quoted in at most 80 characters")
        let keyed = #expect(throws: HiveError.self) {
            try DaemonConfiguration.parse("log: {\(long): 1}", path: "f.yaml")
        }
        #expect((keyed?.description.utf8.count ?? .max) < 400)
    }

    @Test func signalNamesMatchInAsciiCaseOnly() {
        #expect(SignalName.number(for: "sigusr1") == SIGUSR1)
        #expect(SignalName.number(for: "SigUsr1") == SIGUSR1)
        #expect(SignalName.number(for: "ſigusr1") == nil, "U+017F uppercases to S in Unicode, not in ASCII")
        #expect(SignalName.number(for: "sıgusr1") == nil, "U+0131 uppercases to I")
        #expect(HiveLogging.parseLevel("İnfo") == nil)
        #expect(HiveLogging.parseLevel("INFO") == .info)
    }
}
