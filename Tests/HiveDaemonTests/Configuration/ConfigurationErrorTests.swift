@testable import HiveDaemon
import HiveKit
import Testing

@Suite struct ConfigurationErrorTests {
    /// One invalid file: its text, the line the error must point at, its code and a
    /// part of its message.
    struct Case: CustomTestStringConvertible, Sendable {
        let label: String
        let text: String
        let line: Int
        var code: HiveError.Code = .invalidConfiguration
        let message: String
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(label: "YAML syntax: bad indentation", text: "log:\n  level: info\n target: auto\n", line: 3,
             message: "invalid YAML: did not find expected key at column 2 (while parsing a block mapping at line 1)"),
        Case(label: "YAML syntax: unclosed flow map", text: "environment: production\nlog: {level: info\n", line: 3,
             message: "invalid YAML"),
        Case(label: "YAML syntax: tab indentation", text: "modules:\n\t- name: a\n", line: 2, message: "invalid YAML"),
        Case(label: "YAML: undefined alias", text: "environment: production\nlog: *nothing\n", line: 2,
             message: "invalid YAML"),
        Case(label: "YAML: two documents", text: "environment: production\n---\nenvironment: testing\n", line: 2,
             message: "invalid YAML: expected a single document in the stream, but found another document"),
        Case(label: "YAML: a control character", text: "environment: production\nlog: {level: \u{1}info}\n", line: 2,
             message: "invalid YAML: control characters are not allowed (#x1)"),
        Case(label: "YAML: an unknown tag", text: "modules:\n  - name: a\n    type: !probe x\n", line: 3,
             message: "invalid YAML: unsupported tag '!probe'"),
        Case(label: "YAML: an unknown core tag on a map", text: "log: !!set {level: info}\n", line: 1,
             message: "invalid YAML: unsupported tag '!!set'"),
        Case(label: "YAML: aliases that expand without bound (billion laughs)",
             text: "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
                + (1...9).map { "l\($0): &l\($0) [" + Array(repeating: $0 == 1 ? "*a" : "*l\($0 - 1)", count: 10).joined(separator: ", ") + "]" }
                    .joined(separator: "\n") + "\n",
             line: 5, message: "invalid YAML: aliases expand to more than 100000 nodes"),
        Case(label: "an explicitly tagged string where an integer belongs",
             text: "modules:\n  - name: a\n    type: probe\n    priority: !!str 5\n", line: 4,
             message: "modules[0].priority: expected an integer, got '5'"),
        Case(label: "top level is a list", text: "- environment: production\n", line: 1,
             message: "the configuration must be a map"),
        Case(label: "top level is a scalar", text: "hello\n", line: 1, message: "got 'hello'"),
        Case(label: "unknown top-level key", text: "environment: production\nmodule:\n  - {name: a}\n", line: 2,
             message: "module: unknown key; expected environment, log, budgets, signals, sleep, memory_pressure, modules, services"),
        Case(label: "unknown key in log", text: "log:\n  level: info\n  colour: true\n", line: 3,
             message: "log.colour: unknown key; expected level, target"),
        Case(label: "unknown key in budgets", text: "budgets: {event: 1s, start: 2s}\n", line: 1,
             message: "budgets.start: unknown key"),
        Case(label: "unknown key in a module", text: "modules:\n  - name: a\n    type: probe\n    prio: 3\n",
             line: 4, message: "modules[0].prio: unknown key"),
        Case(label: "unknown key in a service",
             text: "services:\n  - service: Clock\n    implementation: SystemClock\n    scope: x\n", line: 4,
             message: "services[0].scope: unknown key"),
        Case(label: "bad environment", text: "\nenvironment: prod\n", line: 2,
             message: "environment: expected one of development, testing, staging, production; got 'prod'"),
        Case(label: "bad log level", text: "log:\n  level: loud\n", line: 2, message: "log.level: expected one of trace"),
        Case(label: "bad log target", text: "log: {target: syslog}\n", line: 1,
             message: "log.target: expected one of auto, journal, stderr; got 'syslog'"),
        Case(label: "log is a list", text: "log: [info]\n", line: 1, message: "log: expected a map with level and target, got a list"),
        Case(label: "bad duration", text: "budgets:\n  event: soon\n", line: 2,
             message: "budgets.event: expected a duration such as 250ms, 5s or 2m, got 'soon'"),
        Case(label: "zero duration", text: "budgets:\n  stop: 0s\n", line: 2, message: "budgets.stop: must be at least 1ms"),
        Case(label: "duration without a unit", text: "budgets:\n  event: 5\n", line: 2,
             message: "budgets.event: expected a duration such as 250ms, 5s or 2m, got '5'"),
        Case(label: "budget under 1ms", text: "budgets:\n  event: 500us\n  stop: 0.5ms\n", line: 2, message: "budgets.event: must be at least 1ms, got '500us'"),
        Case(label: "negative duration", text: "budgets:\n  stop: -1s\n", line: 2, message: "budgets.stop: expected a duration"),
        Case(label: "hexadecimal duration", text: "budgets:\n  stop: 0x10s\n", line: 2,
             message: "budgets.stop: expected a duration such as 250ms, 5s or 2m, got '0x10s'"),
        Case(label: "duration with an exponent", text: "budgets:\n  event: 1.5e3ms\n", line: 2,
             message: "budgets.event: expected a duration such as 250ms, 5s or 2m, got '1.5e3ms'"),
        Case(label: "duration past 100 years", text: "budgets:\n  stop: 1000000h\n", line: 2,
             message: "budgets.stop: must be at most 100 years, got '1000000h'"),
        Case(label: "modules is a map", text: "modules:\n  name: a\n", line: 2,
             message: "modules: expected a list of modules, got a map"),
        Case(label: "module is a scalar", text: "modules:\n  - store\n", line: 2, message: "modules[0]: expected a module"),
        Case(label: "module without name", text: "modules:\n  - type: probe\n", line: 2, message: "modules[0].name: is required"),
        Case(label: "module with empty name", text: "modules:\n  - name:\n    type: probe\n", line: 2,
             message: "modules[0].name: is required and must not be empty"),
        Case(label: "module without type", text: "modules:\n  - name: a\n  - name: b\n", line: 2,
             message: "modules[0].type: is required"),
        Case(label: "priority not an integer",
             text: "modules:\n  - {name: a, type: probe}\n  - {name: b, type: probe}\n  - name: c\n    type: probe\n    priority: high\n",
             line: 6, message: "modules[2].priority: expected an integer, got 'high'"),
        Case(label: "priority is a float", text: "modules:\n  - {name: a, type: probe, priority: 1.5}\n", line: 2,
             message: "modules[0].priority: expected an integer, got '1.5'"),
        Case(label: "async not a boolean", text: "modules:\n  - name: a\n    type: probe\n    async: maybe\n", line: 4,
             message: "modules[0].async: expected true or false, got 'maybe'"),
        Case(label: "enabled not a boolean", text: "modules:\n  - name: a\n    type: probe\n    enabled: [x]\n", line: 4,
             message: "modules[0].enabled: expected true or false, got a list"),
        Case(label: "bad level", text: "modules:\n  - name: a\n    type: probe\n    level: high\n", line: 4,
             message: "modules[0].level: expected one of basic, normal; got 'high'"),
        Case(label: "bad module budget", text: "modules:\n  - name: a\n    type: probe\n    budget: 10 seconds\n", line: 4,
             message: "modules[0].budget: expected a duration"),
        Case(label: "settings not a map", text: "modules:\n  - name: a\n    type: probe\n    settings: [a]\n", line: 4,
             message: "modules[0].settings: expected a map of settings, got a list"),
        Case(label: "settings with a non-scalar key", text: "modules:\n  - name: a\n    type: probe\n    settings:\n      ? [a]\n      : 1\n",
             line: 5, message: "modules[0].settings: keys must be plain names"),
        Case(label: "settings with a huge integer", text: "modules:\n  - name: a\n    type: probe\n    settings: {n: 99999999999999999999999}\n",
             line: 4, message: "modules[0].settings.n: integer '99999999999999999999999' is out of range"),
        Case(label: "merge key", text: "base: &b {level: info}\nlog:\n  <<: *b\n", line: 1, message: "base: unknown key"),
        Case(label: "merge key in log", text: "log:\n  <<: {level: info}\n", line: 2,
             message: "log: merge keys (<<) are not supported"),
        Case(label: "merge key in settings", text: "modules:\n  - name: a\n    type: probe\n    settings:\n      <<: {x: 1}\n",
             line: 5, message: "merge keys (<<) are not supported"),
        Case(label: "duplicate module name",
             text: "modules:\n  - name: a\n    type: probe\n  - name: b\n    type: probe\n  - name: a\n    type: probe\n",
             line: 6, code: .duplicateModule, message: "modules[2].name: duplicate module name 'a' (first declared at line 2)"),
        Case(label: "duplicate top-level key", text: "environment: production\nlog: {level: info}\nenvironment: testing\n",
             line: 3, message: "duplicate key 'environment' in the same map (first at line 1)"),
        Case(label: "duplicate key in a module",
             text: "modules:\n  - name: a\n    settings: {name: x}\n    type: probe\n    name: b\n", line: 5,
             message: "duplicate key 'name'"),
        Case(label: "duplicate key in a flow map", text: "log: {level: info, level: debug}\n", line: 1,
             message: "duplicate key 'level'"),
        Case(label: "duplicate key in settings",
             text: "modules:\n  - name: a\n    type: probe\n    settings:\n      path: /a\n      path: /b\n", line: 6,
             message: "duplicate key 'path' in the same map (first at line 5)"),
    ]

