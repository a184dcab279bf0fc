import Foundation
@testable import HiveDaemon
import HiveKit
import Testing

@Suite struct MemoryPressureSourceTests {
    typealias Source = MemoryPressureSource

    func plan(_ environment: [String: String], cgroup: String? = "/system.slice/hived.service") -> Source.Plan {
        Source.plan(
            watch: environment["MEMORY_PRESSURE_WATCH"], write: environment["MEMORY_PRESSURE_WRITE"],
            cgroupPath: cgroup, threshold: .milliseconds(200), window: .seconds(2))
    }

    @Test func emptyOrDevNullMeansOff() {
        #expect(plan(["MEMORY_PRESSURE_WATCH": "/dev/null"]) == .off)
        #expect(plan(["MEMORY_PRESSURE_WATCH": ""]) == .off)
    }

    @Test func systemdsPathIsTheOnlyCandidateWithItsDecodedWrite() {
        let write = Data("some 150000 2000000\0".utf8).base64EncodedString()
        let expected = Source.Candidate(path: "/run/x/memory.pressure", trigger: Array("some 150000 2000000\0".utf8))
        #expect(plan(["MEMORY_PRESSURE_WATCH": "/run/x/memory.pressure", "MEMORY_PRESSURE_WRITE": write])
            == .candidates([expected], fromSystemd: true))
        #expect(plan(["MEMORY_PRESSURE_WATCH": "/run/fifo"])
            == .candidates([Source.Candidate(path: "/run/fifo", trigger: [])], fromSystemd: true))
    }

    @Test func aRelativePathOrBadBase64IsInvalid() {
        guard case .invalid(let reason) = plan(["MEMORY_PRESSURE_WATCH": "relative/path"]) else {
            Issue.record("a relative path must be refused")
            return
        }
        #expect(reason.contains("relative/path"))
        guard case .invalid = plan(["MEMORY_PRESSURE_WATCH": "/run/p", "MEMORY_PRESSURE_WRITE": "no base64!"]) else {
            Issue.record("bad base64 must be refused")
            return
        }
    }

    @Test func withoutSystemdTheSystemWidePsiFileComesLastWithTheConfiguredTrigger() {
        guard case .candidates(let candidates, let fromSystemd) = plan([:]) else {
            Issue.record("expected candidates")
            return
        }
        #expect(!fromSystemd)
        #expect(candidates.last?.path == "/proc/pressure/memory")
        #expect(candidates.allSatisfy { $0.trigger == Array("some 200000 2000000\0".utf8) })
        // The service's own cgroup comes first wherever a cgroup2 hierarchy is mounted.
        if Source.isCgroup2("/sys/fs/cgroup") || Source.isCgroup2("/sys/fs/cgroup/unified") {
            #expect(candidates.count == 2)
            #expect(candidates.first?.path.hasSuffix("/system.slice/hived.service/memory.pressure") == true)
        }
        // The root cgroup has no memory.pressure of its own: only the system-wide file.
        guard case .candidates(let rootOnly, _) = plan([:], cgroup: "/") else { return }
        #expect(rootOnly.map(\.path) == ["/proc/pressure/memory"])
    }

    @Test func base64DecodesWithAndWithoutPadding() {
        #expect(Base64.decode("c29tZQ==") == Array("some".utf8))
        #expect(Base64.decode("c29tZQ") == Array("some".utf8))
        #expect(Base64.decode("c29tZSAx") == Array("some 1".utf8))
        #expect(Base64.decode("") == [])
        #expect(Base64.decode("c2=9") == nil)
        #expect(Base64.decode("a b") == nil)
    }

    @Test func someAvg10IsReadFromPsiText() {
        let text = "some avg10=1.52 avg60=0.30 avg300=0.05 total=12345\nfull avg10=0.10 avg60=0.00 avg300=0.00 total=99\n"
        #expect(MemoryPressureWatch.someAvg10(in: text) == "1.52")
        #expect(MemoryPressureWatch.someAvg10(in: "full avg10=0.10") == nil)
    }

    @Test func aPsiFileIsArmedAndWatchedForPollpri() throws {
        // The system-wide file accepts an unprivileged trigger with a 2 s window.
        let candidate = Source.Candidate(path: "/proc/pressure/memory", trigger: Array("some 200000 2000000\0".utf8))
        guard FileManager.default.fileExists(atPath: candidate.path) else { return }
        switch Source.open(candidate) {
        case .success(let (source, fd)):
            defer { close(fd) }
            #expect(source.kind == .psi)
        case .failure(let failure):
            Issue.record("arming /proc/pressure/memory failed: \(failure)")
        }
    }
}

@Suite struct SystemEventsConfigurationTests {
    @Test func defaultsFollowSleepAndWatchPressure() throws {
        let configuration = try parseConfiguration("{}")
        #expect(configuration.sleep == SleepConfiguration(follow: true, budget: .seconds(4)))
        #expect(configuration.memoryPressure == MemoryPressureConfiguration(
            watch: true, threshold: .milliseconds(200), window: .seconds(2), interval: .seconds(2)))
    }

    @Test func bothSectionsAreRead() throws {
        let configuration = try parseConfiguration("""
            sleep: {follow: false, budget: 2s}
            memory_pressure: {watch: false, threshold: 100ms, window: 4s, interval: 10s}
            """)
        #expect(configuration.sleep == SleepConfiguration(follow: false, budget: .seconds(2)))
        #expect(configuration.memoryPressure == MemoryPressureConfiguration(
            watch: false, threshold: .milliseconds(100), window: .seconds(4), interval: .seconds(10)))
    }

    @Test func badValuesNameTheirLineAndKey() {
        #expect(configurationError("sleep: {follow: maybe}")?.description.contains("test.yaml:1: sleep.follow") == true)
        #expect(configurationError("sleep: {budget: soon}")?.description.contains("sleep.budget") == true)
        #expect(configurationError("sleep: {when: now}")?.description.contains("when") == true)
        let window = configurationError("memory_pressure:\n  window: 20s")
        #expect(window?.description.contains("test.yaml:2: memory_pressure.window: must lie between 500ms and 10s") == true,
                "\(String(describing: window))")
        let threshold = configurationError("memory_pressure: {threshold: 3s}")
        #expect(threshold?.description.contains("memory_pressure.threshold: must not exceed the window") == true,
                "\(String(describing: threshold))")
    }
}
