import Foundation
import TestSupport
import Testing

extension ControlSocketTests {
    /// A bare `hived` on a fresh machine (the embedded default), run as systemd runs it
    /// with `RuntimeDirectory=`: its control socket is there and `hived ctl` finds it.
    @Suite struct EmbeddedDefaultTests {
        static let modules = ["config", "heartbeat", "api", "reporter"]

        /// A bare `hived` with `RUNTIME_DIRECTORY` set to `directory`. If
        /// `/etc/hived/hived.yaml` exists on this machine, hived runs in a mount namespace of
        /// its own where an empty tmpfs hides it.
        static func startBare(in directory: TestDirectory) throws -> HivedProcess {
            let hidden = FileManager.default.fileExists(atPath: "/etc/hived/hived.yaml")
            try #require(!hidden || getuid() == 0, "/etc/hived/hived.yaml exists: hiding it needs root")
            let launcher = hidden
                ? ["/usr/bin/unshare", "-m", "--propagation", "private", "/bin/sh", "-c", #"mount -t tmpfs tmpfs /etc/hived && exec "$@""#, "sh"]
                : []
            return try HivedProcess(
                [], in: directory, environment: ["RUNTIME_DIRECTORY": directory.path, "STATE_DIRECTORY": directory.path],
                launcher: launcher)
        }

        @Test func blameShowsEveryModuleWithRealNumbers() async throws {
            let directory = try TestDirectory()
            let hived = try Self.startBare(in: directory)
            try await hived.waitForReady()
            let environment = ["RUNTIME_DIRECTORY": directory.path]
            // READY=1 goes out before `ready` is delivered: wait until every module handled it.
            var timings: [[String: Any]] = []
            let deadline = ContinuousClock.now + .seconds(20)
            while ContinuousClock.now < deadline {
                let json = try await CtlTests.runCtl(["--json", "blame"], environment: environment)
                let reply = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
                timings = (reply?["parameters"] as? [String: Any])?["blame"] as? [[String: Any]] ?? []
                if timings.count(where: { $0["event"] as? String == "ready" }) == Self.modules.count { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            for module in Self.modules {
                let own = timings.filter { $0["module"] as? String == module }
                for event in ["setup", "init", "ready"] {
                    let timing = own.first { $0["event"] as? String == event }
                    #expect(timing?["calls"] as? Int == 1, "\(module).\(event): \(String(describing: timing))")
                    #expect(timing?["failures"] as? Int == 0, "\(module).\(event)")
                    #expect((timing?["longest_usec"] as? Int ?? -1) <= (timing?["total_usec"] as? Int ?? -1))
                }
                // The modules that log at each event take measurable time; the reporter's
                // hooks may take less than a microsecond.
                if module != "reporter" {
                    #expect(own.reduce(0) { $0 + ($1["total_usec"] as? Int ?? 0) } > 0, "\(module) spent no time at all: \(own)")
                }
            }

            // The text: one line per (module, event), slowest first, with its time.
            let text = try await CtlTests.runCtl(["blame"], environment: environment)
            #expect(text.status == 0, "\(text.stderr)")
            let lines = text.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
            for module in Self.modules {
                for event in ["setup", "init", "ready"] {
                    #expect(lines.contains { $0.count >= 2 && $0[1] == "\(module).\(event)" }, "\(module).\(event) in:\n\(text.stdout)")
                }
            }
            let first = try #require(lines.first?.first)
            #expect(first.last == "s" && first.contains { $0.isNumber && $0 != "0" }, "the slowest took real time: \(text.stdout)")
            hived.signal(SIGTERM)
            #expect(try await hived.exitStatus() == 0)
        }
    }
}
