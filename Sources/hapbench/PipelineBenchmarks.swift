import Foundation

/// The whole analysis against a plain libpcap read loop over the same generated capture, and
/// the peak memory of each, measured in child processes, at two capture sizes and on the
/// adversarial capture.
struct PipelineBenchmarks {
    /// Where generated captures are kept between runs (same seed and size give the same bytes).
    let captureDirectory: String
    /// The size the timed comparison runs on; memory is also measured at a third of it.
    let captureByteCount: Int
    /// hapbench itself, to run the analysis in a child process for its peak memory; nil skips
    /// the memory figures (a test runner hosting the suite is not hapbench).
    let childExecutable: String?

    /// Bumped whenever the generators' output changes, so stale captures are not reused.
    static let generatorVersion = 1

    struct Results {
        var ratios: [Ratio] = []
        var memory: [MemoryFigure] = []
        var captures: [CaptureRecord] = []
    }

    func run(settings: RunSettings, filter: BenchmarkFilter) throws -> Results {
        var results = Results()
        let primary = try capture(byteCount: captureByteCount, kind: .lab, into: &results)
        let includesJobs = filter.includes("pipeline.jobs-\(Self.jobs)/pipeline.analysis")
        if filter.includes("pipeline.analysis") || includesJobs {
            let (analysis, loop) = try analysisAndLoop(primary, analysisName: "pipeline.analysis", loopName: "pipeline.libpcap-loop")
            let packets = loop.unitsPerOperation
            let size = loop.bytesPerOperation
            // One pass per round: a pass over 300 MB takes seconds, so five rounds are plenty.
            let whole = RunSettings(rounds: min(settings.rounds, 5), iterationScale: 1)
            if filter.includes("pipeline.analysis") {
                results.ratios.append(BenchmarkRunner.compare(
                    analysis, against: loop, settings: whole, target: 0.25, name: "pipeline.analysis/libpcap-loop",
                    meaning: "MB/s of the full analysis (reassembly, HTTP, TLV8, JSON, decryption, events) vs reading the same file with pcap_next_ex"))
                // What any analysis that decrypts this capture can reach: its frames opened by
                // libsodium and nothing else. The AEAD's cost is affine in the frame length (a call
                // plus a per-block cost), so as many frames of the mean length cost what the
                // capture's own frames cost, to within a 64-byte block per frame.
                let frames = try CaptureAnalysis.run(primary, keyLog: CaptureAnalysis.keyLog(forCapture: primary))
                if frames.frames > 0 {
                    let meanLength = max(1, frames.framePlaintextBytes / frames.frames)
                    let stream = try FrameStream(plaintextLength: meanLength)
                    let decryptionAlone = Benchmark(
                        name: "pipeline.decryption-alone", unit: .packet, unitsPerOperation: packets, bytesPerOperation: size, iterations: 1
                    ) { count in stream.openFrames(count * frames.frames) }
                    results.ratios.append(BenchmarkRunner.compare(
                        decryptionAlone, against: loop, settings: whole, target: nil, name: "pipeline.decryption-alone/libpcap-loop",
                        meaning: "the ceiling of pipeline.analysis/libpcap-loop: the capture's \(frames.frames) frames (\(meanLength) plaintext bytes on average) opened by libsodium and nothing else, vs pcap_next_ex"))
                }
            }
            if includesJobs {
                results.ratios.append(try jobsAgainstOneJob(primary, analysis, settings: whole))
                results.ratios.append(try twoAnalysesAgainstOne(primary, analysis, settings: whole))
            }
        }
        // A hub's day: every session already running, each direction's frame counter searched
        // (10,000–60,000 frames old) under the one key SESSION_ENDPOINTS names for it.
        let homeByteCount = max(captureByteCount / 10, 1_000_000)
        if filter.includes("pipeline.home") {
            let home = try capture(byteCount: homeByteCount, kind: .home, into: &results)
            results.ratios.append(try analysisAgainstLoop(
                home, kind: .home, settings: settings,
                meaning: "MB/s of the full analysis of a hub's capture whose 30 sessions were running before it started (frame boundary and counter of each direction searched) vs pcap_next_ex; compare with pipeline.analysis/libpcap-loop for the cost of joining"))
        }
        // HAP over Bluetooth LE: HCI, ACL, L2CAP and ATT, GATT discovery, each PDU fragment sealed
        // on its own. HAP over Thread: CoAP datagrams, each body sealed on its own, sessions keyed
        // by the key log.
        let transportByteCount = max(captureByteCount / 10, 1_000_000)
        let transports: [(CaptureKind, String)] = [
            (.ble, "MB/s of the full analysis of HAP over Bluetooth LE (HCI, ACL, L2CAP, ATT, GATT discovery and long values, HAP PDU fragments each sealed, pair-verify, signatures, characteristics) vs pcap_next_ex over the same file"),
            (.coap, "MB/s of the full analysis of HAP over CoAP (UDP, CoAP messages and Block1/Block2 bodies, one seal per body, HAP PDUs, the 0x09 database, characteristics) vs pcap_next_ex over the same file"),
        ]
        for (kind, meaning) in transports where filter.includes("pipeline.\(kind.rawValue)-analysis/libpcap-loop") {
            let path = try capture(byteCount: transportByteCount, kind: kind, into: &results)
            results.ratios.append(try analysisAgainstLoop(path, kind: kind, settings: settings, meaning: meaning))
        }
        guard filter.includes("memory"), let childExecutable else { return results }
        let secondary = try capture(byteCount: captureByteCount / 3, kind: .lab, into: &results)
        for path in [secondary, primary] {
            results.memory.append(try memoryFigure("memory.analysis", path: path, childExecutable))
            results.memory.append(try memoryFigure("memory.jobs-\(Self.jobs)", path: path, jobs: Self.jobs, childExecutable))
            results.memory.append(try memoryFigure("memory.libpcap-loop", path: path, libpcapLoop: true, childExecutable))
        }
        for byteCount in [homeByteCount / 3, homeByteCount] {
            let path = try capture(byteCount: byteCount, kind: .home, into: &results)
            results.memory.append(try memoryFigure("memory.home", path: path, childExecutable))
        }
        for kind in [CaptureKind.ble, .coap] {
            for byteCount in [transportByteCount / 3, transportByteCount] {
                let path = try capture(byteCount: byteCount, kind: kind, into: &results)
                results.memory.append(try memoryFigure("memory.\(kind.rawValue)", path: path, childExecutable))
                results.memory.append(try memoryFigure("memory.\(kind.rawValue)-libpcap-loop", path: path, libpcapLoop: true, childExecutable))
            }
        }
        for byteCount in [captureByteCount / 3, captureByteCount] {
            let path = try capture(byteCount: byteCount, kind: .adversarial, into: &results)
            results.memory.append(try memoryFigure("memory.adversarial", path: path, childExecutable))
        }
        return results
    }

