import Testing
import WireParsing
@testable import CoAP

@Suite("Block options")
struct CoAPBlockOptionTests {
    @Test("NUM, M and SZX (RFC 7959 §2.2): aiocoap's 1024-byte blocks are SZX 6")
    func fields() throws {
        let block = try CoAPBlockOption(option: CoAPOption(number: .block2, value: [0x1E]))
        #expect(block.number == 1 && block.hasMore && block.sizeExponent == 6 && block.size == 1024 && block.offset == 1024)
        #expect(block.encodedValue == [0x1E])
        let zero = try CoAPBlockOption(option: CoAPOption(number: .block2, value: []))
        #expect(zero.number == 0 && !zero.hasMore && zero.size == 16)
        #expect(CoAPBlockOption(number: 4096, hasMore: false, sizeExponent: 2).encodedValue == [0x01, 0x00, 0x02])
    }

    @Test("SZX 7 is reserved and a value over 3 bytes is malformed")
    func malformed() {
        #expect(throws: DecodeError(.malformed, layer: .coap, offset: 0, expected: "")) {
            try CoAPBlockOption(option: CoAPOption(number: .block1, value: [0x07]))
        }
        #expect(throws: DecodeError(.malformed, layer: .coap, offset: 0, expected: "")) {
            try CoAPBlockOption(option: CoAPOption(number: .block1, value: [0, 0, 0, 0]))
        }
    }
}
