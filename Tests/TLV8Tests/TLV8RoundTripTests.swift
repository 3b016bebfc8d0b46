import Testing
import WireParsing
@testable import TLV8
import TestSupport

@Suite struct TLV8RoundTripTests {
    /// Value lengths around every fragment boundary, and some anywhere.
    static func randomLength(using generator: inout SeededRandom) -> Int {
        let boundaries = [0, 0, 1, 16, 32, 64, 254, 255, 256, 384, 509, 510, 511, 765, 766]
        return Bool.random(using: &generator)
            ? boundaries.randomElement(using: &generator)!
            : Int.random(in: 0 ... 1_100, using: &generator)
    }

    /// A well-formed body: list entries of distinct types, separated by separators.
    static func randomBody(
        maximumEntryCount: Int = 4, maximumEntryLength: Int = 6, using generator: inout SeededRandom
    ) -> [(type: TLV8Type, value: [UInt8])] {
        var items: [(type: TLV8Type, value: [UInt8])] = []
        let entryCount = Int.random(in: 1 ... maximumEntryCount, using: &generator)
        for entry in 0 ..< entryCount {
            if entry > 0 { items.append((.separator, [])) }
            let entryLength = Int.random(in: 1 ... maximumEntryLength, using: &generator)
            let types = (0 ..< 0xFF).shuffled(using: &generator).prefix(entryLength)
            for type in types {
                let length = randomLength(using: &generator)
                items.append((TLV8Type(UInt8(type)), (0 ..< length).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }))
            }
        }
        return items
    }

    static func encode(_ items: [(type: TLV8Type, value: [UInt8])]) -> [UInt8] {
        var writer = TLV8Writer()
        for item in items {
            writer.append(item.type, item.value)
        }
        return writer.bytes
    }

    /// The offset of every fragment, read straight from the headers.
    static func fragmentOffsets(_ bytes: [UInt8]) -> [Int] {
        var offsets: [Int] = []
        var position = 0
        while position < bytes.count {
            offsets.append(position)
            position += 2 + Int(bytes[position + 1])
        }
        return offsets
    }

    @Test func decodingAnEncodedBodyGivesBackItsItems() throws {
        var generator = SeededRandom(seed: 0x7C8_2024)
        for _ in 0 ..< 200 {
            let items = Self.randomBody(using: &generator)
            let bytes = Self.encode(items)
            let strict = try decodeStrictly(bytes, baseOffset: 1_000)
            #expect(strict.items.map(\.type) == items.map(\.type))
            #expect(strict.items.map(\.value) == items.map(\.value))
            #expect(strict.items.map(\.fragmentCount) == items.map { max(1, ($0.value.count + 254) / 255) })
            var offset = 1_000
            var expectedOffsets: [Int] = []
            for item in items {
                expectedOffsets.append(offset)
                offset += TLV8Encoder.encodedByteCount(valueLength: item.value.count)
            }
            #expect(strict.items.map(\.offset) == expectedOffsets)
            #expect(strict.offset == 1_000)
            #expect(decodeLeniently(bytes, baseOffset: 1_000) == strict)
            #expect(strict.encoded() == bytes)
        }
    }

    /// Every prefix of a valid body either ends between fragments, and decodes cleanly to the
    /// fragments before it, or ends inside one, and is truncated exactly there.
    @Test func everyPrefixDecodesLenientlyAndIsTruncatedStrictlyWhereItEndsInsideAFragment() throws {
        var generator = SeededRandom(seed: 42)
        var bodies = try Fixture.allCases.map { try $0.bytes }
        bodies += (0 ..< 8).map { _ in
            Self.encode(Self.randomBody(maximumEntryCount: 2, maximumEntryLength: 3, using: &generator))
        }
        for bytes in bodies {
            let full = try decodeStrictly(bytes).items
            let fragmentStarts = Self.fragmentOffsets(bytes)
            for cut in 0 ..< bytes.count {
                let prefix = Array(bytes[..<cut])
                let lenient = decodeLeniently(prefix)
                let strictFailure = strictError(prefix)
                if fragmentStarts.contains(cut) {
                    #expect(lenient.diagnostics.isEmpty, "cut at \(cut)")
                    #expect(strictFailure == nil, "cut at \(cut)")
                } else {
                    let fragmentStart = fragmentStarts.last { $0 < cut }!
                    #expect(lenient.diagnostics.map(\.offset) == [fragmentStart], "cut at \(cut)")
                    #expect(lenient.diagnostics.map(\.code) == [.truncated], "cut at \(cut)")
                    #expect(strictFailure?.code == .truncated, "cut at \(cut)")
                    #expect(strictFailure?.offset == fragmentStart, "cut at \(cut)")
                }
                // What the lenient decode keeps is the start of what was sent.
                for (kept, sent) in zip(lenient.items, full) {
                    #expect(kept.type == sent.type && kept.offset == sent.offset, "cut at \(cut)")
                    #expect(sent.value.starts(with: kept.value), "cut at \(cut)")
                }
            }
        }
    }
}
