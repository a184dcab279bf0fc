import HiveKit
import TestSupport
import Testing

@Suite struct ContextTests {
    @Test func contextCarriesEnvironmentSettingsNameAndLogger() async throws {
        let logs = LogStore()
        let seen = Recorder()
        let module = ScriptedModule(Recorder(), [
            .`init`: .run { context in
                seen.append("name=\(context.moduleName) env=\(context.environment) event=\(context.event)")
                seen.append("path=\(try context.settings.string("path") ?? "nil")")
                seen.append("port=\(try context.settings.int("port") ?? -1)")
                seen.append("ratio=\(try context.settings.double("ratio") ?? -1)")
                seen.append("intAsDouble=\(try context.settings.double("port") ?? -1)")
                seen.append("on=\(try context.settings.bool("on") ?? false)")
                seen.append("wait=\(try context.settings.duration("wait") ?? .zero)")
                seen.append("tags=\(try context.settings.strings("tags") ?? [])")
                seen.append("one=\(try context.settings.strings("path") ?? [])")
                seen.append("nested=\(try context.settings.settings("db")?.string("host") ?? "nil")")
                seen.append("missing=\(try context.settings.string("missing") ?? "nil") null=\(try context.settings.int("nothing") ?? -1)")
                context.logger.info("hello from init")
            },
        ])
        let settings = Settings([
            "path": .string("/var/lib/x"), "port": .int(8080), "ratio": .double(0.5), "on": .bool(true),
            "wait": .string("250ms"), "tags": .list([.string("a"), .string("b")]),
            "db": .map(["host": .string("localhost")]), "nothing": .null,
        ])
        let hive = try makeHive(
            [(module, ModuleDescriptor(name: "web", settings: settings))],
            logs: logs, environment: .staging)
        try await hive.start()
        #expect(seen.all == [
            "name=web env=staging event=init", "path=/var/lib/x", "port=8080", "ratio=0.5",
            "intAsDouble=8080.0", "on=true", "wait=0.25 seconds", "tags=[\"a\", \"b\"]",
            "one=[\"/var/lib/x\"]", "nested=localhost", "missing=nil null=-1",
        ])
        let record = try #require(logs.all.first { $0.message == "hello from init" })
        #expect(record.metadata["module"] == "web")
        #expect(record.metadata["event"] == "init")
        #expect(hive.environment == .staging)
        await hive.stop()
    }

    @Test func settingTypeErrorsNameModuleAndKey() async throws {
        let errors = Recorder()
        let module = ScriptedModule(Recorder(), [
            .setup: .run { context in
                let checks: [@Sendable () throws -> Void] = [
                    { _ = try context.settings.int("port") },
                    { _ = try context.settings.string("mixed") },
                    { _ = try context.settings.bool("port") },
                    { _ = try context.settings.double("name") },
                    { _ = try context.settings.duration("name") },
                    { _ = try context.settings.strings("mixed") },
                    { _ = try context.settings.settings("name") },
                    { _ = try context.settings.settings("db")?.int("host") },
                ]
                for check in checks {
                    do { try check() } catch let error as HiveError {
                        errors.append("\(error.code)|\(error.module ?? "-")|\(error.message)")
                    } catch { errors.append("unexpected \(error)") }
                }
            },
        ])
        let hive = try makeHive([(module,
            ModuleDescriptor(name: "api", settings: Settings([ "port": .string("eighty"), "name": .string("soon"), "mixed": .list([.string("a"), .int(1)]), "db": .map(["host": .bool(true)]), ])))])
        try await hive.start()
        let all = errors.all
        #expect(all.count == 8)
        #expect(all.allSatisfy { $0.hasPrefix("invalidSettings|api|setting '") })
        #expect(all[0].contains("'port' must be an integer, not string 'eighty'"))
        #expect(all[4].contains("'name' must be a duration"))
        #expect(all[7].contains("'host'"))
        await hive.stop()
    }

    @Test func descriptorSettingsTakeTheModuleAsOwner() throws {
        let hive = try makeHive([(ScriptedModule(Recorder()),
            ModuleDescriptor(name: "api", settings: Settings(["x": .int(1)])))])
        let descriptor = try #require(hive.descriptor(named: "api"))
        #expect(descriptor.settings.owner == "api")
        #expect(throws: HiveError.self) { _ = try descriptor.settings.string("x") }
        do throws(HiveError) { _ = try descriptor.settings.string("x") } catch { #expect(error.module == "api") }
    }

    @Test(arguments: [
        ("250ms", Duration.milliseconds(250)), ("5s", .seconds(5)), ("2m", .seconds(120)), ("1h", .seconds(3600)),
        ("100us", .microseconds(100)), (" 1.5s ", .milliseconds(1500)),
    ])
    func durationsParse(text: String, expected: Duration) {
        #expect(Duration(parsing: text) == expected)
    }

    /// A number without a unit is refused, not taken for seconds.
    @Test(arguments: ["", "fast", "-1s", "5 parsecs", "ms", "1e10s", "1e300h", "nan", "3", "0.5", "250",
        "0x10s", "1.5e3ms", "+5s", "1.s", ".5s", "1..5s", "inf s", "1_000ms",
    ])
    func badDurationsDoNotParse(text: String) {
        #expect(Duration(parsing: text) == nil)
    }

    /// A well-formed duration past the limit is refused with a message naming the limit,
    /// not one that asks for a duration such as 250ms.
    @Test func aDurationPastOneHundredYearsIsRefusedNamingTheLimit() throws {
        #expect(Duration(parsing: "876000h") == .seconds(876_000 * 3600))
        #expect(Duration(parsing: "876001h") == nil)
        let settings = Settings(["wait": .string("1000000h")], owner: "m")
        do throws(HiveError) {
            _ = try settings.duration("wait")
            Issue.record("accepted 1000000h")
        } catch {
            #expect(error.message.contains("at most 100 years"), "\(error)")
        }
    }

    @Test func eventKindsRoundTripTheirNames() {
        for kind in EventKind.allCases {
            #expect(EventKind(name: kind.name) == kind)
        }
        #expect(EventKind(name: "nope") == nil)
        #expect(HiveEvent.custom(name: "flush", params: ["a": "b"]).kind == .custom)
        #expect(HiveEvent.custom(name: "flush").description == "custom:flush")
        #expect(ModuleLevel(name: "basic") == .basic)
        #expect(ModuleLevel(name: "normal") == .normal)
        #expect(ModuleLevel(name: "urgent") == nil)
    }
}