    @Test(arguments: cases)
    func invalidFilesFailAtTheOffendingLine(_ invalid: Case) throws {
        let error = try #require(configurationError(invalid.text))
        #expect(error.code == invalid.code)
        #expect(error.location == SourceLocation(path: "test.yaml", line: invalid.line), "\(error)")
        #expect(error.message.contains(invalid.message), "\(error)")
        #expect(error.description.hasPrefix("test.yaml:\(invalid.line): "), "\(error)")
    }

    @Test func unknownModuleTypesAreErrorsAtTheTypeLineWhenACatalogIsGiven() throws {
        let text = "modules:\n  - name: store\n    level: basic\n    type: prob\n"
        let error = try #require(configurationError(text, catalog: testCatalog()))
        #expect(error.code == .unknownModuleType)
        #expect(error.module == "store")
        #expect(error.location?.line == 4)
        #expect(error.description == "test.yaml:4: module 'store': modules[0].type: unknown module type 'prob' (known: demo, probe)")
        #expect(configurationError(text)?.description == nil, "without a catalog any type is accepted")
    }

    @Test func aSettingsErrorNamesTheKeysLineAndPath() throws {
        var catalog = ModuleCatalog()
        catalog.register("strict", settings: ["limits", "name"]) { descriptor in
            _ = try descriptor.settings.settings("limits")?.int("max")
            return InertModule()
        }
        let text = "modules:\n  - name: a\n    type: strict\n    settings:\n      name: x\n      limits: {max: many}\n"
        let specs = try parseConfiguration(text, catalog: catalog).modules
        let error = #expect(throws: HiveError.self) { try catalog.instantiate(specs) }
        #expect(error?.description == "test.yaml:6: module 'a': setting 'limits.max' must be an integer, not string 'many'")
        let unknown = try parseConfiguration("modules:\n  - name: a\n    type: strict\n    settings:\n      name: x\n\n      nmae: y\n", catalog: catalog).modules
        let misspelt = #expect(throws: HiveError.self) { try catalog.instantiate(unknown) }
        #expect(misspelt?.location?.line == 7)
        #expect(misspelt?.message == "unknown setting 'nmae'; expected limits, name")
    }

