import Foundation
@testable import HiveDaemon
import TestSupport
import Testing

/// The control interface's schema is written once: the Varlink descriptions of
/// ``DaemonInterface``, which the README quotes and `GetInterfaceDescription` returns. The
/// Codable types the daemon and `ctl` encode and decode (``DaemonAPI``, ``VarlinkError``)
/// are checked against them here, field by field: the names, which are optional, and what
/// each holds (string, int, bool, object, array, map), decoding (``SampleDecoder``) and
/// encoding (the daemon's own encoder).
@Suite struct InterfaceSchemaTests {
    static func interfaces() throws -> [VarlinkIDL] {
        [try VarlinkIDL(parsing: DaemonInterface.description), try VarlinkIDL(parsing: DaemonInterface.serviceDescription)]
    }

    /// Each method's Swift types: its parameters (what `ctl` encodes and the daemon
    /// decodes) and its reply (what the daemon encodes and `ctl` decodes).
    static var swiftTypes: [String: (parameters: any Codable.Type, reply: any Codable.Type)] {
        [
            "io.hivekit.Daemon.GetStatus": (DaemonAPI.Empty.self, DaemonAPI.Status.self),
            "io.hivekit.Daemon.GetProfile": (DaemonAPI.Empty.self, DaemonAPI.Profile.self),
            "io.hivekit.Daemon.SendEvent": (DaemonAPI.SendEventParameters.self, DaemonAPI.Delivery.self),
            "io.hivekit.Daemon.Reload": (DaemonAPI.Empty.self, DaemonAPI.ReloadResult.self),
            "io.hivekit.Daemon.SetLogLevel": (DaemonAPI.LogLevel.self, DaemonAPI.Empty.self),
            "io.hivekit.Daemon.ListRoutes": (DaemonAPI.Empty.self, DaemonAPI.Routes.self),
            "io.hivekit.Daemon.ListActions": (DaemonAPI.Empty.self, DaemonAPI.Actions.self),
            "io.hivekit.Daemon.ListServices": (DaemonAPI.Empty.self, DaemonAPI.Services.self),
            "io.hivekit.Daemon.Subscribe": (DaemonAPI.Empty.self, DaemonAPI.Notice.self),
            "io.hivekit.Daemon.GetMetrics": (DaemonAPI.Empty.self, DaemonAPI.Metrics.self),
            "io.hivekit.Daemon.OpenURL": (DaemonAPI.OpenURLParameters.self, DaemonAPI.OpenURLResult.self),
            "io.hivekit.Daemon.PerformAction": (DaemonAPI.PerformActionParameters.self, DaemonAPI.PerformActionResult.self),
            "org.varlink.service.GetInfo": (DaemonAPI.Empty.self, DaemonAPI.Info.self),
            "org.varlink.service.GetInterfaceDescription": (DaemonAPI.InterfaceName.self, DaemonAPI.InterfaceDescription.self),
        ]
    }

