import Foundation
import Synchronization
import TestSupport

/// A client that connects, sends a line, reads it back and disconnects, over and over, on
/// a thread of its own (its calls block), recording every failure and when each cycle ran.
final class EchoLoop: Sendable {
    struct Outcome: Sendable {
        var cycles = 0
        var failures: [String] = []
        /// When each successful cycle started and ended.
        var spans: [(start: ContinuousClock.Instant, end: ContinuousClock.Instant)] = []

        /// How many cycles overlapped the interval from `start` to `end`.
        func overlapping(_ start: ContinuousClock.Instant, _ end: ContinuousClock.Instant) -> Int {
            spans.count { $0.end > start && $0.start < end }
        }
    }

    private let stopWhenDone = Atomic<Bool>(false)
    private let completed = Atomic<Int>(0)

    /// Cycles completed so far.
    var cycles: Int { completed.load(ordering: .relaxed) }

    /// Lets the loop end once it has done its minimum.
    func finish() { stopWhenDone.store(true, ordering: .relaxed) }

    /// Runs at least `minimum` cycles against 127.0.0.1:`port`, and on until ``finish()``.
    func run(port: UInt16, minimum: Int) async -> Outcome {
        await withCheckedContinuation { continuation in
            Thread { [self] in
                var outcome = Outcome()
                while outcome.cycles < minimum || !stopWhenDone.load(ordering: .relaxed) {
                    let line = "cycle \(outcome.cycles)"
                    let start = ContinuousClock.now
                    switch LineSocket.connect(port: port) {
                    case .failure(let error):
                        outcome.failures.append("\(line): connect failed: \(error.code)")
                    case .success(let fd):
                        let answer = LineSocket.echo(line, on: fd)
                        close(fd)
                        if answer == line {
                            outcome.spans.append((start, ContinuousClock.now))
                        } else {
                            outcome.failures.append("\(line): answered \(answer.map { "'\($0)'" } ?? "nothing")")
                        }
                    }
                    outcome.cycles += 1
                    completed.store(outcome.cycles, ordering: .relaxed)
                    if outcome.failures.count > 20 { break }
                }
                continuation.resume(returning: outcome)
            }.start()
        }
    }
}
