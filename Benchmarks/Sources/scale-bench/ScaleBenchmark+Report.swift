import BenchSupport

#if canImport(Glibc)
import Glibc
#endif

extension ScaleBenchmark {
    /// The timed figures: start and stop.
    enum Figure: CaseIterable {
        case start, stop

        var title: String { self == .start ? "start" : "ordered stop" }

        func value(_ cycle: Cycle) -> Double { self == .start ? cycle.start : cycle.stop }
    }

    /// Markdown tables: start and stop medians per size and memory per unit (each with
    /// the ratio to the baseline), the local growth exponents, and the time per unit at
    /// the largest size against 1,000.
    func report() -> String {
        var lines: [String] = []
        let names = candidates.map(\.label)
        let baseline = names[0]
        for figure in Figure.allCases {
            lines.append("| N | " + names.map { "\(figure.title): \($0)" }.joined(separator: " | ") + " |")
            lines.append("|--:|" + String(repeating: "--:|", count: names.count))
            for size in sizes {
                var cells = ["\(grouped(size)) (\(rounds(for: size))×)"]
                let base = median(size, 0, figure.value)
                for index in candidates.indices {
                    let value = median(size, index, figure.value)
                    let text = format(value, .nanoseconds)
                    cells.append(index == 0 ? text : "\(text) (\(ratio(value, to: base)))")
                }
                lines.append("| " + cells.joined(separator: " | ") + " |")
            }
            lines.append("")
        }
        if !memory.isEmpty {
            lines.append("| N | " + names.map { "memory per unit: \($0)" }.joined(separator: " | ") + " |")
            lines.append("|--:|" + String(repeating: "--:|", count: names.count))
            for size in sizes {
                guard let probes = memory[size] else { continue }
                var cells = [grouped(size)]
                for (index, probe) in probes.enumerated() {
                    let resident = probe.resident / Double(size)
                    let text = "\(format(resident, .bytes)) RSS, \(format(probe.heap / Double(size), .bytes)) heap"
                    cells.append(index == 0 ? text : "\(text) (\(ratio(resident, to: probes[0].resident / Double(size))))")
                }
                lines.append("| " + cells.joined(separator: " | ") + " |")
            }
            lines.append("")
        }
        lines.append("Ratios in parentheses are to \(baseline) at the same N: medians of the same run for times;")
        lines.append("memory is resident-set (and malloc heap in use) growth from before the units were made until")
        lines.append("all run, one fresh process per candidate and N, divided by N.")
        lines.append("")
        lines.append(contentsOf: growth())
        return lines.joined(separator: "\n")
    }

    /// The local growth exponent of start and stop time between consecutive sizes
    /// (1.0 is linear, 2.0 quadratic) and the time per unit at the largest size against
    /// that at 1,000.
    private func growth() -> [String] {
        let pairs = Array(zip(sizes, sizes.dropFirst()))
        guard !pairs.isEmpty else { return [] }
        var header = "| growth exponent | " + pairs.map { "\(grouped($0.0)) → \(grouped($0.1))" }.joined(separator: " | ")
        var rule = "|---|" + String(repeating: "--:|", count: pairs.count)
        let largest = sizes.max()!
        let perUnit = sizes.contains(1_000) && largest > 1_000
        if perUnit {
            header += " | per unit at \(grouped(largest)) ÷ at 1,000"
            rule += "--:|"
        }
        var lines = [header + " |", rule]
        for figure in Figure.allCases {
            for index in candidates.indices {
                var cells = ["\(figure.title): \(candidates[index].label)"]
                for (small, large) in pairs {
                    let a = median(small, index, figure.value)
                    let b = median(large, index, figure.value)
                    cells.append(fixed(log(b / a) / log(Double(large) / Double(small)), 2))
                }
                if perUnit {
                    let a = median(1_000, index, figure.value) / 1_000
                    let b = median(largest, index, figure.value) / Double(largest)
                    cells.append(ratio(b, to: a))
                }
                lines.append("| " + cells.joined(separator: " | ") + " |")
            }
        }
        return lines
    }
}

/// `100,000`.
func grouped(_ value: Int) -> String {
    var digits = String(value)
    var index = digits.endIndex
    while digits.distance(from: digits.startIndex, to: index) > 3 {
        index = digits.index(index, offsetBy: -3)
        digits.insert(",", at: index)
    }
    return digits
}
