import Testing
import WireParsing
@testable import TLV8

@Suite struct TLV8ReaderTests {
    /// A 384-byte SRP key as HAP sends it: `03 ff <255 bytes> 03 81 <129 bytes>`.
    static let fragmentedKey = ramp(384, from: 7)
    static let fragmentedKeyBody = [0x03, 0xFF] + fragmentedKey[..<255] + [0x03, 0x81] + fragmentedKey[255...]

    @Test func aFragmentedValueIsOneElementWhoseFragmentsJoinInOrder() throws {
        let bytes = Self.fragmentedKeyBody
        var reader = TLV8Reader(bytes.span.bytes)
        guard let element = try reader.next() else {
            Issue.record("no element")
            return
        }
        let (type, offset, fragmentCount, valueLength) = (element.type, element.offset, element.fragmentCount, element.valueLength)
        let isContiguous = element.contiguousValue != nil
        let joined = element.value
        let viaClosure = element.withValue { [UInt8]($0) }
        var fragmentLengths: [Int] = []
        element.forEachFragment { fragmentLengths.append($0.byteCount) }
        let encodedCount = element.encoded.byteCount
        #expect(type == .publicKey)
        #expect(offset == 0)
        #expect(fragmentCount == 2)
        #expect(valueLength == 384)
        #expect(!isContiguous)
        #expect(joined == Self.fragmentedKey)
        #expect(viaClosure == Self.fragmentedKey)
        #expect(fragmentLengths == [255, 129])
        #expect(encodedCount == 388)
        let end = try reader.next() == nil
        #expect(end)
    }

    @Test func aSingleFragmentValueIsAViewOfTheInput() throws {
        let bytes = hex("06 01 02  02 03 aa bb cc")
        var reader = TLV8Reader(bytes.span.bytes, baseOffset: 100)
        _ = try reader.next()
        guard let salt = try reader.next() else {
            Issue.record("no second element")
            return
        }
        let offset = salt.offset
        var value: [UInt8]?
        if let view = salt.contiguousValue { value = [UInt8](view) }
        let viaClosure = salt.withValue { [UInt8]($0) }
        let readerOffset = reader.offset
        let atEnd = reader.isAtEnd
        #expect(offset == 103)
        #expect(value == [0xAA, 0xBB, 0xCC])
        #expect(viaClosure == [0xAA, 0xBB, 0xCC])
        #expect(readerOffset == 108)
        #expect(atEnd)
    }

    @Test func zeroLengthItemsAreLegalAndASeparatorStartsANewListEntry() throws {
        let body = try decodeStrictly(hex("01 00  ff 00  01 00  0b 01 00"))
        #expect(body.items.map(\.type) == [.identifier, .separator, .identifier, .permissions])
        #expect(body.items.map(\.value.count) == [0, 0, 0, 1])
        #expect(body.entries.map { $0.map(\.type) } == [[.identifier], [.identifier, .permissions]])
    }

    @Test func aValueOfExactlyTwoFullFragmentsNeedsNoEmptyTrailer() throws {
        let value = ramp(510)
        let bytes = [0x05, 0xFF] + value[..<255] + [0x05, 0xFF] + value[255...] + [0x06, 0x01, 0x04]
        let body = try decodeStrictly(bytes)
        #expect(body.items.map(\.type) == [.encryptedData, .state])
        #expect(body.items[0].value == value)
        #expect(body.items[0].fragmentCount == 2)
        #expect(body.items[1].offset == 514)
    }

    @Test func inputEndingInsideAHeaderIsTruncatedAtThatHeader() {
        let bytes = hex("06 01 02  03")
        let body = decodeLeniently(bytes)
        #expect(body.items.map(\.type) == [.state])
        #expect(body.diagnostics == [TLV8Diagnostic(.incompleteHeader(type: .publicKey), offset: 3)])
        let error = strictError(bytes)
        #expect(error?.code == .truncated)
        #expect(error?.layer == .tlv8)
        #expect(error?.offset == 3)
    }

