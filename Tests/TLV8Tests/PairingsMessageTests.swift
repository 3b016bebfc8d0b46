import Testing
@testable import TLV8

@Suite struct PairingsMessageTests {
    typealias Entry = PairingsMessage.PairingEntry

    static func decode(
        _ bytes: [UInt8], expecting state: PairingState? = nil, requestMethod: PairingMethod? = nil
    ) -> DecodedPairingBody<PairingsMessage> {
        PairingsMessage.decode(body(bytes), expectedState: state, requestMethod: requestMethod)
    }

    @Test func theCorpusListDecodesToFivePairingsTheFirstAnAdmin() throws {
        let bytes = try Fixture.listPairingsM2.bytes
        let decoded = Self.decode(bytes, requestMethod: .listPairings)
        #expect(decoded.diagnostics.isEmpty)
        guard case .listPairingsM2(let list) = decoded.content else {
            Issue.record("not a List Pairings response: \(String(describing: decoded.content))")
            return
        }
        #expect(list.pairings.map(\.identifier?.string) == [
            "DB044A11-9664-406C-9D0E-1BAC849D567B",
            "7A4A3B36-89D8-4340-9D06-B3EDFDB53F71",
            "D0484BE9-717C-4362-8DEF-2E3D9DDF699F",
            "4508286B-630F-4279-A607-27A86120ADFB",
            "D1F01D07-943E-4A2C-920D-73C7E0A0862A",
        ])
        #expect(list.pairings.map(\.permissions) == [.admin, .regularUser, .regularUser, .regularUser, .regularUser])
        #expect(list.pairings.allSatisfy { $0.publicKey?.count == 32 })
        #expect(decoded.content?.encoded() == bytes)
        // A list is recognizable without its request.
        #expect(Self.decode(bytes).content == decoded.content)
    }

    @Test func everyRequestAndResponseEncodesAndDecodesBack() {
        let controller = PairingIdentifier("0E7F2D8B-0B8D-4C8F-9C5B-5A7A9B3C1D2E")
        let messages: [(PairingsMessage, PairingMethod?)] = [
            (.addPairingM1(.init(identifier: controller, publicKey: ramp(32), permissions: .admin)), nil),
            (.removePairingM1(.init(identifier: controller)), nil),
            (.listPairingsM1, nil),
            (.addPairingM2, .addPairing),
            (.removePairingM2, .removePairing),
            (.listPairingsM2(.init(pairings: [])), .listPairings),
            (.listPairingsM2(.init(pairings: [
                Entry(identifier: controller, publicKey: ramp(32), permissions: .admin),
                Entry(identifier: PairingIdentifier("B"), publicKey: ramp(32, from: 5), permissions: .regularUser),
            ])), .listPairings),
            (.error(.init(state: .m2, error: .maxPeers)), .addPairing),
            (.error(.init(state: .m2, error: .authentication)), nil),
        ]
        for (message, requestMethod) in messages {
            let decoded = Self.decode(message.encoded(), requestMethod: requestMethod)
            #expect(decoded.content == message)
            #expect(decoded.diagnostics.isEmpty, "\(message)")
        }
    }

    @Test func requestsAreLaidOutAsHomeKitADKReadsThem() {
        let message = PairingsMessage.removePairingM1(.init(identifier: PairingIdentifier("AB")))
        #expect(message.encoded() == hex("06 01 01  00 01 04  01 02 41 42"))
        #expect(message.method == .removePairing)
        #expect(PairingsMessage.listPairingsM2(.init(pairings: [])).encoded() == hex("06 01 02"))
    }

    @Test func anAddPairingRequestNeedsItsKeyAndPermissions() {
        let decoded = Self.decode(hex("06 01 01  00 01 03") + tlv(.identifier, Array("C".utf8)) + tlv(.permissions, [0x81]))
        #expect(decoded.content == .addPairingM1(.init(
            identifier: PairingIdentifier("C"), publicKey: nil, permissions: PairingPermissions(rawValue: 0x81))))
        #expect(decoded.diagnostics == [
            PairingDiagnostic(.missingItem(.publicKey), offset: 0),
            PairingDiagnostic(.undefinedPermissions(PairingPermissions(rawValue: 0x81)), offset: 9),
        ])
    }

    @Test func aRequestWithoutMethodUsesTheMethodFromContext() {
        let bytes = hex("06 01 01") + tlv(.identifier, Array("C".utf8))
        let decoded = Self.decode(bytes, requestMethod: .removePairing)
        #expect(decoded.content == .removePairingM1(.init(identifier: PairingIdentifier("C"))))
        #expect(decoded.diagnostics == [PairingDiagnostic(.missingItem(.method), offset: 0)])

        let withoutContext = Self.decode(bytes)
        #expect(withoutContext.content == nil)
        #expect(withoutContext.diagnostics.contains(PairingDiagnostic(.missingItem(.method), offset: 0)))
    }

    @Test func aRequestForAnotherProcedureIsNotAPairingsMessage() {
        let decoded = Self.decode(hex("06 01 01  00 01 00"))
        #expect(decoded.content == nil)
        #expect(decoded.diagnostics == [PairingDiagnostic(.unexpectedMethod(.pairSetup), offset: 3)])
    }

    @Test func aBareSuccessResponseNeedsItsRequestToBeTyped() {
        let decoded = Self.decode(hex("06 01 02"))
        #expect(decoded.content == nil)
        #expect(decoded.state == .m2)
        #expect(decoded.diagnostics == [PairingDiagnostic(.unknownRequestMethod, offset: 0)])
    }

    @Test func pairingsHasNoStepAfterM2() {
        let decoded = Self.decode(hex("06 01 03"))
        #expect(decoded.content == nil)
        #expect(decoded.diagnostics == [PairingDiagnostic(.stateOutsideProcedure(.m3), offset: 0)])
    }

    /// PROTOCOL §8 #13 (HAP-python PR #456): a list without separators confused iOS 17.
    @Test func aListWithoutSeparatorsIsFlaggedAsRepeatedTypes() {
        let first = tlv(.identifier, Array("A".utf8)) + tlv(.publicKey, ramp(32)) + tlv(.permissions, [1])
        let second = tlv(.identifier, Array("B".utf8)) + tlv(.publicKey, ramp(32)) + tlv(.permissions, [0])
        let decoded = Self.decode(hex("06 01 02") + first + second, requestMethod: .listPairings)
        #expect(decoded.diagnostics.prefix(3) == [
            PairingDiagnostic(.tlv8(.repeatedType(.identifier)), offset: 43),
            PairingDiagnostic(.tlv8(.repeatedType(.publicKey)), offset: 46),
            PairingDiagnostic(.tlv8(.repeatedType(.permissions)), offset: 80),
        ])
        guard case .listPairingsM2(let list) = decoded.content else {
            Issue.record("not a List Pairings response")
            return
        }
        #expect(list.pairings.map(\.identifier) == [PairingIdentifier("A")])
    }

    @Test func separatorsThatDoNotStandBetweenTwoPairingsAreUnexpected() {
        let entry = tlv(.identifier, Array("A".utf8)) + tlv(.publicKey, ramp(32)) + tlv(.permissions, [1])
        let bytes = hex("06 01 02  ff 00") + entry + hex("ff 01 00") + entry + hex("ff 00")
        let decoded = Self.decode(bytes, requestMethod: .listPairings)
        guard case .listPairingsM2(let list) = decoded.content else {
            Issue.record("not a List Pairings response")
            return
        }
        #expect(list.pairings.count == 2)
        #expect(decoded.diagnostics == [
            PairingDiagnostic(.unexpectedItem(.separator), offset: 3),
            PairingDiagnostic(.wrongLength(.separator, length: 1, expected: .exactly(0)), offset: 45),
            PairingDiagnostic(.unexpectedItem(.separator), offset: 88),
        ])
    }

    @Test func eachPairingIsCheckedOnItsOwn() {
        let entry = tlv(.identifier, [0xC3, 0x28]) + tlv(.publicKey, ramp(33))
        let decoded = Self.decode(
            hex("06 01 02") + tlv(.identifier, Array("A".utf8)) + tlv(.publicKey, ramp(32)) + tlv(.permissions, [0])
                + hex("ff 00") + entry,
            requestMethod: .listPairings)
        #expect(decoded.diagnostics == [
            PairingDiagnostic(.missingItem(.permissions), offset: 45),
            PairingDiagnostic(.identifierNotUTF8, offset: 45),
            PairingDiagnostic(.wrongLength(.publicKey, length: 33, expected: .exactly(32)), offset: 49),
        ])
    }
}
