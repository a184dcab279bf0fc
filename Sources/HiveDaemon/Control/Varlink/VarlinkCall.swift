import FoundationEssentials

/// A Varlink method call as it arrives: one JSON object terminated by a NUL byte
/// (`{"method":"io.hivekit.Daemon.GetStatus","parameters":{…},"more":true}`).
struct VarlinkCall: Sendable {
    /// The fully qualified method, `INTERFACE.Method`.
    let method: String
    /// The client asks for a stream of replies (`continues: true` until the last).
    let more: Bool
    /// The client wants no reply.
    let oneway: Bool
    /// The message's JSON text, for decoding the parameters.
    let body: Data

    private struct Header: Decodable {
        let method: String
        let more: Bool?
        let oneway: Bool?
        let upgrade: Bool?
    }

    private struct Envelope<Parameters: Decodable>: Decodable {
        let parameters: Parameters?
    }

    /// Parses a message (without its NUL).
    ///
    /// - Throws: ``VarlinkProtocolError`` for anything but a JSON object with a string
    ///   `method`: the connection is then closed, as the Varlink specification asks.
    init(parsing body: Data) throws(VarlinkProtocolError) {
        guard let header = try? JSONDecoder().decode(Header.self, from: body) else {
            throw VarlinkProtocolError("a message is not a JSON object with a method")
        }
        guard header.upgrade != true else { throw VarlinkProtocolError("connection upgrades are not supported") }
        method = header.method
        more = header.more ?? false
        oneway = header.oneway ?? false
        self.body = body
    }

    /// The interface part of ``method`` (`io.hivekit.Daemon`); empty when there is none.
    var interface: String {
        guard let dot = method.lastIndex(of: ".") else { return "" }
        return String(method[..<dot])
    }

    /// The method's own name (`GetStatus`).
    var name: String {
        guard let dot = method.lastIndex(of: ".") else { return method }
        return String(method[method.index(after: dot)...])
    }

    /// The call's `parameters` as `type`; an absent or null `parameters` decodes as `{}`.
    ///
    /// - Throws: ``VarlinkError/invalidParameter(_:)`` naming the first parameter that is
    ///   missing, of the wrong type, or not one of `type`'s fields (`parameters` when it
    ///   is not an object).
    func parameters<Parameters: VarlinkParameters>(_ type: Parameters.Type) throws(VarlinkError) -> Parameters {
        let names: [String]
        do {
            names = try JSONDecoder().decode(ParameterNames.self, from: body).names
        } catch {
            throw .invalidParameter("parameters")
        }
        if let unknown = names.first(where: { !Parameters.fields.contains($0) }) { throw .invalidParameter(unknown) }
        var inEnvelope = true
        do {
            if let parameters = try JSONDecoder().decode(Envelope<Parameters>.self, from: body).parameters {
                return parameters
            }
            inEnvelope = false
            return try JSONDecoder().decode(Parameters.self, from: Data("{}".utf8))
        } catch let error as DecodingError {
            throw .invalidParameter(Self.parameterName(error, inEnvelope: inEnvelope))
        } catch {
            throw .invalidParameter("parameters")
        }
    }

    /// The field names of the call's `parameters` object (none when it is absent or null).
    private struct ParameterNames: Decodable {
        let names: [String]

        private struct Key: CodingKey {
            let stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let envelope = try decoder.container(keyedBy: Key.self)
            let key = Key(stringValue: "parameters")
            guard envelope.contains(key), try !envelope.decodeNil(forKey: key) else {
                names = []
                return
            }
            names = try envelope.nestedContainer(keyedBy: Key.self, forKey: key).allKeys.map(\.stringValue)
        }
    }

    /// The top-level parameter a decoding error is about.
    private static func parameterName(_ error: DecodingError, inEnvelope: Bool) -> String {
        let (path, missing): ([any CodingKey], (any CodingKey)?) = switch error {
        case .keyNotFound(let key, let context): (context.codingPath, key)
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            (context.codingPath, nil)
        @unknown default: ([], nil)
        }
        let keys = (path + (missing.map { [$0] } ?? [])).map(\.stringValue)
        // Within the envelope the path starts at "parameters", then the parameter itself.
        return keys.dropFirst(inEnvelope ? 1 : 0).first ?? "parameters"
    }
}

/// A message that breaks the Varlink framing or is not a call: the connection is closed.
struct VarlinkProtocolError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
