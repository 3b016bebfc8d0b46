import Testing
@testable import hapbench

@Suite("The HAP-over-CoAP capture generator")
struct CoAPCaptureGeneratorTests {
    @Test("a small generated capture decodes fully with its key log alone: every session joined and decrypted, every HAP PDU and characteristic activity found, a database per session, no problem")
    func generatedCaptureDecodesFully() throws {
        let (summary, tally) = try GeneratedCaptureChecks.generateAndAnalyse {
            try generator(byteCount: 300_000).generate(to: $0)
        }
        #expect(summary.connections > 4)
        #expect(summary.counts[.block1Bodies] > 0 && summary.counts[.block2Bodies] > 0)
        GeneratedCaptureChecks.expectDecodedFully(
            tally, packets: summary.packets, sessions: summary.connections, pdus: (tally.coapPDUs, summary.counts[.pdus]),
            activities: summary.counts[.characteristicActivities])
    }

    @Test("the same seed and size give the same capture and key log, byte for byte")
    func generationIsDeterministic() throws {
        try GeneratedCaptureChecks.expectDeterministic { _ = try generator(byteCount: 100_000, seedOffset: $1).generate(to: $0) }
    }

    /// Large accessories, so that databases go in Block2 blocks and scene writes in Block1 blocks.
    private func generator(byteCount: Int, seedOffset: UInt64 = 0) -> CoAPCaptureGenerator {
        var generator = CoAPCaptureGenerator(targetByteCount: byteCount)
        generator.configuration.seed += seedOffset
        generator.configuration.accessoryCount = 4
        generator.configuration.zonesPerAccessory = 49...49
        generator.configuration.exchangesPerConnection = 60...120
        return generator
    }
}
