import Foundation
import TestSupport
import Testing

/// The README's `hello` (`Examples/MyDaemon/Sources/hello`): a module and the few lines
/// that run it as a daemon. It runs on its embedded configuration, and its output is the
/// README's sample.
@Suite(.enabled(
    if: ExampleBinary.isAvailable(product: "hello"),
    "Examples/MyDaemon is not built (swift build --package-path Examples/MyDaemon; scripts/test builds it)"))
struct HelloTests {
    static let executable = ExampleBinary.url(product: "hello")

    @Test func itRunsAsTheReadmeShows() async throws {
        let directory = try TestDirectory()
        let hello = try HivedProcess([], in: directory, environment: ["HELLO_LOG_TARGET": "stderr"], executable: Self.executable)
        try await hello.waitForReady()
        try await ExampleCommand.waitFor(hello, "[greeter] ready: hello, world")
        try await hello.deliver(SIGUSR1)
        try await ExampleCommand.waitFor(hello, "[greeter] custom: wave is event 1")
        hello.signal(SIGTERM)
        #expect(try await hello.exitStatus() == 0)
        try SampleOutputTests.check("hello", against: hello.stderr)
    }

    @Test func aMisspeltSettingIsRefusedAtItsLine() async throws {
        let directory = try TestDirectory()
        let file = try directory.write("hello.yaml", "modules:\n  - {name: greeter, type: greeter, settings: {greting: hi}}\n")
        let result = try await ExampleCommand.run(Self.executable, ["check-config", file])
        #expect(result.status == 78)
        #expect(result.stderr.hasPrefix("\(file):2: module 'greeter': unknown setting 'greting'; expected greeting"), "\(result.stderr)")
    }
}
