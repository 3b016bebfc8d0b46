import HAPCrypto
import HAPEvents
import Testing
@testable import HAPCore

@Suite("What the user asks the analysis for")
struct AnalysisConfigurationTests {
    @Test("by default nothing secret or costly is asked for: no keys, no setup code, keys hidden, no plaintext copies")
    func defaults() {
        let configuration = AnalysisConfiguration()
        #expect(configuration.keyLog.isEmpty)
        #expect(configuration.setupCode == nil)
        #expect(configuration.setupID == nil)
        #expect(!configuration.revealsSessionKeys)
        #expect(!configuration.emitsDecryptedData)
        #expect(configuration.limits.maximumPendingRequests == AnalysisLimits().maximumPendingRequests)
    }

    @Test("everything given is kept")
    func given() throws {
        var limits = AnalysisLimits()
        limits.maximumFrameLength = 2048
        let configuration = AnalysisConfiguration(
            keyLog: try KeyLog(parsing: "CONTROL_READ_KEY \(String(repeating: "ab", count: 32)) \(String(repeating: "cd", count: 32))", source: "k"),
            setupCode: try SetupCode("123-45-678"), setupID: try SetupID("7OSX"), limits: limits, revealsSessionKeys: true,
            emitsDecryptedData: true)
        #expect(configuration.keyLog.counts == [.controlReadKey: 1])
        #expect(configuration.setupCode?.text == "123-45-678")
        #expect(configuration.setupID?.text == "7OSX")
        #expect(configuration.limits.maximumFrameLength == 2048)
        #expect(configuration.revealsSessionKeys)
        #expect(configuration.emitsDecryptedData)
    }
}