    @Test func aValueRunningPastTheEndIsTruncatedWithItsDeclaredAndAvailableLengths() {
        let bytes = hex("06 01 02  03 05 aa bb")
        let body = decodeLeniently(bytes, baseOffset: 40)
        #expect(body.items.map(\.type) == [.state])
        #expect(body.diagnostics == [
            TLV8Diagnostic(.truncatedValue(type: .publicKey, declaredLength: 5, availableLength: 2), offset: 43),
        ])
        #expect(strictError(bytes)?.code == .truncated)
    }

    @Test func aTruncatedContinuationKeepsTheCompleteFragmentsOfItsItem() {
        let bytes = [0x03, 0xFF] + ramp(255) + [0x03, 0x10] + ramp(4)
        let body = decodeLeniently(bytes)
        #expect(body.items.count == 1)
        #expect(body.items.first?.value == ramp(255))
        #expect(body.items.first?.fragmentCount == 1)
        #expect(body.diagnostics == [
            TLV8Diagnostic(.truncatedValue(type: .publicKey, declaredLength: 16, availableLength: 4), offset: 257),
        ])
        let error = strictError(bytes)
        #expect(error?.code == .truncated)
        #expect(error?.offset == 257)
    }

    @Test func aCutContinuationHeaderIsATruncationNotABrokenFragmentSequence() {
        // HomeKitADK checks that the header is complete before the fragment lengths.
        let bytes = hex("01 03 61 62 63  01")
        let body = decodeLeniently(bytes)
        #expect(body.items.map(\.value) == [Array("abc".utf8)])
        #expect(body.diagnostics == [TLV8Diagnostic(.incompleteHeader(type: .identifier), offset: 5)])
        #expect(strictError(bytes)?.code == .truncated)
    }

    @Test func aContinuationAfterAShortFragmentIsJoinedLenientlyAndRejectedStrictly() {
        let bytes = hex("01 03 61 62 63  01 02 64 65  06 01 02")
        let body = decodeLeniently(bytes)
        #expect(body.items.map(\.type) == [.identifier, .state])
        #expect(body.items[0].value == Array("abcde".utf8))
        #expect(body.items[0].fragmentCount == 2)
        #expect(body.diagnostics == [
            TLV8Diagnostic(.continuationAfterShortFragment(type: .identifier, previousLength: 3), offset: 5),
        ])
        let error = strictError(bytes)
        #expect(error?.code == .malformed)
        #expect(error?.offset == 5)
    }

    @Test func onlyAFull255ByteFragmentMayBeContinued() {
        let bytes = [0x09, 0xFE] + ramp(254) + [0x09, 0x01, 0xAA]
        #expect(decodeLeniently(bytes).diagnostics == [
            TLV8Diagnostic(.continuationAfterShortFragment(type: .certificate, previousLength: 254), offset: 256),
        ])
        #expect(strictError(bytes)?.offset == 256)
    }

    @Test func anEmptyContinuationIsNotedAndDecodingGoesOn() {
        let bytes = [0x03, 0xFF] + ramp(255) + hex("03 00  06 01 02")
        let body = decodeLeniently(bytes)
        #expect(body.items.map(\.type) == [.publicKey, .state])
        #expect(body.items[0].value == ramp(255))
        #expect(body.items[0].fragmentCount == 2)
        #expect(body.diagnostics == [TLV8Diagnostic(.emptyContinuation(type: .publicKey), offset: 257)])
        let error = strictError(bytes)
        #expect(error?.code == .malformed)
        #expect(error?.offset == 257)
    }

    @Test func aTypeRepeatedWithinOneEntryIsKeptLenientlyAndRejectedStrictly() {
        let bytes = hex("06 01 01  03 01 aa  06 01 02")
        let body = decodeLeniently(bytes)
        #expect(body.items.map(\.type) == [.state, .publicKey, .state])
        #expect(body.items.map(\.value) == [[1], [0xAA], [2]])
        #expect(body.diagnostics == [TLV8Diagnostic(.repeatedType(.state), offset: 6)])
        let error = strictError(bytes)
        #expect(error?.code == .malformed)
        #expect(error?.offset == 6)
    }

    @Test func aTypeMayRepeatInDifferentListEntries() {
        let bytes = hex("01 01 61  0b 01 00  ff 00  01 01 62  0b 01 01")
        #expect(strictError(bytes) == nil)
        #expect(decodeLeniently(bytes).diagnostics.isEmpty)
    }

    /// PROTOCOL §8 #14: HAP-python encodes a 510-byte value as two full fragments, an empty
    /// fragment and the whole value again.
    @Test func hapPythonsDoubledEncodingOfA510ByteValueIsFlaggedWhereItGoesWrong() {
        let value = ramp(510)
        let twoFragments = [0x01, 0xFF] + value[..<255] + [0x01, 0xFF] + value[255...]
        let bytes = twoFragments + [0x01, 0x00] + twoFragments
        let body = decodeLeniently(bytes)
        #expect(body.items.count == 1)
        #expect(body.items[0].value == value + value)
        #expect(body.items[0].fragmentCount == 5)
        #expect(body.diagnostics == [
            TLV8Diagnostic(.emptyContinuation(type: .identifier), offset: 514),
            TLV8Diagnostic(.continuationAfterShortFragment(type: .identifier, previousLength: 0), offset: 516),
        ])
        let error = strictError(bytes)
        #expect(error?.code == .malformed)
        #expect(error?.offset == 514)
    }

    @Test func theItemLimitStopsDecodingWithLimitExceeded() {
        let bytes = hex("06 01 02  03 00  ff 00  03 00")
        let limits = TLV8Limits(maximumItemCount: 3)
        let body = decodeLeniently(bytes, limits: limits)
        #expect(body.items.map(\.type) == [.state, .publicKey, .separator])
        #expect(body.diagnostics == [TLV8Diagnostic(.tooManyItems(limit: 3), offset: 7)])
        let error = strictError(bytes, limits: limits)
        #expect(error?.code == .limitExceeded)
        #expect(error?.offset == 7)
        #expect(strictError(bytes) == nil)
    }

    @Test func emptyInputHoldsNoItems() throws {
        let body = try decodeStrictly([])
        #expect(body.items.isEmpty)
        #expect(body.entries.map(\.count) == [0])
    }

    @Test func strictErrorsSayWhatWasExpected() {
        let error = strictError(hex("03 05 aa bb"))
        #expect(error?.expected == "5 value bytes of a PublicKey item (2 remain)")
        #expect(error?.description == "tlv8: truncated at byte 0: expected 5 value bytes of a PublicKey item (2 remain)")
    }
}
