import Testing
import WireParsing
@testable import Bluetooth

@Suite("LE signalling and SMP commands")
struct SignalingAndSMPTests {
    func signaling(_ bytes: [UInt8]) -> Result<LESignalingCommand, DecodeError> {
        decode(bytes, layer: .l2cap) { (cursor) throws(DecodeError) in try LESignalingCommand(parsing: &cursor) }
    }

    func smp(_ bytes: [UInt8]) -> Result<SMPCommand, DecodeError> {
        decode(bytes, layer: .smp) { (cursor) throws(DecodeError) in try SMPCommand(parsing: &cursor) }
    }

    @Test("Connection parameter update request and response (Core Vol 3 Part A §4.20, §4.21)")
    func parameterUpdate() throws {
        #expect(try signaling(hex("12 01 0800 0600 0c00 0000 f401")).get().content
            == .connectionParameterUpdateRequest(minimumInterval: 6, maximumInterval: 12, latency: 0, timeout: 500))
        #expect(try signaling(hex("13 01 0200 0000")).get().content == .connectionParameterUpdateResponse(result: 0))
    }

    @Test("LE credit-based connection, credits, disconnection, reject; others kept")
    func creditBased() throws {
        #expect(try signaling(hex("14 02 0a00 8000 4000 f700 f700 0a00")).get().content
            == .leCreditBasedConnectionRequest(spsm: 0x80, sourceCID: 0x40, mtu: 247, mps: 247, initialCredits: 10))
        #expect(try signaling(hex("15 02 0a00 4100 f700 f700 0a00 0000")).get().content
            == .leCreditBasedConnectionResponse(destinationCID: 0x41, mtu: 247, mps: 247, initialCredits: 10, result: 0))
        #expect(try signaling(hex("16 03 0400 4000 0500")).get().content == .flowControlCredit(cid: 0x40, credits: 5))
        #expect(try signaling(hex("06 04 0400 4100 4000")).get().content == .disconnectionRequest(destination: 0x41, source: 0x40))
        #expect(try signaling(hex("01 05 0200 0000")).get().content == .commandReject(reason: 0))
        #expect(try signaling(hex("17 06 0000")).get().content == .other)
    }

    @Test("A data length that does not cover the frame, or fields past it, is malformed")
    func malformedSignaling() {
        #expect(signaling(hex("13 01 0300 0000")).error?.code == .malformed)
        #expect(signaling(hex("13 01 0100 00")).error?.code == .malformed)
        #expect(signaling(hex("13 01")).error?.code == .truncated)
    }

    @Test("SMP Pairing Request, Pairing Failed and Security Request; other codes kept by name")
    func smpCommands() throws {
        #expect(try smp(hex("01 03 00 2d 10 07 07")).get().content
            == .pairingFeatures(ioCapability: 3, oobDataFlag: 0, authenticationRequirements: 0x2D, maximumKeySize: 16,
                                initiatorKeyDistribution: 7, responderKeyDistribution: 7))
        #expect(try smp(hex("05 04")).get().content == .pairingFailed(reason: 4))
        #expect(try smp(hex("0b 0d")).get().content == .securityRequest(authenticationRequirements: 0x0D))
        let random = try smp([0x04] + [UInt8](repeating: 0xAB, count: 16)).get()
        #expect(random.code == .pairingRandom && random.content == .other && random.data.count == 16)
        #expect(SMPCommand.Code.pairingDHKeyCheck.description == "Pairing DHKey Check")
        #expect(smp(hex("01 03 00")).error?.code == .malformed)
        #expect(smp([]).error?.code == .truncated)
    }
}
