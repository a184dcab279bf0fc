import Foundation
@testable import HiveDaemon
import Testing

@Suite struct VarlinkCallTests {
    @Test func aCallNamesItsInterfaceMethodAndFlags() throws {
        let call = try VarlinkCall(parsing: Data(#"{"method":"io.hivekit.Daemon.Subscribe","more":true}"#.utf8))
        #expect(call.interface == "io.hivekit.Daemon")
        #expect(call.name == "Subscribe")
        #expect(call.more && !call.oneway)
    }

    @Test(arguments: ["", "null", "[]", #"{"method":1}"#, #"{"parameters":{}}"#, "{\"method\":\"a.B\"", #"{"method":"a.B","upgrade":true}"#])
    func anythingButACallIsAProtocolError(text: String) {
        #expect(throws: VarlinkProtocolError.self) { try VarlinkCall(parsing: Data(text.utf8)) }
    }

    @Test func parametersDecodeAndNameTheBadOne() throws {
        let good = try VarlinkCall(parsing: Data(#"{"method":"x.SendEvent","parameters":{"name":"rotate","parameters":{"a":"b"}}}"#.utf8))
        let parameters = try good.parameters(DaemonAPI.SendEventParameters.self)
        #expect(parameters.name == "rotate" && parameters.parameters == ["a": "b"])
        let missing = try VarlinkCall(parsing: Data(#"{"method":"x.SendEvent"}"#.utf8))
        #expect(throws: VarlinkError.invalidParameter("name")) { try missing.parameters(DaemonAPI.SendEventParameters.self) }
        let wrong = try VarlinkCall(parsing: Data(#"{"method":"x.SendEvent","parameters":{"name":"x","parameters":{"a":1}}}"#.utf8))
        #expect(throws: VarlinkError.invalidParameter("parameters")) { try wrong.parameters(DaemonAPI.SendEventParameters.self) }
    }

    @Test func fieldsAMethodDoesNotTakeAndParametersThatAreNoObjectAreInvalid() throws {
        func error(_ parameters: String) throws -> VarlinkError? {
            let call = try VarlinkCall(parsing: Data(#"{"method":"x.SendEvent","parameters":\#(parameters)}"#.utf8))
            do {
                _ = try call.parameters(DaemonAPI.SendEventParameters.self)
                return nil
            } catch {
                return error
            }
        }
        #expect(try error(#"{"name":"a","parameters":null}"#) == nil)
        #expect(try error(#"{"name":"a","extra":1}"#) == .invalidParameter("extra"))
        #expect(try error("[]") == .invalidParameter("parameters"))
        #expect(try error(#""a""#) == .invalidParameter("parameters"))
        #expect(try error("null") == .invalidParameter("name"))
        let empty = try VarlinkCall(parsing: Data(#"{"method":"x.GetStatus","parameters":{"a":1}}"#.utf8))
        #expect(throws: VarlinkError.invalidParameter("a")) { try empty.parameters(DaemonAPI.Empty.self) }
    }

    @Test func errorsEncodeTheirNameAndParametersWithANul() throws {
        let bytes = VarlinkError.configurationInvalid(file: "/etc/hived/hived.yaml", line: 3, message: "bad").encoded
        #expect(bytes.last == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes.dropLast())) as? [String: Any])
        #expect(object["error"] as? String == "io.hivekit.Daemon.ConfigurationInvalid")
        let parameters = try #require(object["parameters"] as? [String: Any])
        #expect(parameters["file"] as? String == "/etc/hived/hived.yaml")
        #expect(parameters["line"] as? Int == 3)
    }
}
