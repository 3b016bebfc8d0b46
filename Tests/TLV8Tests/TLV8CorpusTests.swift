import Testing
@testable import TLV8

/// The four benchmark bodies of `Fixtures/` decode to the structure their README documents.
@Suite struct TLV8CorpusTests {
    @Test func pairSetupM2HoldsStateSaltAndAFragmented384ByteKey() throws {
        let body = try decodeStrictly(try Fixture.pairSetupM2.bytes)
        #expect(body.items.map(\.type) == [.state, .salt, .publicKey])
        #expect(body.items.map(\.offset) == [0, 3, 21])
        #expect(body.items.map(\.value.count) == [1, 16, 384])
        #expect(body.items.map(\.fragmentCount) == [1, 1, 2])
        #expect(body.items[0].value == [2])
        #expect(body.items[1].value == hex("d85b2cfbfe8ddda2e24ce5eca788df29"))
        #expect(body.items[2].value.prefix(4) == [0xFE, 0x47, 0x73, 0xAE])
        #expect(body.items[2].value.suffix(3) == [0x84, 0xFD, 0xE8])
    }

    @Test func pairSetupM3HoldsStateAFragmentedKeyAndAProof() throws {
        let body = try decodeStrictly(try Fixture.pairSetupM3.bytes)
        #expect(body.items.map(\.type) == [.state, .publicKey, .proof])
        #expect(body.items.map(\.offset) == [0, 3, 391])
        #expect(body.items.map(\.value.count) == [1, 384, 64])
        #expect(body.items.map(\.fragmentCount) == [1, 2, 1])
        #expect(body.items[0].value == [3])
    }

    @Test func pairVerifyM2HoldsStateAnX25519KeyAndEncryptedData() throws {
        let body = try decodeStrictly(try Fixture.pairVerifyM2.bytes)
        #expect(body.items.map(\.type) == [.state, .publicKey, .encryptedData])
        #expect(body.items.map(\.offset) == [0, 3, 37])
        #expect(body.items.map(\.value.count) == [1, 32, 101])
        #expect(body.items[0].value == [2])
    }

    @Test func listPairingsM2HoldsFivePairingsBetweenSeparators() throws {
        let body = try decodeStrictly(try Fixture.listPairingsM2.bytes)
        #expect(body.items.count == 20)
        #expect(body.items.filter { $0.type == .separator }.map(\.value) == [[], [], [], []])
        let entries = body.entries
        #expect(entries.count == 5)
        #expect(entries[0].map(\.type) == [.state, .identifier, .publicKey, .permissions])
        #expect(entries.dropFirst().allSatisfy { $0.map(\.type) == [.identifier, .publicKey, .permissions] })
        #expect(entries.map { String(decoding: $0.first { $0.type == .identifier }!.value, as: UTF8.self) } == [
            "DB044A11-9664-406C-9D0E-1BAC849D567B",
            "7A4A3B36-89D8-4340-9D06-B3EDFDB53F71",
            "D0484BE9-717C-4362-8DEF-2E3D9DDF699F",
            "4508286B-630F-4279-A607-27A86120ADFB",
            "D1F01D07-943E-4A2C-920D-73C7E0A0862A",
        ])
        #expect(entries.map { $0.first { $0.type == .permissions }!.value } == [[1], [0], [0], [0], [0]])
        #expect(entries.allSatisfy { $0.first { $0.type == .publicKey }!.value.count == 32 })
    }
}
