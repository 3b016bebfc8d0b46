import Testing
@testable import hapbench

@Suite("The HAP-over-Bluetooth-LE capture generator")
struct BLECaptureGeneratorTests {
    private func configuration(byteCount: Int) -> BLECaptureGenerator.Configuration {
        var configuration = BLECaptureGenerator.Configuration(targetByteCount: byteCount)
        (configuration.accessoryCount, configuration.concurrentConnections) = (5, 3)
        configuration.exchangesPerConnection = 20...40
        configuration.signatureReadsEvery = 2
        return configuration
    }

    @Test("a small generated capture decodes fully with its key log: every LE connection pair-verified and decrypted, every HAP PDU and characteristic activity found, a database per connection, no problem")
    func generatedCaptureDecodesFully() throws {
        let (summary, tally) = try GeneratedCaptureChecks.generateAndAnalyse {
            try BLECaptureGenerator(configuration: configuration(byteCount: 250_000)).generate(to: $0)
        }
        #expect(summary.connections > 5)
        // The first connection to each accessory reads the signatures, and some later ones.
        #expect(summary.counts[.signatureReadConnections] > 5 && summary.counts[.signatureReadConnections] < summary.connections)
        #expect(summary.counts[.fragmentedPDUs] > 0 && summary.counts[.longValues] > 0)
        GeneratedCaptureChecks.expectDecodedFully(tally, packets: summary.packets, sessions: summary.connections)
        #expect(tally.pairingExchanges == summary.connections)
        #expect(tally.databases == summary.connections)
        #expect(tally.blePDUs == summary.counts[.hapPDUs])
        #expect(tally.characteristicEvents == summary.counts[.characteristicActivities])
    }

    @Test("the same seed and size give the same capture and key log, byte for byte")
    func generationIsDeterministic() throws {
        try GeneratedCaptureChecks.expectDeterministic { path, seedOffset in
            var configuration = configuration(byteCount: 80_000)
            configuration.seed += seedOffset
            _ = try BLECaptureGenerator(configuration: configuration).generate(to: path)
        }
    }
}
