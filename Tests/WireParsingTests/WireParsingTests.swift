import Testing
import WireParsing

extension DecodeError.Layer {
    fileprivate static let test = DecodeError.Layer("test")
}

@Suite struct ByteCursorTests {
    @Test func readsIntegersInBothByteOrders() throws {
        let bytes: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09]
        var cursor = ByteCursor(bytes.span.bytes, layer: .test)
        #expect(try cursor.readUInt8() == 0x01)
        #expect(try cursor.readUInt16BigEndian() == 0x0203)
        #expect(try cursor.readUInt16LittleEndian() == 0x0504)
        #expect(try cursor.readUInt32BigEndian() == 0x0607_0809)
        let atEnd = cursor.isAtEnd
        #expect(atEnd)
    }

    @Test func aShortReadThrowsTruncatedWithTheAbsoluteOffset() {
        let bytes: [UInt8] = [0xAA, 0xBB, 0xCC]
        var cursor = ByteCursor(bytes.span.bytes, layer: .test, baseOffset: 100)
        _ = try? cursor.readUInt16BigEndian()
        var thrown: DecodeError?
        do {
            _ = try cursor.readBytes(count: 2, "a TLV value")
        } catch {
            thrown = error
        }
        #expect(thrown?.code == .truncated)
        #expect(thrown?.offset == 102)
        #expect(thrown?.expected.contains("a TLV value") == true)
        // A failed read consumes nothing.
        let remaining = cursor.remainingCount
        #expect(remaining == 1)
    }

    @Test func negativeAndHugeLengthsAreRejectedBeforeUse() {
        let bytes: [UInt8] = [1, 2, 3]
        var cursor = ByteCursor(bytes.span.bytes, layer: .test)
        var failures = 0
        do { try cursor.skip(count: -1) } catch { failures += 1 }
        do { _ = try cursor.readBytes(count: Int.max) } catch { failures += 1 }
        let position = cursor.position
        #expect(failures == 2)
        #expect(position == 0)
    }

    @Test func nestedCursorsKeepAbsoluteOffsets() throws {
        let bytes: [UInt8] = [0, 0, 0, 9, 8, 7]
        var outer = ByteCursor(bytes.span.bytes, layer: .test, baseOffset: 10)
        try outer.skip(count: 3)
        var inner = try outer.readCursor(count: 2)
        let innerOffset = inner.offset
        #expect(innerOffset == 13)
        #expect(try inner.readUInt8() == 9)
        #expect(try inner.readUInt8() == 8)
        var pastEnd: DecodeError?
        do { _ = try inner.readUInt8() } catch { pastEnd = error }
        #expect(pastEnd?.offset == 15)
        #expect(try outer.readUInt8() == 7)
    }

    @Test func moveRejectsPositionsOutsideTheInput() throws {
        let bytes: [UInt8] = [1, 2, 3, 4]
        var cursor = ByteCursor(bytes.span.bytes, layer: .test)
        try cursor.move(to: 3)
        #expect(try cursor.readUInt8() == 4)
        var thrown: DecodeError?
        do { try cursor.move(to: 5) } catch { thrown = error }
        #expect(thrown == DecodeError(.malformed, layer: .test, offset: 0, expected: ""))
    }

    @Test func errorsCompareByLayerAndCodeOnly() {
        let a = DecodeError(.malformed, layer: .test, offset: 1, expected: "x")
        let b = DecodeError(.malformed, layer: .test, offset: 9, expected: "y")
        #expect(a == b)
        #expect(a != DecodeError(.truncated, layer: .test, offset: 1, expected: "x"))
        #expect(a.description == "test: malformed at byte 1: expected x")
    }
}

@Suite struct HexTests {
    @Test func roundTripsAndAcceptsEitherCase() {
        let bytes: [UInt8] = [0x00, 0x7F, 0xAB, 0xFF]
        #expect(Hex.encode(bytes) == "007fabff")
        #expect(Hex.decode("007FabFF") == bytes)
    }

    @Test func rejectsOddLengthsAndNonHexCharacters() {
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("zz") == nil)
        #expect(Hex.decode("") == [])
    }
}
