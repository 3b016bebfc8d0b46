import CAllocationCounter

/// What one operation of a benchmark is, for throughput figures.
enum OperationUnit: String {
    case message = "msg"
    case frame = "frame"
    case packet = "packet"
    case operation = "op"
    case byte = "B"
}

/// One timed loop. `run(n)` performs `n` operations and returns a value that depends on all of
/// them, so the optimiser cannot drop the work.
struct Benchmark {
    let name: String
    let unit: OperationUnit
    /// Bytes one operation processes, for MB/s; nil when bytes mean nothing for it.
    let bytesPerOperation: Int?
    let iterations: Int
    let run: (Int) -> Int
}

/// A benchmark's timing over several rounds.
struct Measurement {
    let benchmark: Benchmark
    /// Seconds per operation, one entry per round.
    var secondsPerOperation: [Double] = []
    var allocationsPerOperation: Double?

    var median: Double { secondsPerOperation.sorted()[secondsPerOperation.count / 2] }
    var minimum: Double { secondsPerOperation.min() ?? .nan }
    var maximum: Double { secondsPerOperation.max() ?? .nan }
    var operationsPerSecond: Double { 1 / median }
    var megabytesPerSecond: Double? { benchmark.bytesPerOperation.map { Double($0) / median / 1e6 } }
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

    var value: Double { baseline.median / measured.median }
    var meetsTarget: Bool? { target.map { value >= $0 } }
}

struct RunSettings {
    var rounds: Int
    var iterationScale: Double
    static let full = RunSettings(rounds: 7, iterationScale: 1)
    static let quick = RunSettings(rounds: 3, iterationScale: 0.02)
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

    static func iterations(_ benchmark: Benchmark, _ settings: RunSettings) -> Int {
        max(1, Int(Double(benchmark.iterations) * settings.iterationScale))
    }

    private static func warmUp(_ benchmark: Benchmark, _ settings: RunSettings) {
        blackHole(benchmark.run(max(1, iterations(benchmark, settings) / 4)))
    }

    private static func time(_ benchmark: Benchmark, _ settings: RunSettings) -> Double {
        let count = iterations(benchmark, settings)
        let clock = ContinuousClock()
        var result = 0
        let elapsed = clock.measure { result = benchmark.run(count) }
        blackHole(result)
        let (seconds, attoseconds) = elapsed.components
        return (Double(seconds) + Double(attoseconds) / 1e18) / Double(count)
    }

    private static func allocations(_ benchmark: Benchmark, _ settings: RunSettings) -> Double {
        let count = iterations(benchmark, settings)
        let before = hapscope_allocation_count()
        blackHole(benchmark.run(count))
        return Double(hapscope_allocation_count() - before) / Double(count)
    }
}

/// Keeps a value alive as far as the optimiser can tell.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
