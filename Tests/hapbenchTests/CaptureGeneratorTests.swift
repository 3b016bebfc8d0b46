import Foundation
import Testing
@testable import hapbench

@Suite("The capture generators")
struct CaptureGeneratorTests {
    private func smallConfiguration() -> CaptureGenerator.Configuration {
        var configuration = CaptureGenerator.Configuration(targetByteCount: 400_000)
        configuration.accessoryCount = 6
        configuration.concurrentSessions = 4
        configuration.exchangesPerSession = 20...40
        configuration.pairSetupEvery = 3
        return configuration
    }

    @Test("a small generated capture decodes fully with its key log: every session decrypted, no problem reported")
    func generatedCaptureDecodesFully() throws {
        let directory = try GeneratedCaptureChecks.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/small.pcap"
        let summary = try CaptureGenerator(configuration: smallConfiguration()).generate(to: path)
        #expect(summary.pairSetups > 0 && summary.encryptedSessions > 0)

        let tally = try CaptureAnalysis.run(path, keyLog: CaptureAnalysis.keyLog(forCapture: path))
        #expect(tally.firstProblems.isEmpty, "\(tally.firstProblems)")
        #expect(tally.problemCount == 0)
        #expect(tally.packets == summary.packets)
        #expect(tally.sessions == summary.encryptedSessions)
        #expect(tally.decryptedSessions == tally.sessions)
        #expect(tally.pairingExchanges == summary.encryptedSessions + summary.pairSetups)
        #expect(tally.databases == summary.encryptedSessions)
        #expect(tally.encryptedHTTPMessages > 0 && tally.characteristicEvents > 0)
        #expect(tally.advertisements >= smallConfiguration().accessoryCount)
    }

    @Test("the same seed and size give the same capture and key log, byte for byte")
    func generationIsDeterministic() throws {
        try GeneratedCaptureChecks.expectDeterministic { path, seedOffset in
            var configuration = smallConfiguration()
            configuration.targetByteCount = 120_000
            configuration.seed += seedOffset
            _ = try CaptureGenerator(configuration: configuration).generate(to: path)
        }
    }

    @Test("the adversarial capture opens a connection per flood step and is read through to its end")
    func adversarialCaptureIsReadable() throws {
        let directory = try GeneratedCaptureChecks.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/adversarial.pcap"
        var configuration = AdversarialCaptureGenerator.Configuration(targetByteCount: 300_000)
        (configuration.endlessBodyConnections, configuration.endlessHeaderConnections, configuration.outOfOrderConnections) = (2, 2, 2)
        let summary = try AdversarialCaptureGenerator(configuration: configuration).generate(to: path)
        #expect(summary.connections > 6)
        #expect(try CaptureAnalysis.countPackets(path).packets == summary.packets)
        let tally = try CaptureAnalysis.run(path, keyLog: CaptureAnalysis.keyLog(forCapture: path))
        #expect(tally.packets == summary.packets)
    }

    @Test("the key log lies beside the capture, named after it")
    func keyLogPath() {
        #expect(CaptureGenerator.keyLogPath(forCapture: "/tmp/day.pcap") == "/tmp/day.keylog")
        #expect(CaptureGenerator.keyLogPath(forCapture: "/tmp/day.pcapng") == "/tmp/day.keylog")
        #expect(CaptureGenerator.keyLogPath(forCapture: "capture") == "capture.keylog")
    }
}
