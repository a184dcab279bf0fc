@testable import HiveDaemon
import HiveKit
import Testing

@Suite struct ConfigurationOverrideTests {
    static let file = "environment: staging\nlog: {level: info, target: journal}\nbudgets: {event: 5s, stop: 30s}\n"

    @Test func everyVariableOverridesTheFile() throws {
        let configuration = try parseConfiguration(
            Self.file,
            environment: [
                "HIVED_ENVIRONMENT": "testing", "HIVED_LOG_LEVEL": "debug", "HIVED_LOG_TARGET": "stderr",
                "HIVED_BUDGET_EVENT": "250ms", "HIVED_BUDGET_STOP": "2m", "UNRELATED": "x",
            ])
        #expect(configuration.environment == .testing)
        #expect(configuration.log == LogConfiguration(level: .debug, target: .stderr))
        #expect(configuration.budgets == BudgetConfiguration(event: .milliseconds(250), stop: .seconds(120)))
    }

    /// `warn` is taken for `warning`, in the file and in the variable, as documented.
    @Test func warnIsWarning() throws {
        #expect(try parseConfiguration("log: {level: warn}\n").log.level == .warning)
        #expect(try parseConfiguration(Self.file, environment: ["HIVED_LOG_LEVEL": "warn"]).log.level == .warning)
    }

    @Test func unsetOrEmptyVariablesChangeNothing() throws {
        let plain = try parseConfiguration(Self.file)
        let empty = try parseConfiguration(Self.file, environment: ["HIVED_LOG_LEVEL": "", "HIVED_BUDGET_STOP": " "])
        #expect(plain == empty)
        #expect(plain.environment == .staging)
        #expect(plain.log.target == .journal)
    }

    @Test func overridesApplyToAnEmptyFile() throws {
        let configuration = try parseConfiguration("", environment: ["HIVED_LOG_LEVEL": "trace"])
        #expect(configuration.log.level == .trace)
    }

    @Test(arguments: [
        ("HIVED_ENVIRONMENT", "prod", "HIVED_ENVIRONMENT: expected one of development, testing, staging, production; got 'prod'"),
        ("HIVED_LOG_LEVEL", "loud", "HIVED_LOG_LEVEL: expected one of trace, debug, info, notice, warning, error, critical; got 'loud'"),
        ("HIVED_LOG_TARGET", "syslog", "HIVED_LOG_TARGET: expected one of auto, journal, stderr; got 'syslog'"),
        ("HIVED_BUDGET_EVENT", "soon", "HIVED_BUDGET_EVENT: expected a duration of at least 1ms such as 250ms, 5s or 2m; got 'soon'"),
        ("HIVED_BUDGET_STOP", "0s", "HIVED_BUDGET_STOP: expected a duration of at least 1ms such as 250ms, 5s or 2m; got '0s'"),
        ("HIVED_BUDGET_STOP", "0x10s", "HIVED_BUDGET_STOP: expected a duration of at least 1ms such as 250ms, 5s or 2m; got '0x10s'"),
        ("HIVED_BUDGET_STOP", "1000000h", "HIVED_BUDGET_STOP: expected a duration of at most 100 years; got '1000000h'"),
    ])
    func badValuesAreErrorsNamingTheVariable(name: String, value: String, message: String) throws {
        let error = try #require(configurationError(Self.file, environment: [name: value]))
        #expect(error.code == .invalidConfiguration)
        #expect(error.location == nil)
        #expect(error.description == message)
    }

    @Test func theVariablesAreNamedAfterTheDaemon() throws {
        let identity = DaemonIdentity(name: "my-daemon.v2", version: "1")
        let overrides = identity.overrides(in: [
            "MY_DAEMON_V2_LOG_LEVEL": "debug", "MY_DAEMON_V2_BUDGET_STOP": "1m", "HIVED_ENVIRONMENT": "testing",
        ])
        #expect(overrides.variableNames == [
            "MY_DAEMON_V2_ENVIRONMENT", "MY_DAEMON_V2_LOG_LEVEL", "MY_DAEMON_V2_LOG_TARGET",
            "MY_DAEMON_V2_BUDGET_EVENT", "MY_DAEMON_V2_BUDGET_STOP",
        ])
        let configuration = try DaemonConfiguration.parse(Self.file, overrides: overrides)
        #expect(configuration.log.level == .debug)
        #expect(configuration.budgets.stop == .seconds(60))
        #expect(configuration.environment == .staging, "another daemon's variable changes nothing")

        let error = #expect(throws: HiveError.self) {
            try DaemonConfiguration.parse(Self.file, overrides: identity.overrides(in: ["MY_DAEMON_V2_LOG_TARGET": "x"]))
        }
        #expect(error?.description == "MY_DAEMON_V2_LOG_TARGET: expected one of auto, journal, stderr; got 'x'")
    }

    @Test func noOverridesByDefault() throws {
        #expect(ConfigurationOverrides.none.values.isEmpty)
        #expect(try DaemonConfiguration.parse(Self.file).log.target == .journal)
    }

    @Test func fileErrorsComeBeforeOverrideErrors() throws {
        let error = try #require(configurationError("environment: x\n", environment: ["HIVED_LOG_LEVEL": "loud"]))
        #expect(error.location?.line == 1)
    }
}

extension ProcessEnvironmentSuite {
    /// Sets a variable in the real process environment: in the serialized parent suite,
    /// so no other test that reads or sets the environment runs beside it.
    @Suite struct ProcessEnvironmentOverrideTests {
        @Test func theProcessEnvironmentIsReadThroughGetenv() throws {
            try ProcessEnvironmentSuite.with(["OVERRIDETEST_LOG_TARGET": "stderr"]) { () throws in
                let identity = DaemonIdentity(name: "overridetest", version: "1")
                #expect(identity.processOverrides().values == ["OVERRIDETEST_LOG_TARGET": "stderr"])
                #expect(try DaemonConfiguration.parse("{}", overrides: identity.processOverrides()).log.target == .stderr)
                let options = DaemonOptions(identity: identity, embeddedConfiguration: "{}", catalog: ModuleCatalog())
                #expect(try options.loadConfiguration().log.target == .stderr, "options read the process's overrides by default")
                let none = DaemonOptions(identity: identity, embeddedConfiguration: "{}", catalog: ModuleCatalog(), environment: [:])
                #expect(try none.loadConfiguration().log.target == .auto)
            }
        }
    }
}

import Glibc
