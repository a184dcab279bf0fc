import BenchSupport

/// Starts and stops N no-op units with each candidate, for every N, round robin within a
/// size so every candidate sees the same machine load; then prints the figures, their
/// ratios to the baseline (the first candidate) and how they grow with N.
struct ScaleBenchmark {
    let candidates: [any Candidate]
    let sizes: [Int]
    /// Cycles per candidate at 10,000 units and below; fewer above (see ``rounds(for:)``).
    let rounds: Int

    /// `cycles[size][candidate]`: every measured cycle.
    private(set) var cycles: [Int: [[Cycle]]] = [:]
    /// `memory[size][candidate]`: one start in a fresh process each (see ``probeMemory(_:)``).
    private(set) var memory: [Int: [Cycle]] = [:]

    /// `rounds` up to 10,000 units, then proportionally fewer (3 at least), so that a
    /// quadratic candidate cannot make a run last hours.
    func rounds(for size: Int) -> Int {
        size <= 10_000 ? rounds : max(3, rounds * 10_000 / size)
    }

    mutating func run() async throws {
        for size in sizes {
            var results = Array(repeating: [Cycle](), count: candidates.count)
            // One untimed cycle each: the first allocations of their kind, lazy metadata.
            for candidate in candidates { _ = try await candidate.cycle(units: size, stopping: true) }
            let count = rounds(for: size)
            for round in 0..<count {
                log("scale-bench: \(size) units, round \(round + 1)/\(count)")
                // A different candidate goes first each round.
                for offset in candidates.indices {
                    let index = (round + offset) % candidates.count
                    results[index].append(try await candidates[index].cycle(units: size, stopping: true))
                }
            }
            cycles[size] = results
        }
    }

    /// Memory per unit, each candidate and size in a process of its own (`executable
    /// --probe INDEX SIZE`): in one process, memory that earlier cycles freed would hide
    /// what a start costs.
    mutating func probeMemory(_ executable: String) throws {
        for size in sizes {
            log("scale-bench: memory, \(size) units")
            memory[size] = try candidates.indices.map { index in
                let text = try output(of: [executable, "--probe", "\(index)", "\(size)"])
                let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Double($0) }
                guard fields.count == 2 else { throw ScaleBenchError("--probe \(index) \(size) printed '\(text)'") }
                return Cycle(start: 0, stop: 0, heap: fields[0], resident: fields[1])
            }
        }
    }

    /// The median of `figure` over the cycles of `candidate` at `size`.
    func median(_ size: Int, _ candidate: Int, _ figure: (Cycle) -> Double) -> Double {
        Summary(cycles[size]![candidate].map(figure)).median
    }
}
