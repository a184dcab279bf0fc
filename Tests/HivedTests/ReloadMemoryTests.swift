import Foundation
import TestSupport
import Testing

extension BlockingHivedTests {
    /// After 300 reloads of large, hostile and damaged files (issue 27), hived's resident
    /// memory is back within 4 MiB of what it was after the first reload: what a reload used
    /// goes back to the system, and nothing keeps the room the largest file needed (the
    /// hive's module order and index kept 4 MiB of it after a file of 30,000 modules).
    /// Both builds: the debug one, and the packaged one when `HIVED_DEB` names it.
    @Suite struct ReloadMemoryTests {
        /// The bound on growth, from the issue.
        static let allowedGrowth = 4 << 20

        /// A small deterministic generator (SplitMix64), so every run damages the same way.
        struct SplitMix {
            var state: UInt64

            mutating func next() -> UInt64 {
                state &+= 0x9E37_79B9_7F4A_7C15
                var z = state
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                return z ^ (z >> 31)
            }

            /// `text` cut at a random byte, with a few random bytes overwritten or inserted.
            mutating func damaged(_ text: String) -> String {
                var bytes = Array(text.utf8.prefix(Int(next() % UInt64(text.utf8.count + 1))))
                for _ in 0..<Int(next() % 8) where !bytes.isEmpty {
                    let index = Int(next() % UInt64(bytes.count))
                    let byte = UInt8(truncatingIfNeeded: next())
                    if next() % 2 == 0 { bytes[index] = byte } else { bytes.insert(byte, at: index) }
                }
                return String(decoding: bytes, as: UTF8.self)
            }
        }

        /// The `VmRSS` of `pid`, in bytes.
        static func resident(_ pid: Int32) throws -> Int {
            let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
                let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
            else { throw TestFailure("no VmRSS in /proc/\(pid)/status") }
            return kib * 1024
        }

        @Test(arguments: AnnotationTests.builds)
        func residentMemoryComesBackAfterLargeAndHostileReloads(build: String) async throws {
            let directory = try TestDirectory()
            let executable = try await AnnotationTests.executable(build, in: directory)
            let good = "modules:\n" + (0..<20).map { "  - {name: g\($0), type: echo}\n" }.joined()
            let hostile = HostileConfiguration.shapes(bytes: (1 << 20) - 1024).map(\.text)
            let path = try directory.write("hived.yaml", good)
            func replace(_ text: String) throws {
                try text.write(toFile: path + ".new", atomically: false, encoding: .utf8)
                guard rename(path + ".new", path) == 0 else { throw TestFailure("rename: errno \(errno)") }
            }
            let hived = try HivedProcess(
                ["run", "--config", path], in: directory, environment: ["HIVED_LOG_LEVEL": "critical"], executable: executable)
            var ready = try await hived.waitForReady()
            var random = SplitMix(state: 27)
            var first = 0
            for index in 0..<300 {
                // Every tenth a hostile file (each shape five times, among them 34,000 modules
                // that start), the others good, bad or damaged.
                let text = switch index % 10 {
                case 0: good
                case 9: hostile[(index / 10) % hostile.count]
                case let n where n % 2 == 1: "modules:\n  - {name: x, type: nosuch}\n"
                default: random.damaged(good)
                }
                try replace(index == 299 ? good : text)
                hived.signal(SIGHUP)
                ready = try await hived.waitForReady(after: ready + 1, timeout: .seconds(120))
                if index == 0 {
                    // The memory goes back right after READY=1 (malloc_trim): let it.
                    try await Task.sleep(for: .milliseconds(300))
                    first = try Self.resident(hived.pid)
                }
            }
            try await Task.sleep(for: .milliseconds(300))
            let last = try Self.resident(hived.pid)
            #expect(last - first <= Self.allowedGrowth, "VmRSS after the first reload \(first >> 10) KiB, after 300 \(last >> 10) KiB")
            hived.signal(SIGTERM)
            #expect(try await hived.exitStatus() == 0, "\(hived.stderr)")
        }
    }
}
