/// The whole suite: TLV8, crypto, then the capture pipeline and memory, each figure beside its
/// ceiling or peer measured in the same run.
struct BenchmarkSuite {
    struct Options {
        var quick = false
        var filter: String?
        var captureDirectory = ".build/hapbench-captures"
        /// The capture the pipeline is timed on; memory is measured at this size and a third of it.
        var captureByteCount: Int?
        var childExecutable = ChildProcess.hapbenchExecutable
        /// Called with each section's name as it starts, for progress on standard error.
        var progress: (String) -> Void = { _ in }
    }

    /// 300 MB, the size BENCHMARKING.md's reference figures were taken on; 3 MB with --quick.
    static let fullCaptureByteCount = 300_000_000
    static let quickCaptureByteCount = 3_000_000

    let options: Options

    func run() throws -> BenchmarkReport {
        let settings: RunSettings = options.quick ? .quick : .full
        let filter = BenchmarkFilter(text: options.filter)
        var report = BenchmarkReport(
            mode: options.quick ? "quick" : "full", rounds: settings.rounds, filter: options.filter, machine: .current)
        options.progress("tlv8")
        for ratio in TLV8Benchmarks.run(settings: settings, filter: filter) { report.add(ratio) }
        options.progress("crypto")
        for ratio in try CryptoBenchmarks.run(settings: settings, filter: filter) { report.add(ratio) }
        if filter.mayInclude(section: "pipeline") || filter.mayInclude(section: "memory") {
            options.progress("pipeline")
            let pipeline = PipelineBenchmarks(
                captureDirectory: options.captureDirectory,
                captureByteCount: options.captureByteCount ?? (options.quick ? Self.quickCaptureByteCount : Self.fullCaptureByteCount),
                childExecutable: options.childExecutable)
            let results = try pipeline.run(settings: settings, filter: filter)
            for ratio in results.ratios { report.add(ratio) }
            report.memory = results.memory
            report.captures = results.captures
        }
        return report
    }
}