    /// Jobs analysing `path` at once (`--jobs`, as many as the cores, at least 2) against the one
    /// job of `oneJob`, in alternating rounds: `pipeline.jobs-N/pipeline.analysis`, target 1.8 on
    /// 2 cores. A run that fell back to one job says so in the ratio's meaning.
    private func jobsAgainstOneJob(_ path: String, _ oneJob: Benchmark, settings: RunSettings) throws -> Ratio {
        let jobs = Self.jobs
        let keyLog = try CaptureAnalysis.keyLog(forCapture: path)
        let fallback = try CaptureAnalysis.run(path, keyLog: keyLog, jobs: jobs).fallback
        let sharded = Benchmark(
            name: "pipeline.jobs-\(jobs)", unit: .packet, unitsPerOperation: oneJob.unitsPerOperation, bytesPerOperation: oneJob.bytesPerOperation,
            iterations: 1, prepare: { readIntoPageCache(path) }
        ) { count in
            var total = 0
            for _ in 0..<count { total &+= (try? CaptureAnalysis.run(path, keyLog: keyLog, jobs: jobs).events) ?? 0 }
            return total
        }
        return BenchmarkRunner.compare(
            sharded, against: oneJob, settings: settings, target: jobs == 2 ? 1.8 : nil, name: "pipeline.jobs-\(jobs)/pipeline.analysis",
            meaning: "MB/s of the analysis in \(jobs) jobs (--jobs \(jobs): connections on shards by accessory address, events merged in capture order) vs one job, same capture"
                + (fallback.map { "; the run \($0)" } ?? ""))
    }

