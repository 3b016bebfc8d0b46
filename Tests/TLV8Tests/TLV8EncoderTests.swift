import Testing
@testable import TLV8

@Suite struct TLV8EncoderTests {
    /// The fragment lengths HAP requires for a value, worked out by hand.
    @Test(arguments: [
        (0, [0]), (1, [1]), (254, [254]), (255, [255]), (256, [255, 1]),
        (509, [255, 254]), (510, [255, 255]), (511, [255, 255, 1]), (765, [255, 255, 255]),
    ])
    func valuesAreSplitIntoFullFragmentsAndOneShortLastOne(length: Int, fragmentLengths: [Int]) {
        var writer = TLV8Writer()
        writer.append(.certificate, ramp(length))
        let bytes = writer.bytes

        var headers: [[UInt8]] = []
        var value: [UInt8] = []
        var position = 0
        while position < bytes.count {
            headers.append([bytes[position], bytes[position + 1]])
            value += bytes[position + 2 ..< position + 2 + Int(bytes[position + 1])]
            position += 2 + Int(bytes[position + 1])
        }
        #expect(headers == fragmentLengths.map { [0x09, UInt8($0)] })
        #expect(value == ramp(length))
        #expect(bytes.count == TLV8Encoder.encodedByteCount(valueLength: length))
    }

    @Test func theEncoderWritesIntoTheCallersBuffer() throws {
        let value = ramp(300)
        let bytes = try [UInt8](capacity: 310) { (output: inout OutputSpan<UInt8>) throws(TLV8EncodingError) in
            try TLV8Encoder.append(.publicKey, value: value.span.bytes, to: &output)
            try TLV8Encoder.append(.separator, value: [UInt8]().span.bytes, to: &output)
        }
        let expected: [UInt8] = [0x03, 0xFF] + value[..<255] + [0x03, 45] + value[255...] + [0xFF, 0x00]
        #expect(bytes == expected)
    }

    @Test func aBufferTooSmallForTheItemIsRefusedWithNothingWritten() {
        let value = ramp(20)
        var thrown: TLV8EncodingError?
        let bytes = [UInt8](capacity: 21) { (output: inout OutputSpan<UInt8>) in
            do throws(TLV8EncodingError) {
                try TLV8Encoder.append(.proof, value: value.span.bytes, to: &output)
            } catch {
                thrown = error
            }
        }
        #expect(thrown == TLV8EncodingError(requiredCapacity: 22, freeCapacity: 21))
        #expect(bytes.isEmpty)
    }

    @Test func integersAreMinimalLittleEndian() {
        var writer = TLV8Writer()
        writer.append(.state, integer: 2)
        writer.append(.retryDelay, integer: 0x0102)
        writer.append(.method, integer: 0)
        writer.append(.flags, integer: 0x10)
        writer.append(.flags, integer: 0x0100_0010)
        writer.append(.flags, integer: 0, minimumByteCount: 0)
        writer.append(.sessionID, integer: .max)
        // PROTOCOL §1.5: Transient alone is `13 01 10`, Transient|Split `13 04 10 00 00 01`.
        #expect(writer.bytes == hex("""
            06 01 02  08 02 02 01  00 01 00  13 01 10  13 04 10 00 00 01  13 00
            0e 08 ff ff ff ff ff ff ff ff
            """))
    }

    @Test func reEncodingADecodedBodyReproducesItsBytes() throws {
        for fixture in Fixture.allCases {
            let bytes = try fixture.bytes
            #expect(try decodeStrictly(bytes).encoded() == bytes, "\(fixture)")
        }
    }
}
