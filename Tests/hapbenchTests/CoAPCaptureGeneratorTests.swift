import Testing
@testable import hapbench

@Suite("The HAP-over-CoAP capture generator")
struct CoAPCaptureGeneratorTests {
    /// Large accessories, so that databases go in Block2 blocks and scene writes in Block1 blocks.
    private func configuration(byteCount: Int) -> CoAPCaptureGenerator.Configuration {
        var configuration = CoAPCaptureGenerator.Configuration(targetByteCount: byteCount)
        (configuration.accessoryCount, configuration.concurrentSessions) = (4, 4)
        configuration.zonesPerAccessory = 45...60
        configuration.exchangesPerSession = 60...120
        return configuration
    }

    @Test("a small generated capture decodes fully with its key log alone: every session joined and decrypted, every HAP PDU and characteristic activity found, a database per session, no problem")
    func generatedCaptureDecodesFully() throws {
        let (summary, tally) = try GeneratedCaptureChecks.generateAndAnalyse {
            try CoAPCaptureGenerator(configuration: configuration(byteCount: 300_000)).generate(to: $0)
        }
        #expect(summary.connections > 4)
        #expect(summary.counts[.block1Bodies] > 0 && summary.counts[.block2Bodies] > 0)
        GeneratedCaptureChecks.expectDecodedFully(tally, packets: summary.packets, sessions: summary.connections)
        #expect(tally.databases == summary.connections)
        #expect(tally.coapPDUs == summary.counts[.pdus])
        #expect(tally.characteristicEvents == summary.counts[.characteristicActivities])
    }

    @Test("the same seed and size give the same capture and key log, byte for byte")
    func generationIsDeterministic() throws {
        try GeneratedCaptureChecks.expectDeterministic { path, seedOffset in
            var configuration = configuration(byteCount: 100_000)
            configuration.seed += seedOffset
            _ = try CoAPCaptureGenerator(configuration: configuration).generate(to: path)
        }
    }
}
