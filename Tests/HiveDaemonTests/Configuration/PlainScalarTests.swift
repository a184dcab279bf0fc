@testable import HiveDaemon
import HiveKit
import Testing

/// Plain scalars are typed with YAML 1.1's rules.
@Suite struct PlainScalarTests {
    @Test(arguments: [
        ("", "null"), ("~", "null"), ("null", "null"), ("NULL", "null"),
        ("true", "bool"), ("no", "bool"), ("On", "bool"), ("OFF", "bool"),
        ("0", "int"), ("-12", "int"), ("+7", "int"), ("0x1F", "int"), ("0o17", "int"), ("0b101", "int"),
        ("99999999999999999999", "int"), ("1_000", "int"),
        ("1.5", "float"), ("-2e3", "float"), (".inf", "float"), (".nan", "float"),
        ("yes", "bool"), ("Y", "string"), ("nope", "string"), ("-.inf", "float"), ("+.5", "float"),
        ("-", "string"), (".", "string"), ("...", "string"), ("~x", "string"), ("name", "string"),
        ("5s", "string"), ("high", "string"), ("custom:rotate", "string"), ("1.2.3", "string"), ("<<", "merge"),
    ])
    func resolves(_ text: String, _ expected: String) {
        #expect("\(PlainScalar.type(of: text))" == expected)
    }

    @Test func convertsValues() {
        #expect(PlainScalar.int("0x10") == 16)
        #expect(PlainScalar.int("-017") == -15)
        #expect(PlainScalar.int("99999999999999999999") == nil)
        #expect(PlainScalar.int("-9223372036854775808") == Int.min)
        #expect(PlainScalar.int("9223372036854775807") == Int.max)
        #expect(PlainScalar.int("9223372036854775808") == nil)
        #expect(PlainScalar.int("--5") == nil)
        #expect(PlainScalar.int("-0x10") == -16)
        #expect(PlainScalar.bool("Yes") == true)
        #expect(PlainScalar.double("2.5e1") == 25)
    }

    @Test func quotedScalarsAreStrings() throws {
        let configuration = try DaemonConfiguration.parse(
            "modules:\n  - {name: a, type: t, settings: {n: '5', m: 5, b: \"yes\"}}\n", path: "x.yaml", catalog: nil)
        let settings = try #require(configuration.modules.first?.settings)
        #expect(settings["n"] == .string("5"))
        #expect(settings["m"] == .int(5))
        #expect(settings["b"] == .string("yes"))
    }
}