    @Test func theDescriptionsParse() throws {
        let interfaces = try Self.interfaces()
        #expect(interfaces.map(\.name) == [DaemonInterface.name, DaemonInterface.serviceName])
        #expect(interfaces.map(\.methods.count) == [12, 2])
        #expect(interfaces.map(\.errors.count) == [9, 6])
        let status = try #require(interfaces.first?.methods["GetStatus"]?.reply.fields)
        #expect(status["modules"] == Shape.Field(shape: .array(.record([
            "name": .init(shape: .string, isOptional: false), "type": .init(shape: .string, isOptional: true),
            "level": .init(shape: .string, isOptional: false), "priority": .init(shape: .int, isOptional: false),
            "async": .init(shape: .bool, isOptional: false), "state": .init(shape: .string, isOptional: false),
        ])), isOptional: false))
    }

    @Test func everyMethodDescribedHasItsSwiftTypesAndNoOther() throws {
        let described = try Self.interfaces().flatMap { idl in idl.methods.keys.map { "\(idl.name).\($0)" } }
        #expect(Set(described) == Set(Self.swiftTypes.keys))
    }

    @Test func everyMethodsSwiftTypesDecodeAndEncodeTheFieldsDescribed() throws {
        for idl in try Self.interfaces() {
            for (name, method) in idl.methods.sorted(by: { $0.key < $1.key }) {
                let qualified = "\(idl.name).\(name)"
                guard let types = Self.swiftTypes[qualified] else { continue }
                for difference in try Self.differences(method.parameters, types.parameters) {
                    Issue.record("\(qualified) parameters: \(difference)")
                }
                for difference in try Self.differences(method.reply, types.reply) {
                    Issue.record("\(qualified) reply: \(difference)")
                }
                let taken = (types.parameters as? any VarlinkParameters.Type)?.fields
                #expect(taken == Set(method.parameters.fields.keys), "\(qualified): the parameters the daemon takes")
            }
        }
    }

    @Test func everyErrorCarriesTheFieldsDescribed() throws {
        let everything = try SampleDecoder.sample(VarlinkError.Parameters.self).value
        for idl in try Self.interfaces() {
            for (name, shape) in idl.errors.sorted(by: { $0.key < $1.key }) {
                let qualified = "\(idl.name).\(name)"
                guard let error = VarlinkError(name: qualified, parameters: everything) else {
                    // org.varlink.service's errors that the daemon never replies with are not read.
                    if idl.name == DaemonInterface.name { Issue.record("\(qualified): VarlinkError does not read it") }
                    continue
                }
                #expect(error.name == qualified)
                let message = try Self.json(error.encoded)
                #expect(message["error"] == .string(qualified))
                for difference in shape.differences(fromEncoded: message["parameters"] ?? .null, at: "") {
                    Issue.record("\(qualified): \(difference)")
                }
                for (field, described) in shape.fields {
                    let without = try SampleDecoder.sample(VarlinkError.Parameters.self, leavingOut: [field]).value
                    let read = VarlinkError(name: qualified, parameters: without)
                    if described.isOptional {
                        let encoded = try read.map { try Self.json($0.encoded)["parameters"] }
                        #expect(read != nil, "\(qualified): an optional \(field) may be missing")
                        #expect(encoded??.fields[field] == nil, "\(qualified): a missing \(field) is not sent")
                    } else {
                        #expect(read == nil, "\(qualified): \(field) is required, as described")
                    }
                }
            }
        }
    }

    /// Each field ``VarlinkError/Parameters`` reads is some error's, of the kind described.
    @Test func theErrorParametersHoldOnlyFieldsOfDescribedErrors() throws {
        var described: [String: Shape] = [:]
        for idl in try Self.interfaces() {
            for shape in idl.errors.values { for (name, field) in shape.fields { described[name] = field.shape } }
        }
        for (name, field) in try SampleDecoder.sample(VarlinkError.Parameters.self).shape.fields {
            #expect(described[name] == field.shape, "VarlinkError.Parameters.\(name): no error has it as \(field.shape)")
        }
    }

    /// Where `type` decodes or encodes other fields than `shape`, or other kinds.
    static func differences<T: Codable>(_ shape: Shape, _ type: T.Type) throws -> [String] {
        let (sample, decoded) = try SampleDecoder.sample(type)
        let encoded = try json(VarlinkCoding.reply(sample))["parameters"] ?? .null
        return shape.differences(from: decoded, at: "").map { "decoding: " + $0 }
            + shape.differences(fromEncoded: encoded, at: "").map { "encoding: " + $0 }
    }

    /// The members of a NUL-terminated message.
    static func json(_ message: [UInt8]) throws -> [String: JSONValue] {
        #expect(message.last == 0)
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(message.dropLast()))
        guard case .object(let members) = value else { throw TestFailure("not an object: \(value)") }
        return members
    }
}


extension JSONValue {
    /// The members of an object; none for any other value.
    var fields: [String: JSONValue] {
        guard case .object(let members) = self else { return [:] }
        return members
    }
}
