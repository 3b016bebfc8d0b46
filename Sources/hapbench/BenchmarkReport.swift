import Foundation

/// Which benchmarks a run includes: those whose name contains the `--filter` text, or all.
struct BenchmarkFilter {
    let text: String?

    func includes(_ name: String) -> Bool {
        guard let text, !text.isEmpty else { return true }
        return name.contains(text)
    }

    /// Whether a benchmark of `section` (`pipeline`, `memory`) may match: the filter is part of
    /// the section's name, or names something in it (`pipeline.ble`).
    func mayInclude(section: String) -> Bool {
        includes(section) || (text?.hasPrefix(section + ".") ?? false)
    }
}

/// Everything one run measured, as printed and as written with `--json`.
struct BenchmarkReport: Codable {
    struct Machine: Codable {
        let cpu: String
        let logicalCPUs: Int
        let memoryBytes: Int
        let kernel: String
    }

    struct Figure: Codable {
        let name: String
        let unit: String
        let roundSeconds: [Double]
        let medianSecondsPerOperation: Double
        let minimumSecondsPerOperation: Double
        let maximumSecondsPerOperation: Double
        let unitsPerSecond: Double
        let megabytesPerSecond: Double?
        let allocationsPerOperation: Double?
        let allocationsPerUnit: Double?
    }

    struct RatioFigure: Codable {
        let name: String
        let measured: Figure
        let baseline: Figure
        /// measured throughput / baseline throughput, median of rounds run alternately.
        let value: Double
        let minimum: Double
        let maximum: Double
        let target: Double?
        let meetsTarget: Bool?
        let meaning: String
    }

    var tool = "hapbench"
    var mode: String
    var rounds: Int
    var filter: String?
    var machine: Machine
    var ratios: [RatioFigure] = []
    var memory: [MemoryFigure] = []
    var captures: [CaptureRecord] = []

    mutating func add(_ ratio: Ratio) {
        let values = ratio.roundValues
        ratios.append(RatioFigure(
            name: ratio.name, measured: Self.figure(ratio.measured), baseline: Self.figure(ratio.baseline), value: ratio.value,
            minimum: values.min() ?? ratio.value, maximum: values.max() ?? ratio.value, target: ratio.target,
            meetsTarget: ratio.meetsTarget, meaning: ratio.meaning))
    }

    private static func figure(_ measurement: Measurement) -> Figure {
        let units = Double(measurement.benchmark.unitsPerOperation)
        return Figure(
            name: measurement.benchmark.name, unit: measurement.benchmark.unit.rawValue, roundSeconds: measurement.secondsPerOperation,
            medianSecondsPerOperation: measurement.median, minimumSecondsPerOperation: measurement.minimum,
            maximumSecondsPerOperation: measurement.maximum, unitsPerSecond: measurement.unitsPerSecond,
            megabytesPerSecond: measurement.megabytesPerSecond, allocationsPerOperation: measurement.allocationsPerOperation,
            allocationsPerUnit: measurement.allocationsPerOperation.map { $0 / units })
    }

    func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return try encoder.encode(self)
    }

    /// The figures as a table: each measured line, its baseline below it, then the ratio.
    var text: String {
        var lines = ["hapbench (\(mode), \(rounds) rounds) on \(machine.cpu), \(machine.logicalCPUs) CPUs"]
        for ratio in ratios {
            lines.append("")
            lines.append(Self.line(ratio.measured))
            lines.append(Self.line(ratio.baseline))
            var verdict = "  ratio \(Self.format(ratio.value, 3)) (rounds \(Self.format(ratio.minimum, 3))–\(Self.format(ratio.maximum, 3)))"
            if let target = ratio.target { verdict += ", target ≥ \(Self.format(target, 2)): " + (ratio.meetsTarget == true ? "met" : "MISSED") }
            lines.append(verdict + "  — " + ratio.meaning)
        }
        if !memory.isEmpty {
            lines.append("")
            lines.append("peak memory (child processes, their own VmHWM):")
            for figure in memory {
                lines.append("  \(figure.name.padding(24)) \(Self.format(Double(figure.captureBytes) / 1e6, 1).leftPadding(8)) MB capture  "
                    + "\(Self.format(Double(figure.peakResidentBytes) / 1_048_576, 1).leftPadding(8)) MiB RSS  "
                    + "\(Self.format(figure.megabytesPerSecond, 1).leftPadding(8)) MB/s")
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func line(_ figure: Figure) -> String {
        var line = "  \(figure.name.padding(44)) \(duration(figure.medianSecondsPerOperation).leftPadding(10))/op"
        line += " [\(duration(figure.minimumSecondsPerOperation))–\(duration(figure.maximumSecondsPerOperation))]"
        line += "  \(rate(figure.unitsPerSecond)) \(figure.unit)/s"
        if let megabytes = figure.megabytesPerSecond { line += "  \(format(megabytes, 1)) MB/s" }
        if let allocations = figure.allocationsPerUnit { line += "  \(format(allocations, 2)) allocs/\(figure.unit)" }
        return line
    }

    private static func duration(_ seconds: Double) -> String {
        switch seconds {
        case ..<1e-6: format(seconds * 1e9, 1) + " ns"
        case ..<1e-3: format(seconds * 1e6, 2) + " µs"
        case ..<1: format(seconds * 1e3, 2) + " ms"
        default: format(seconds, 3) + " s"
        }
    }

    private static func rate(_ value: Double) -> String {
        switch value {
        case 1e6...: format(value / 1e6, 2) + " M"
        case 1e3...: format(value / 1e3, 1) + " k"
        default: format(value, 1)
        }
    }

    static func format(_ value: Double, _ decimals: Int) -> String {
        String(format: "%.\(decimals)f", value)
    }
}

extension BenchmarkReport.Machine {
    /// This machine, from /proc and sysconf.
    static var current: BenchmarkReport.Machine {
        let cpuInfo = (try? readText("/proc/cpuinfo")) ?? ""
        let cpu = cpuInfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { String($0.split(separator: ":", maxSplits: 1).last ?? "").trimmingCharacters(in: .whitespaces) } ?? "unknown"
        let kernel = ((try? readText("/proc/sys/kernel/osrelease")) ?? "unknown").trimmingCharacters(in: .whitespacesAndNewlines)
        return BenchmarkReport.Machine(
            cpu: cpu, logicalCPUs: ProcessInfo.processInfo.activeProcessorCount,
            memoryBytes: Int(ProcessInfo.processInfo.physicalMemory), kernel: kernel)
    }
}

extension String {
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    func leftPadding(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
