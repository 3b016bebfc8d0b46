import HAPEvents
import Testing
import TLV8

@Suite struct PairingCheckTests {
    @Test(arguments: [
        (PairingCheck.Kind.srpControllerProof, "srp-controller-proof"), (.srpAccessoryProof, "srp-accessory-proof"),
        (.subTLVDecryption(.m2), "m2-decryption"), (.subTLVItems(.m5), "m5-sub-tlv"), (.signature(.m3), "m3-signature"),
        (.signature(.m6), "m6-signature"),
    ])
    func eachKindHasTheStableNameJSONUses(kind: PairingCheck.Kind, name: String) {
        #expect(kind.name == name)
    }

    @Test func anExchangeFindsItsChecksByKind() {
        let connection = ConnectionInfo(tcpConnection: 1, controller: .init(address: .v4(0x0A00_0001), port: 49201),
                                        accessory: .init(address: .v4(0x0A00_0002), port: 51826))
        let exchange = PairingExchangeEvent(
            connection: connection, procedure: .pairVerify, outcome: .succeeded, steps: [],
            checks: [PairingCheck(.signature(.m2), .passed, detail: "verified"), PairingCheck(.signature(.m3), .notChecked("no key"))])
        #expect(exchange.check(.signature(.m2))?.outcome == .passed)
        #expect(exchange.check(.signature(.m3))?.outcome == .notChecked("no key"))
        #expect(exchange.check(.srpControllerProof) == nil)
    }

    @Test func theDescriptionSaysWhatWasFoundAndWhy() {
        #expect(PairingCheck(.signature(.m2), .failed, detail: "bad").description == "m2-signature: FAILED (bad)")
        #expect(PairingCheck(.srpControllerProof, .notChecked("no K")).description == "srp-controller-proof: not checked (no K)")
    }
}
