import Capture
import Foundation
import HAPAnalysis
import HAPCore
import HAPEvents
import HAPJSON
import Exports
import Testing
import TestSupport

@Suite struct BodyExtractorTests {
    @Test func everyPairingAndJSONBodyOfTheBridgeCaptureBecomesAFileListedInTheManifest() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hapscope-extract-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let bridge = RecordedCapture("bridge")
        let extractor = try BodyExtractor(directory: directory)
        AnalysisPipeline(configuration: AnalysisConfiguration(keyLog: try bridge.keyLog()), consumers: [extractor])
            .run(try CaptureFileReader(files: [bridge.capturePath]))
        #expect(extractor.failure == nil)

        let manifest = try JSONDocument(bytes: Array(Data(contentsOf: directory.appendingPathComponent("manifest.json")))).root
        let entries = try #require(manifest.arrayValue)
        #expect(entries.count == extractor.filesWritten)
        let files = entries.compactMap { $0["file"]?.stringValue }
        #expect(files.first == "0001-c1-controller-pair-setup-M1.tlv8")
        #expect(files.contains("0002-c1-accessory-pair-setup-M2.tlv8"))
        #expect(files.contains { $0.hasSuffix("-accessory-accessories.json") })
        #expect(files.contains { $0.hasSuffix("-accessory-event.json") })
        // Pair-setup M1–M6 and pair-verify M1–M4 carry bodies; so do JSON reads, writes and events.
        #expect(files.filter { $0.hasSuffix(".tlv8") }.count == 10)
        for entry in entries {
            let file = try #require(entry["file"]?.stringValue)
            let bytes = try Data(contentsOf: directory.appendingPathComponent(file))
            #expect(bytes.count == entry["bytes"]?.numberValue?.int64Value.map(Int.init))
            if file.hasSuffix(".json") { _ = try JSONDocument(bytes: Array(bytes)) }
        }
        let accessories = try #require(entries.first { $0["file"]?.stringValue?.hasSuffix("accessories.json") == true })
        #expect(accessories["message"]?.stringValue == "HTTP/1.1 200 OK")
        #expect(accessories["encrypted"]?.boolValue == true)
        #expect(accessories["direction"]?.stringValue == "accessory-to-controller")
    }
}
