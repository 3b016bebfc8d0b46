import Foundation
import HAPJSON
import Testing
@testable import hapbench

@Suite("The benchmark suite")
struct BenchmarkSuiteTests {
    /// Runs the quick suite on a subset and parses its JSON report back with HAPJSON.
    private func quickReport(filter: String) throws -> (BenchmarkReport, JSONValue) {
        var options = BenchmarkSuite.Options()
        options.quick = true
        options.filter = filter
        options.childExecutable = nil
        let report = try BenchmarkSuite(options: options).run()
        let document = try JSONDocument(bytes: Array(try report.json()))
        return (report, document.root)
    }

    private func member(_ key: String, of value: JSONValue) -> JSONValue? {
        value.objectValue?.first { $0.key == key }?.value
    }

    @Test("a quick TLV8 run reports every corpus message against memcpy, as JSON that HAPJSON reads")
    func quickTLV8RunEmitsValidJSON() throws {
        let (report, root) = try quickReport(filter: "tlv8.decode.reader")
        #expect(report.mode == "quick")
        let ratios = try #require(member("ratios", of: root)?.arrayValue)
        #expect(ratios.count == TLV8CorpusMessage.all.count)
        for ratio in ratios {
            let name = try #require(member("name", of: ratio)?.stringValue)
            #expect(name.hasPrefix("tlv8.decode.reader.") && name.hasSuffix("/memcpy"))
            let value = try #require(member("value", of: ratio)?.numberValue?.doubleValue)
            #expect(value > 0)
            let measured = try #require(member("measured", of: ratio))
            #expect(member("megabytes_per_second", of: measured)?.numberValue?.doubleValue ?? 0 > 0)
            #expect(member("round_seconds", of: measured)?.arrayValue?.count == RunSettings.quick.rounds)
        }
        #expect(member("cpu", of: try #require(member("machine", of: root)))?.stringValue?.isEmpty == false)
    }

    @Test("a quick crypto run compares frame decryption with libsodium and states the 0.90 target")
    func quickCryptoRunStatesTargets() throws {
        let (report, _) = try quickReport(filter: "crypto.frame-decrypt.1024")
        let names = report.ratios.map(\.name)
        #expect(names == ["crypto.frame-decrypt.1024/libsodium", "crypto.frame-decrypt.1024.segmented/libsodium"])
        #expect(report.ratios.first?.target == 0.90)
        #expect(report.ratios.allSatisfy { $0.measured.unitsPerSecond > 0 && $0.baseline.unit == "frame" })
    }

    @Test("a quick pipeline run times the analysis of a generated capture against the libpcap loop, target 0.25, the decryption ceiling beside it, the jobs and two analyses at once against one, a hub's capture whose sessions started before it, HAP over Bluetooth LE and HAP over CoAP")
    func quickPipelineRunComparesWithTheLibpcapLoop() throws {
        let directory = NSTemporaryDirectory() + "hapbench-pipeline-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var options = BenchmarkSuite.Options()
        options.quick = true
        options.filter = "pipeline"
        options.captureDirectory = directory
        options.captureByteCount = 200_000
        options.childExecutable = nil
        let report = try BenchmarkSuite(options: options).run()
        let jobs = "pipeline.jobs-\(PipelineBenchmarks.jobs)/pipeline.analysis"
        #expect(report.ratios.map(\.name) == ["pipeline.analysis/libpcap-loop", "pipeline.decryption-alone/libpcap-loop", jobs,
                                              "pipeline.two-analyses/pipeline.analysis",
                                              "pipeline.home-analysis/libpcap-loop", "pipeline.ble-analysis/libpcap-loop",
                                              "pipeline.coap-analysis/libpcap-loop"])
        let analysis = try #require(report.ratios.first)
        #expect(analysis.target == 0.25)
        #expect(analysis.measured.unit == "packet" && analysis.measured.unitsPerSecond > 0)
        #expect(analysis.value > 0 && analysis.value < 1)
        // Opening the frames is part of the analysis, so it costs less than the whole.
        let ceiling = report.ratios[1]
        #expect(ceiling.target == nil)
        #expect(ceiling.measured.unitsPerSecond > analysis.measured.unitsPerSecond)
        // Several jobs: the same capture in as many jobs as cores, against one job.
        let sharded = report.ratios[2]
        #expect(sharded.target == (PipelineBenchmarks.jobs == 2 ? 1.8 : nil))
        #expect(sharded.value > 0)
        #expect(!sharded.meaning.contains("fell back"), "\(sharded.meaning)")
        // What two cores give work that shares nothing: above one analysis alone whenever a core
        // is free, never a target.
        let twoAnalyses = report.ratios[3]
        #expect(twoAnalyses.target == nil && twoAnalyses.value > 0)
        for transport in report.ratios[4...] {
            #expect(transport.target == nil && transport.measured.unitsPerSecond > 0 && transport.value > 0 && transport.value < 1, "\(transport.name)")
        }
        #expect(report.captures.map(\.kind) == ["hap", "home", "ble", "coap"])
        let root = try JSONDocument(bytes: Array(try report.json())).root
        #expect(member("captures", of: root)?.arrayValue?.count == 4)
    }

    @Test("the pair-verify check and the SRP proofs succeed on their benchmark material")
    func cryptoMaterialVerifies() throws {
        let pairVerify = try PairVerifyMaterial()
        #expect(pairVerify.checkBenchmark().run(3) == 3)
        let srp = try SRPMaterial()
        #expect(srp.matchBenchmark().run(2) == 4)
    }

    @Test("the embedded TLV8 corpus is byte for byte the TLV8 tests' corpus files")
    func corpusMatchesTheFixtures() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("TLV8Tests/Fixtures")
        for message in TLV8CorpusMessage.all {
            let file = try Data(contentsOf: fixtures.appendingPathComponent("\(message.name).tlv8"))
            #expect(Array(file) == message.bytes, "\(message.name)")
        }
    }

    @Test("a filter naming one pipeline case runs the pipeline section and not the memory one")
    func filterNamesASection() {
        #expect(BenchmarkFilter(text: "pipeline.ble").mayInclude(section: "pipeline"))
        #expect(!BenchmarkFilter(text: "pipeline.ble").mayInclude(section: "memory"))
        #expect(BenchmarkFilter(text: "pipe").mayInclude(section: "pipeline"))
        #expect(BenchmarkFilter(text: nil).mayInclude(section: "memory"))
        #expect(!BenchmarkFilter(text: "crypto").mayInclude(section: "pipeline"))
    }

    @Test("sizes are read in decimal and binary units, and nonsense is refused")
    func sizesParse() throws {
        #expect(try parseSize("300MB") == 300_000_000)
        #expect(try parseSize("64MiB") == 67_108_864)
        #expect(try parseSize("1.5GB") == 1_500_000_000)
        #expect(try parseSize("4096") == 4_096)
        #expect(throws: (any Error).self) { try parseSize("lots") }
        #expect(throws: (any Error).self) { try parseSize("-3MB") }
    }
}
