import Testing
import HAPCrypto

@Suite struct PairingMessageTests {
    @Test func thePairVerifyM2NonceIsFourZeroBytesAndItsLabel() {
        #expect(PairingMessage.pairVerifyM2.nonce.bytes == hex(HAPVectors.pairVerifyM2Nonce))
    }

    @Test func everyMessageUsesItsOwnEightByteLabel() {
        let labels = PairingMessage.allCases.map(\.nonceLabel)
        #expect(labels == ["PS-Msg04", "PS-Msg05", "PS-Msg06", "PV-Msg02", "PV-Msg03"])
        for message in PairingMessage.allCases {
            #expect(message.nonce.bytes == [0, 0, 0, 0] + ascii(message.nonceLabel))
        }
    }
}
