import CAllocationCounter

/// What one unit of work of a benchmark is, for throughput figures.
enum OperationUnit: String, Codable {
    case message = "msg"
    case frame = "frame"
    case packet = "packet"
    case operation = "op"
}

/// One timed loop. `run(n)` performs `n` operations and returns a value that depends on all of
/// them, so the optimiser cannot drop the work.
struct Benchmark {
    let name: String
    let unit: OperationUnit
    /// Units of work one operation covers: 1 for a message or a frame, the packet count for a
    /// pass over a capture.
    var unitsPerOperation = 1
    /// Bytes one operation processes, for MB/s; nil when bytes mean nothing for it.
    let bytesPerOperation: Int?
    /// Operations per timed round in a full run; `--quick` runs a fiftieth of them.
    let iterations: Int
    /// Untimed work before every timed round, such as reading a capture into the page cache.
    var prepare: (() -> Void)?
    let run: (Int) -> Int
}

/// A benchmark's timing over several rounds.
struct Measurement {
    let benchmark: Benchmark
    /// Seconds per operation, one entry per round.
    var secondsPerOperation: [Double] = []
    var allocationsPerOperation: Double?

    var median: Double {
        let sorted = secondsPerOperation.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
    var minimum: Double { secondsPerOperation.min() ?? 0 }
    var maximum: Double { secondsPerOperation.max() ?? 0 }
    /// Units (messages, frames, packets) per second at the median.
    var unitsPerSecond: Double { median > 0 ? Double(benchmark.unitsPerOperation) / median : 0 }
    var megabytesPerSecond: Double? { benchmark.bytesPerOperation.map { median > 0 ? Double($0) / median / 1e6 : 0 } }
}

/// The throughput of `measured` divided by that of `baseline`, from rounds run alternately
/// (A B A B …) so that machine noise falls on both alike.
struct Ratio {
    let name: String
    let measured: Measurement
    let baseline: Measurement
    /// The ratio the project aims for, if there is one.
    let target: Double?
    let meaning: String

    /// Throughput ratio: baseline time over measured time, both per operation. When the two
    /// do different amounts of work per operation (a capture pass against a packet loop), the
    /// operations are defined so that both cover the same input.
    var value: Double { measured.median > 0 ? baseline.median / measured.median : 0 }
    /// The ratio of each round's pair, for the spread next to the median.
    var roundValues: [Double] {
        zip(measured.secondsPerOperation, baseline.secondsPerOperation).map { $0 > 0 ? $1 / $0 : 0 }
    }
    var meetsTarget: Bool? { target.map { value >= $0 } }
}

struct RunSettings {
    var rounds: Int
    var iterationScale: Double
    static let full = RunSettings(rounds: 7, iterationScale: 1)
    static let quick = RunSettings(rounds: 3, iterationScale: 0.02)

    func iterations(_ benchmark: Benchmark) -> Int {
        max(1, Int(Double(benchmark.iterations) * iterationScale))
    }
}

enum BenchmarkRunner {
    /// Runs `measured` and `baseline` alternately, after a warm-up of each.
    static func compare(_ measured: Benchmark, against baseline: Benchmark, settings: RunSettings,
                        target: Double?, name: String, meaning: String) -> Ratio {
        var a = Measurement(benchmark: measured)
        var b = Measurement(benchmark: baseline)
        warmUp(measured, settings)
        warmUp(baseline, settings)
        for _ in 0..<settings.rounds {
            a.secondsPerOperation.append(time(measured, settings))
            b.secondsPerOperation.append(time(baseline, settings))
        }
        a.allocationsPerOperation = allocations(measured, settings)
        b.allocationsPerOperation = allocations(baseline, settings)
        return Ratio(name: name, measured: a, baseline: b, target: target, meaning: meaning)
    }

    private static func warmUp(_ benchmark: Benchmark, _ settings: RunSettings) {
        benchmark.prepare?()
        blackHole(benchmark.run(max(1, settings.iterations(benchmark) / 4)))
    }

    private static func time(_ benchmark: Benchmark, _ settings: RunSettings) -> Double {
        let count = settings.iterations(benchmark)
        benchmark.prepare?()
        let clock = ContinuousClock()
        var result = 0
        let elapsed = clock.measure { result = benchmark.run(count) }
        blackHole(result)
        return elapsed.seconds / Double(count)
    }

    /// Heap allocations per operation, counted over one more untimed round.
    private static func allocations(_ benchmark: Benchmark, _ settings: RunSettings) -> Double {
        let count = settings.iterations(benchmark)
        let before = hapscope_allocation_count()
        blackHole(benchmark.run(count))
        return Double(hapscope_allocation_count() - before) / Double(count)
    }
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// Keeps a value alive as far as the optimiser can tell.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
