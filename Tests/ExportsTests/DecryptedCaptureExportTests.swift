import Capture
import Foundation
import Exports
import HAPAnalysis
import HAPCore
import HAPEvents
import Packets
import TCPReassembly
import Testing
import TestSupport

@Suite struct DecryptedCaptureExportTests {
    /// Writes the decrypted copy of a recorded capture and returns its path.
    private func export(_ name: String) throws -> String {
        let capture = RecordedCapture(name)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("hapscope-\(name)-\(UUID()).pcap").path
        let reader = try CaptureFileReader(files: [capture.capturePath])
        let export = try DecryptedCaptureExport(file: output, linkType: try #require(reader.currentLinkType))
        let configuration = AnalysisConfiguration(keyLog: try capture.keyLog(), emitsDecryptedData: true)
        AnalysisPipeline(configuration: configuration, consumers: [export], packetObservers: [export]).run(reader)
        try export.close()
        return output
    }

    /// Collects reassembled streams by client endpoint and direction.
    private final class StreamCollector: TCPStreamDelegate {
        var streams: [String: [TCPDirection: [UInt8]]] = [:]
        var gaps = 0
        func tcpConnectionOpened(_ connection: TCPConnection) {}
        func tcpStream(_ connection: TCPConnection, direction: TCPDirection, didReceive bytes: UnsafeRawBufferPointer, packet: PacketInfo) {
            streams[connection.client.description, default: [:]][direction, default: []].append(contentsOf: bytes)
        }
        func tcpStream(_ connection: TCPConnection, direction: TCPDirection, didSkipGapOf byteCount: UInt64, packet: PacketInfo) {
            gaps += 1
        }
        func tcpConnectionClosed(_ connection: TCPConnection, reason: TCPCloseReason, packet: PacketInfo?) {}
    }

    @Test(arguments: ["bridge", "lossy-link", "ipv6", "multi-connection", "large-bridge", "pairings", "wrong-code"])
    func eachRewrittenStreamIsExactlyWhatThePeersSentInPlaintext(capture: String) throws {
        let path = try export(capture)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let collector = StreamCollector()
        let reassembler = TCPReassembler(delegate: collector)
        let decoder = PacketDecoder()
        let reader = try CaptureFileReader(files: [path])
        while let packet = try reader.next() {
            if case .tcp(let segment) = try decoder.decode(linkType: packet.linkType, packet: packet.bytes, info: packet.info) {
                reassembler.process(segment)
            }
        }
        reassembler.finish()
        #expect(collector.gaps == 0)
        let truth = try RecordedCapture(capture).truthMessages()
        for (client, directions) in truth {
            for (direction, messages) in directions {
                let tcpDirection: TCPDirection = direction == .controllerToAccessory ? .clientToServer : .serverToClient
                #expect(collector.streams[client]?[tcpDirection] == Array(messages.joined()), "\(client) \(direction)")
            }
        }
    }

    @Test func tsharkListsExactlyTheRequestsAndResponsesOfTheTranscript() throws {
        let tshark = "/usr/bin/tshark"
        try #require(FileManager.default.isExecutableFile(atPath: tshark), "tshark is installed by the test command")
        let path = try export("bridge")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tshark)
        process.arguments = ["-r", path, "-d", "tcp.port==51826,http", "-Y", "http.request || http.response",
                             "-T", "fields", "-e", "http.request.method", "-e", "http.request.uri", "-e", "http.response.code"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let listed = output.split(separator: "\n").map { $0.split(separator: "\t").joined(separator: " ") }
        // The transcript's requests and responses, EVENT/1.0 notifications aside (tshark does not
        // dissect them as HTTP messages; BENCHMARKING.md).
        let truth = try RecordedCapture("bridge").truthMessages().values.flatMap { $0.values.joined() }
        let expected = truth.compactMap { message -> String? in
            let line = String(decoding: message.prefix { $0 != 0x0D }, as: UTF8.self)
            if line.hasPrefix("EVENT/") { return nil }
            let words = line.split(separator: " ")
            return line.hasPrefix("HTTP/") ? String(words[1]) : "\(words[0]) \(words[1])"
        }
        #expect(listed.sorted() == expected.sorted())
    }
}
