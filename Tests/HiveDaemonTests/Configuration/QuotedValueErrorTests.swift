@testable import HiveDaemon
import HiveKit
import Testing

/// Every configuration error that quotes a value from the file (or the environment) quotes
/// at most 80 characters of it, however long the value: a 300 KB type, name or key makes a
/// message of a line, not of 300 KB (issue 9). Keys that long are written as explicit keys
/// (`? key`): libyaml allows at most 1,024 characters in an implicit one.
@Suite struct QuotedValueErrorTests {
    static let huge = String(repeating: "x", count: 300_000)
    static let shown = "'" + String(repeating: "x", count: 79) + "…'"

    struct Case: CustomTestStringConvertible, Sendable {
        let label: String
        let text: String
        var environment: [String: String] = [:]
        let message: String
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(label: "unknown module type", text: "modules: [{name: a, type: \(huge)}]\n",
             message: "test.yaml:1: module 'a': modules[0].type: unknown module type \(shown) (known: demo, probe)"),
        Case(label: "a huge module name in the module prefix", text: "modules: [{name: \(huge), type: nope}]\n",
             message: "test.yaml:1: module \(shown): modules[0].type: unknown module type 'nope' (known: demo, probe)"),
        Case(label: "duplicate module name", text: "modules: [{name: \(huge), type: demo}, {name: \(huge), type: demo}]\n",
             message: "test.yaml:1: module \(shown): modules[1].name: duplicate module name \(shown) (first declared at line 1)"),
        Case(label: "unknown signal", text: "signals:\n  ? \(huge)\n  : custom:x\n",
             message: "test.yaml:2: signals.\(String(repeating: "x", count: 79))…: unknown signal \(shown)"),
        Case(label: "control socket path", text: "control: {socket: \(huge)}\n",
             message: "test.yaml:1: control.socket: the control socket needs an absolute path, not \(shown)"),
        Case(label: "control group", text: "control: {group: \(huge)}\n",
             message: "test.yaml:1: control.group: no group named \(shown) on this system"),
        Case(label: "duplicate service", text: "services: [{service: \(huge.prefix(200_000)), implementation: a, name: \(huge.prefix(200_000))}, "
                + "{service: \(huge.prefix(200_000)), implementation: a, name: \(huge.prefix(200_000))}]\n",
             message: "test.yaml:1: services[1].name: service \(String(repeating: "x", count: 79))… named \(shown) is declared twice (first at line 1)"),
        Case(label: "an override", text: "{}\n", environment: ["HIVED_LOG_LEVEL": huge],
             message: "HIVED_LOG_LEVEL: expected one of trace, debug, info, notice, warning, error, critical; got \(shown)"),
        Case(label: "duplicate YAML key", text: "log:\n  ? \(huge)\n  : 1\n  ? \(huge)\n  : 2\n",
             message: "test.yaml:4: duplicate key \(shown) in the same map (first at line 2)"),
    ]

    @Test(arguments: cases) func quotesAtMost80Characters(_ testCase: Case) throws {
        let error = try #require(configurationError(testCase.text, catalog: testCatalog(), environment: testCase.environment))
        #expect(error.description.hasPrefix(testCase.message), "\(error.description.prefix(400))")
        #expect(error.description.utf8.count < 400, "\(error.description.utf8.count) bytes")
    }
}
