import Foundation
@testable import hived
import Testing

/// The probe's lines are JSON whatever the text they carry: a JSON parser reads back every
/// string as it was, control characters, quotes and backslashes included.
@Suite struct JSONLineTests {
    @Test func everyStringReadsBackAsItWas() throws {
        let controls = String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init)))
        let text = "say \"hi\" \\ to " + controls + " \u{7F} é 🐝"
        var json = JSONLine()
        json.field("module", text)
        json.raw("ts", "1.5")
        json.object("params", [text: text, "b": "2"])
        let line = json.finished()
        #expect(line.hasSuffix("}\n") && line.filter { $0 == "\n" }.count == 1, "one line")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["module"] as? String == text)
        #expect(object["ts"] as? Double == 1.5)
        #expect(object["params"] as? [String: String] == [text: text, "b": "2"])
        #expect(JSONLine.quoted("\u{1}\n") == #""\u0001\n""#)
    }
}
