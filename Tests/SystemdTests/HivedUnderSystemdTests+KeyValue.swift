import Foundation
import Testing

extension HivedUnderSystemdTests {
    /// `Examples/KeyValue`'s kvd as `scripts/test` builds it (the example's README installs
    /// this binary).
    static let keyValueBinary = HivedFixture.packageRoot + "/.build/debug/kvd"

    /// Whether the kvd test runs: kvd is built, or `HIVE_EXAMPLES=require` (set by
    /// `scripts/test`) makes a missing build a failure rather than a skip.
    static var keyValueShouldRun: Bool {
        FileManager.default.fileExists(atPath: keyValueBinary)
            || ProcessInfo.processInfo.environment["HIVE_EXAMPLES"] == "require"
    }

    @Test(
        "kvd installed as its README says runs under its own unit: ready, HTTP, reload through kvd ctl, a bad file refused with FILE:LINE, a clean stop, the journal as kvd",
        .enabled(if: keyValueShouldRun, "Examples/KeyValue is not built (scripts/test builds it)"),
        arguments: SystemdRelease.selected)
    func keyValueDaemonUnderItsOwnUnit(release: SystemdRelease) async throws {
        let container = try hived(release).container
        #expect(FileManager.default.fileExists(atPath: Self.keyValueBinary), "build Examples/KeyValue first")
        // The README's installation, into the container.
        let binary = container.hostPath("/usr/local/bin/kvd")
        try? FileManager.default.removeItem(atPath: binary)
        try FileManager.default.createDirectory(
            atPath: container.hostPath("/usr/local/bin"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.keyValueBinary, toPath: binary)
        let example = HivedFixture.packageRoot + "/Examples/KeyValue/"
        try container.write(String(contentsOfFile: example + "kvd.service", encoding: .utf8), to: "/etc/systemd/system/kvd.service")
        let shipped = try String(contentsOfFile: example + "kvd.yaml", encoding: .utf8)
        #expect(shipped.contains("port: 8080"))
        // A port of its own: the container shares the machine's network.
        let config = shipped.replacingOccurrences(of: "port: 8080", with: "port: 18089")
        try container.write(config, to: "/etc/kvd/kvd.yaml")
        try await container.check(["systemctl", "daemon-reload"])

        let verify = try await container.exec(["systemd-analyze", "verify", "/etc/systemd/system/kvd.service"])
        #expect(verify.status == 0 && verify.stdout.isEmpty && verify.stderr.isEmpty, "\(verify)")
        let security = try await container.exec(["systemd-analyze", "security", "--no-pager", "kvd.service"])
        let score = security.stdout.firstMatch(of: /exposure level for kvd\.service: ([0-9.]+)/).flatMap { Double($0.1) }
        #expect(try #require(score, "\(security)") <= 2.0, "\(security.stdout)")

        // Type=notify: start returns once kvd sent READY=1, that is once the server listens.
        let start = try await container.systemctl("start", "kvd.service")
        let status = try await container.systemctl("status", "kvd.service")
        #expect(start.status == 0, "\(start)\n\(status)")
        #expect(try await container.property("kvd.service", "StatusText") == "running 3 modules")
        func curl(_ arguments: String...) async throws -> CommandResult {
            try await container.exec(["curl", "-sS", "-i", "--max-time", "10"] + arguments)
        }
        let put = try await curl("-X", "PUT", "--data-binary", "world", "http://127.0.0.1:18089/kv/hello")
        #expect(put.stdout.hasPrefix("HTTP/1.1 204"), "\(put)")
        let got = try await curl("http://127.0.0.1:18089/kv/hello")
        #expect(got.stdout.hasPrefix("HTTP/1.1 200") && got.stdout.hasSuffix("\r\n\r\nworld"), "\(got)")
        #expect(got.stdout.lowercased().contains("x-kv-node: kv-1"), "\(got)")

        // systemctl reload runs `kvd ctl reload`: a changed node shows in the next response.
        try container.write(config.replacingOccurrences(of: "node: kv-1", with: "node: kv-2"), to: "/etc/kvd/kvd.yaml")
        let reload = try await container.systemctl("reload", "kvd.service")
        #expect(reload.status == 0, "\(reload)")
        #expect(try await curl("http://127.0.0.1:18089/kv/hello").stdout.lowercased().contains("x-kv-node: kv-2"))

        // A bad file fails the reload with kvd's FILE:LINE; the running configuration stays.
        try container.write(config + "  - {name: extra, type: nonesuch}\n", to: "/etc/kvd/kvd.yaml")
        let refused = try await container.systemctl("reload", "kvd.service")
        #expect(refused.status != 0, "\(refused)")
        let invocation = try await container.property("kvd.service", "InvocationID")
        let refusal = try await container.journal(invocation: invocation)
            .compactMap { $0["MESSAGE"] }.first { $0.contains("/etc/kvd/kvd.yaml:") && $0.contains("nonesuch") }
        #expect(refusal != nil, "the journal names the file and line of the bad module type")
        #expect(try await container.property("kvd.service", "ActiveState") == "active")
        #expect(try await curl("http://127.0.0.1:18089/kv/hello").stdout.hasSuffix("\r\n\r\nworld"))

        // A clean stop; the store's last snapshot is in the state directory.
        let stop = try await container.systemctl("stop", "kvd.service")
        #expect(stop.status == 0, "\(stop)")
        let result = try await container.properties("kvd.service", ["ActiveState", "Result", "ExecMainStatus"])
        #expect(result == ["ActiveState": "inactive", "Result": "success", "ExecMainStatus": "0"], "\(result)")
        let snapshot = try await container.exec(["cat", "/var/lib/kvd/store.snapshot"])
        #expect(snapshot.stdout == "hello\tworld\n", "\(snapshot)")
        let entries = try await container.journal(invocation: invocation)
        let identifiers = Set(entries.compactMap { $0["SYSLOG_IDENTIFIER"] })
        #expect(identifiers.contains("kvd") && !identifiers.contains("hived"), "\(identifiers)")
        #expect(entries.contains { $0["HIVE_MODULE"] == "http" }, "journalctl -t kvd HIVE_MODULE=http finds the server's lines")
    }
}