    @Test func aTypeRegisteredWithoutKeysRefusesAMisspeltOneAtItsLine() throws {
        var catalog = ModuleCatalog()
        catalog.register("cache") { _ in InertModule() }
        catalog.register("free", settings: .any) { _ in InertModule() }
        let text = "modules:\n  - name: c\n    type: cache\n    settings:\n      tll: 5s\n  - {name: f, type: free, settings: {tll: 5s}}\n"
        let specs = try parseConfiguration(text, catalog: catalog).modules
        let error = #expect(throws: HiveError.self) { try catalog.instantiate(specs) }
        #expect(error?.description == "test.yaml:5: module 'c': unknown setting 'tll'; this module takes no settings")
        #expect(try catalog.instantiate(Array(specs.dropFirst())).count == 1, "settings: .any takes any key")
    }

    @Test func disabledModulesAreValidatedToo() throws {
        let text = "modules:\n  - name: a\n    type: nope\n    enabled: false\n"
        let error = try #require(configurationError(text, catalog: testCatalog()))
        #expect(error.code == .unknownModuleType)
        #expect(error.location?.line == 3)
    }

    @Test func errorsFromEmbeddedTextNameTheEmbeddedSource() throws {
        do {
            _ = try DaemonConfiguration.parse("environment: nowhere\n", path: nil)
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "<embedded>:1: environment: expected one of development, testing, staging, production; got 'nowhere'")
        }
    }

    @Test func anErrorAfterValidModulesReturnsNothingPartial() throws {
        let text = "modules:\n  - {name: a, type: probe}\n  - {name: b, type: probe}\nservices: 3\n"
        let error = try #require(configurationError(text))
        #expect(error.location?.line == 4)
        #expect(error.message == "services: expected a list of services, got '3'")
    }

    @Test func deeplyNestedTextIsAnErrorNotACrash() throws {
        let depth = 100_000
        let text = "modules: [{name: a, type: b, settings: {x: "
            + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}}]"
        let error = try #require(configurationError(text))
        #expect(error.location?.line == 1)
        #expect(error.message == "invalid YAML: lists and maps nested deeper than 100 levels")
    }

    @Test func deeplyNestedBlockMapsAreAnErrorNotACrash() throws {
        let text = (0..<200).map { String(repeating: " ", count: $0) + "k\($0):" }.joined(separator: "\n")
        let error = try #require(configurationError(text))
        #expect(error.location?.line == 101)
        #expect(error.message.contains("nested deeper than 100 levels"))
    }
}
