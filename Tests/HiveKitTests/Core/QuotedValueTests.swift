import HiveKit
import Testing

/// A value quoted in an error is cut to 80 characters, whoever builds the error: a module's
/// name in `module '…'`, a service or implementation name, a setting's key (issue 9).
@Suite struct QuotedValueTests {
    static let huge = String(repeating: "x", count: 900_000)
    static let shown = "'" + String(repeating: "x", count: 79) + "…'"

    @Test func aModuleNameIsQuotedShortlyAndKeptWhole() {
        let error = HiveError(.invalidSettings, module: Self.huge, event: .`init`, "bad")
        #expect(error.description == "module \(Self.shown) (init): bad")
        #expect(error.module == Self.huge, "the error still names the module whole")
        #expect(HiveError(.invalidSettings, module: "store", "bad").description == "module 'store': bad")
    }

    @Test func quotingCutsOnCharactersNotBytes() {
        #expect("\(quoted: String(repeating: "é", count: 80))" == "'" + String(repeating: "é", count: 80) + "'")
        #expect("\(quoted: String(repeating: "é", count: 81))" == "'" + String(repeating: "é", count: 79) + "…'")
        #expect("\(quoted: Self.huge.prefix(10))" == "'xxxxxxxxxx'")
    }

    @Test func unknownServicesAndImplementationsAreQuotedShortly() {
        var catalog = ServiceCatalog()
        catalog.register(Greeter.self, implementation: "English") { English() }
        for (spec, start) in [
            (ServiceSpec(service: Self.huge, implementation: "English"), "unknown service \(Self.shown) (known: Greeter)"),
            (ServiceSpec(service: "Greeter", implementation: Self.huge), "unknown implementation \(Self.shown) (known: English)"),
        ] {
            let error = #expect(throws: HiveError.self) { try catalog.validate(spec) }
            #expect(error?.message == start)
        }
    }

    @Test func settingKeysAreQuotedShortly() {
        let key = String(repeating: "k", count: 1_000)
        let settings = Settings([key: .int(1)], owner: "m")
        let unknown = #expect(throws: HiveError.self) { try settings.requireKeys(in: ["path"]) }
        #expect(unknown?.description == "module 'm': unknown setting '\(String(repeating: "k", count: 79))…'; expected path")
        #expect(settings.error(key, "is wrong").message == "setting '\(String(repeating: "k", count: 79))…' is wrong")
    }
}
