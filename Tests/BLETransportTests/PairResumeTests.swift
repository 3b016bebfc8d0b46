import TLV8
import Testing
import WireParsing
@testable import BLETransport

@Suite("Pair-resume recognised on the Pair Verify characteristic")
struct PairResumeTests {
    static func body(_ items: [(TLV8Type, [UInt8])]) -> TLV8Body {
        TLV8Body(items: items.map { TLV8Item(type: $0.0, value: $0.1, offset: 0, fragmentCount: 1) })
    }

    static let key = [UInt8](repeating: 7, count: 32)

    @Test("M1 with Method 6 and M2 with Method 6 resume the session of M1's key")
    func resume() {
        var resume = PairResume()
        resume.request(Self.body([(.state, [1]), (.method, [6]), (.publicKey, Self.key), (.sessionID, [1, 2, 3, 4, 5, 6, 7, 8])]))
        #expect(resume.pendingControllerKey == Self.key)
        #expect(resume.response(Self.body([(.state, [2]), (.method, [6]), (.sessionID, [8, 7, 6, 5, 4, 3, 2, 1])])) == Self.key)
        #expect(resume.pendingControllerKey == nil)
    }

    @Test("A pair-verify M1, or an M2 that falls back to pair-verify, is no resume")
    func notResume() {
        var resume = PairResume()
        resume.request(Self.body([(.state, [1]), (.publicKey, Self.key)]))
        #expect(resume.pendingControllerKey == nil)
        resume.request(Self.body([(.state, [1]), (.method, [6]), (.publicKey, Self.key)]))
        #expect(resume.response(Self.body([(.state, [2]), (.publicKey, Self.key), (.encryptedData, [0])])) == nil)
        resume.request(Self.body([(.state, [1]), (.method, [6]), (.publicKey, [1, 2])]))
        #expect(resume.pendingControllerKey == nil)
    }
}
