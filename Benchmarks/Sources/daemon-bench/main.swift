import BenchSupport

#if canImport(Glibc)
import Glibc
#endif

// daemon-bench --baseline PATH --daemon LABEL=PATH... [--modules 100] [--runs 20]
//              [--reloads 10]
//
// Measures the C program at PATH (the baseline) and each hived binary, with a generated
// configuration of --modules probe modules, and prints Markdown table rows (scripts/bench
// prints the header).

/// The command line, parsed.
struct Options {
    var baseline = ""
    var daemons: [(label: String, path: String)] = []
    var modules = 100
    var runs = 20
    var reloads = 10

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        func value(_ flag: String) throws -> String {
            guard let value = rest.popFirst() else { throw DaemonBenchError("\(flag) needs a value") }
            return value
        }
        func number(_ flag: String) throws -> Int {
            let text = try value(flag)
            guard let number = Int(text), number > 0 else { throw DaemonBenchError("\(flag): not a positive number: \(text)") }
            return number
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--baseline": baseline = try value(flag)
            case "--daemon":
                let pair = try value(flag)
                guard let equals = pair.firstIndex(of: "=") else { throw DaemonBenchError("--daemon wants LABEL=PATH") }
                daemons.append((String(pair[..<equals]), String(pair[pair.index(after: equals)...])))
            case "--modules": modules = try number(flag)
            case "--runs": runs = try number(flag)
            case "--reloads": reloads = try number(flag)
            default: throw DaemonBenchError("unknown argument \(flag)")
            }
        }
        guard !baseline.isEmpty, !daemons.isEmpty else {
            throw DaemonBenchError("usage: daemon-bench --baseline PATH --daemon LABEL=PATH... [--modules N] [--runs N] [--reloads N]")
        }
    }
}

/// Runs the benchmarks in a scratch directory (configuration file and notify socket)
/// and prints the rows.
func runDaemonBenchmarks(_ options: Options, in directory: String) throws {
    let config = directory + "/hived.yaml"
    try write(benchmarkConfiguration(modules: options.modules), to: config)
    defer {
        unlink(config)
        rmdir(directory + "/run")
    }
    var bench = try DaemonBenchmarks(
        baseline: Target(label: "C (sd_notify)", arguments: [options.baseline]),
        daemons: options.daemons.map { Target(label: $0.label, arguments: [$0.path, "run", "--config", config]) },
        runs: options.runs, reloads: options.reloads, directory: directory)
    try bench.run()
    for row in bench.rows(modules: options.modules) { row.print() }
}

do {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    var template = Array("/tmp/hive-daemon-bench-XXXXXX".utf8CString)
    guard mkdtemp(&template) != nil else { throw DaemonBenchError("mkdtemp failed") }
    let directory = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    defer { rmdir(directory) }
    try runDaemonBenchmarks(options, in: directory)
} catch {
    log("daemon-bench: \(error)")
    exit(1)
}
