/// Times `operation` after `warmUp` untimed runs: one sample per run, in nanoseconds.
public func measure(
    warmUp: Int, iterations: Int, _ operation: () throws -> Void
) rethrows -> Summary {
    for _ in 0..<warmUp { try operation() }
    var samples: [Double] = []
    samples.reserveCapacity(iterations)
    for _ in 0..<iterations {
        let start = Monotonic.now()
        try operation()
        samples.append(Double(Monotonic.now() &- start))
    }
    return Summary(samples)
}

/// Async form of ``measure(warmUp:iterations:_:)``.
public func measure(
    warmUp: Int, iterations: Int, _ operation: () async throws -> Void
) async rethrows -> Summary {
    for _ in 0..<warmUp { try await operation() }
    var samples: [Double] = []
    samples.reserveCapacity(iterations)
    for _ in 0..<iterations {
        let start = Monotonic.now()
        try await operation()
        samples.append(Double(Monotonic.now() &- start))
    }
    return Summary(samples)
}

/// Times `batch` runs of `operation` per sample, for operations too short to time one
/// by one (a clock read costs ~20 ns); each sample is the mean of its batch.
public func measureBatched(
    warmUp: Int, samples: Int, batch: Int, _ operation: () throws -> Void
) rethrows -> Summary {
    for _ in 0..<warmUp { try operation() }
    var results: [Double] = []
    results.reserveCapacity(samples)
    for _ in 0..<samples {
        let start = Monotonic.now()
        for _ in 0..<batch { try operation() }
        results.append(Double(Monotonic.now() &- start) / Double(batch))
    }
    return Summary(results)
}
