import Foundation

/// HTTP requests made with curl, an independent client.
enum HTTP {
    /// A response: status (0 when nothing answered), lower-cased header names, body.
    struct Response {
        let status: Int
        let headers: [String: String]
        let body: String
    }

    /// `METHOD url` with `body`, through curl (no proxy, 10 s at most).
    static func request(_ method: String, _ url: String, body: String? = nil) async throws -> Response {
        var arguments = ["curl", "--silent", "--noproxy", "*", "--max-time", "10", "--include", "--request", method]
        if let body { arguments += ["--data-binary", body] }
        let result = try await ExampleCommand.run(URL(fileURLWithPath: "/usr/bin/env"), arguments + [url])
        guard result.status == 0 else { return Response(status: 0, headers: [:], body: result.stderr) }
        let parts = result.stdout.components(separatedBy: "\r\n\r\n")
        let head = parts[0].components(separatedBy: "\r\n")
        let status = head.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Response(status: status, headers: headers, body: parts.dropFirst().joined(separator: "\r\n\r\n"))
    }
}