    /// Two one-job analyses of `path` at once, on two threads, against one alone, in alternating
    /// rounds: `pipeline.two-analyses/pipeline.analysis`, what two cores give work that shares
    /// nothing at the time of the run — about 2 when both are free, 1 when another process holds
    /// one — and so the ceiling of `pipeline.jobs-2/pipeline.analysis` in the same run, on a
    /// machine shared with other work.
    private func twoAnalysesAgainstOne(_ path: String, _ oneJob: Benchmark, settings: RunSettings) throws -> Ratio {
        let keyLog = try CaptureAnalysis.keyLog(forCapture: path)
        // An operation is half of the pair, so that the figure's MB/s is the two analyses'
        // together and the ratio their throughput against one.
        let pair = Benchmark(
            name: "pipeline.two-analyses", unit: .packet, unitsPerOperation: oneJob.unitsPerOperation, bytesPerOperation: oneJob.bytesPerOperation,
            iterations: 2, prepare: { readIntoPageCache(path) }
        ) { count in
            var total = 0
            for _ in 0..<max(1, count / 2) {
                let other = DispatchSemaphore(value: 0)
                Thread { _ = try? CaptureAnalysis.run(path, keyLog: keyLog); other.signal() }.start()
                total &+= (try? CaptureAnalysis.run(path, keyLog: keyLog).events) ?? 0
                other.wait()
            }
            return total
        }
        return BenchmarkRunner.compare(
            pair, against: oneJob, settings: settings, target: nil, name: "pipeline.two-analyses/pipeline.analysis",
            meaning: "MB/s of two one-job analyses of the capture at once, on two threads, vs one alone: what two cores give work that shares nothing during this run, the ceiling of pipeline.jobs-2/pipeline.analysis")
    }

    /// The jobs the `jobs` figures run: the cores available, at least 2.
    static var jobs: Int { max(2, ProcessInfo.processInfo.activeProcessorCount) }

    /// The analysis of `path` against the libpcap loop over it, one pass per round, the rounds
    /// alternating as for the other pipeline cases; named `pipeline.<kind>-analysis/libpcap-loop`.
    private func analysisAgainstLoop(_ path: String, kind: CaptureKind, settings: RunSettings, meaning: String) throws -> Ratio {
        let (analysis, loop) = try analysisAndLoop(
            path, analysisName: "pipeline.\(kind.rawValue)-analysis", loopName: "pipeline.\(kind.rawValue)-libpcap-loop")
        return BenchmarkRunner.compare(
            analysis, against: loop, settings: RunSettings(rounds: min(settings.rounds, 5), iterationScale: 1), target: nil,
            name: "\(analysis.name)/libpcap-loop", meaning: meaning)
    }

    /// The whole analysis of `path` with its key log, and the libpcap loop over it: one pass an
    /// operation, the file read into the page cache before each round.
    private func analysisAndLoop(_ path: String, analysisName: String, loopName: String) throws -> (analysis: Benchmark, loop: Benchmark) {
        let packets = try CaptureAnalysis.countPackets(path).packets
        let keyLog = try CaptureAnalysis.keyLog(forCapture: path)
        let size = try fileSize(path)
        let analysis = Benchmark(
            name: analysisName, unit: .packet, unitsPerOperation: packets, bytesPerOperation: size, iterations: 1,
            prepare: { readIntoPageCache(path) }
        ) { count in
            var total = 0
            for _ in 0..<count { total &+= (try? CaptureAnalysis.run(path, keyLog: keyLog).events) ?? 0 }
            return total
        }
        let loop = Benchmark(
            name: loopName, unit: .packet, unitsPerOperation: packets, bytesPerOperation: size, iterations: 1,
            prepare: { readIntoPageCache(path) }
        ) { count in
            var total = 0
            for _ in 0..<count { total &+= (try? CaptureAnalysis.countPackets(path).bytes) ?? 0 }
            return total
        }
        return (analysis, loop)
    }

