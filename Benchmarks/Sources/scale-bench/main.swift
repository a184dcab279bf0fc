import BenchSupport
import Dispatch

#if canImport(Glibc)
import Glibc
#endif

// scale-bench [--sizes 100,1000,10000,100000] [--rounds 30]
//
// Starts and stops N no-op units with swift-service-lifecycle's ServiceGroup (the
// baseline), HiveKit sync modules and HiveKit async modules, interleaved, and prints
// Markdown tables: start, ordered stop and memory per unit, ratios to ServiceGroup, growth
// exponents. Above 10,000 units the rounds shrink in proportion (3 at least). Memory is
// measured in a fresh process per candidate and size: `scale-bench --probe INDEX N`
// starts N units with candidate INDEX and prints heap and resident growth in bytes.

/// The command line, parsed.
struct Options {
    var sizes = [100, 1_000, 10_000, 100_000]
    var rounds = 30
    /// `--probe INDEX N`: the memory of one start, in this process.
    var probe: (candidate: Int, units: Int)?

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { throw ScaleBenchError("\(flag) needs a value") }
            switch flag {
            case "--sizes":
                sizes = value.split(separator: ",").compactMap { Int($0) }
                guard !sizes.isEmpty, sizes.allSatisfy({ $0 > 0 }) else { throw ScaleBenchError("--sizes: \(value)") }
            case "--probe":
                guard let index = Int(value), let units = rest.popFirst().flatMap({ Int($0) }) else {
                    throw ScaleBenchError("--probe INDEX N")
                }
                probe = (index, units)
            case "--rounds":
                guard let count = Int(value), count > 0 else { throw ScaleBenchError("--rounds: \(value)") }
                rounds = count
            default:
                throw ScaleBenchError("usage: scale-bench [--sizes N,N…] [--rounds N]")
            }
        }
    }
}

// A synchronous main that waits on a semaphore, as hive-bench's (valgrind-friendly).
let done = DispatchSemaphore(value: 0)
Task.detached {
    do {
        let options = try Options(Array(CommandLine.arguments.dropFirst()))
        let candidates: [any Candidate] = [
            ServiceGroupCandidate(), HiveCandidate(isAsync: false), HiveCandidate(isAsync: true),
        ]
        if let (index, units) = options.probe {
            let cycle = try await candidates[index].cycle(units: units, stopping: false)
            print("\(Int(cycle.heap)) \(Int(cycle.resident))")
            fflushStdout()
            exit(0)
        }
        var bench = ScaleBenchmark(candidates: candidates, sizes: options.sizes, rounds: options.rounds)
        try bench.probeMemory(executablePath())
        try await bench.run()
        print(bench.report())
        fflushStdout()
    } catch {
        log("scale-bench: \(error)")
        exit(1)
    }
    done.signal()
}
done.wait()

/// This executable's path, from `/proc/self/exe`.
func executablePath() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    return count > 0 ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
}
