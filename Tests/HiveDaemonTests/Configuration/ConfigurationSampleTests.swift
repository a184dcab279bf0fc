@testable import HiveDaemon
import HiveKit
import Logging
import Testing

@Suite struct ConfigurationSampleTests {
    static let sample = """
        environment: production          # development | testing | staging | production
        log: {level: info, target: auto}  # auto | journal | stderr
        budgets: {event: 5s, stop: 30s}  # per handler call; whole stop
        signals: {SIGUSR1: "custom:rotate", SIGUSR2: "custom:stats"}
        modules:
          - name: store
            type: probe
            level: basic                 # basic | normal (default)
            priority: 100                # higher first; default 0
            async: false                 # default false
            enabled: true                # default true
            budget: 10s                  # overrides budgets.event for this module
            settings: {path: /var/lib/hived/store.events, fail_on: [init], stall_on: {teardown: 30s}}
        """

    @Test func theIssueSampleParsesIntoTheRightValues() throws {
        let configuration = try parseConfiguration(Self.sample, catalog: testCatalog())
        #expect(configuration.environment == .production)
        #expect(configuration.log == LogConfiguration(level: .info, target: .auto))
        #expect(configuration.budgets == BudgetConfiguration(event: .seconds(5), stop: .seconds(30)))
        #expect(configuration.signals == [
            SIGUSR1: .custom(name: "rotate", params: [:]), SIGUSR2: .custom(name: "stats", params: [:]),
        ])
        #expect(configuration.path == "test.yaml")
        #expect(configuration.services.isEmpty)
        try #require(configuration.modules.count == 1)
        let store = configuration.modules[0]
        #expect(store.name == "store")
        #expect(store.type == "probe")
        #expect(store.level == .basic)
        #expect(store.priority == 100)
        #expect(store.isAsync == false)
        #expect(store.isEnabled)
        #expect(store.budget == .seconds(10))
        #expect(store.location == SourceLocation(path: "test.yaml", line: 6))
        #expect(store.settings.owner == "store")
        #expect(store.settings.values == [
            "path": .string("/var/lib/hived/store.events"),
            "fail_on": .list([.string("init")]),
            "stall_on": .map(["teardown": .string("30s")]),
        ])
        #expect(try store.settings.settings("stall_on")?.duration("teardown") == .seconds(30))
    }

    @Test(arguments: ["", "{}", "# only a comment\n", "~\n", "---\n"])
    func anEmptyFileIsTheEmptyConfiguration(text: String) throws {
        let configuration = try DaemonConfiguration.parse(text, path: nil)
        #expect(configuration == DaemonConfiguration())
        #expect(configuration.path == nil)
    }

    @Test func defaultsAreThoseDocumented() throws {
        let configuration = try parseConfiguration("modules:\n  - {name: a, type: probe}\n")
        #expect(configuration.environment == .production)
        #expect(configuration.log.level == .info)
        #expect(configuration.log.target == .auto)
        #expect(configuration.budgets.event == .seconds(5))
        #expect(configuration.budgets.stop == .seconds(30))
        #expect(configuration.signals.isEmpty)
        let module = try #require(configuration.modules.first)
        #expect(module.level == .normal)
        #expect(module.priority == 0)
        #expect(module.isAsync == false)
        #expect(module.isEnabled)
        #expect(module.budget == nil)
        #expect(module.settings.isEmpty)
        #expect(module.settings.owner == "a")
    }

    @Test func nullSectionsAndKeysTakeTheirDefaults() throws {
        let text = """
            environment:
            log:
            budgets: {event: ~}
            signals:
            modules:
            services:
            """
        #expect(try parseConfiguration(text) == DaemonConfiguration(path: "test.yaml"))
    }

    @Test func everyValueOfEveryEnumIsAccepted() throws {
        for environment in HiveEnvironment.allCases {
            #expect(try parseConfiguration("environment: \(environment)").environment == environment)
        }
        for level in Logger.Level.allCases {
            #expect(try parseConfiguration("log: {level: \(level.rawValue)}").log.level == level)
        }
        for target in LogTarget.allCases {
            #expect(try parseConfiguration("log: {target: \(target)}").log.target == target)
        }
    }

    @Test func settingValuesKeepTheirYAMLTypes() throws {
        let text = """
            modules:
              - name: m
                type: probe
                settings:
                  int: 42
                  negative: -7
                  hex: 0x10
                  double: 2.5
                  yes: true
                  no: false
                  nothing: ~
                  text: hello
                  quoted: "42"
                  list: [1, two, 3.0]
                  nested: {a: {b: [x]}}
            """
        let settings = try #require(parseConfiguration(text).modules.first?.settings)
        #expect(settings["int"] == .int(42))
        #expect(settings["negative"] == .int(-7))
        #expect(settings["hex"] == .int(16))
        #expect(settings["double"] == .double(2.5))
        #expect(settings["yes"] == .bool(true))
        #expect(settings["no"] == .bool(false))
        #expect(settings["nothing"] == .null)
        #expect(settings["text"] == .string("hello"))
        #expect(settings["quoted"] == .string("42"))
        #expect(settings["list"] == .list([.int(1), .string("two"), .double(3)]))
        #expect(settings["nested"] == .map(["a": .map(["b": .list([.string("x")])])]))
    }

    @Test func modulesKeepFileOrderAndTheirLines() throws {
        let text = """
            modules:
              - name: a
                type: probe
                enabled: false

              - name: b
                type: demo
                async: true
                level: normal
                priority: -3
                budget: 250ms
            """
        let configuration = try parseConfiguration(text, catalog: testCatalog())
        #expect(configuration.modules.map(\.name) == ["a", "b"])
        #expect(configuration.modules.map(\.location?.line) == [2, 6])
        #expect(configuration.enabledModules.map(\.name) == ["b"])
        let b = try #require(configuration.module(named: "b"))
        #expect(b.isAsync)
        #expect(b.priority == -3)
        #expect(b.budget == .milliseconds(250))
    }

    @Test func anchorsAndAliasesAreResolved() throws {
        let text = """
            modules:
              - name: a
                type: probe
                settings: &shared {retries: 3, hosts: [x, y]}
              - name: b
                type: probe
                settings: *shared
            """
        let modules = try parseConfiguration(text).modules
        #expect(modules.map(\.settings.values) == [
            ["retries": .int(3), "hosts": .list([.string("x"), .string("y")])],
            ["retries": .int(3), "hosts": .list([.string("x"), .string("y")])],
        ])
        #expect(modules.map(\.settings.owner) == ["a", "b"])
    }

    @Test func explicitCoreTagsGiveTheirType() throws {
        let text = """
            modules:
              - name: a
                type: probe
                priority: !!int "7"
                settings: {code: !!str 0755, flag: !!bool yes, id: ! 12, nothing: !!null ""}
            """
        let module = try #require(try parseConfiguration(text).modules.first)
        #expect(module.priority == 7)
        #expect(module.settings.values == [
            "code": .string("0755"), "flag": .bool(true), "id": .string("12"), "nothing": .null,
        ])
    }

    @Test func durationsAcceptEveryDocumentedUnit() throws {
        let text = "budgets: {event: 250ms, stop: 2m}\nmodules: [{name: a, type: t, budget: 1h}]"
        let configuration = try parseConfiguration(text)
        #expect(configuration.budgets.event == .milliseconds(250))
        #expect(configuration.budgets.stop == .seconds(120))
        #expect(configuration.modules.first?.budget == .seconds(3600))
    }

    @Test func theHiveConfigurationTakesEnvironmentAndEventBudget() throws {
        let configuration = try parseConfiguration("environment: staging\nbudgets: {event: 2s}")
        let hive = configuration.hiveConfiguration(logger: Logger(label: "hived"))
        #expect(hive.environment == .staging)
        #expect(hive.defaultBudget == .seconds(2))
    }
}

#if canImport(Glibc)
import Glibc
#endif
