import BenchSupport
import Dispatch

#if canImport(Glibc)
import Glibc
#endif

// hive-bench SECTION...: in-process benchmarks of HiveKit, printed as Markdown table
// rows (scripts/bench prints the header). Sections: dispatch, memory, calls, strategies
// (ways to run async hooks, on bare closures);
// `profile` and `profile2` are short sync dispatch runs (200 and 400 events) to
// record under valgrind --tool=callgrind and diff; `-nolog` variants use a no-op log
// handler, `-async` ones async modules. Run
// `memory` in a process of its own: earlier sections leave freed heap behind.

/// Runs the named sections in order.
func runSections(_ names: [String]) async throws {
    for name in names {
        switch name {
        case "dispatch": try await DispatchBenchmarks.run()
        case "memory": try await MemoryBenchmark.run()
        case "calls": try await CallsBenchmarks.run()
        case "strategies": try await AsyncStrategies.run()
        case "profile": try await DispatchBenchmarks.profile(events: 200, logger: .standard)
        case "profile2": try await DispatchBenchmarks.profile(events: 400, logger: .standard)
        case "profile-nolog": try await DispatchBenchmarks.profile(events: 200, logger: .noOp)
        case "profile2-nolog": try await DispatchBenchmarks.profile(events: 400, logger: .noOp)
        case "profile-async": try await DispatchBenchmarks.profile(events: 200, logger: .standard, isAsync: true)
        case "profile2-async": try await DispatchBenchmarks.profile(events: 400, logger: .standard, isAsync: true)
        case "header": print(Row.header)
        default: throw BenchError("unknown section '\(name)' (dispatch, memory, calls, strategies, profile[2][-nolog|-async], header)")
        }
    }
}

// A synchronous main that waits on a semaphore rather than async top-level code: the
// latter parks the main thread in dispatch_main, which valgrind 3.19 crashes on, and
// the dispatch benchmark must run under callgrind.
let sections = Array(CommandLine.arguments.dropFirst())
let done = DispatchSemaphore(value: 0)
Task.detached {
    do {
        try await runSections(sections.isEmpty ? ["header", "dispatch", "calls"] : sections)
    } catch {
        log("hive-bench: \(error)")
        exit(1)
    }
    done.signal()
}
done.wait()
