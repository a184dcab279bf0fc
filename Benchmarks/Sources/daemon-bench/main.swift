import BenchSupport

#if canImport(Glibc)
import Glibc
#endif

// daemon-bench --baseline PATH [--floor PATH] --daemon LABEL=PATH... [--modules 0,100]
//              [--runs 20] [--reloads 10] [--callgrind PREFIX]
// daemon-bench --robustness CHECKS,RELOADS --daemon LABEL=PATH...
//
// Measures the C program at PATH (the baseline), the Swift floor (notify-floor, static)
// and each hived binary with generated configurations of each --modules count of probe
// modules, round robin, and prints Markdown table rows (scripts/bench prints the header).
// With --callgrind, runs each of them once under valgrind's callgrind instead (see
// CallgrindRun) and prints `LABEL<TAB>DUMP AT READY=1<TAB>DUMP OF THE WHOLE RUN` lines.
// With --robustness, measures only issue 9's figures for each hived binary instead (see
// RobustnessBenchmarks).

/// The command line, parsed.
struct Options {
    var baseline = ""
    var floor: String?
    var daemons: [(label: String, path: String)] = []
    var modules = [0, 100]
    var runs = 20
    var reloads = 10
    var callgrind: String?
    /// check-config runs on the hostile file, and fuzzed reloads; nil: not measured.
    var robustness: (checks: Int, reloads: Int)?

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
        func numbers(_ flag: String) throws -> [Int] {
            let text = try value(flag)
            let numbers = text.split(separator: ",").compactMap { Int($0) }
            guard !numbers.isEmpty, numbers.allSatisfy({ $0 >= 0 }) else { throw DaemonBenchError("\(flag): not a list of counts: \(text)") }
            return numbers
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--baseline": baseline = try value(flag)
            case "--floor": floor = try value(flag)
            case "--daemon":
                let pair = try value(flag)
                guard let equals = pair.firstIndex(of: "=") else { throw DaemonBenchError("--daemon wants LABEL=PATH") }
                daemons.append((String(pair[..<equals]), String(pair[pair.index(after: equals)...])))
            case "--modules": modules = try numbers(flag)
            case "--runs": runs = try number(flag)
            case "--reloads": reloads = try number(flag)
            case "--callgrind": callgrind = try value(flag)
            case "--robustness":
                let pair = try value(flag).split(separator: ",").compactMap { Int($0) }
                guard pair.count == 2, pair.allSatisfy({ $0 > 0 }) else { throw DaemonBenchError("--robustness wants CHECKS,RELOADS") }
                robustness = (pair[0], pair[1])
            default: throw DaemonBenchError("unknown argument \(flag)")
            }
        }
        guard !daemons.isEmpty, !baseline.isEmpty || robustness != nil else {
            throw DaemonBenchError(
                "usage: daemon-bench --baseline PATH [--floor PATH] --daemon LABEL=PATH... [--modules N,N…] [--runs N] [--reloads N] [--callgrind PREFIX]"
                    + " | daemon-bench --robustness CHECKS,RELOADS --daemon LABEL=PATH...")
        }
    }
}

/// Runs the benchmarks in a scratch directory (configuration files and notify socket)
/// and prints the rows.
func runDaemonBenchmarks(_ options: Options, in directory: String) throws {
    if let robustness = options.robustness {
        let robust = RobustnessBenchmarks(
            daemons: options.daemons, directory: directory, checks: robustness.checks, reloads: robustness.reloads)
        for row in try robust.rows() { row.print() }
        return
    }
    var targets = [Target(label: "C (sd_notify)", kind: .c, arguments: [options.baseline])]
    if let floor = options.floor {
        targets.append(Target(label: "Swift floor (static stdlib)", kind: .swiftFloor, arguments: [floor]))
    }
    var files: [String] = []
    defer {
        for file in files { unlink(file) }
        rmdir(directory + "/run")
    }
    for count in options.modules {
        let config = directory + "/hived-\(count).yaml"
        try write(benchmarkConfiguration(modules: count), to: config)
        files.append(config)
        for daemon in options.daemons {
            targets.append(Target(
                label: "\(daemon.label), \(count) modules", kind: .daemon(modules: count),
                arguments: [daemon.path, "run", "--config", config]))
        }
    }
    var bench = try DaemonBenchmarks(targets: targets, runs: options.runs, reloads: options.reloads, directory: directory)
    if let prefix = options.callgrind {
        for (index, target) in targets.enumerated() {
            log("daemon-bench: callgrind \(target.label)")
            let run = CallgrindRun(
                program: target.arguments, isDaemon: target.kind != .c && target.kind != .swiftFloor,
                prefix: "\(prefix)-\(index)", socket: bench.socket, environment: bench.environment)
            let (ready, whole) = try run.run()
            print("\(target.label)\t\(ready)\t\(whole)")
        }
        return
    }
    try bench.run()
    for row in bench.rows() { row.print() }
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
