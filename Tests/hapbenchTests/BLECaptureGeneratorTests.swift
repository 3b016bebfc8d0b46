import Testing
@testable import hapbench

@Suite("The HAP-over-Bluetooth-LE capture generator")
struct BLECaptureGeneratorTests {
    private func generator(byteCount: Int, seedOffset: UInt64 = 0) -> BLECaptureGenerator {
        var generator = BLECaptureGenerator(targetByteCount: byteCount)
        generator.configuration.seed += seedOffset
        (generator.configuration.accessoryCount, generator.configuration.concurrentConnections) = (5, 3)
        (generator.configuration.exchangesPerConnection, generator.signatureReadsEvery) = (20...40, 2)
        return generator
    }

    @Test("a small generated capture decodes fully with its key log: every LE connection pair-verified and decrypted, every HAP PDU and characteristic activity found, a database per connection, no problem")
    func generatedCaptureDecodesFully() throws {
        let (summary, tally) = try GeneratedCaptureChecks.generateAndAnalyse {
            try generator(byteCount: 250_000).generate(to: $0)
        }
        #expect(summary.connections > 5)
        // The first connection to each accessory reads the signatures, and some later ones.
        #expect(summary.counts[.signatureReadConnections] > 5 && summary.counts[.signatureReadConnections] < summary.connections)
        #expect(summary.counts[.fragmentedPDUs] > 0 && summary.counts[.longValues] > 0)
        GeneratedCaptureChecks.expectDecodedFully(
            tally, packets: summary.packets, sessions: summary.connections, pdus: (tally.blePDUs, summary.counts[.hapPDUs]),
            activities: summary.counts[.characteristicActivities])
        #expect(tally.pairingExchanges == summary.connections)
    }

    @Test("the same seed and size give the same capture and key log, byte for byte")
    func generationIsDeterministic() throws {
        try GeneratedCaptureChecks.expectDeterministic { _ = try generator(byteCount: 80_000, seedOffset: $1).generate(to: $0) }
    }
}