    /// The peak memory of the analysis of `path` (with `libpcapLoop`, of the libpcap loop over
    /// it: `analyze --plain`) in a child process, the file read into the page cache first.
    private func memoryFigure(_ name: String, path: String, libpcapLoop: Bool = false, jobs: Int = 1, _ executable: String) throws -> MemoryFigure {
        readIntoPageCache(path)
        let arguments = ["analyze"] + (libpcapLoop ? ["--plain"] : []) + (jobs > 1 ? ["--jobs", "\(jobs)"] : []) + [path]
        let resultPath = "\(captureDirectory)/child-peak-memory.txt"
        let usage = try ChildProcess.run(executable, arguments + ["--peak-memory-to", resultPath])
        guard usage.exitStatus == 0 else { throw BenchmarkFailure("\(executable) \(arguments.joined(separator: " ")) exited with \(usage.exitStatus)") }
        guard let peak = Int(try readText(resultPath).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BenchmarkFailure("\(executable) did not report its peak memory")
        }
        let size = try fileSize(path)
        return MemoryFigure(
            name: name, captureBytes: size, peakResidentBytes: peak, wallSeconds: usage.wallSeconds,
            megabytesPerSecond: Double(size) / usage.wallSeconds / 1e6)
    }

    /// The generated capture of `byteCount` bytes, written now unless an earlier run left it.
    /// The generated captures: a lab's (sessions from pair-verify on), a home hub's (sessions
    /// already running when the capture starts), the adversarial one, HAP over Bluetooth LE and
    /// HAP over CoAP.
    enum CaptureKind: String {
        case lab = "hap"
        case home
        case adversarial
        case ble
        case coap
    }

    private func capture(byteCount: Int, kind: CaptureKind, into results: inout Results) throws -> String {
        try FileManager.default.createDirectory(atPath: captureDirectory, withIntermediateDirectories: true)
        let path = "\(captureDirectory)/\(kind.rawValue)-v\(Self.generatorVersion)-\(byteCount).pcap"
        let keyLogPath = CaptureGenerator.keyLogPath(forCapture: path)
        let complete = FileManager.default.fileExists(atPath: path) && (kind == .adversarial || FileManager.default.fileExists(atPath: keyLogPath))
        var record = CaptureRecord(kind: kind.rawValue, path: path, bytes: 0, packets: 0, connections: 0, generatedSeconds: nil)
        if !complete {
            let clock = ContinuousClock()
            let start = clock.now
            switch kind {
            case .adversarial:
                let summary = try AdversarialCaptureGenerator(configuration: .init(targetByteCount: byteCount)).generate(to: path)
                (record.packets, record.connections) = (summary.packets, summary.connections)
            case .ble:
                let summary = try BLECaptureGenerator(targetByteCount: byteCount).generate(to: path)
                (record.packets, record.connections) = (summary.packets, summary.connections)
            case .coap:
                let summary = try CoAPCaptureGenerator(targetByteCount: byteCount).generate(to: path)
                (record.packets, record.connections) = (summary.packets, summary.connections)
            case .lab, .home:
                let configuration = kind == .home ? CaptureGenerator.Configuration.home(targetByteCount: byteCount) : .init(targetByteCount: byteCount)
                let summary = try CaptureGenerator(configuration: configuration).generate(to: path)
                (record.packets, record.connections) = (summary.packets, summary.connections)
            }
            record.generatedSeconds = (clock.now - start).seconds
        }
        record.bytes = try fileSize(path)
        results.captures.append(record)
        return path
    }
}

/// Peak memory of one child process over one capture.
struct MemoryFigure: Codable {
    let name: String
    let captureBytes: Int
    let peakResidentBytes: Int
    let wallSeconds: Double
    let megabytesPerSecond: Double
}

/// A capture the suite ran on.
struct CaptureRecord: Codable {
    let kind: String
    let path: String
    var bytes: Int
    /// Zero when the capture was reused from an earlier run.
    var packets: Int
    var connections: Int
    /// How long generating it took; nil when it was reused.
    var generatedSeconds: Double?
}

func fileSize(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.size] as? NSNumber)?.intValue ?? 0
}

/// Reads a file once so that the timed run that follows reads memory, not the disk: the kernel
/// evicts capture pages that sat idle for about a minute (BENCHMARKING.md).
func readIntoPageCache(_ path: String) {
    guard let handle = FileHandle(forReadingAtPath: path) else { return }
    defer { try? handle.close() }
    while let chunk = try? handle.read(upToCount: 1 << 22), !chunk.isEmpty {}
}
